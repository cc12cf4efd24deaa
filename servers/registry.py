"""Which domains exist. A domain module is imported only when it is asked for."""

from __future__ import annotations

import importlib

from servers.kit import Domain

# name -> module under servers.domains; each module defines a Domain named like the module.
DOMAINS: tuple[str, ...] = (
    "banking",
    "shopping",
    "issue_tracker",
    "vehicle",
    "filesystem",
    "trading",
    "travel_booking",
    "social_media",
    "team_chat",
    "email",
    "calendar",
    "video_meeting",
    "maps",
    "food_delivery",
    "payments",
    "crm",
    "iot_devices",
    "retail_chain",
    "budget",
    "marketplace",
    "airline_service",
    "telecom_support",
    "telehealth",
    "code_host",
    "utilities",
)


class UnknownDomain(ValueError):
    pass


def available() -> list[str]:
    """Domains whose module is present in this checkout."""
    out = []
    for name in DOMAINS:
        if importlib.util.find_spec(f"servers.domains.{name}") is not None:
            out.append(name)
    return out


def get_domain(name: str) -> Domain:
    if name not in available():
        raise UnknownDomain(f"unknown domain {name!r}; available: {', '.join(available())}")
    module = importlib.import_module(f"servers.domains.{name}")
    return getattr(module, name)


def parse_domains(spec: str | list[str]) -> list[Domain]:
    """``"all"``, ``"banking,shopping"`` or a list -> domains, in a stable order."""
    names = spec if isinstance(spec, list) else [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise UnknownDomain(f"no domains given; available: {', '.join(available())}")
    if names == ["all"]:
        names = available()
    seen = list(dict.fromkeys(names))
    return [get_domain(n) for n in seen]
