"""The domain kit: declare tables, a seeded fill and typed tools; get MCP tools, schemas and snapshots."""

from servers.kit.db import Db
from servers.kit.domain import Domain
from servers.kit.errors import ToolCrash, ToolError
from servers.kit.seeding import Seeder
from servers.kit.tool import Param, ToolSpec
from servers.kit.types import (
    Day,
    Limit,
    LongText,
    Money,
    Month,
    Pin,
    Quantity,
    Ref,
    RefInfo,
    Sensitive,
    ShortText,
)

__all__ = [
    "Day",
    "Db",
    "Domain",
    "Limit",
    "LongText",
    "Money",
    "Month",
    "Param",
    "Pin",
    "Quantity",
    "Ref",
    "RefInfo",
    "Seeder",
    "Sensitive",
    "ShortText",
    "ToolCrash",
    "ToolError",
    "ToolSpec",
]
