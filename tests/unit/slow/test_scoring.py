"""Robust statistics and the per-window judgement (change beyond the peers' change)."""

from __future__ import annotations

import pytest

from streams.slow.robust import MAD_SCALE, group_cv, low_median, mad, median, ratio, robust_z, spread
from streams.slow.scoring import instant_positions, judge, observe, peer_groups, scattered
from streams.slow.settings import SlowSettings
from streams.slow.window import NodeBuffer


def test_median_and_mad_ignore_one_outlier() -> None:
    values = [1.0, 1.01, 0.99, 1.0, 5.0]
    assert median(values) == 1.0
    assert mad(values) == pytest.approx(0.01)
    assert spread(values, 0.001) == pytest.approx(MAD_SCALE * 0.01)


def test_low_median_drops_a_single_spike_of_two() -> None:
    assert low_median([1000.0, 3000.0]) == 1000.0
    assert median([1000.0, 3000.0]) == 2000.0


def test_robust_z_and_capped_ratio() -> None:
    assert robust_z(1.3, 1.0, 0.1) == pytest.approx(3.0)
    assert ratio(2.0, 0.0) == 100.0
    assert ratio(0.0, 0.0) == 1.0


def test_heterogeneity_in_the_levels_is_not_news() -> None:
    rule = SlowSettings().step
    levels = {"a": 1000.0, "b": 1000.0, "c": 1300.0, "d": 1500.0, "e": 1000.0}
    obs = observe(rule, dict(levels), levels)
    assert all(o.excess == pytest.approx(1.0) for o in obs.values())
    assert not any(judge(rule, o, [1.0] * 6).suspect for o in obs.values())


def test_a_change_the_peers_do_not_share_is_news_and_a_shared_one_is_not() -> None:
    rule = SlowSettings().step
    levels = {f"n{i}": 1000.0 * (1.4 if i % 2 else 1.0) for i in range(8)}
    values = {n: v * 1.3 for n, v in levels.items()}  # everyone 30 % slower: a phase
    assert not any(judge(rule, o, [1.0] * 6).suspect for o in observe(rule, values, levels).values())
    values = {**levels, "n3": levels["n3"] * 1.25}  # one slow-model node slows down
    obs = observe(rule, values, levels)
    assert judge(rule, obs["n3"], [1.0] * 6).suspect
    assert obs["n3"].expected == pytest.approx(1400.0)
    assert obs["n3"].value / obs["n3"].expected == pytest.approx(1.25)


def test_low_is_bad_metrics_are_oriented() -> None:
    rule = SlowSettings().rdma
    levels = {"a": 100.0, "b": 100.0, "c": 60.0, "d": 100.0}
    obs = observe(rule, {"a": 80.0, "b": 80.0, "c": 48.0, "d": 24.0}, levels)
    assert obs["c"].excess == pytest.approx(1.0)
    assert obs["d"].excess == pytest.approx(100 / 24 * 0.8)
    assert judge(rule, obs["d"], [1.0] * 6).suspect and not judge(rule, obs["c"], [1.0] * 6).suspect


def test_a_noisy_own_history_raises_the_bar() -> None:
    rule = SlowSettings().step
    levels = {f"n{i}": 1000.0 for i in range(8)}
    obs = observe(rule, {**levels, "n0": 1200.0}, levels)["n0"]
    assert judge(rule, obs, [1.0] * 6).suspect
    assert not judge(rule, obs, [0.85, 1.15, 0.9, 1.1, 1.2, 0.8]).suspect


def test_sigma_floor_keeps_a_uniform_group_from_exploding() -> None:
    rule = SlowSettings().step
    levels = {k: 1000.0 for k in "abcd"}
    obs = observe(rule, {"a": 1000.0, "b": 1000.0, "c": 1000.0, "d": 1005.0}, levels)
    assert obs["d"].z == pytest.approx(0.5)


def test_peers_are_nodes_at_the_same_level_else_the_whole_job() -> None:
    levels = {"a": 100.0, "b": 102.0, "c": 99.0, "x": 150.0, "y": 151.0, "z": 149.0, "q": 300.0}
    groups = peer_groups(levels, 0.1, 2)
    assert sorted(groups["a"]) == ["b", "c"] and sorted(groups["x"]) == ["y", "z"]
    assert len(groups["q"]) == 6


def test_scattered_groups_are_skipped() -> None:
    rule = SlowSettings().rdma
    levels = {f"n{i}": 100.0 for i in range(6)}
    calm = observe(rule, {f"n{i}": 100.0 + i for i in range(6)}, levels)
    wild = observe(rule, {f"n{i}": 100.0 / (1 + 0.4 * i) for i in range(6)}, levels)
    assert not scattered(rule, calm) and scattered(rule, wild)


def test_group_cv_tells_a_consistent_group_from_a_scattered_one() -> None:
    assert group_cv([100.0, 101.0, 99.0, 100.0]) < 0.02
    assert group_cv([100.0, 20.0, 60.0, 90.0, 30.0]) > 0.25
    assert group_cv([0.0, 0.0, 0.0]) == 0.0


def test_window_values_drop_one_reading_on_the_bad_side() -> None:
    buf = NodeBuffer()
    for v in (600.0, 950.0):
        buf.add("power_w", "a", v, 64)
    for v in (3.0e9, 0.5e9):
        buf.add("rdma_rate", "a", v, 64)
    assert buf.values("power_w", "high") == {"a": 600.0}
    assert buf.values("rdma_rate", "low") == {"a": 3.0e9}


def test_instant_positions_compare_each_reading_with_the_same_instant() -> None:
    rule = SlowSettings().power
    usual = {f"n{i}": 1.0 for i in range(6)}
    # second instant: n0 stalls one step, so it alone is busy while the job waits for it
    stalled = {n: [600.0, 600.0 if n == "n0" else 300.0] for n in usual}
    assert instant_positions(rule, stalled, usual) == pytest.approx({n: 1.0 for n in usual})
    # a straggler is out of place at every instant
    slow = {n: [720.0, 360.0] if n == "n0" else [600.0, 300.0] for n in usual}
    assert instant_positions(rule, slow, usual)["n0"] == pytest.approx(1.2)
