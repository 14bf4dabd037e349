"""The generic model -> ClickHouse column/row mapping (pure)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from ch_factories import T0

from schemas import EVENT_KINDS, GpuSample
from schemas.registry import BY_NAME, DERIVED_TOPICS
from sinks.clickhouse.mapping import BY_MODEL, TABLES, columns, group_rows, spec_for, to_row


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


def test_group_rows_groups_by_table_in_input_order(make: Any) -> None:
    events = [make.fault("a"), make.decision("d"), make.fault("b", count=4)]
    grouped = {spec.table: rows for spec, rows in group_rows(events, 7).items()}
    assert list(grouped) == ["faults", "decisions"]
    fault_ids = [row[4] for row in grouped["faults"]]
    assert fault_ids == ["a", "b"]
    assert group_rows([], 7) == {}


def test_telemetry_kinds_have_no_table() -> None:
    sample = EVENT_KINDS["gpu_sample/v1"]
    assert sample is GpuSample
    event = GpuSample(event_id="g", event_time=T0, cluster="c", node_id="n", gpus=())
    with pytest.raises(KeyError, match="no ClickHouse table"):
        spec_for(event)
