"""The one mapping table from derived event models to ClickHouse tables, and its row codec.

Columns are derived from the pydantic model's fields, never written by hand per kind:
strings -> ``String`` (``LowCardinality`` for enums and low-cardinality names), ints ->
``Int64``, floats -> ``Float64``, bools -> ``Bool``, times -> ``DateTime64(3, 'UTC')``,
tuples of scalars -> ``Array(...)``, nested objects -> JSON text in a ``String``; optional
fields are ``Nullable``. Pure: no I/O, no ClickHouse import.

A row's source is the pydantic event or its msgspec mirror (``schemas.mirror``, what the sink
decodes into): both have the model's field names and the same values, and give the same row.
"""

from __future__ import annotations

import functools
import json
import operator
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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
from schemas.mirror import Mirror, jsonable, mirror_of, supports

TIME_TYPE = "DateTime64(3, 'UTC')"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)
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

Row = Event | Mirror
"""What a row is made from: a derived event, or the mirror ``schemas.mirror`` decoded it into."""

_SPEC_OF: dict[type[Row], TableSpec] = {spec.model: spec for spec in TABLES}
_SPEC_OF.update({mirror_of(spec.model): spec for spec in TABLES if supports(spec.model)})
_MODEL_OF: dict[type[Row], type[Event]] = {kind: spec.model for kind, spec in _SPEC_OF.items()}


def spec_for(event: Row) -> TableSpec:
    """The table spec of ``event``'s kind; KeyError for a kind with no table (telemetry)."""
    try:
        return _SPEC_OF[type(event)]
    except KeyError:
        raise KeyError(f"no ClickHouse table for {type(event).__name__}") from None


@functools.cache
def columns(spec: TableSpec) -> tuple[Column, ...]:
    """The columns of ``spec``'s table in insert order: model fields, then ``_version`` if used.

    Computed once per spec (the models are fixed at import), so callers may use it per row.
    """
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


def to_row(spec: TableSpec, event: Row, ingest_version: int) -> list[Any]:
    """The insert row of ``event`` for ``spec``'s columns; ``ingest_version`` fills ``_version``.

    The same values as :func:`to_columns` gives for a one-event batch (it is built from it).
    """
    return [values[0] for values in to_columns(spec, [event], ingest_version)]


Columns = list[list[Any]]
"""Column-oriented insert data: one list per column of ``columns(spec)``, all of one length."""


def to_columns(spec: TableSpec, events: Sequence[Row], ingest_version: int) -> Columns:
    """The column-oriented insert data of ``events``, which must all be of ``spec``'s kind
    (events, mirrors, or both mixed).

    Nested objects become JSON text (sorted keys), tuples of scalars lists, ``_version`` is
    ``ingest_version``; zero events give one empty list per column. A column of plain values
    is one C-level pass (``map`` of an attribute getter) with no per-event Python code.
    """
    plan = _plan(spec)
    if not events:
        return [[] for _ in columns(spec)]
    data = [list(map(get, events)) if encode is None else encode(list(map(get, events)))
            for get, encode in zip(plan.getters, plan.encoders, strict=True)]
    if spec.version is None:
        data.append([ingest_version] * len(events))
    return data


def group_columns(events: Sequence[Row], ingest_version: int) -> dict[TableSpec, Columns]:
    """Column-oriented data per table for ``events``, rows in input order; zero events give ``{}``.

    An event and a mirror of the same kind land in the same table. Raises KeyError for a kind
    with no table (telemetry).
    """
    by_kind: dict[type[Event], list[Row]] = {}
    model_of = _MODEL_OF
    for event in events:  # keyed by model class: hashing a TableSpec per event costs more than the rest
        model = model_of.get(type(event)) or spec_for(event).model
        by_kind.setdefault(model, []).append(event)
    return {BY_MODEL[model]: to_columns(BY_MODEL[model], batch, ingest_version) for model, batch in by_kind.items()}


