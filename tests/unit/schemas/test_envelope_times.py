"""The envelope's time check (range, UTC normalisation) on every time field of every kind,
at the edges of the range, with and without an offset: the fast path (``Z``) and the general
one (an offset) must agree with the definition ``EARLIEST <= t < LATEST``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from schemas import EVENT_KINDS, DeadLetter, Fault, decode
from schemas.envelope import EARLIEST, LATEST, parse_time


def _log_line(moment: str) -> bytes:
    return json.dumps({"schema": "log_line/v1", "event_id": "x", "event_time": moment, "cluster": "c",
                       "node_id": "n", "source": "kernel", "line": "l"}).encode()


EDGES = ["1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2199-12-31T23:59:59.999Z",
         "2200-01-01T00:00:00.000Z", "1970-01-01T00:30:00.000+01:00", "1970-01-01T01:00:00.000+01:00",
         "2200-01-01T00:30:00.000+01:00", "2199-12-31T23:30:00.000-01:00", "2199-12-31T22:59:59.999-01:00",
         "1969-12-31T23:30:00.000-01:00"]


@pytest.mark.parametrize("moment", EDGES)
def test_a_time_is_accepted_exactly_when_its_utc_instant_is_in_range(moment: str) -> None:
    expected = EARLIEST <= parse_time(moment) < LATEST
    out = decode(_log_line(moment))
    assert (not isinstance(out, DeadLetter)) == expected, (moment, out)
    if expected:
        assert out.event_time == parse_time(moment) and out.event_time.utcoffset() == timedelta(0)
    else:
        assert isinstance(out, DeadLetter) and "event_time" in out.error and "outside 1970..2199" in out.error


def test_every_time_field_of_every_kind_is_checked() -> None:
    for name, model in EVENT_KINDS.items():
        times = [f for f, info in model.model_fields.items() if "datetime" in repr(info.annotation).lower()]
        assert times and set(times) <= set(model._TIME_FIELDS), (name, times, model._TIME_FIELDS)
        assert model.schema_name() == name


def test_an_offset_in_any_time_field_is_normalised_to_utc_and_checked() -> None:
    start = datetime(2026, 11, 22, 8, tzinfo=UTC)
    fault = {"schema": "fault/v1", "event_id": "f", "event_time": "2026-11-22T08:00:00.000Z", "cluster": "c",
             "fault_id": "f", "node_id": "n", "category": "gpu_fallen_off_bus", "family": "gpu_hw", "level": "fault",
             "blame": "node", "rule_id": "xid.nvrm", "evidence": "x", "count": 1,
             "first_seen": "2026-11-22T10:00:00.000+02:00"}
    out = decode(json.dumps(fault).encode())
    assert isinstance(out, Fault), out
    assert out.first_seen == start and out.first_seen.tzinfo is UTC
    late = decode(json.dumps({**fault, "last_seen": "2200-01-01T00:30:00.000+01:00"}).encode())
    assert not isinstance(late, DeadLetter) and late.last_seen == LATEST - timedelta(minutes=30)
    out_of_range = decode(json.dumps({**fault, "last_seen": "2200-01-01T01:00:00.000+01:00"}).encode())
    assert isinstance(out_of_range, DeadLetter) and "last_seen" in out_of_range.error
