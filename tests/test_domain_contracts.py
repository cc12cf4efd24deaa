"""What every domain owes the rest of the stack, checked for each domain as soon as its file exists:
flat schemas, utterance templates that only name real parameters, and a medium snapshot in which
every sampler condition has rows to pick (otherwise the generator runs dry on that tool)."""

from __future__ import annotations

import itertools
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


def _has_rows(conn, spec, p) -> bool:
    """Some row satisfies ``p``'s condition; one that names earlier parameters (``:customer``)
    for some values those parameters may take (rows meeting their own conditions)."""
    bindings = [{}]
    if p.ref.binds:
        named = {q.name: q.ref for q in spec.params if q.ref is not None}
        pools = []
        for n in p.ref.binds:
            ref = named[n]
            cond = ref.where if ref.where and not ref.binds else "1"
            pools.append([r[0] for r in conn.execute(f'SELECT id FROM "{ref.table_name}" WHERE {cond}')])
        bindings = [dict(zip(p.ref.binds, combo, strict=True)) for combo in itertools.product(*pools)]
    return any(
        conn.execute(f'SELECT 1 FROM "{p.ref.table_name}" WHERE {p.ref.condition(args)} LIMIT 1').fetchone()
        for args in itertools.islice(bindings, 2000)
    )


@pytest.mark.parametrize("name", available())
def test_every_ref_condition_has_rows_at_medium(name, snapshot_cache):
    conn = get_domain(name).snapshot(0, "medium", snapshot_cache).connect()
    try:
        missing = [
            (spec.name, p.name, p.ref.where)
            for spec in get_domain(name).tools.values()
            for p in spec.params
            if p.ref is not None and p.ref.where and not _has_rows(conn, spec, p)
        ]
    finally:
        conn.close()
    assert missing == []


@pytest.mark.parametrize("name", available())
def test_every_precondition_can_be_met(name, snapshot_cache):
    """A tool's precondition is valid SQL and holds in the snapshot, in one of the domain's
    variants, or on a table another tool writes (``pushd`` fills the stack ``popd`` needs)."""
    domain = get_domain(name)
    written = {t for s in domain.tools.values() for t in s.writes}
    states = [domain.snapshot(0, "medium", snapshot_cache)]
    states += [domain.snapshot(0, "medium", snapshot_cache, variant=v) for v in sorted(domain.variants)]
    unmet = []
    for spec in domain.tools.values():
        for table, cond in spec.preconditions:
            held = []
            for snap in states:
                conn = snap.connect()
                try:
                    held.append(spec.ready(conn))
                finally:
                    conn.close()
            if not any(held) and table not in written:
                unmet.append((spec.name, table, cond))
    assert unmet == []
