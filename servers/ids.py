"""The one rule for env-session ids, kept apart so the gateway can apply it without the MCP stack."""

from __future__ import annotations

import re

VALID_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
ID_RULE = "env session ids are 1-128 characters from letters, digits and ._:@/+=-"
