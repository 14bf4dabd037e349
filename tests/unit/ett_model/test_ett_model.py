"""The first-order ETT model reproduces the published figures (Kokolis et al. HPCA 2025, Llama 3)."""

from __future__ import annotations

import math

import pytest

from streams.ett.model import FleetParams, estimate, expected_ett, mtbf_h, mttf_h, optimal_interval_min

R_F = 6.5e-3  # failures per node-day, RSC-1 (Kokolis et al.)


def _params(interval_min: float, nodes: int = 2048, write_min: float = 0.0, queue_min: float = 0.0) -> FleetParams:
    return FleetParams(nodes=nodes, failures_per_node_day=R_F, restart_overhead_min=5.0,
                       checkpoint_interval_min=interval_min, checkpoint_write_min=write_min, queue_min=queue_min)


def test_16k_gpu_job_about_0_7_at_hourly_checkpoints() -> None:
    assert expected_ett(_params(60.0)) == pytest.approx(0.70, abs=0.03)


def test_16k_gpu_job_about_0_93_at_5_minute_checkpoints() -> None:
    assert expected_ett(_params(5.0)) == pytest.approx(0.93, abs=0.005)


def test_mttf_at_16k_and_131k_gpus() -> None:
    assert mttf_h(2048, R_F) == pytest.approx(1.8, abs=0.01)  # 16,384 GPUs
    assert mttf_h(131_072 // 8, R_F) == pytest.approx(0.23, abs=0.005)


def test_llama3_mtbf_from_419_interruptions_in_54_days() -> None:
    assert mtbf_h(54 * 24, 419) == pytest.approx(3.09, abs=0.005)
    assert math.isinf(mtbf_h(10.0, 0))


def test_young_daly_interval_maximises_the_model() -> None:
    params = _params(60.0, write_min=1.0)
    result = estimate(params)
    assert result.optimal_interval_min == pytest.approx(math.sqrt(2 * 1.0 * result.mttf_h * 60))
    assert result.ett_at_optimal is not None
    for other in (result.optimal_interval_min * 0.5, result.optimal_interval_min * 2, 60.0):
        assert expected_ett(params, other) < result.ett_at_optimal


def test_non_blocking_writes_have_no_finite_optimum() -> None:
    assert optimal_interval_min(0.0, 1.8) is None
    assert estimate(_params(60.0)).to_json()["optimal_interval_min"] is None


def test_queueing_after_each_failure_costs_like_overhead() -> None:
    assert expected_ett(_params(60.0, queue_min=10.0)) < expected_ett(_params(60.0))
    with_queue = FleetParams(nodes=2048, failures_per_node_day=R_F, restart_overhead_min=15.0,
                             checkpoint_interval_min=60.0)
    assert expected_ett(_params(60.0, queue_min=10.0)) == pytest.approx(expected_ett(with_queue))


def test_no_failures_gives_full_ett_and_infinite_mttf() -> None:
    params = FleetParams(nodes=8, failures_per_node_day=0.0, restart_overhead_min=5.0, checkpoint_interval_min=30.0)
    result = estimate(params)
    assert result.ett == 1.0 and math.isinf(result.mttf_h) and result.to_json()["mttf_h"] is None


def test_ett_is_clipped_at_zero_for_hopeless_jobs() -> None:
    assert expected_ett(_params(600.0, nodes=65_536)) == 0.0


@pytest.mark.parametrize("bad", [
    dict(nodes=0), dict(checkpoint_interval_min=0.0), dict(failures_per_node_day=-1.0),
    dict(restart_overhead_min=math.nan),
])
def test_bad_parameters_are_refused(bad: dict[str, float]) -> None:
    values: dict[str, float] = dict(nodes=8, failures_per_node_day=R_F, restart_overhead_min=5.0,
                                    checkpoint_interval_min=30.0)
    with pytest.raises(ValueError):
        FleetParams(**{**values, **bad})  # type: ignore[arg-type]
