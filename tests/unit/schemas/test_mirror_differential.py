"""Differential test of the sink's fast decoder (``schemas.mirror``) against ``schemas.decode``.

The contract: whenever the mirror decoder accepts bytes, pydantic accepts them too, as the same
model with the same values, and the sink builds the same row from either. Whatever the mirror
declines takes ``schemas.decode`` in the sink, so the sink's accept/reject and dead letters are
pydantic's by construction; these tests check that it declines (rather than misreads) every
kind of difference: wrong types, missing fields, bad, naive, non-UTC or over-precise times,
NaN and infinities, extra and duplicate fields, wrong schemas, escapes, broken JSON.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import AwareDatetime, BaseModel, ValidationError

from schemas import DeadLetter, Event, dead_letter, decode, encode
from schemas.envelope import EARLIEST, LATEST
from schemas.mirror import SCHEMA_BY_NAME, FastDecoder, Mirror, jsonable, mirror_of, supports
from sinks.clickhouse.mapping import BY_MODEL, TABLES, spec_for, to_row
from sinks.clickhouse.sink import decode_value

FAST = FastDecoder(BY_MODEL)
SECOND = timedelta(seconds=1)
MODELS = [spec.model for spec in TABLES]

# ----------------------------------------------------------------------------- the property


def check_same(raw: bytes) -> Mirror | None:
    """Decode ``raw`` both ways; if the mirror accepts, pydantic must give the same event and row.

    Either way the sink's decoding (``decode_value``) accepts and rejects exactly as it did
    with pydantic alone, with the same dead letters.
    """
    fast = FAST.decode(raw)
    before, failed_before = pydantic_sink_decode(raw, "t", 1, 2, "k")
    after, failed_after = decode_value(raw, "t", 1, 2, "k")
    assert failed_after == failed_before, raw
    if fast is None:
        assert after == before, raw
        return None
    assert not failed_before and isinstance(before, Event), (raw, before)
    assert after == fast and type(before) is fast.MODEL
    for name in type(before).model_fields:
        assert_same_value(getattr(fast, name), getattr(before, name), name)
    assert to_row(spec_for(before), fast, 7) == to_row(spec_for(before), before, 7)
    return fast


def pydantic_sink_decode(raw: bytes, topic: str, partition: int, offset: int, key: str) -> tuple[Event, bool]:
    """The sink's decoding before the mirror (``sink._consumed`` of the previous version), verbatim."""
    result = decode(raw, source_topic=topic, partition=partition, offset=offset, key=key)
    place = (topic, partition, offset)
    failed = isinstance(result, DeadLetter) and (result.source_topic, result.partition, result.offset) == place \
        and result.stage in ("decode", "validate")
    if not failed and type(result) not in BY_MODEL:
        error = f"{result.schema_name()} is not a derived event kind with a table"
        result = dead_letter(raw, source_topic=topic, stage="validate", error=error,
                             partition=partition, offset=offset, key=key, cluster=result.cluster)
        failed = True
    return result, failed


def assert_same_value(fast: Any, slow: Any, where: str) -> None:
    """Equal values of the same types; times both in ``datetime.UTC``; parts as the same JSON text."""
    if isinstance(slow, BaseModel):
        assert isinstance(fast, Mirror), where
        assert _text(jsonable(fast)) == _text(slow.model_dump(mode="python")), where
        return
    if isinstance(slow, tuple):
        assert isinstance(fast, tuple) and len(fast) == len(slow), where
        for f, s in zip(fast, slow, strict=True):
            assert_same_value(f, s, where)
        return
    assert type(fast) is type(slow), (where, fast, slow)
    assert fast == slow, (where, fast, slow)
    if isinstance(slow, float):
        assert repr(fast) == repr(slow), where  # -0.0 vs 0.0
    if isinstance(slow, datetime):
        assert fast.tzinfo is UTC and slow.tzinfo is UTC, where


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# ----------------------------------------------------------------------------- wire strategies

Fragment = st.SearchStrategy[str]
"""JSON text of one value (text, so that odd tokens and spellings can be written too)."""


