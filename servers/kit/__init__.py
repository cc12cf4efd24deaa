"""The domain kit: declare tables, a seeded fill and typed tools; get MCP tools, schemas and snapshots."""

from servers.kit import geo
from servers.kit.db import Db
from servers.kit.domain import Domain, Variant
from servers.kit.errors import ToolCrash, ToolError
from servers.kit.policy import Near, Policy, PolicyRefusal, Rule
from servers.kit.seeding import Seeder
from servers.kit.tool import Param, ToolSpec
from servers.kit.types import (
    Day,
    Email,
    EmailList,
    IdList,
    Limit,
    LongText,
    Moment,
    Money,
    Month,
    Offset,
    PageSize,
    PathRef,
    Pin,
    Quantity,
    Ref,
    RefInfo,
    Sensitive,
    ShortText,
    Tags,
    whole_cents,
)
from servers.kit.world import Person, World, world

__all__ = [
    "Day",
    "Db",
    "Domain",
    "Email",
    "EmailList",
    "IdList",
    "Limit",
    "LongText",
    "Moment",
    "Money",
    "whole_cents",
    "Month",
    "Near",
    "Offset",
    "PageSize",
    "Param",
    "PathRef",
    "Person",
    "Pin",
    "Policy",
    "PolicyRefusal",
    "Quantity",
    "Ref",
    "RefInfo",
    "Rule",
    "Seeder",
    "Sensitive",
    "ShortText",
    "Tags",
    "ToolCrash",
    "ToolError",
    "ToolSpec",
    "Variant",
    "World",
    "geo",
    "world",
]
