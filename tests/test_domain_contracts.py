"""What every domain owes the rest of the stack, checked for each domain as soon as its file exists:
flat schemas, utterance templates that only name real parameters, and a medium snapshot in which
every sampler condition has rows to pick (otherwise the generator runs dry on that tool)."""

from __future__ import annotations

import string

import pytest

from servers.registry import available, get_domain

DISCOVERY = {"list_records", "search_records", "get_unique_values"}
FLAT = ("string", "integer", "number", "boolean", "array")


@pytest.mark.parametrize("name", available())
def test_schemas_are_flat_and_templates_name_real_parameters(name):
    domain = get_domain(name)
    for spec in domain.tools.values():
        names = {p.name for p in spec.params}
        for template in spec.says:
            assert {f for _, f, _, _ in string.Formatter().parse(template) if f} <= names, spec.name
        for prop in spec.openai_schema()["function"]["parameters"]["properties"].values():
            assert prop["type"] in FLAT and "anyOf" not in prop and "$ref" not in prop, spec.name
            if prop["type"] == "array":
                assert prop["items"]["type"] in FLAT[:4], spec.name
    own = [t for n, t in domain.tools.items() if n not in DISCOVERY and not t.hidden]
    assert all(t.says for t in own), [t.name for t in own if not t.says]


@pytest.mark.parametrize("name", available())
def test_every_ref_condition_has_rows_at_medium(name, snapshot_cache):
    conn = get_domain(name).snapshot(0, "medium", snapshot_cache).connect()
    try:
        missing = [
            (spec.name, p.name, p.ref.where)
            for spec in get_domain(name).tools.values()
            for p in spec.params
            if p.ref is not None
            and p.ref.where
            and not conn.execute(f"SELECT count(*) FROM {p.ref.table_name} WHERE {p.ref.where}").fetchone()[0]
        ]
    finally:
        conn.close()
    assert missing == []
