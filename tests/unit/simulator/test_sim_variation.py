"""Variation knobs: the simulated telemetry departs from the ideal fleet as asked (issue 14)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sim_kit import at, of, small

from producers.simulator import Run, Variation, parse_variation
from producers.simulator import scenarios as sc
from producers.simulator.cli import main
from schemas import CollectiveProgress, GpuSample, JobEvent, LogLine, NetSample, StackSample, StepProgress

HANG = sc.Hang(job=0, at_s=600, source="single")


def test_nvml_only_nulls_sm_active_and_keeps_util_and_power() -> None:
    gpus = [g for e in of(small(variation=Variation(sm_active=False)), GpuSample) for g in e.gpus]
    assert gpus and all(g.sm_active is None for g in gpus)
    assert max(g.util_pct for g in gpus) > 90 and max(g.power_w for g in gpus) > 500


def test_sources_can_be_switched_off() -> None:
    run = small(variation=Variation(stacks=False, flight_recorder=False, node_metrics=False))
    assert not of(run, StackSample) and not of(run, CollectiveProgress)
    assert not of(run, GpuSample) and not of(run, NetSample)
    assert of(run, StepProgress)


def test_missing_hooks_drop_running_and_checkpoint_events_only() -> None:
    kinds = {e.kind for e in of(small(variation=Variation(hooks=False)), JobEvent)}
    assert "scheduled" in kinds
    assert not kinds & {"running", "checkpoint_started", "checkpoint_completed"}


def test_unannounced_phases_drop_the_log_lines_and_keep_the_hooks() -> None:
    def saving(run: Run) -> list[LogLine]:
        return of(run, LogLine, lambda e: "checkpoint" in e.line)

    assert saving(small(checkpoint_duration_s=30))
    run = small(variation=Variation(announce=False), checkpoint_duration_s=30)
    assert not saving(run)
    assert of(run, JobEvent, lambda e: e.kind == "checkpoint_started")
    assert parse_variation("announce=false") == Variation(announce=False)


def test_async_checkpoint_keeps_training_between_its_hooks() -> None:
    run = small(variation=Variation(async_checkpoint=True), checkpoint_duration_s=60)
    started = of(run, JobEvent, lambda e: e.kind == "checkpoint_started")
    assert started
    t0 = started[0].event_time
    steps = of(run, StepProgress, lambda e: t0 < e.event_time < t0 + timedelta(seconds=55))
    assert len({e.step for e in steps}) >= 4  # progress reported every 10 steps of ~1 s


def test_rank0_writer_saves_while_the_others_wait_in_a_barrier() -> None:
    run = small(variation=Variation(checkpoint_writer="rank0"), checkpoint_duration_s=60)
    (first, *_) = of(run, JobEvent, lambda e: e.kind == "checkpoint_started")
    window = (first.event_time + timedelta(seconds=10), first.event_time + timedelta(seconds=50))
    stacks = of(run, StackSample, lambda e: window[0] <= e.event_time <= window[1])
    writer = [e for e in stacks if e.rank == 0]
    others = [e for e in stacks if e.rank != 0]
    assert writer and all("save" in e.frames[-2] for e in writer)
    assert len({e.frames for e in writer}) > 1  # the writer's stack moves
    assert others and all("barrier" in e.frames[-1] for e in others)
    colls = of(run, CollectiveProgress, lambda e: window[0] <= e.event_time <= window[1] and e.comm_group == "dp")
    assert all((e.in_flight_op is None) == (e.rank == 0) for e in colls)


@pytest.mark.parametrize("variant", range(4))
def test_real_waiter_frames_block_in_synchronize_item_wait_or_barrier(variant: int) -> None:
    run = small(sc.Hang(job=0, at_s=600, source="single", ranks=(3,)), variation=Variation(waiter_frames="real"),
                seed=100 + variant)
    waiting = of(run, StackSample, lambda e: e.event_time > at(run, 620) and e.rank != 3)
    inner = {e.frames[-1].split(" ")[0] for e in waiting}
    assert len(inner) == 1 and inner <= {"synchronize", "_local_scalar_dense", "wait", "barrier"}
    assert not any("all_reduce" in f for e in waiting for f in e.frames)


def test_storage_port_keeps_moving_during_a_hang() -> None:
    run = small(HANG, variation=Variation(storage_port=True))
    late = of(run, NetSample, lambda e: e.node_id == "node-0001" and e.event_time > at(run, 700))
    first, last = late[0], late[-1]
    moved = [(b.tx_bytes_total - a.tx_bytes_total) for a, b in zip(first.ports, last.ports, strict=True)]
    assert len(first.ports) == 5 and moved[-1] > 0 and all(m == 0 for m in moved[:-1])


def test_dead_node_stops_every_source_and_is_the_truth() -> None:
    run = small(sc.Hang(job=0, at_s=600, dead_node=2))
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    assert truth.node_ids == ("node-0003",) and truth.ranks == tuple(range(16, 24))
    after = [e for e in run.events if getattr(e, "node_id", None) == "node-0003" and e.event_time > truth.onset]
    assert after == []
    assert of(run, GpuSample, lambda e: e.node_id == "node-0001" and e.event_time > truth.onset)


def test_clock_skew_shifts_one_nodes_event_times_only() -> None:
    plain, skewed = small(), small(variation=Variation(skew_node=1, skew_s=4.0))
    a = [e for e in plain.events if getattr(e, "node_id", None) == "node-0002"]
    b = [e for e in skewed.events if getattr(e, "node_id", None) == "node-0002"]
    assert [e.event_time + timedelta(seconds=4) for e in a] == [e.event_time for e in b]
    other = [e.event_time for e in skewed.events if getattr(e, "node_id", None) == "node-0001"]
    assert other == [e.event_time for e in plain.events if getattr(e, "node_id", None) == "node-0001"]


def test_parse_variation_and_cli(tmp_path_factory: pytest.TempPathFactory) -> None:
    v = parse_variation("sm_active=false, waiter_frames=real, skew_node=2, skew_s=1.5")
    assert v == Variation(sm_active=False, waiter_frames="real", skew_node=2, skew_s=1.5)
    assert "sm_active=False" in v.describe() and Variation().describe() == "ideal"
    with pytest.raises(ValueError):
        parse_variation("nope=1")
    with pytest.raises(ValueError):
        Variation(checkpoint_writer="rank7")  # type: ignore[arg-type]
    out = tmp_path_factory.mktemp("vary") / "e.jsonl"
    assert main(["--nodes", "2", "--duration-s", "60", "--vary", "stacks=false", "--out", str(out)]) == 0
    assert '"stack_sample' not in out.read_text()
    assert main(["--nodes", "2", "--duration-s", "60", "--vary", "bogus=1", "--out", str(out)]) == 2