def millisecond_ticks(values: Sequence[datetime | None]) -> list[int | None]:
    """Aware datetimes as integer milliseconds since the epoch (floored, as ClickHouse stores
    ``DateTime64(3)``); None stays None. Exact (integer arithmetic on timedeltas, no floats)."""
    return [None if v is None else (v - EPOCH) // MILLISECOND for v in values]


def is_time(column: Column) -> bool:
    """True for a ``DateTime64(3, 'UTC')`` column, nullable or not."""
    return TIME_TYPE in column.ch_type


Encoder = Callable[[Sequence[Any]], list[Any]]


@dataclass(frozen=True)
class _Plan:
    """How to turn events of one kind into columns: per model field, a getter of its value and
    an encoder of the column (None: the values as they are)."""

    getters: tuple[Callable[[Row], Any], ...]
    encoders: tuple[Encoder | None, ...]


@functools.cache
def _plan(spec: TableSpec) -> _Plan:
    fields = [c for c in columns(spec) if c.field_name is not None]
    getters = tuple(operator.attrgetter(c.field_name) for c in fields if c.field_name is not None)
    return _Plan(getters, tuple(_encoder(spec, c) for c in fields))


def _encoder(spec: TableSpec, col: Column) -> Encoder | None:
    if col.encoding == "array":
        return _lists
    if col.encoding == "plain":
        return None
    annotation = spec.model.model_fields[col.field_name or ""].annotation
    text = _cached_json if _simple_part(annotation) else _json_or_none
    return lambda values: [text(v) for v in values]


def _lists(values: Sequence[Any]) -> list[Any]:
    return [list(v) for v in values]


_SORTED_JSON = json.JSONEncoder(sort_keys=True).encode
"""``json.dumps(value, sort_keys=True)``, without building an encoder per call as ``dumps`` does."""


def _json_or_none(value: Any) -> str | None:
    return None if value is None else _SORTED_JSON(_jsonable(value, "json"))


def _simple_json(value: Any) -> str | None:
    """``_json_or_none(value)`` for a value of a :func:`_simple_part` type, several times faster:
    pydantic's Python-mode dump of such a value is already JSON-ready (tuples become lists)."""
    return None if value is None else _SORTED_JSON(_jsonable(value, "python"))


_JSON_MEMO: dict[Any, str | None] = {}
JSON_MEMO_SIZE = 4096


def _cached_json(value: Any) -> str | None:
    """``_simple_json(value)``, memoised: nested parts repeat a lot (a hang vote's four signals
    have 81 states). Only used for :func:`_simple_part` types, where equal values always have
    identical JSON. A model's key is its class and field values: built and compared
    in C, unlike the model's own ``__hash__``/``__eq__``. Shared by threads: under the GIL the
    worst a race does is drop an entry, which is then computed again."""
    key = (type(value), *value.__dict__.values()) if isinstance(value, BaseModel) else value
    text = _JSON_MEMO.get(key)
    if text is None and value is not None:
        if len(_JSON_MEMO) >= JSON_MEMO_SIZE:
            _JSON_MEMO.clear()
        text = _JSON_MEMO[key] = _simple_json(value)
    return text


def _simple_part(annotation: Any) -> bool:
    """True for types built from str, int, bool, None, literals, tuples and frozen models of
    those: two equal values always render to the same JSON text, and pydantic's Python-mode
    dump is JSON-ready. Not for floats (``0.0 == -0.0``), unions of int and bool (``1 == True``),
    times, dicts (unhashable) or anything unknown.
    """
    inner = annotation
    if typing.get_origin(inner) is typing.Annotated:
        inner = typing.get_args(inner)[0]
    if _is_union(inner) and {int, bool} <= set(typing.get_args(inner)):
        return False
    if _is_union(inner) or typing.get_origin(inner) is tuple:
        return all(a is Ellipsis or _simple_part(a) for a in typing.get_args(inner))
    if typing.get_origin(inner) is Literal or inner is type(None):
        return True
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        frozen = bool(inner.model_config.get("frozen"))
        return frozen and all(_simple_part(f.annotation) for f in inner.model_fields.values())
    return inner in (str, int, bool)


def _jsonable(value: Any, mode: Literal["json", "python"]) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode=mode)
    if isinstance(value, Mirror):  # a mirror holds no times (schemas.mirror): both modes agree
        return jsonable(value)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v, mode) for v in value]
    return value
