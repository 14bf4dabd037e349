"""The event stream as a whole: determinism, order, completeness, validity, layout."""

from __future__ import annotations

from collections import Counter

import pytest
from sim_kit import SMALL, of, sc, small

from producers.simulator import FleetConfig, iter_events, simulate
from schemas import (
    EVENT_KINDS,
    CollectiveProgress,
    GpuSample,
    JobEvent,
    LogLine,
    NetSample,
    StackSample,
    StepProgress,
    decode,
    encode,
)

TELEMETRY = {"gpu_sample", "net_sample", "log_line", "stack_sample", "collective_progress",
             "job_event", "step_progress"}


def _bytes(config: FleetConfig, scenarios: list[object]) -> list[bytes]:
    return [encode(e) for e in simulate(config, scenarios).events]  # type: ignore[arg-type]


def test_same_seed_same_bytes_and_other_seed_differs() -> None:
    config = FleetConfig(nodes=2, duration_s=200, seed=5)
    scen = [sc.Hang(job=0, at_s=120, source="single"), sc.Heterogeneity(job=0)]
    first, second = _bytes(config, scen), _bytes(config, scen)
    assert first == second
    other = _bytes(FleetConfig(nodes=2, duration_s=200, seed=6), scen)
    assert other != first


def test_iterator_yields_the_same_events_as_simulate() -> None:
    config = FleetConfig(nodes=2, duration_s=150, seed=9)
    streamed = [encode(e) for e in iter_events(config, [sc.Oom(job=0, rank=3, at_s=100)])]
    assert streamed == _bytes(config, [sc.Oom(job=0, rank=3, at_s=100)])


def test_every_telemetry_kind_is_present() -> None:
    kinds = Counter(e.KIND for e in small().events)
    assert TELEMETRY <= set(kinds)
    sources = {e.source for e in of(small(), LogLine)}
    assert sources == {"training", "nccl", "kernel", "system"}


def test_sorted_by_event_time_then_id_and_inside_the_run() -> None:
    run = small(sc.Hang(job=0, at_s=500, source="two"))
    keys = [(e.event_time, e.event_id) for e in run.events]
    assert keys == sorted(keys)
    assert len({e.event_id for e in run.events}) == len(run.events)
    assert run.events[0].event_time >= SMALL.start_utc
    assert run.events[-1].event_time < SMALL.at(SMALL.duration_ms)


def test_every_event_survives_the_wire_codec() -> None:
    run = small(sc.SlowNode(job=0, node=1, at_s=300), sc.Xid(node=0, gpu=0, xid=79, at_s=700))
    for event in run.events[::7]:
        back = decode(encode(event))
        assert back == event, back
        assert EVENT_KINDS[event.schema_name()] is type(event)


def test_scheduled_placement_matches_the_ranks_that_report() -> None:
    run = small()
    (scheduled,) = of(run, JobEvent, lambda e: e.kind == "scheduled")
    where = {p.rank: p.node_id for p in scheduled.placement}
    assert sorted(where) == list(range(32))
    assert where[0] == "node-0001" and where[8] == "node-0002" and where[31] == "node-0004"
    ranked = [(e.rank, e.node_id) for e in of(run, StepProgress)[:500]]
    ranked += [(e.rank, e.node_id) for e in of(run, StackSample)[:500]]
    ranked += [(e.rank, e.node_id) for e in of(run, CollectiveProgress)[:500]]
    assert len(ranked) == 1500 and all(where[rank] == node for rank, node in ranked)


def test_healthy_lifecycle_checkpoints_and_finish() -> None:
    kinds = [e.kind for e in of(small(), JobEvent)]
    assert kinds[:4] == ["submitted", "scheduled", "initialized", "running"]
    assert kinds.count("checkpoint_started") == kinds.count("checkpoint_completed") == 2
    assert kinds[-1] == "finished"
    steps = [e.step for e in of(small(), JobEvent, lambda e: e.kind == "checkpoint_completed")]
    assert all(s is not None and s > 0 for s in steps)


def test_step_progress_adds_up_and_is_every_tenth_step() -> None:
    reports = of(small(), StepProgress)
    assert {r.step % 10 for r in reports} == {0}
    for r in reports[:2000]:
        assert r.compute_ms is not None and r.comm_wait_ms is not None
        assert r.compute_ms + r.comm_wait_ms == pytest.approx(r.step_time_ms, abs=0.01)
    ranks_per_step = Counter(r.step for r in reports)
    assert set(ranks_per_step.values()) == {32}


def test_healthy_gpu_and_network_look_like_training() -> None:
    run = small()
    sample = of(run, GpuSample, lambda e: e.event_time > run.config.at(200_000))[0]
    assert len(sample.gpus) == 8
    for g in sample.gpus:
        assert 95 <= g.util_pct <= 100 and g.sm_active is not None and 0.6 <= g.sm_active <= 0.8
        assert 600 * 0.99 <= g.power_w <= 700 and 55 <= g.temp_c <= 80
        assert g.throttle_reasons == 0
    nets = of(run, NetSample, lambda e: e.node_id == "node-0002")
    a, b = nets[30], nets[31]
    seconds = (b.event_time - a.event_time).total_seconds()
    rate = (b.ports[0].tx_bytes_total - a.ports[0].tx_bytes_total) / seconds
    assert 3e8 < rate < 5e9
    assert len(a.ports) == 4 and {p.device for p in a.ports} == {f"mlx5_{i}" for i in range(4)}


def test_stacks_vary_while_training() -> None:
    run = small()
    frames = {e.frames for e in of(run, StackSample, lambda e: e.rank == 3)[:60]}
    assert len(frames) >= 3


def test_collective_sequence_advances_with_steps() -> None:
    dp = of(small(), CollectiveProgress, lambda e: e.rank == 0 and e.comm_group == "dp")
    seqs = [e.last_completed_seq for e in dp]
    assert seqs == sorted(seqs) and seqs[-1] > seqs[0] + 100
    assert {e.comm_group for e in of(small(), CollectiveProgress)} == {"dp", "tp"}


def test_big_run_generation_counts_are_proportional() -> None:
    run = simulate(FleetConfig(nodes=16, jobs=2, duration_s=60, seed=1), [])
    kinds = Counter(e.KIND for e in run.events)
    assert kinds["gpu_sample"] == 16 * 12
    jobs = {e.job_id for e in of(run, StepProgress)}
    assert jobs == {"job-0000", "job-0001"}


def test_a_simulation_can_be_replayed() -> None:
    from producers.simulator import Simulation
    sim = Simulation(FleetConfig(nodes=2, duration_s=100, seed=2), [sc.Hang(job=0, at_s=50)])
    first = [encode(e) for e in sim.events()]
    assert first == [encode(e) for e in sim.events()]
