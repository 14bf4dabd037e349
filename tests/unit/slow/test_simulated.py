"""The detector on the shared fleet simulator's jobs (thermal and NIC slow nodes, noise)."""

from __future__ import annotations

from typing import Any

import pytest
from slow_synth import run_detector

from schemas import Event, JobEvent, StepProgress

simulator = pytest.importorskip("producers.simulator", reason="the fleet simulator is not built")
sc = pytest.importorskip("producers.simulator.scenarios")


def simulate(nodes: int, duration_s: float, scenarios: list[Any], seed: int = 11) -> Any:
    config = simulator.FleetConfig(nodes=nodes, gpus_per_node=8, jobs=1, duration_s=duration_s,
                                   seed=seed, cluster="sim")
    return simulator.simulate(config, scenarios)


def onset_of(run: Any) -> Any:
    return next(t.onset for t in run.truth if t.kind == "slow_node")


def steps_only(events: list[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, StepProgress | JobEvent)]


@pytest.mark.parametrize(
    ("nodes", "cause", "spread", "only_steps"),
    [(8, "thermal", 0.05, True), (64, "thermal", 0.0, True), (8, "nic", 0.05, False),
     (24, "nic", 0.0, False), (16, "thermal", 0.05, False)],
)
def test_a_125x_slow_node_is_caught_within_two_minutes(
    nodes: int, cause: str, spread: float, only_steps: bool
) -> None:
    scenarios: list[Any] = [
        sc.SlowNode(job=0, node=nodes // 2, at_s=300, slowdown=1.25, cause=cause)
    ]
    if spread:
        scenarios.append(sc.Heterogeneity(job=0, spread=spread))
    run = simulate(nodes, 480, scenarios)
    events = steps_only(run.events) if only_steps else run.events
    out = run_detector(events)
    truth = next(t for t in run.truth if t.kind == "slow_node")
    assert [o.node_id for o in out] == list(truth.node_ids)
    latency = (out[0].detected_at - onset_of(run)).total_seconds()
    assert 0 <= latency <= 120
    expected = {"rdma_rate"} if cause == "nic" else {"compute_ms", "throttle", "temp_c"}
    assert out[0].metric in ({"compute_ms"} if only_steps else expected)


def test_a_multi_job_fleet_blames_the_right_job() -> None:
    from tests.bench.slow_eval import detect

    run_jobs = simulator.FleetConfig(nodes=24, jobs=3, duration_s=480, seed=11, cluster="sim")
    run = simulator.simulate(run_jobs, [sc.SlowNode(job=1, node=2, at_s=240, slowdown=1.3)])
    truth = next(t for t in run.truth if t.kind == "slow_node")
    out = detect(run.events)
    assert [(o.job_id, o.node_id) for o in out] == [(truth.job_id, truth.node_ids[0])]


@pytest.mark.parametrize(("nodes", "spread"), [(8, 0.0), (16, 0.05), (32, 0.08)])
def test_healthy_and_heterogeneous_runs_are_silent(nodes: int, spread: float) -> None:
    scenarios = [sc.Heterogeneity(job=0, spread=spread)] if spread else []
    run = simulate(nodes, 1200, scenarios, seed=nodes)
    assert run_detector(run.events) == []
