"""The generic model -> ClickHouse column/row mapping (pure)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from ch_factories import T0

from schemas import EVENT_KINDS, GpuSample
from schemas.registry import BY_NAME, DERIVED_TOPICS
from sinks.clickhouse.mapping import (
    BY_MODEL,
    TABLES,
    _json_or_none,
    _simple_json,
    _simple_part,
    columns,
    group_columns,
    spec_for,
    to_columns,
    to_row,
)


def _types(table: str) -> dict[str, str]:
    spec = next(s for s in TABLES if s.table == table)
    return {c.name: c.ch_type for c in columns(spec)}


def test_every_derived_topic_kind_has_exactly_one_table() -> None:
    kinds = {k for name in DERIVED_TOPICS for k in BY_NAME[name].kinds}
    assert kinds == set(BY_MODEL)
    assert len({s.table for s in TABLES}) == len(TABLES) == 9


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: s.table)
def test_every_model_field_has_a_column(spec: Any) -> None:
    names = {c.name for c in columns(spec)}
    wire = {info.alias or name for name, info in spec.model.model_fields.items()}
    assert wire <= names
    assert spec.id_column in names and spec.version_column in names


def test_column_types_follow_field_types() -> None:
    t = _types("decisions")
    assert t["issued_at"] == "DateTime64(3, 'UTC')"
    assert t["expires_at"] == "Nullable(DateTime64(3, 'UTC'))"
    assert t["nodes"] == "Array(String)"
    assert t["action"] == "LowCardinality(String)"
    assert t["reason"] == "String" and t["guard"] == "Nullable(String)"
    assert t["attempt"] == "Int64" and t["_version"] == "UInt64"
    v = _types("hang_verdicts")
    assert v["source_ranks"] == "Array(Int64)" and v["confidence"] == "Float64"


def test_faults_version_on_count_and_nullable_lowcardinality_node() -> None:
    spec = next(s for s in TABLES if s.table == "faults")
    t = _types("faults")
    assert spec.version_column == "count" and t["count"] == "UInt32"
    assert "_version" not in t
    assert t["node_id"] == "LowCardinality(Nullable(String))"
    assert t["explicit"] == "Bool"


def test_rows_encode_nested_objects_as_json_and_tuples_as_lists(make: Any) -> None:
    event = make.verdict()
    spec = spec_for(event)
    row = dict(zip([c.name for c in columns(spec)], to_row(spec, event, 42), strict=True))
    assert row["schema"] == "hang_verdict/v1"
    assert row["source_ranks"] == [3] and row["source_nodes"] == ["n2"]
    assert json.loads(row["signals"])["metrics_idle"] is None
    assert json.loads(row["localization"]) == [{"method": "collective_lag", "ranks": [3], "detail": "seq 41"}]
    assert row["_version"] == 42
    assert row["onset_time"].tzinfo is not None


def test_optional_nested_object_is_null_not_json_null(make: Any) -> None:
    event = make.decision(guard=None)
    spec = spec_for(event)
    row = dict(zip([c.name for c in columns(spec)], to_row(spec, event, 1), strict=True))
    assert row["guard"] is None
    assert json.loads(row["reason"])["cause_ids"] == ["f1"]


def test_group_columns_groups_by_table_in_input_order(make: Any) -> None:
    events = [make.fault("a"), make.decision("d"), make.fault("b", count=4)]
    grouped = {spec.table: data for spec, data in group_columns(events, 7).items()}
    assert list(grouped) == ["faults", "decisions"]
    names = [c.name for c in columns(spec_for(events[0]))]
    assert grouped["faults"][names.index("fault_id")] == ["a", "b"]
    assert grouped["faults"][names.index("count")] == [1, 4]
    assert group_columns([], 7) == {}


def test_columns_are_the_rows_transposed(make: Any) -> None:
    events = [make.verdict("v1"), make.verdict("v2"), make.verdict("v3")]
    spec = spec_for(events[0])
    data = to_columns(spec, events, 9)
    assert len(data) == len(columns(spec)) and all(len(values) == 3 for values in data)
    assert [list(row) for row in zip(*data, strict=True)] == [to_row(spec, e, 9) for e in events]
    assert to_columns(spec, [], 9) == [[] for _ in columns(spec)]


def test_repeated_nested_values_give_the_same_json_as_fresh_ones(make: Any) -> None:
    first, second = make.decision("d1"), make.decision("d2", guard=None)
    spec = spec_for(first)
    reason = [c.name for c in columns(spec)].index("reason")
    texts = to_columns(spec, [first, second, first], 1)[reason]
    assert texts[0] == texts[2] == json.dumps(first.reason.model_dump(mode="json"), sort_keys=True)


@pytest.mark.parametrize(("annotation", "cacheable"), [
    (str, True), (int | None, True), (tuple[int, ...], True), (float, False), (dict[str, int], False),
    (tuple[float, ...], False), (int | bool, False), (bool | None, True),
])
def test_only_types_whose_equal_values_share_one_json_are_cached(annotation: Any, cacheable: bool) -> None:
    assert _simple_part(annotation) is cacheable


def test_the_fast_json_of_simple_parts_is_the_generic_json(make: Any) -> None:
    values = [make.decision().reason, make.decision().guard, make.verdict().signals, make.verdict().localization]
    for spec in TABLES:
        for col in columns(spec):
            if col.encoding == "json" and col.field_name is not None:
                assert _simple_part(spec.model.model_fields[col.field_name].annotation), (spec.table, col.name)
    assert [_simple_json(v) for v in values] == [_json_or_none(v) for v in values]


def test_telemetry_kinds_have_no_table() -> None:
    sample = EVENT_KINDS["gpu_sample/v1"]
    assert sample is GpuSample
    event = GpuSample(event_id="g", event_time=T0, cluster="c", node_id="n", gpus=())
    with pytest.raises(KeyError, match="no ClickHouse table"):
        spec_for(event)
