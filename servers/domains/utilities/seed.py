"""The seed: the supported units, the same at every scale and seed (they are facts)."""

from __future__ import annotations

from servers.domains.utilities.model import BASE_UNIT, UNITS, Unit, utilities
from servers.kit import Seeder


@utilities.seed
def fill(s: Seeder) -> None:
    s.add(
        Unit,
        (
            {
                "id": symbol,
                "name": name,
                "dimension": dimension,
                "system": system,
                "factor": factor,
                "offset": offset,
                "base_unit": BASE_UNIT[dimension],
            }
            for symbol, name, dimension, system, factor, offset in UNITS
        ),
    )
