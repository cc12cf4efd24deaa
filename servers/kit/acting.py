"""Who acts in an episode: the acting user, declared once per domain and kept in one row.

Every personal app (a bank app, a mailbox, a shell) acts for someone. A domain says who with
:meth:`Domain.acting <servers.kit.domain.Domain.acting>`::

    Session = email.acting(Mailbox, "mailbox_id", signed_out=True, login="login",
                           columns={"logged_in_at": str | None})

and the kit makes the one-row ``sessions`` table that holds it (each env session is a private fork
of the snapshot, so one row is per episode for free). Tools ask :meth:`Db.actor
<servers.kit.db.Db.actor>` for the acting row, which raises the one error below when nobody is
signed in; a domain's own extra checks (a suspended account may not post) build on it.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from servers.kit.errors import ToolError

SESSION_TABLE = "sessions"  # the one-row table that says who is acting in this episode
SESSION_PREFIX = "SES"


@dataclass(frozen=True)
class Acting:
    """A domain's declaration of who signs in.

    ``table`` is the actor's table class (``None`` when actors are not rows of this service, e.g. a
    world person's index); ``column`` the session row's column holding the actor's key; ``login``
    the tool that signs someone in, which the error names (``None``: the service has none and every
    episode starts signed in)."""

    domain: str
    table: Any
    column: str
    login: str | None = None

    def nobody(self) -> ToolError:
        """The one error every tool gives when it needs an actor and the session row names none."""
        if self.login:
            remedy = f"call {self.login} first"
        else:
            remedy = "this service has no login, so the episode's snapshot is broken: reset the episode"
        return ToolError(f"nobody is signed in; {remedy}")


_DECLARED: dict[str, Acting] = {}


def declared(domain: str) -> Acting:
    """The acting declaration of the domain named ``domain`` (a ToolError if it made none)."""
    try:
        return _DECLARED[domain]
    except KeyError:
        raise ToolError(
            f"{domain} declares no acting user (Domain.acting), so no tool can ask who acts"
        ) from None


def session_table(
    base: Any,
    acting: Acting,
    *,
    module: str,
    key: type = str,
    signed_out: bool = False,
    foreign_key: bool = True,
    columns: Mapping[str, Any] | None = None,
    hidden: tuple[str, ...] = (),
    internal: bool = False,
) -> type:
    """Make the domain's ``sessions`` table class and record ``acting`` for :func:`declared`.

    Its columns come in a fixed order (``id``, the actor's column, then ``columns`` as given), so
    the ``CREATE TABLE`` statement, and with it the snapshot's bytes, is the one a hand-written
    class with the same columns produced. A later domain of the same name (a test's) replaces the
    record: the snapshot's ``_meta`` names its domain, and that is how a ``Db`` finds it."""
    if not acting.column.isidentifier() or acting.column == "id":
        raise ValueError(f"acting column {acting.column!r}: use a column name other than 'id'")
    if acting.table is None and foreign_key:
        raise ValueError(f"{acting.domain}: an actor without a table has no foreign key (foreign_key=False)")
    annotations: dict[str, Any] = {
        "id": Mapped[str],
        acting.column: Mapped[key | None if signed_out else key],
    }
    namespace: dict[str, Any] = {
        "__tablename__": SESSION_TABLE,
        "__module__": module,
        "__doc__": f"Who is acting in this {acting.domain} episode (one row; see servers.kit.acting).",
        "id": mapped_column(primary_key=True),
    }
    if foreign_key:
        namespace[acting.column] = mapped_column(ForeignKey(f"{acting.table.__tablename__}.id"))
    for name, annotation in (columns or {}).items():
        if name in annotations:
            raise ValueError(f"{acting.domain} sessions: column {name!r} is declared twice")
        annotations[name] = Mapped[annotation]
    namespace["__annotations__"] = annotations
    keywords: dict[str, Any] = {"prefix": SESSION_PREFIX}
    if hidden:
        keywords["hidden"] = hidden
    if internal:
        keywords["internal"] = True
    cls = types.new_class("Session", (base,), keywords, lambda ns: ns.update(namespace))
    _DECLARED[acting.domain] = acting
    return cls
