"""Event-time reordering and node -> job routing, the glue shared by replay and agents."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from schemas import Fault, JobEvent, LogLine, Placement
from streams.core.detector import Forward
from streams.core.reorder import ReorderBuffer
from streams.core.routing import LifecycleFanout, NodeRouter, classify_key, job_key

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


def _route(router: NodeRouter, state: object, event: object) -> list[tuple[str, str]]:
    state, out = router.step(state, event)  # type: ignore[arg-type]
    return [(o.topic, o.key) for o in out if isinstance(o, Forward)]


def _drain(router: NodeRouter, state: object) -> list[tuple[str, str]]:
    _, out = router.flush(state, datetime.max.replace(tzinfo=UTC))  # type: ignore[arg-type]
    return [(o.topic, o.key) for o in out if isinstance(o, Forward)]


def _per_node(job_event: JobEvent) -> dict[str, JobEvent]:
    _, out = LifecycleFanout().step(LifecycleFanout().initial(), job_event)
    return {o.key: o.event for o in out if isinstance(o, Forward) and o.topic == "placements.feed"}  # type: ignore[misc]


def test_lifecycle_splits_a_placement_per_node() -> None:
    fan = LifecycleFanout()
    state, out = fan.step(fan.initial(), _scheduled("j1", ["n1", "n2"]))
    targets = sorted((o.topic, o.key) for o in out if isinstance(o, Forward))
    assert targets == [("placements.feed", "n1"), ("placements.feed", "n2")]
    n2 = next(o.event for o in out if isinstance(o, Forward) and o.key == "n2")
    assert [p.node_id for p in n2.placement] == ["n2"]  # type: ignore[attr-defined]
    state, out = fan.step(state, JobEvent(event_id="y", event_time=T0, cluster="c", job_id="j1", attempt=0,
                                          kind="finished"))
    assert sorted(o.key for o in out if isinstance(o, Forward) and o.topic == "placements.feed") == ["n1", "n2"]


def _at(event: Fault, sec: float) -> Fault:
    return event.model_copy(update={"event_time": T0 + timedelta(seconds=sec)})


def test_router_sends_node_faults_to_the_job_that_held_the_node_at_their_time() -> None:
    router = NodeRouter()
    state = router.initial()
    assert _route(router, state, _per_node(_scheduled("j1", ["n1", "n2"]))["n2"]) == []
    assert _route(router, state, _fault("n2", "j9")) == [("jobs.feed", "j9")]  # names its job: at once
    assert _route(router, state, _at(_fault("n2", None), 1)) == []  # waits hold_s of node event time
    assert _route(router, state, _at(_fault("n2", None), 20)) == [("jobs.feed", "j1")]
    failed = JobEvent(event_id="x", event_time=T0 + timedelta(seconds=30), cluster="c", job_id="j1", attempt=0,
                      kind="failed")
    finished = failed.model_copy(update={"kind": "finished", "event_time": T0 + timedelta(seconds=50)})
    # a failed job keeps its nodes; the fault at 20 s is attributed once node time passes 30 s
    assert _route(router, state, failed) + _route(router, state, finished) == [("jobs.feed", "j1")]
    _route(router, state, _at(_fault("n2", None), 60))
    assert _drain(router, state) == [] and state.dropped == 1  # after j1 finished: no job, dropped at the end


def test_a_learned_guess_never_reaches_a_jobs_pipeline() -> None:
    router = NodeRouter()
    state = router.initial()
    _route(router, state, _per_node(_scheduled("j1", ["n1"]))["n1"])
    guess = _fault("n1", "j1").model_copy(update={"rule_id": "learned.storage_io"})
    assert guess.learned and not _fault("n1", "j1").learned
    assert _route(router, state, guess) == []
    assert _route(router, state, _at(guess.model_copy(update={"job_id": None}), 30)) == []
    assert _drain(router, state) == [] and state.dropped == 0  # left out on purpose, not dropped for want of a job
    assert _route(router, state, _fault("n1", "j1")) == [("jobs.feed", "j1")]


def test_a_placement_read_after_a_sample_of_the_same_moment_still_counts() -> None:
    router = NodeRouter()
    state = router.initial()
    assert _route(router, state, _per_node(_scheduled("j1", ["n1"]))["n1"]) == []
    moved = _scheduled("j2", ["n1"]).model_copy(update={"event_time": T0 + timedelta(seconds=600)})
    fault = _at(_fault("n1", None), 605)
    assert _route(router, state, fault) == []  # read before j2's placement, which races it
    assert _route(router, state, _per_node(moved)["n1"]) == []
    assert _drain(router, state) == [("jobs.feed", "j2")]


def test_router_state_survives_dump_and_load() -> None:
    router = NodeRouter()
    state = router.initial()
    _route(router, state, _per_node(_scheduled("j1", ["n1"]))["n1"])
    _route(router, state, _gpu(3, "g3"))  # type: ignore[arg-type]
    restored = router.load(router.dump(state))
    assert [e.event_id for e in restored.pending] == ["g3"] and restored.job_at(T0) == "j1"
    assert _drain(router, restored) == [("jobs.feed", "j1")]


def test_kernel_lines_go_to_the_classifier_only() -> None:
    kernel = _line(0, "k", source="kernel")
    assert job_key("telemetry.kernel", kernel, "n1") is None
    assert classify_key("telemetry.kernel", kernel, "n1") == "kernel|n1"
    assert classify_key("telemetry.log", _line(0, "t"), "j1") == "log|j1"


def _gpu(sec: float, eid: str) -> object:
    from schemas import GpuSample

    return GpuSample(event_id=eid, event_time=T0 + timedelta(seconds=sec), cluster="c", node_id="n1", gpus=())


def test_a_lagging_periodic_source_holds_the_watermark_until_its_path_is_idle() -> None:
    buf = ReorderBuffer()
    skew, path_skew = timedelta(seconds=60), timedelta(seconds=180)
    assert buf.push(_gpu(0, "g0"), LATE, skew, path_skew) == []  # type: ignore[arg-type]
    # logs race ahead while GPU samples (re-keyed through another topic) lag behind
    assert buf.push(_line(30, "a"), LATE, skew, path_skew) == []
    assert buf.push(_line(50, "b"), LATE, skew, path_skew) == []
    assert _ids(buf.push(_gpu(45, "g1"), LATE, skew, path_skew)) == ["g0", "a"]  # type: ignore[arg-type]
    # a backlog drained fast: the node path lags by more than max_skew but keeps the order
    assert buf.push(_line(200, "c"), LATE, skew, path_skew) == []
    # a node path silent for longer than path_skew is idle: it no longer holds anything back
    assert _ids(buf.push(_line(300, "d"), LATE, skew, path_skew)) == ["g1", "b", "c"]


def test_within_a_path_a_silent_node_is_idle_after_max_skew() -> None:
    from schemas import GpuSample

    def gpu(sec: float, node: str) -> GpuSample:
        return GpuSample(event_id=f"{node}-{sec}", event_time=T0 + timedelta(seconds=sec), cluster="c",
                         node_id=node, gpus=())

    buf = ReorderBuffer()
    skew = timedelta(seconds=60)
    buf.push(gpu(0, "dead"), LATE, skew)
    released = []
    for sec in range(5, 100, 5):
        released += _ids(buf.push(gpu(sec, "alive"), LATE, skew))
    # the dead node's last sample was at 0: once the alive node is 60 s ahead, it holds nothing
    assert "alive-80" in released and "dead-0" in released
    again = ReorderBuffer.load(buf.dump())
    assert _ids(again.push(gpu(100, "alive"), LATE, skew)) == ["alive-90"]


def test_a_redelivered_duplicate_is_dropped_but_a_new_version_of_an_id_is_kept() -> None:
    buf = ReorderBuffer()
    line = _line(1, "dup")
    assert buf.push(line, LATE) == [] and buf.push(line, LATE) == []  # a re-read: the same event again
    changed = line.model_copy(update={"line": "the same id, other content"})
    assert buf.push(changed, LATE) == []
    assert buf.duplicates == 1
    assert [e.line for e in ReorderBuffer.load(buf.dump()).drain()] == [line.line, changed.line]  # type: ignore[attr-defined]
    assert _ids(buf.drain()) == ["dup", "dup"]


def test_a_node_path_whose_first_samples_came_late_holds_the_watermark_from_then_on() -> None:
    """Node samples reach a job through the route hop, after its first job-path events: the
    first ones are late, but the path must hold the watermark afterwards, or every later
    sample would be late too (and processed out of order)."""
    from schemas import GpuSample

    def gpu(sec: float) -> GpuSample:
        return GpuSample(event_id=f"gpu-{sec}", event_time=T0 + timedelta(seconds=sec), cluster="c",
                         node_id="n1", gpus=())

    buf = ReorderBuffer()
    for sec in range(0, 30):
        buf.push(_line(sec, f"log-{sec}"), LATE)  # the job path runs ahead: nothing holds it yet
    assert buf.push(gpu(5), LATE) == [gpu(5)] and buf.late == 1  # late, but now the node path is known
    released = [e.event_id for sec in range(31, 40) for e in buf.push(_line(sec, f"log-{sec}"), LATE)]
    assert released == []  # held: the node path is at 5 s
    released = [e.event_id for e in buf.push(gpu(45), LATE)]  # the node path moves on: 45 - 10 s of lateness
    assert released == [f"log-{sec}" for sec in (*range(20, 30), *range(31, 36))] and buf.late == 1


def _sample(kind: str, sec: float, node: str) -> object:
    from schemas import CollectiveProgress, GpuSample

    at = T0 + timedelta(seconds=sec)
    if kind == "gpu":
        return GpuSample(event_id=f"{node}-gpu-{sec}", event_time=at, cluster="c", node_id=node, gpus=())
    return CollectiveProgress(event_id=f"{node}-coll-{sec}", event_time=at, cluster="c", node_id=node, job_id="j1",
                              rank=0, comm_group="g", last_enqueued_seq=1, last_completed_seq=1)


def test_a_node_whose_clock_runs_far_ahead_neither_idles_the_others_nor_leads_the_watermark() -> None:
    # issue 14: one node minutes ahead made every other source lag "the newest" by more than
    # max_skew, so they were idle, its clock became the job's and everything else arrived late
    buf = ReorderBuffer()
    skew = timedelta(seconds=60)
    released = []
    for sec in range(0, 200, 5):
        for node in ("n1", "n2", "n3"):
            released += buf.push(_sample("gpu", sec, node), LATE, skew)  # type: ignore[arg-type]
        released += buf.push(_sample("gpu", sec + 120, "ahead"), LATE, skew)  # type: ignore[arg-type]
    assert buf.late == 0
    times = [e.event_time for e in released]
    assert times == sorted(times)  # in order: the ahead node's samples wait for the others
    assert max(times) <= T0 + timedelta(seconds=195)


def test_a_node_silent_on_both_paths_is_dead_within_seconds_on_one_path_a_little_later() -> None:
    skew, path_skew, dead = timedelta(seconds=60), timedelta(seconds=300), timedelta(seconds=15)

    def run(kinds: tuple[str, ...]) -> float:
        """Seconds after the dead node's last samples until the others' are released past it."""
        buf = ReorderBuffer()
        for sec in range(0, 200, 5):
            for node in ("n1", "n2", "n3", "dead"):
                if node == "dead" and sec > 50:
                    continue
                for kind in kinds:
                    for out in buf.push(_sample(kind, sec, node), LATE, skew, path_skew, dead):  # type: ignore[arg-type]
                        if out.event_time > T0 + timedelta(seconds=55):
                            return float(sec - 50)
        raise AssertionError("never released")

    assert run(("gpu", "coll")) <= 25  # 15 s of silence (three 5 s intervals) + lateness
    assert 30 <= run(("gpu",)) <= 40  # GPU samples alone: maybe a lagging re-keying hop, so twice that


def test_a_dead_node_is_judged_by_its_own_sampling_interval() -> None:
    buf = ReorderBuffer()
    skew, path_skew, dead = timedelta(seconds=120), timedelta(seconds=300), timedelta(seconds=15)
    released: list[object] = []
    for sec in range(0, 300, 30):  # samples every 30 s (dcgm-exporter's default interval)
        for node in ("n1", "n2", "n3", "n4"):
            for kind in ("gpu", "coll"):
                released += buf.push(_sample(kind, sec, node), LATE, skew, path_skew, dead)  # type: ignore[arg-type]
    assert buf.late == 0  # 30 s between samples is no death
    assert ReorderBuffer.load(buf.dump()).source_gap_us == buf.source_gap_us
