"""The v1 contract: models round-trip on the wire, decode never raises, ids are stable."""

from __future__ import annotations

import base64
import json
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest

from schemas import (
    EVENT_KINDS,
    DeadLetter,
    GpuSample,
    GpuStats,
    JobEvent,
    LogLine,
    decode,
    derived_id,
    encode,
    export,
    physical,
    topic_for,
)
from schemas.registry import BY_NAME, TOPICS, logical

T0 = datetime(2026, 11, 22, 8, 0, 0, 123000, tzinfo=UTC)


def _log(**kw: object) -> LogLine:
    base: dict[str, object] = dict(event_id="e1", event_time=T0, cluster="c1", node_id="n1",
                                   job_id="j1", rank=3, source="training", line="hello")
    return LogLine(**{**base, **kw})


def test_wire_form_has_schema_and_utc_z_times() -> None:
    wire = json.loads(encode(_log()))
    assert wire["schema"] == "log_line/v1"
    assert wire["event_time"] == "2026-11-22T08:00:00.123Z"


def test_round_trip_equals_original() -> None:
    event = _log()
    assert decode(encode(event)) == event


def test_offset_times_are_normalised_to_utc() -> None:
    plus2 = timezone(timedelta(hours=2))
    event = _log(event_time=datetime(2026, 11, 22, 10, 0, tzinfo=plus2))
    assert event.event_time.utcoffset() == timedelta(0)
    assert json.loads(encode(event))["event_time"] == "2026-11-22T08:00:00.000Z"


def test_naive_time_is_rejected_as_dead_letter() -> None:
    raw = json.dumps({"schema": "log_line/v1", "event_id": "x", "event_time": "2026-11-22T08:00:00",
                      "cluster": "c", "source": "kernel", "line": "l"}).encode()
    out = decode(raw, source_topic="t", partition=2, offset=7)
    assert isinstance(out, DeadLetter) and out.stage == "validate"
    assert (out.partition, out.offset, out.source_topic) == (2, 7, "t")
    assert base64.b64decode(out.raw) == raw


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"])
def test_times_no_real_event_has_are_dead_letters_naming_the_field(moment: str) -> None:
    raw = json.dumps({"schema": "log_line/v1", "event_id": "x", "event_time": moment,
                      "cluster": "c", "node_id": "n", "source": "kernel", "line": "l"}).encode()
    out = decode(raw)
    assert isinstance(out, DeadLetter) and out.stage == "validate" and "event_time" in out.error


@pytest.mark.parametrize("raw,stage", [
    (b"\xff\xfe\x00", "decode"),
    (b"{not json", "decode"),
    (b"[1,2]", "decode"),
    (b'{"schema":"nope/v1"}', "decode"),
    (b'{"schema":"gpu_sample/v1","event_id":"x"}', "validate"),
])
def test_bad_input_becomes_dead_letter(raw: bytes, stage: str) -> None:
    out = decode(raw)
    assert isinstance(out, DeadLetter)
    assert out.stage == stage and base64.b64decode(out.raw) == raw


def test_decode_never_raises_on_random_bytes() -> None:
    rng = random.Random(5)
    good = encode(_log())
    for _ in range(2000):
        raw = bytearray(good)
        for _ in range(rng.randint(1, 6)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        decode(bytes(raw))  # must not raise


def test_unknown_fields_are_ignored() -> None:
    wire = json.loads(encode(_log()))
    wire["future_field"] = {"x": 1}
    assert decode(json.dumps(wire)) == _log()


def test_scheduled_needs_placement() -> None:
    raw = json.dumps({"schema": "job_event/v1", "event_id": "x", "event_time": "2026-11-22T08:00:00Z",
                      "cluster": "c", "job_id": "j", "attempt": 0, "kind": "scheduled"})
    assert isinstance(decode(raw), DeadLetter)


def test_topic_routing_and_keys() -> None:
    assert topic_for(_log()).name == "telemetry.log"
    kernel = _log(source="kernel", job_id=None)
    assert topic_for(kernel).name == "telemetry.kernel"
    assert topic_for(kernel).key_of(kernel) == "n1"
    gpu = GpuSample(event_id="g", event_time=T0, cluster="c", node_id="n9", gpus=(
        GpuStats(index=0, util_pct=1, mem_used_bytes=0, temp_c=30, power_w=50, ecc_sbe_total=0,
                 ecc_dbe_total=0, nvlink_crc_errors_total=0, pcie_replay_total=0, throttle_reasons=0),))
    assert topic_for(gpu).key_of(gpu) == "n9"
    assert topic_for(JobEvent(event_id="j", event_time=T0, cluster="c", job_id="j7", attempt=0,
                              kind="submitted")).name == "jobs.lifecycle"


def test_registry_names_round_trip_through_namespace() -> None:
    for spec in TOPICS:
        assert logical(physical(spec.name, "ns."), "ns.") == spec.name
    with pytest.raises(KeyError):
        physical("no.such.topic")
    assert set(BY_NAME) >= {"telemetry.gpu", "faults.classified", "decisions", "deadletter"}


def test_every_contract_kind_is_registered() -> None:
    kinds = {name.split("/")[0] for name in EVENT_KINDS}
    assert kinds == {"gpu_sample", "net_sample", "log_line", "stack_sample", "collective_progress",
                     "job_event", "step_progress", "fault", "hang_vote", "hang_verdict", "slow_node",
                     "decision", "actuation", "ett_interval", "incident", "dead_letter"}


def test_derived_ids_are_deterministic_and_cause_sensitive() -> None:
    a = derived_id("fault", "n1", "rule", T0)
    assert a == derived_id("fault", "n1", "rule", T0) and len(a) == 32
    assert a != derived_id("fault", "n1", "rule", T0 + timedelta(milliseconds=1))
    assert derived_id("k", "ab", "c") != derived_id("k", "a", "bc")


def test_committed_json_schemas_are_current() -> None:
    rendered = export.render()
    committed = {p.name: p.read_text(encoding="utf-8") for p in export.OUT_DIR.glob("*.json")}
    assert committed == rendered, "run `make schemas` and commit schemas/jsonschema/"
