"""Robust statistics and the per-window judgement."""

from __future__ import annotations

import pytest

from streams.slow.robust import (
    MAD_SCALE,
    group_cv,
    low_median,
    mad,
    median,
    ratio,
    robust_z,
    spread,
)
from streams.slow.scoring import judge, observe
from streams.slow.settings import SlowSettings


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


def test_observe_orients_low_is_bad_metrics() -> None:
    rule = SlowSettings().rdma
    obs = observe(rule, {"a": 100.0, "b": 100.0, "c": 101.0, "d": 30.0})
    assert obs["d"].deviation == pytest.approx(100.0 / 30.0)
    assert obs["d"].z > 3.5
    assert obs["a"].deviation < 1.01


def test_sigma_floor_keeps_a_uniform_group_from_exploding() -> None:
    rule = SlowSettings().step
    obs = observe(rule, {"a": 1000.0, "b": 1000.0, "c": 1000.0, "d": 1005.0})
    assert obs["d"].z == pytest.approx(0.5)


def test_cold_rule_needs_cold_deviation_and_group_z() -> None:
    rule = SlowSettings().step
    group = {f"n{i}": 1000.0 + i for i in range(8)}
    slightly = observe(rule, {**group, "x": 1150.0})["x"]
    clearly = observe(rule, {**group, "x": 1250.0})["x"]
    assert not judge(rule, slightly, [], [], warm=False).suspect
    assert judge(rule, clearly, [], [], warm=False).suspect


def test_warm_rule_needs_a_jump_from_the_own_level() -> None:
    rule = SlowSettings().step
    group = {f"n{i}": 1000.0 for i in range(8)}
    obs = observe(rule, {**group, "x": 1180.0})["x"]
    # always 15 % slow: not news; was 0.97 of the job: a 22 % jump is news
    assert not judge(rule, obs, [1.15] * 10, [1150.0] * 10, warm=True).suspect
    assert judge(rule, obs, [0.97] * 10, [970.0] * 10, warm=True).suspect


def test_warm_rule_ignores_a_moving_reference() -> None:
    rule = SlowSettings().step
    group = {f"n{i}": 600.0 for i in range(8)}
    obs = observe(rule, {**group, "x": 1000.0})["x"]
    # its ratio jumped from 1.3 to 1.67 only because the median fell; its own time did not move
    assert not judge(rule, obs, [1.3] * 10, [1000.0] * 10, warm=True).suspect


def test_group_cv_tells_a_consistent_group_from_a_scattered_one() -> None:
    assert group_cv([100.0, 101.0, 99.0, 100.0]) < 0.02
    assert group_cv([100.0, 20.0, 60.0, 90.0, 30.0]) > 0.25
    assert group_cv([0.0, 0.0, 0.0]) == 0.0
