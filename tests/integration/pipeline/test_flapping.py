"""Through the real broker: a repaired node reappears in a placement, fails again, and the guards
stage of the running worker flags it as flapping (it needs the lifecycle, which it now gets)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from producers.kafka import EventProducer, send_paced
from schemas import Decision, Event, GpuSample, JobEvent, LogLine, Placement, StepProgress, decode
from schemas.settings import KafkaSettings

pytestmark = pytest.mark.integration
T0 = datetime(2026, 11, 22, 9, tzinfo=UTC)
XID_79 = "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus."


def at(s: float) -> datetime:
    return T0 + timedelta(seconds=s)


def _job(job: str, s: float, nodes: list[str]) -> list[Event]:
    """A job scheduled at ``s`` on ``nodes`` and running, with a step a second on its last node
    and every node's agent sampling its GPUs every 5 s."""
    placement = tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes))
    events: list[Event] = [
        JobEvent(event_id=f"{job}-sched", event_time=at(s), cluster="flap", job_id=job, attempt=0,
                 kind="scheduled", placement=placement),
        JobEvent(event_id=f"{job}-run", event_time=at(s + 1), cluster="flap", job_id=job, attempt=0, kind="running"),
    ]
    events += [StepProgress(event_id=f"{job}-step{i}", event_time=at(s + 2 + i), cluster="flap", job_id=job,
                            node_id=nodes[-1], rank=len(nodes) - 1, step=i, step_time_ms=1000.0) for i in range(150)]
    events += [GpuSample(event_id=f"{job}-{node}-gpu{i}", event_time=at(s + 5 * i), cluster="flap", node_id=node,
                         gpus=()) for node in nodes for i in range(31)]
    return sorted(events, key=lambda e: e.event_time)


def _restart_without(job: str, s: float, nodes: list[str]) -> JobEvent:
    """The job restarts (attempt 1) on ``nodes``: the failed node is out of its placement."""
    return JobEvent(event_id=f"{job}-restart", event_time=at(s), cluster="flap", job_id=job, attempt=1,
                    kind="restarting", placement=tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes)))


def _xid(s: float, node: str) -> LogLine:
    return LogLine(event_id=f"xid-{node}-{s}", event_time=at(s), cluster="flap", node_id=node, source="kernel",
                   line=XID_79)


def _decisions(messages: list[tuple[str | None, bytes]]) -> list[Decision]:
    return [d for _, raw in messages if isinstance(d := decode(raw), Decision)]


def test_a_node_that_fails_again_after_its_repair_is_flagged_flapping(kafka: KafkaSettings, worker: Any,
                                                                      consume: Any) -> None:
    with EventProducer(kafka) as producer:
        producer.send_all([*_job("j1", 0, ["n1", "n2"]), _xid(60, "n1")])
    first = _decisions(consume(kafka, "decisions", timeout_s=180, stop_when=lambda m: any(
        d.action == "replace_nodes" for d in _decisions(m))))
    assert [d.nodes for d in first if d.action == "replace_nodes"] == [("n1",)], worker.tail()

    # j1 restarted without n1; n1 was repaired and is placed again, in another job, where its
    # GPU falls off the bus again. Sent at 10x their own pace, as a fleet would send them
    # (all at once, n1's new samples could outrun its new placement through the lifecycle hop)
    with EventProducer(kafka) as producer:
        send_paced(producer, sorted([_restart_without("j1", 100, ["n4", "n2"]), *_job("j2", 600, ["n1", "n3"]),
                                     _xid(700, "n1")], key=lambda e: e.event_time), speed=10.0)

    def flagged(messages: list[tuple[str | None, bytes]]) -> bool:
        actions = {d.action for d in _decisions(messages) if d.guard is not None and d.guard.rule == "flapping_node"}
        return actions >= {"replace_nodes", "notify"}

    decided = _decisions(consume(kafka, "decisions", timeout_s=180, stop_when=flagged))
    flapping = [d for d in decided if d.guard is not None and d.guard.rule == "flapping_node"]
    assert {d.action for d in flapping} == {"replace_nodes", "notify"}, worker.tail()
    again = next(d for d in flapping if d.action == "replace_nodes")
    assert again.job_id == "j2" and again.nodes == ("n1",) and again.block_scope == "cluster", flapping
