"""End-to-end over the fleet simulator: hangs detected and localised, traps and health quiet."""

from __future__ import annotations

from typing import Any

import pytest

from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import HangVerdict
from streams.hang import HangSettings
from tests.bench.hang_eval import detect, route


def verdicts_of(scenarios: list[Any], seed: int, nodes: int = 4, duration_s: float = 1200.0,
                ) -> tuple[list[HangVerdict], Any]:
    config = FleetConfig(nodes=nodes, gpus_per_node=8, jobs=1, duration_s=duration_s, seed=seed,
                         cluster="sim")
    run = simulate(config, scenarios)
    return detect(route(run.events)["job-0000"], HangSettings()), run


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_healthy_run_with_noise_has_no_verdict(seed: int) -> None:
    found, _ = verdicts_of([sc.Heterogeneity(job=0, spread=0.1)], seed)
    assert found == []


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_single_source_hang_detected_within_a_minute_on_the_exact_node(seed: int) -> None:
    found, run = verdicts_of([sc.Hang(job=0, at_s=500, source="single")], seed)
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    (verdict,) = found
    assert 0 <= (verdict.detected_at - truth.onset).total_seconds() <= 60
    assert abs((verdict.onset_time - truth.onset).total_seconds()) <= 10
    assert verdict.source_nodes == truth.node_ids
    assert verdict.source_ranks == truth.ranks


def test_two_source_hang_names_both_nodes() -> None:
    found, run = verdicts_of([sc.Hang(job=0, at_s=450, source="two")], 7)
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    (verdict,) = found
    assert (verdict.detected_at - truth.onset).total_seconds() <= 60
    assert verdict.source_nodes == tuple(sorted(truth.node_ids))


def test_uniform_freeze_is_detected_without_a_source() -> None:
    found, run = verdicts_of([sc.Hang(job=0, at_s=450, source="uniform")], 8)
    (truth,) = [t for t in run.truth if t.kind == "hang"]
    (verdict,) = found
    assert (verdict.detected_at - truth.onset).total_seconds() <= 60
    assert verdict.source_nodes == ()


@pytest.mark.parametrize("trap", [
    sc.LongCheckpoint(job=0, at_s=300, duration_s=800),
    sc.LongEval(job=0, at_s=300, duration_s=800),
])
def test_traps_give_no_verdict(trap: Any) -> None:
    found, run = verdicts_of([trap], 9)
    assert any(t.kind.startswith("trap_") for t in run.truth)
    assert found == []
