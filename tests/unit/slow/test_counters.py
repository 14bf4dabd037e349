"""Rates from cumulative RDMA counters, with resets."""

from __future__ import annotations

import pytest
from slow_synth import net_sample

from streams.slow.counters import NetCounters, counter_delta


def test_counter_delta_handles_resets() -> None:
    assert counter_delta(100, 150) == 50
    assert counter_delta(10**12, 4000) == 4000  # reset: the counter restarted from zero


def test_rates_across_a_reset_stay_true() -> None:
    counters = NetCounters()
    assert counters.rate(net_sample(0, 0.0, 10**12), 0.5) is None
    rates = counters.rate(net_sample(0, 5.0, 10**12 + 5 * 10**9), 0.5)
    assert rates is not None and rates.rail_bps == pytest.approx(2e9)  # tx + rx
    after_reset = counters.rate(net_sample(0, 10.0, 5 * 10**9), 0.5)
    assert after_reset is not None and after_reset.rail_bps == pytest.approx(2e9)


def test_stale_or_repeated_samples_give_no_rate() -> None:
    counters = NetCounters()
    counters.rate(net_sample(0, 5.0, 100), 0.5)
    assert counters.rate(net_sample(0, 5.0, 200), 0.5) is None
    assert counters.rate(net_sample(0, 1.0, 300), 0.5) is None
    rates = counters.rate(net_sample(0, 10.0, 600), 0.5)
    assert rates is not None and rates.rail_bps == pytest.approx(200.0)


def test_counters_dump_and_load() -> None:
    counters = NetCounters()
    counters.rate(net_sample(1, 0.0, 1000), 0.5)
    again = NetCounters.load(counters.dump())
    rates = again.rate(net_sample(1, 1.0, 1500), 0.5)
    assert rates is not None and rates.rail_bps == pytest.approx(1000.0)


def test_a_quiet_storage_port_is_not_a_rail() -> None:
    from streams.slow.counters import rails

    # eight rails at ~3 GB per interval, one storage port at 20 MB: never the weakest rail
    volumes = {**{f"mlx5_{i}:1": 3e9 + i for i in range(8)}, "mlx5_8:1": 2e7}
    assert sorted(rails(volumes, 0.5)) == sorted(f"mlx5_{i}:1" for i in range(8))
    assert rails({}, 0.5) == [] and rails({"a:1": 0.0}, 0.5) == []