def _digits(n: int) -> st.SearchStrategy[str]:
    return st.integers(0, 10**n - 1).map(lambda v: f"{v:0{n}d}")


def valid_times() -> st.SearchStrategy[str]:
    """Times both parsers accept and the contract's range holds, in the wire's spelling or close to it."""
    moments = st.datetimes(min_value=EARLIEST.replace(tzinfo=None), max_value=LATEST.replace(tzinfo=None) - SECOND)
    return st.builds(lambda t, digits, off: t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{t.microsecond:06d}"[:digits + 1]
                                                                                if digits else "") + off,
                     moments, st.integers(0, 6), st.sampled_from(["Z", "z", "+00:00"]))


ODD_TIMES = ["2026-11-22T08:00Z", "2026-11-22", "2026-11-22T08:00:00.123456\\u0037Z", "1700000000",
             "2026-02-30T08:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T23:59:60Z", "2026-11-22T08:00:00.Z",
             "2026-11-22T08:00:00,123Z", "+2026-11-22T08:00:00Z", "2026-11-22T08:00:00Z ", "0999-11-22T08:00:00Z"]


def time_texts() -> st.SearchStrategy[str]:
    """RFC 3339-ish times: mostly what both parsers take, near the range's ends too, and else one
    difference at a time (fraction digits, offset, separator) or an odd spelling."""
    moments = st.datetimes(min_value=EARLIEST.replace(tzinfo=None) - timedelta(days=400),
                           max_value=LATEST.replace(tzinfo=None) + timedelta(days=400))
    edges = st.sampled_from([EARLIEST, LATEST]).map(lambda t: t.replace(tzinfo=None)).flatmap(
        lambda t: st.sampled_from([t, t - timedelta(microseconds=1), t - timedelta(hours=1), t + timedelta(hours=1)]))
    digits = st.sampled_from([0, 3, 3, 3, 6, 1, 2, 7, 9])
    extra = st.sampled_from(["5", "9999", "0001", "4999"])
    offset = st.sampled_from(["Z"] * 8 + ["z", "+00:00", "-00:00", "+02:00", "-01:30", "+0200", "+02", "", "+23:59"])
    sep = st.sampled_from(["T"] * 6 + ["t", " ", "_"])

    def spell(t: datetime, n: int, more: str, off: str, sp: str) -> str:
        fraction = f"{t.microsecond:06d}{more}"[:n]
        return t.strftime(f"%Y-%m-%d{sp}%H:%M:%S") + (f".{fraction}" if n else "") + off

    built = st.builds(spell, moments | edges, digits, extra, offset, sep)
    valid = valid_times()
    return st.one_of(built, built, valid, valid, valid, valid, st.sampled_from(ODD_TIMES))


def _string(min_size: int) -> Fragment:
    """Mostly plain text written as it is; sometimes any text, maybe ``\\u``-escaped (the mirror then declines)."""
    plain = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='\\"'),
                    min_size=min_size, max_size=12).map(json.dumps)
    text = st.text(st.characters(exclude_categories=("Cs",)), min_size=min_size, max_size=12)  # surrogates: JUNK
    anything = st.builds(lambda s, ascii_: json.dumps(s, ensure_ascii=ascii_), text, st.booleans())
    return st.one_of(plain, plain, plain, anything)


def _float(metadata: list[Any]) -> Fragment:
    lo = next((m.ge for m in metadata if hasattr(m, "ge")), None)
    hi = next((m.le for m in metadata if hasattr(m, "le")), None)
    values = st.floats(min_value=lo, max_value=hi, allow_nan=False, allow_infinity=False).map(repr)
    spellings = ["1", "0", "-0.0", "1E2", "1e+2", "0.1e1", "1e-7", "0.30000000000000004", "1.0000000000000002",
                 "1e-400", "-1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324", "9007199254740993",
                 "1.7976931348623158e308", "1.7976931348623159e308", "123456789012345678901234567890.5"]
    return values | st.sampled_from(spellings)


