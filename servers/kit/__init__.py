"""The domain kit: declare tables, a seeded fill and typed tools; get MCP tools, schemas and snapshots."""

from servers.kit import geo
from servers.kit.db import Db
from servers.kit.domain import Domain, Variant
from servers.kit.errors import ToolCrash, ToolError
from servers.kit.language import Language, LanguageError
from servers.kit.policy import Near, Policy, PolicyRefusal, Rule
from servers.kit.seeding import Seeder
from servers.kit.table_marks import Marks, marks
from servers.kit.tool import Param, ToolSpec
from servers.kit.types import (
    CITY_NAMES,
    TIME_ZONES,
    WEEKDAYS,
    City,
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
    TimeZone,
    Weekday,
    whole_cents,
)
from servers.kit.world import Person, World, world

__all__ = [
    "CITY_NAMES",
    "TIME_ZONES",
    "WEEKDAYS",
    "City",
    "Day",
    "Db",
    "Domain",
    "Email",
    "EmailList",
    "IdList",
    "Language",
    "LanguageError",
    "Limit",
    "Marks",
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
    "TimeZone",
    "ToolCrash",
    "ToolError",
    "ToolSpec",
    "Variant",
    "Weekday",
    "World",
    "geo",
    "marks",
    "world",
]
