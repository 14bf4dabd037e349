"""Hang scenarios: every signal a detector votes on, and the localisation evidence."""

from __future__ import annotations

from sim_kit import at, between, of, sc, small

from producers.simulator import Run
from schemas import CollectiveProgress, GpuSample, JobEvent, LogLine, NetSample, StackSample, StepProgress

ONSET = 400.0


def _hang(source: str = "single", **kw: object) -> Run:
    return small(sc.Hang(job=0, at_s=ONSET, source=source, **kw))  # type: ignore[arg-type]


def _truth(run: Run) -> tuple[int, ...]:
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    assert truth.onset == at(run, ONSET)
    return truth.ranks


def test_progress_and_logs_stop_at_onset() -> None:
    run = _hang()
    assert of(run, StepProgress, lambda e: e.event_time > at(run, ONSET + 1)) == []
    training = of(run, LogLine, lambda e: e.source == "training")
    assert between(training, run, ONSET + 1, 900) == []
    assert len(between(training, run, ONSET - 60, ONSET)) >= 5
    kinds = {e.kind for e in of(run, JobEvent)}
    assert "finished" not in kinds and "failed" not in kinds


def test_single_source_is_behind_and_everyone_else_waits() -> None:
    run = _hang()
    (source,) = _truth(run)
    dp = between(of(run, CollectiveProgress, lambda e: e.comm_group == "dp"), run, ONSET + 30, 900)
    src = [e for e in dp if e.rank == source]
    rest = [e for e in dp if e.rank != source]
    assert src and rest
    assert all(e.in_flight_op is None and e.last_enqueued_seq == e.last_completed_seq for e in src)
    assert all(e.in_flight_op == "allreduce" and e.in_flight_since == at(run, ONSET) for e in rest)
    assert all(e.last_enqueued_seq == e.last_completed_seq + 1 for e in rest)
    assert max(e.last_enqueued_seq for e in src) < min(e.last_enqueued_seq for e in rest)


def test_single_source_stack_and_gpu_stand_out() -> None:
    run = _hang()
    (source,) = _truth(run)
    stacks = between(of(run, StackSample), run, ONSET + 10, 900)
    src_frames = {e.frames for e in stacks if e.rank == source}
    wait_frames = {e.frames for e in stacks if e.rank != source}
    assert len(src_frames) == 1 and len(wait_frames) == 1
    assert "all_reduce" in next(iter(wait_frames))[-1]
    assert "distributed" not in next(iter(src_frames))[-1]
    node, gpu = f"node-{source // 8 + 1:04d}", source % 8
    samples = between(of(run, GpuSample), run, ONSET + 10, 900)
    for s in samples:
        for g in s.gpus:
            if s.node_id == node and g.index == gpu:
                assert g.util_pct <= 2
            else:
                assert g.util_pct >= 99 and g.sm_active is not None and g.sm_active < 0.1


def test_rdma_counters_go_flat_on_every_node_of_the_job() -> None:
    run = _hang()
    for node in ("node-0001", "node-0004"):
        nets = between(of(run, NetSample, lambda e, node=node: e.node_id == node), run, ONSET + 6, 900)
        assert len(nets) > 10
        totals = {n.ports[0].tx_bytes_total for n in nets}
        assert totals == {nets[0].ports[0].tx_bytes_total}


def test_two_sources_on_two_nodes() -> None:
    run = _hang("two")
    ranks = _truth(run)
    assert len(ranks) == 2 and ranks[0] // 8 != ranks[1] // 8
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    assert len(truth.node_ids) == 2
    dp = between(of(run, CollectiveProgress, lambda e: e.comm_group == "dp"), run, ONSET + 30, 900)
    behind = {e.rank for e in dp if e.in_flight_op is None}
    assert behind == set(ranks)


def test_uniform_hang_has_no_outlier() -> None:
    run = _hang("uniform")
    assert _truth(run) == ()
    dp = between(of(run, CollectiveProgress, lambda e: e.comm_group == "dp"), run, ONSET + 30, 900)
    assert dp and all(e.in_flight_op == "allreduce" for e in dp)
    assert len({e.last_enqueued_seq for e in dp}) == 1
    stacks = between(of(run, StackSample), run, ONSET + 10, 900)
    assert len({e.frames for e in stacks}) == 1


def test_hang_with_duration_ends_in_watchdog_timeout_and_failure() -> None:
    run = _hang(duration_s=120)
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    assert truth.end == at(run, ONSET + 120)
    lines = [e.line for e in of(run, LogLine) if "Watchdog caught collective" in e.line]
    assert lines and "Timeout(ms)=120000" in lines[0]
    failed = of(run, JobEvent, lambda e: e.kind == "failed")
    assert len(failed) == 1 and failed[0].event_time > at(run, ONSET + 120)
    assert of(run, StackSample, lambda e: e.event_time > at(run, ONSET + 121)) == []