def _int(metadata: list[Any]) -> Fragment:
    lo = next((m.ge for m in metadata if hasattr(m, "ge")), None)
    return st.integers(min_value=lo).map(str) | st.sampled_from([str(2**70), str(2**64), "-0"]).filter(
        lambda t: lo is None or int(t) >= lo)


def fragment(annotation: Any, metadata: list[Any], times: st.SearchStrategy[str]) -> Fragment:
    """A strategy for wire text of a field of ``annotation`` (constraints in ``metadata``, times from ``times``)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *more = typing.get_args(annotation)
        return fragment(inner, [*more, *metadata], times)
    if origin in (typing.Union, types.UnionType):
        inner = next(a for a in typing.get_args(annotation) if a is not type(None))
        return st.just("null") | fragment(inner, metadata, times)
    if origin is Literal:
        return st.sampled_from([json.dumps(v) for v in typing.get_args(annotation)])
    if origin is tuple:
        item = fragment(typing.get_args(annotation)[0], [], times)
        return st.lists(item, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]")
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return members(annotation, times).map(render)
    if annotation is AwareDatetime:
        return times.map(lambda t: f'"{t}"')
    if annotation is bool:
        return st.sampled_from(["true", "false"])
    if annotation is int:
        return _int(metadata)
    if annotation is float:
        return _float(metadata)
    if annotation is str:
        return _string(1 if any(getattr(m, "min_length", 0) for m in metadata) else 0)
    raise TypeError(annotation)


def members(model: type[BaseModel], times: st.SearchStrategy[str]) -> st.SearchStrategy[list[tuple[str, str]]]:
    """The (wire name, JSON text) members of an object of ``model``, valid but for ``times``; optional
    ones may be left out."""
    parts = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        if name == "schema_":
            value: Fragment = st.just(json.dumps(typing.cast(type[Event], model).schema_name()))
        else:
            value = fragment(info.annotation, list(info.metadata), times)
        entry = value.map(lambda v, k=key: [(k, v)])
        optional = not info.is_required() and name != "schema_"  # no schema: no kind (a "drop" mutation)
        parts.append(entry | st.just([]) if optional else entry)
    return st.tuples(*parts).map(lambda groups: [m for group in groups for m in group])


def render(pairs: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in pairs) + "}"


JUNK = ["1", "1.5", '"x"', '""', "true", "null", "[]", "{}", "[1]", '"NaN"', "NaN", "Infinity", "-Infinity",
        "1e400", "-1e400", '"2026-11-22T08:00:00"', '"2026-11-22T08:00:00+02:00"', str(2**70), '"\\ud800"',
        '"a\\u0000b"', '{"method": "m", "ranks": [1.0]}']

Mutation = Callable[[list[tuple[str, str]]], list[tuple[str, str]]]


@st.composite
def mutated(draw: st.DrawFn, model: type[Event]) -> bytes:
    """Wire bytes of ``model``: valid, or with one to three mutations of its members or its text."""
    pairs = draw(members(model, time_texts()))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2, 3]))):
        kind = draw(st.sampled_from(["drop", "junk", "extra", "dup", "schema", "nested_schema", "none"]))
        if kind == "drop" and pairs:
            pairs.pop(draw(st.integers(0, len(pairs) - 1)))
        elif kind == "junk" and pairs:
            i = draw(st.integers(0, len(pairs) - 1))
            pairs[i] = (pairs[i][0], draw(st.sampled_from(JUNK)))
        elif kind == "extra":
            pairs.insert(draw(st.integers(0, len(pairs))), (draw(st.sampled_from(["x", "schema_", "Schema"])),
                                                           draw(st.sampled_from(JUNK))))
        elif kind == "dup" and pairs:
            i = draw(st.integers(0, len(pairs) - 1))
            pairs.append((pairs[i][0], draw(st.sampled_from([*JUNK, pairs[i][1]]))))
        elif kind == "schema":
            wrong = draw(st.sampled_from(['""', '"hang_vote/v1"', '"fault/v2"', '"gpu_sample/v1"', "1"]))
            key = draw(st.sampled_from(["schema", "schema_"]))  # pydantic populates by field name too
            pairs = [(key, wrong if k == "schema" else v) if k == "schema" else (k, v) for k, v in pairs]
        elif kind == "nested_schema":
            pairs.insert(0, ("extra", '{"schema": "hang_vote/v1"}'))
    text = render(pairs).encode("utf-8", "surrogatepass")
    return draw(st.sampled_from([text, text, text, b"\xef\xbb\xbf" + text, text[:-1], text + b" x", text + b"\n"]))


# ----------------------------------------------------------------------------- tests


def test_every_kind_the_sink_stores_has_a_mirror() -> None:
    assert all(supports(m) for m in MODELS)
    assert FAST.models == frozenset(MODELS)
    for model in MODELS:
        assert set(mirror_of(model).__struct_fields__) == {*model.model_fields, SCHEMA_BY_NAME}


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.KIND)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_and_mutated_events_decode_the_same_both_ways(model: type[Event], data: st.DataObject) -> None:
    check_same(data.draw(mutated(model)))


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.KIND)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_canonical_wire_events_take_the_fast_path(model: type[Event], data: st.DataObject) -> None:
    """What the pipeline itself writes (``encode`` of a model) is decoded by the mirror."""
    raw = render(data.draw(members(model, valid_times()))).encode("utf-8", "surrogatepass")
    try:
        event = model.model_validate_json(raw, strict=True)
    except ValidationError:
        assume(False)  # e.g. a lone surrogate in a string, or a time pydantic reads otherwise
    canonical = encode(event)
    if b"\\u" not in canonical:  # an escape always takes pydantic (see schemas.mirror)
        assert check_same(canonical) is not None


def _vote(**changes: Any) -> bytes:
    wire = {"schema": "hang_vote/v1", "event_id": "v1", "event_time": "2026-11-22T08:00:00.123Z", "cluster": "c",
            "job_id": "j", "attempt": 0, "window_start": "2026-11-22T07:59:30.000Z",
            "window_end": "2026-11-22T08:00:00.123Z", "signals": {"log_silent": True}, "votes": 1, "hang": False}
    return json.dumps({k: v for k, v in {**wire, **changes}.items() if v is not ...}).encode()


def _slow(**changes: Any) -> bytes:
    wire = {"schema": "slow_node/v1", "event_id": "s1", "event_time": "2026-11-22T08:00:00.000Z", "cluster": "c",
            "outlier_id": "s1", "job_id": "j", "node_id": "n", "ranks": [0, 1], "metric": "m", "value": 1.5,
            "baseline": 1.0, "slowdown": 1.5, "score": 6.0, "windows": 3, "detected_at": "2026-11-22T08:00:00.000Z"}
    return json.dumps({k: v for k, v in {**wire, **changes}.items() if v is not ...}).encode()


FAST_CASES = {
    "canonical": _vote(),
    "unknown fields ignored": _vote(extra={"a": [1, {"b": None}]}, Schema="ignored"),
    "schema by field name": b'{"x":{"schema":"hang_vote/v1"},' + _vote(schema=..., schema_="hang_vote/v1")[1:],
    "int for a float": _slow(value=2),
    "minus zero": _slow(value=-0.0),
    "optional time null": _slow(attempt=None),
    "plus zero offset": _vote(event_time="2026-11-22T08:00:00.123+00:00"),
    "six fractional digits": _vote(event_time="2026-11-22T08:00:00.123456Z"),
    "long float": _slow(slowdown=1.4285714285714286),
    "edges of the range": _vote(window_start="1970-01-01T00:00:00.000Z", window_end="2199-12-31T23:59:59.999Z"),
}

DECLINED_CASES = {  # each may be valid or not: the mirror leaves the answer to pydantic
    "other offset": _vote(event_time="2026-11-22T10:00:00.123+02:00"),
    "seven fractional digits": _vote(event_time="2026-11-22T08:00:00.9999999Z"),
    "escaped digit in a time": _vote(event_time="2026-11-22T08:00:00.123456\\u0037Z").replace(b"\\\\", b"\\"),
    "naive time": _vote(event_time="2026-11-22T08:00:00.123"),
    "before 1970": _vote(window_start="1969-12-31T23:59:59.999Z"),
    "from 2200": _vote(window_end="2200-01-01T00:00:00.000Z"),
    "empty schema": _vote(schema=""),
    "schema missing": _vote(schema=...),
    "wrong schema": _vote(schema="fault/v1"),
    "other kind's schema first": b'{"x":{"schema":"fault/v1"},' + _vote()[1:],
    "wrong schema by field name": b'{"x":{"schema":"hang_vote/v1"},' + _vote(schema=..., schema_="fault/v1")[1:],
    "schema by field name beside schema": _vote(schema_=5),
    "NaN": _slow().replace(b'"score": 6.0', b'"score": NaN'),
    "overflow to infinity": _slow().replace(b'"score": 6.0', b'"score": 1e400'),
    "bool for an int": _vote(votes=True),
    "float for an int": _vote(votes=1.0),
    "negative attempt": _vote(attempt=-1),
    "empty cluster": _vote(cluster=""),
    "missing field": _vote(hang=...),
    "duplicate key, bad first": _vote().replace(b'"hang": false', b'"hang": 1, "hang": false'),
    "trailing garbage": _vote() + b" x",
    "byte order mark": b"\xef\xbb\xbf" + _vote(),
    "invalid utf-8": _vote(job_id="j\udcff").replace(b"\\udcff", b"\xff"),
    "lone surrogate": _vote(job_id="\ud800"),
    "not an object": b'["schema", "hang_vote/v1"]',
    "telemetry kind": b'{"schema":"gpu_sample/v1","event_id":"g","event_time":"2026-11-22T08:00:00.000Z",'
                      b'"cluster":"c","node_id":"n","gpus":[]}',
}


@pytest.mark.parametrize("raw", FAST_CASES.values(), ids=FAST_CASES.keys())
def test_the_fast_path_takes_what_it_can_be_sure_of(raw: bytes) -> None:
    assert check_same(raw) is not None


@pytest.mark.parametrize("raw", DECLINED_CASES.values(), ids=DECLINED_CASES.keys())
def test_differences_are_declined_and_left_to_pydantic(raw: bytes) -> None:
    assert check_same(raw) is None


def test_a_kind_without_a_table_is_still_dead_lettered() -> None:
    value, failed = decode_value(DECLINED_CASES["telemetry kind"], "decisions", 0, 3)
    assert failed and isinstance(value, DeadLetter) and value.stage == "validate" and value.source_topic == "decisions"
    assert "gpu_sample/v1 is not a derived event kind with a table" in value.error


def test_a_big_integer_is_accepted_like_pydantic_does() -> None:
    """ClickHouse rejects it at insert (a ``sink`` dead letter), as before the mirror."""
    fast = check_same(_vote(attempt=2**70))
    assert fast is not None and fast.attempt == 2**70  # type: ignore[attr-defined]  # a mirror's field


ALL_CASES = [*FAST_CASES.values(), *DECLINED_CASES.values()]


@pytest.mark.parametrize("batch", [
    list(FAST_CASES.values()),  # no escape, no 7 decimals anywhere: the one look says so for all
    ALL_CASES,  # some hide long fractions: each value is looked at again
    [DECLINED_CASES["seven fractional digits"], *FAST_CASES.values()],
    [*FAST_CASES.values(), DECLINED_CASES["escaped digit in a time"]],
    [_vote()[:-1], b'.1234567"}'],  # a separator never joins two values' digits into one time
    [],
], ids=["fast only", "all", "long fraction first", "escape last", "split fraction", "empty"])
def test_decode_many_is_decode_of_each(batch: list[bytes]) -> None:
    """The sink's batch decoding gives what per-message decoding gives, value by value."""
    assert FAST.decode_many(batch) == [FAST.decode(raw) for raw in batch]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL_CASES), max_size=12))
def test_decode_many_is_decode_of_each_in_any_mix(batch: list[bytes]) -> None:
    assert FAST.decode_many(batch) == [FAST.decode(raw) for raw in batch]
