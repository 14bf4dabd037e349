"""The one mapping table from derived event models to ClickHouse tables, and its row codec.

Columns are derived from the pydantic model's fields, never written by hand per kind:
strings -> ``String`` (``LowCardinality`` for enums and low-cardinality names), ints ->
``Int64``, floats -> ``Float64``, bools -> ``Bool``, times -> ``DateTime64(3, 'UTC')``,
tuples of scalars -> ``Array(...)``, nested objects -> JSON text in a ``String``; optional
fields are ``Nullable``. Pure: no I/O, no ClickHouse import.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel

from schemas import (
    Actuation,
    DeadLetter,
    Decision,
    EttInterval,
    Event,
    Fault,
    HangVerdict,
    HangVote,
    Incident,
    SlowNode,
)

TIME_TYPE = "DateTime64(3, 'UTC')"
INGEST_VERSION = "_version"
"""Version column of tables without a natural version: nanoseconds since the epoch at insert."""

LOW_CARDINALITY_NAMES = frozenset({
    "schema", "cluster", "category", "family", "rule_id", "metric", "actuator",
    "policy_rule", "source_topic", "node_id",
})


@dataclass(frozen=True)
class Column:
    """One table column fed from model field ``field_name`` (``None`` for sink metadata)."""

    name: str
    ch_type: str
    field_name: str | None
    encoding: Literal["plain", "json", "array"] = "plain"


@dataclass(frozen=True)
class TableSpec:
    """Where one derived kind lands: table name, dedup key and version column.

    Rows with the same ``id_column`` collapse (ReplacingMergeTree) to the one with the
    highest ``version`` (``None`` means the ingest version ``_version``).
    """

    table: str
    model: type[Event]
    id_column: str
    version: str | None = None
    partition_time: str = "event_time"
    overrides: tuple[tuple[str, str], ...] = ()

    @property
    def version_column(self) -> str:
        """The ReplacingMergeTree version column."""
        return self.version or INGEST_VERSION


TABLES: tuple[TableSpec, ...] = (
    TableSpec("faults", Fault, "fault_id", version="count", partition_time="first_seen",
              overrides=(("count", "UInt32"),)),
    TableSpec("hang_votes", HangVote, "event_id"),
    TableSpec("hang_verdicts", HangVerdict, "verdict_id"),
    TableSpec("slow_nodes", SlowNode, "outlier_id"),
    TableSpec("decisions", Decision, "decision_id"),
    TableSpec("actuations", Actuation, "event_id"),
    TableSpec("ett_intervals", EttInterval, "event_id"),
    TableSpec("dead_letters", DeadLetter, "event_id"),
    TableSpec("incidents", Incident, "incident_id", version="last_seen", partition_time="first_seen"),
)

BY_MODEL: dict[type[Event], TableSpec] = {spec.model: spec for spec in TABLES}


def spec_for(event: Event) -> TableSpec:
    """The table spec of ``event``'s kind; KeyError for a kind with no table (telemetry)."""
    try:
        return BY_MODEL[type(event)]
    except KeyError:
        raise KeyError(f"no ClickHouse table for {type(event).__name__}") from None


def columns(spec: TableSpec) -> tuple[Column, ...]:
    """The columns of ``spec``'s table in insert order: model fields, then ``_version`` if used."""
    cols = [_column(spec, name) for name in spec.model.model_fields]
    if spec.version is None:
        cols.append(Column(INGEST_VERSION, "UInt64", None))
    return tuple(cols)


def _column(spec: TableSpec, field_name: str) -> Column:
    info = spec.model.model_fields[field_name]
    name = info.alias or field_name
    base, encoding = _base_type(info.annotation, name)
    optional = _is_optional(info.annotation)
    ch = dict(spec.overrides).get(name) or _wrap(base, optional, encoding)
    return Column(name, ch, field_name, encoding)


def _wrap(base: str, optional: bool, encoding: str) -> str:
    if not optional or encoding == "array":
        return base
    if base.startswith("LowCardinality("):
        return f"LowCardinality(Nullable({base[len('LowCardinality('):-1]}))"
    return f"Nullable({base})"


def _is_optional(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation) and _is_union(annotation)


def _is_union(annotation: Any) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)


def _strip_optional(annotation: Any) -> Any:
    if not _is_union(annotation):
        return annotation
    rest = [a for a in typing.get_args(annotation) if a is not type(None)]
    if len(rest) != 1:
        raise TypeError(f"unsupported union {annotation!r}")
    return rest[0]


def _base_type(annotation: Any, name: str) -> tuple[str, Literal["plain", "json", "array"]]:
    inner = _strip_optional(annotation)
    if typing.get_origin(inner) is typing.Annotated:
        inner = typing.get_args(inner)[0]
    if typing.get_origin(inner) is tuple:
        item = typing.get_args(inner)[0]
        if isinstance(item, type) and issubclass(item, BaseModel):
            return "String", "json"
        return f"Array({_scalar(item, name)})", "array"
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return "String", "json"
    return _scalar(inner, name), "plain"


def _scalar(annotation: Any, name: str) -> str:
    if typing.get_origin(annotation) is Literal:
        return "LowCardinality(String)"
    if isinstance(annotation, type):
        if issubclass(annotation, bool):
            return "Bool"
        if issubclass(annotation, int):
            return "Int64"
        if issubclass(annotation, float):
            return "Float64"
        if annotation is AwareDatetime or issubclass(annotation, datetime):
            return TIME_TYPE
        if issubclass(annotation, str):
            return "LowCardinality(String)" if name in LOW_CARDINALITY_NAMES else "String"
    raise TypeError(f"no ClickHouse type for field {name!r}: {annotation!r}")


def to_row(spec: TableSpec, event: Event, ingest_version: int) -> list[Any]:
    """The insert row of ``event`` for ``spec``'s columns; ``ingest_version`` fills ``_version``."""
    return [_value(event, col, ingest_version) for col in columns(spec)]


def _value(event: Event, col: Column, ingest_version: int) -> Any:
    if col.field_name is None:
        return ingest_version
    value = getattr(event, col.field_name)
    if col.encoding == "json":
        return None if value is None else json.dumps(_jsonable(value), sort_keys=True)
    if col.encoding == "array":
        return list(value)
    return value


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def group_rows(events: Sequence[Event], ingest_version: int) -> dict[TableSpec, list[list[Any]]]:
    """Rows per table for ``events``, in input order; zero events give an empty dict."""
    grouped: dict[TableSpec, list[list[Any]]] = {}
    for event in events:
        spec = spec_for(event)
        grouped.setdefault(spec, []).append(to_row(spec, event, ingest_version))
    return grouped
