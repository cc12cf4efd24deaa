"""What a domain's seed function gets: seeded randomness and fast inserts.

Determinism rules: one Faker instance seeded with ``seed_instance`` and one
``random.Random`` per build, never the global generators; rows are inserted
in a fixed order; ids are numbered, never uuid4.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from faker import Faker

from servers.kit.db import format_id
from servers.kit.table_marks import marks
from servers.kit.world import World, world

SIZES = {"small": 0, "medium": 1, "large": 2}


class Seeder:
    """Seeded generators plus bulk insert helpers for one snapshot build."""

    def __init__(self, conn: sqlite3.Connection, seed: int, scale: str, now: str) -> None:
        self.conn = conn
        self.seed = seed
        self.scale = scale
        self.now = datetime.fromisoformat(now)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.rng = random.Random(seed)

    @property
    def world(self) -> World:
        """The shared people, companies, merchants and cities of this seed and scale."""
        return world(self.seed, self.scale)

    def count(self, small: int, medium: int, large: int) -> int:
        """Pick the row count for the scale being built."""
        return (small, medium, large)[SIZES[self.scale]]

    def ids(self, table: Any, n: int, start: int = 1) -> list[str]:
        return [format_id(marks(table).prefix, i) for i in range(start, start + n)]

    def add(self, table: Any, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Insert rows (all with the same keys) and return them."""
        rows = list(rows)
        if not rows:
            return rows
        cols = list(rows[0])
        sql = (
            f'INSERT INTO "{table.__tablename__}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) '
            f"VALUES ({', '.join('?' for _ in cols)})"
        )
        self.conn.executemany(sql, [tuple(r[c] for c in cols) for r in rows])
        return rows

    def money(self, low: float, high: float) -> float:
        return round(self.rng.uniform(low, high), 2)

    def pick(self, seq: list[Any]) -> Any:
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def day_offset(self, low: int, high: int) -> str:
        """A date relative to the reference day, ISO formatted."""
        return (self.now + timedelta(days=self.rng.randint(low, high))).date().isoformat()

    def moment_offset(self, low_days: int, high_days: int) -> str:
        seconds = self.rng.randint(low_days * 86400, high_days * 86400)
        return (self.now + timedelta(seconds=seconds)).isoformat(timespec="seconds")
