"""Slow nodes (thermal and NIC) and per-node heterogeneity."""

from __future__ import annotations

from statistics import median

import pytest
from sim_kit import at, between, of, sc, small

from producers.simulator import Run
from schemas import GpuSample, JobEvent, NetSample, StepProgress

AT = 300.0


def _compute(run: Run, ranks: range, start: float, end: float) -> float:
    reports = between(of(run, StepProgress, lambda e: e.rank in ranks), run, start, end)
    return median(r.compute_ms for r in reports if r.compute_ms is not None)


def test_thermal_slow_node_computes_slower_and_sets_the_pace() -> None:
    run = small(sc.SlowNode(job=0, node=2, at_s=AT, slowdown=1.25, cause="thermal"))
    slow, fast = range(16, 24), range(0, 8)
    assert _compute(run, slow, AT + 10, 900) / _compute(run, fast, AT + 10, 900) == \
        pytest.approx(1.25, abs=0.03)
    assert _compute(run, slow, 60, AT) / _compute(run, fast, 60, AT) == pytest.approx(1.0, abs=0.02)
    after = between(of(run, StepProgress), run, AT + 10, 900)
    assert len({(r.step, r.step_time_ms) for r in after}) == len({r.step for r in after})
    fast_wait = median(r.comm_wait_ms or 0 for r in after if r.rank in fast)
    slow_wait = median(r.comm_wait_ms or 0 for r in after if r.rank in slow)
    assert fast_wait > slow_wait * 2


def test_thermal_slow_node_is_hot_and_throttled() -> None:
    run = small(sc.SlowNode(job=0, node=2, at_s=AT, slowdown=1.25, cause="thermal"))
    hot = between(of(run, GpuSample, lambda e: e.node_id == "node-0003"), run, AT + 60, 600)
    cool = between(of(run, GpuSample, lambda e: e.node_id == "node-0001"), run, AT + 60, 600)
    assert all(g.throttle_reasons & 0x40 for s in hot for g in s.gpus)
    assert all(g.throttle_reasons == 0 for s in cool for g in s.gpus)
    def med(samples: list[GpuSample], field: str) -> float:
        return median(getattr(g, field) for s in samples for g in s.gpus)

    assert med(hot, "temp_c") > med(cool, "temp_c") + 15
    assert med(hot, "power_w") < med(cool, "power_w")
    (truth,) = [t for t in run.truth if t.kind == "slow_node"]
    assert truth.node_ids == ("node-0003",) and truth.ranks == tuple(range(16, 24))


def _rate(run: Run, node: str, port: int, start: float, end: float) -> float:
    nets = between(of(run, NetSample, lambda e: e.node_id == node), run, start, end)
    a, b = nets[0], nets[-1]
    return (b.ports[port].tx_bytes_total - a.ports[port].tx_bytes_total) / \
        (b.event_time - a.event_time).total_seconds()


def test_nic_slow_node_degrades_its_port_and_slows_the_job() -> None:
    run = small(sc.SlowNode(job=0, node=1, at_s=AT, slowdown=1.3, cause="nic"))
    steps = of(run, StepProgress, lambda e: e.rank == 0)
    before = median(r.step_time_ms for r in between(steps, run, 60, AT))
    after = median(r.step_time_ms for r in between(steps, run, AT + 10, 900))
    assert after / before == pytest.approx(1.3, abs=0.05)
    assert _compute(run, range(8, 16), AT + 10, 900) == pytest.approx(
        _compute(run, range(0, 8), AT + 10, 900), rel=0.02)
    assert _rate(run, "node-0002", 1, AT + 5, 590) < 0.5 * _rate(run, "node-0001", 1, AT + 5, 590)
    nets = of(run, NetSample, lambda e: e.node_id == "node-0002")
    assert nets[-1].ports[1].symbol_errors_total > nets[0].ports[1].symbol_errors_total
    assert nets[-1].ports[0].symbol_errors_total == nets[0].ports[0].symbol_errors_total


def test_heterogeneity_gives_stable_node_factors_within_spread() -> None:
    run = small(sc.Heterogeneity(job=0, spread=0.05))
    (truth,) = [t for t in run.truth if t.kind == "noise"]
    factors = [float(x) for x in truth.detail.split("=")[1].split(",")]
    assert len(factors) == 4 and all(0.95 <= f <= 1.05 for f in factors)
    medians = [_compute(run, range(8 * n, 8 * n + 8), 60, 900) for n in range(4)]
    base = medians[0] / factors[0]
    for m, f in zip(medians, factors, strict=True):
        assert m / base == pytest.approx(f, abs=0.01)


def test_healthy_run_has_small_jitter_and_no_truth() -> None:
    run = small()
    assert run.truth == []
    times = [r.step_time_ms for r in of(run, StepProgress, lambda e: e.rank == 0)]
    assert max(times) / min(times) < 1.1
    assert at(run, 0) == run.config.start_utc


def test_slow_node_in_one_job_leaves_the_other_job_alone() -> None:
    run = small(sc.SlowNode(job=1, node=0, at_s=100, slowdown=1.5), nodes=4, jobs=2)
    (truth,) = run.truth
    assert truth.job_id == "job-0001" and truth.node_ids == ("node-0003",)
    for job, ratio in (("job-0000", 1.0), ("job-0001", 1.5)):
        steps = of(run, StepProgress, lambda e, job=job: e.job_id == job and e.rank == 8)
        before = median(r.step_time_ms for r in between(steps, run, 30, 100))
        after = median(r.step_time_ms for r in between(steps, run, 400, 590))
        assert after / before == pytest.approx(ratio, abs=0.05)
    placements = of(run, JobEvent, lambda e: e.kind == "scheduled")
    nodes = [{p.node_id for p in e.placement} for e in placements]
    assert nodes == [{"node-0001", "node-0002"}, {"node-0003", "node-0004"}]
