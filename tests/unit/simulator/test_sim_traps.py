"""Traps that look a bit like hangs but are not: long checkpoints and evaluations."""

from __future__ import annotations

from sim_kit import between, of, sc, small

from producers.simulator import Run
from producers.simulator.stacks import CHECKPOINT
from schemas import CollectiveProgress, GpuSample, JobEvent, LogLine, NetSample, StackSample, StepProgress


def _window(run: Run, kind: str) -> tuple[float, float]:
    (truth,) = [t for t in run.truth if t.kind == kind]
    assert truth.end is not None
    start = (truth.onset - run.config.start_utc).total_seconds()
    return start, (truth.end - run.config.start_utc).total_seconds()


def test_long_checkpoint_pauses_everything_without_collectives_in_flight() -> None:
    run = small(sc.LongCheckpoint(job=0, at_s=400, duration_s=180))
    start, end = _window(run, "trap_checkpoint")
    assert 400 <= start < 402 and end - start == 180
    inside = (start + 1, end - 1)
    assert between(of(run, StepProgress), run, *inside) == []
    assert between(of(run, LogLine, lambda e: e.source == "training"), run, *inside) == []
    stacks = between(of(run, StackSample), run, *inside)
    assert stacks and {e.frames for e in stacks} == {CHECKPOINT}
    colls = between(of(run, CollectiveProgress), run, *inside)
    assert colls and all(e.in_flight_op is None for e in colls)
    gpus = between(of(run, GpuSample), run, start + 5, end - 1)
    assert all(g.util_pct <= 5 for s in gpus for g in s.gpus)
    marks = [(e.kind, e.detail) for e in of(run, JobEvent) if e.kind.startswith("checkpoint")]
    assert ("checkpoint_started", "trap") in marks and ("checkpoint_completed", "trap") in marks
    assert of(run, JobEvent)[-1].kind == "finished"
    nets = between(of(run, NetSample, lambda e: e.node_id == "node-0001"), run, start + 6, end)
    moved = nets[-1].ports[0].tx_bytes_total - nets[0].ports[0].tx_bytes_total
    assert moved < 0.05 * 1.6e9 * (end - start)


def test_long_eval_keeps_collectives_completing() -> None:
    run = small(sc.LongEval(job=0, at_s=200, duration_s=120))
    start, end = _window(run, "trap_eval")
    assert between(of(run, StepProgress), run, start + 1, end - 1) == []
    dp = between(of(run, CollectiveProgress, lambda e: e.rank == 5 and e.comm_group == "dp"),
                 run, start + 1, end - 1)
    assert dp[-1].last_completed_seq > dp[0].last_completed_seq + 50
    assert all(e.in_flight_op is None for e in dp)
    frames = {e.frames for e in between(of(run, StackSample), run, start + 1, end - 1)}
    # a forward pass is sampled in different layers (issue 14: stacks move during evaluation)
    assert len(frames) >= 3 and all(any("evaluate" in f for f in fr) for fr in frames)
    utils = [g.util_pct for s in between(of(run, GpuSample), run, start + 5, end - 1)
             for g in s.gpus]
    assert 30 < min(utils) and max(utils) < 80
    lines = [e.line for e in of(run, LogLine, lambda e: e.source == "training")]
    assert any(line.startswith("evaluating") for line in lines)
    assert any("validation loss at iteration" in line for line in lines)
    assert of(run, StepProgress)[-1].event_time.timestamp() > run.config.start_utc.timestamp() + end


def test_trap_waits_for_the_checkpoint_that_is_running() -> None:
    run = small(sc.LongEval(job=0, at_s=330, duration_s=30))
    start, _ = _window(run, "trap_eval")
    assert start >= 353
