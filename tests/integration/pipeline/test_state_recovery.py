"""A worker killed after saving a job's state in parts resumes that state when it restarts.

Issue 16, point 3: a job's state record is split into a head and parts of bounded size
(``streams.state_record``). Here a 16-node job's state is saved by one worker, which is then
killed (-9); a second worker with the same app id loads it from the changelog and carries on.
The workers split every state above 64 KB (``--state-single-max-bytes``): the job's state is
~1 MB while its reorder buffer holds the stream's last seconds and ~0.2 MB once the stage clock
has released them at wall pace (when depends on the machine's speed), so with the default
512 KB limit whether the saved state was in parts was a race. What proves the state was resumed and not rebuilt: the job's
placement, applied from a ``job_event`` whose offset the group had committed before the kill
(so the second worker never reads it again), is still in the state the second worker saves.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from producers.kafka import EventProducer
from producers.simulator import FleetConfig, simulate
from schemas import JobEvent
from schemas.settings import KafkaSettings
from streams import state_record, topology
from streams.topics import changelog_topic
from tests.conftest import WorkerProcess

pytestmark = pytest.mark.integration

JOB = "job-0000"
SPLIT_SMALL = ("--state-single-max-bytes", str(64 * 1024))


def _changelog(kafka: KafkaSettings, app_id: str) -> dict[str, bytes | None]:
    """The jobs table's changelog read to its end: the latest value per key (None: deleted)."""
    from confluent_kafka import Consumer, TopicPartition

    topic = changelog_topic(app_id, "jobs")
    consumer = Consumer(kafka.confluent(**{"group.id": f"read-{uuid.uuid4().hex}", "enable.auto.commit": False}))
    latest: dict[str, bytes | None] = {}
    try:
        for partition in range(kafka.partitions):
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=10)
            if high <= low:
                continue
            consumer.assign([TopicPartition(topic, partition, low)])
            position, deadline = low, time.monotonic() + 60
            while position < high and time.monotonic() < deadline:
                msg = consumer.poll(1.0)
                if msg is None or msg.error():
                    continue
                latest[_key(msg.key() or b"")] = msg.value()
                position = (msg.offset() or 0) + 1
    finally:
        consumer.close()
    return latest


def _key(raw: bytes) -> str:
    """A table key as StateTable wrote it (Faust's JSON serializer quotes it)."""
    return str(json.loads(raw))


def _job_record(kafka: KafkaSettings, app_id: str) -> state_record.Decoded | None:
    """The job's record as a restarted worker would load it; None before the job has one."""
    latest = _changelog(kafka, app_id)
    if latest.get(JOB) is None:
        return None
    return state_record.decode(latest[JOB], lambda digest: latest.get(state_record.part_key(JOB, digest)))


def _wait(what: str, probe: Callable[[], Any], done: Callable[[Any], bool], timeout_s: float,
          worker: WorkerProcess) -> Any:
    """``probe()`` once ``done`` holds of it (checked every second, at most ``timeout_s``)."""
    deadline = time.monotonic() + timeout_s
    result = None
    while time.monotonic() < deadline:
        result = probe()
        if done(result):
            return result
        if not worker.alive():
            raise AssertionError(f"worker exited while waiting for {what}:\n{worker.tail()}")
        time.sleep(1.0)  # the poll interval of a condition, not a wait for an outcome
    raise AssertionError(f"timed out waiting for {what} (last: {_describe(result)}):\n{worker.tail(5)}")


def _describe(result: Any) -> str:
    if not isinstance(result, state_record.Decoded):
        return repr(result)[:200]
    return f"{len(json.dumps(result.state))} bytes of state JSON in {len(result.parts)} parts, offsets {result.offsets}"


def _committed_to_end(kafka: KafkaSettings, group: str, topics: list[str]) -> bool:
    """Whether ``group`` committed every partition of ``topics`` up to its end."""
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer(kafka.confluent(**{"group.id": group, "enable.auto.commit": False}))
    try:
        wanted = [TopicPartition(t, p) for t in topics for p in range(kafka.partitions)]
        ends = {(tp.topic, tp.partition): consumer.get_watermark_offsets(tp, timeout=10)[1] for tp in wanted}
        committed = consumer.committed(wanted, timeout=10)
        return all(c.offset >= ends[(c.topic, c.partition)] for c in committed if ends[(c.topic, c.partition)] > 0)
    finally:
        consumer.close()


def test_a_restarted_worker_resumes_a_job_state_saved_in_parts(kafka: KafkaSettings, tmp_path: Path) -> None:
    events = simulate(FleetConfig(nodes=16, jobs=1, nodes_per_job=16, duration_s=60.0, seed=3, cluster="parts"),
                      []).events
    assert isinstance(events[0], JobEvent) and events[0].job_id == JOB
    cut = next(i for i, e in enumerate(events) if e.event_time >= events[0].event_time + timedelta(seconds=45))
    app_id = f"{kafka.namespace}parts"
    inputs = sorted({kafka.topic(name) for stage in topology.build().stages for name in stage.inputs})

    first = WorkerProcess(kafka, tmp_path / "first.log", app_id=app_id, instance_id="w1", extra_args=SPLIT_SMALL)
    try:
        first.wait_ready()
        with EventProducer(kafka) as producer:
            producer.send_all(events[:cut])
        _wait("everything sent committed", lambda: _committed_to_end(kafka, app_id, inputs), bool, 300, first)
        _wait("a job record in parts", lambda: _job_record(kafka, app_id), lambda r: r and r.parts, 120, first)
    finally:
        first.proc.kill()  # a crash: nothing flushed or committed on the way out
        first.stop()
    saved = _job_record(kafka, app_id)  # what the second worker finds
    assert saved is not None and saved.parts and saved.state["stages"][0]["placement"]

    second = WorkerProcess(kafka, tmp_path / "second.log", app_id=app_id, instance_id="w1", extra_args=SPLIT_SMALL)
    try:
        second.wait_ready()
        with EventProducer(kafka) as producer:
            producer.send_all([e for e in events[cut:] if not isinstance(e, JobEvent)])  # no lifecycle after the kill
        _wait("the rest committed", lambda: _committed_to_end(kafka, app_id, inputs), bool, 300, second)
        resumed = _wait("a record saved by the second worker", lambda: _job_record(kafka, app_id), lambda r: r and any(
            r.offsets.get(k, -1) > v for k, v in saved.offsets.items()), 120, second)
    finally:
        second.stop()
    assert resumed.parts, "still saved in parts"
    assert resumed.state["stages"][0]["placement"] == saved.state["stages"][0]["placement"]
    lifecycle = [k for k in saved.offsets if k.startswith(kafka.topic("jobs.lifecycle"))]
    assert lifecycle and all(resumed.offsets[k] == saved.offsets[k] for k in lifecycle)  # not read again
    assert "cannot be loaded" not in second.log_path.read_text(errors="replace")
    latest = _changelog(kafka, app_id)  # replaced parts were deleted (tombstones), none left behind
    final = state_record.decode(latest[JOB], lambda digest: latest.get(state_record.part_key(JOB, digest)))
    kept = {k for k, v in latest.items() if v is not None and state_record.part_owner(k) is not None}
    assert kept == {state_record.part_key(JOB, digest) for digest in final.parts}
    assert any(v is None for v in latest.values()), "tombstones of replaced parts"
