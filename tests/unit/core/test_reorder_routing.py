"""Event-time reordering and node -> job routing, the glue shared by replay and agents."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from schemas import Fault, JobEvent, LogLine, Placement
from streams.core.reorder import ReorderBuffer
from streams.core.routing import Placements, classify_key, job_of

T0 = datetime(2026, 11, 22, tzinfo=UTC)
LATE = timedelta(seconds=10)


def _line(sec: float, eid: str, source: str = "training") -> LogLine:
    return LogLine(event_id=eid, event_time=T0 + timedelta(seconds=sec), cluster="c",
                   node_id="n1", job_id="j1", source=source, line=eid)  # type: ignore[arg-type]


def _ids(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.event_id for e in events]


def test_buffer_releases_in_event_time_order_after_lateness() -> None:
    buf = ReorderBuffer()
    assert buf.push(_line(5, "b"), LATE) == []
    assert buf.push(_line(1, "a"), LATE) == []
    released = buf.push(_line(16, "c"), LATE)
    assert _ids(released) == ["a", "b"]
    assert _ids(buf.drain()) == ["c"]


def test_late_event_is_released_immediately_and_counted() -> None:
    buf = ReorderBuffer()
    buf.push(_line(1, "a"), LATE)
    buf.push(_line(30, "z"), LATE)
    assert _ids(buf.push(_line(0.5, "late"), LATE)) == ["late"]
    assert buf.late == 1


def test_buffer_survives_dump_and_load() -> None:
    buf = ReorderBuffer()
    for sec, eid in [(3, "c"), (1, "a"), (2, "b")]:
        buf.push(_line(sec, eid), LATE)
    again = ReorderBuffer.load(buf.dump())
    assert _ids(again.drain()) == ["a", "b", "c"]


def _scheduled(job: str, nodes: list[str], kind: str = "scheduled") -> JobEvent:
    return JobEvent(event_id=f"s-{job}-{kind}", event_time=T0, cluster="c", job_id=job, attempt=0,
                    kind=kind,  # type: ignore[arg-type]
                    placement=tuple(Placement(rank=i, node_id=n) for i, n in enumerate(nodes)))


def _fault(node: str | None, job: str | None) -> Fault:
    return Fault(event_id="f", fault_id="f", node_id=node, job_id=job, event_time=T0, cluster="c",
                 category="gpu_fallen_off_bus", family="gpu_hw", level="fault", blame="node",
                 rule_id="r", evidence="x", first_seen=T0, count=1)


def test_placements_route_node_faults_to_their_job_until_it_finishes() -> None:
    places = Placements()
    places.observe(_scheduled("j1", ["n1", "n2"]))
    assert job_of(_fault("n2", None), places) == "j1"
    assert job_of(_fault("n2", "j9"), places) == "j9"
    places.observe(JobEvent(event_id="x", event_time=T0, cluster="c", job_id="j1", attempt=0, kind="failed"))
    assert job_of(_fault("n1", None), places) == "j1"
    places.observe(JobEvent(event_id="y", event_time=T0, cluster="c", job_id="j1", attempt=0, kind="finished"))
    assert job_of(_fault("n1", None), places) is None


def test_kernel_lines_go_to_the_classifier_only() -> None:
    kernel = _line(0, "k", source="kernel")
    assert job_of(kernel, Placements()) is None
    assert classify_key(kernel) == "kernel|n1"
    assert classify_key(_line(0, "t")) == "log|j1"


def _gpu(sec: float, eid: str) -> object:
    from schemas import GpuSample

    return GpuSample(event_id=eid, event_time=T0 + timedelta(seconds=sec), cluster="c", node_id="n1", gpus=())


def test_a_lagging_periodic_source_holds_the_watermark_until_it_is_idle() -> None:
    buf = ReorderBuffer()
    skew = timedelta(seconds=60)
    assert buf.push(_gpu(0, "g0"), LATE, skew) == []  # type: ignore[arg-type]
    # logs race ahead while GPU samples (re-keyed through another topic) lag behind
    assert buf.push(_line(30, "a"), LATE, skew) == []
    assert buf.push(_line(50, "b"), LATE, skew) == []
    assert _ids(buf.push(_gpu(45, "g1"), LATE, skew)) == ["g0", "a"]  # type: ignore[arg-type]
    # a GPU source lagging by more than the skew is idle: it no longer holds anything back
    assert _ids(buf.push(_line(200, "c"), LATE, skew)) == ["g1", "b"]
