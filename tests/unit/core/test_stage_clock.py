"""The stage clock: the keys' median, moved on at wall-clock pace only while it stands still."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from streams.app import StageClock

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)


def test_the_clock_follows_the_median_while_it_moves() -> None:
    clock = StageClock(idle_after_s=5)
    assert clock.now(None, 0.0) is None
    assert clock.now(T0, 0.0) == T0
    assert clock.now(T0 + timedelta(seconds=30), 1.0) == T0 + timedelta(seconds=30)


def test_an_idle_median_moves_on_at_wall_clock_pace_after_the_grace() -> None:
    clock = StageClock(idle_after_s=5)
    clock.now(T0, 100.0)
    assert clock.now(T0, 104.0) == T0  # within the grace: input may only be slow
    assert clock.now(T0, 160.0) == T0 + timedelta(seconds=60)
    # input resumes behind the idle clock: the median takes over again only once it moves past
    assert clock.now(T0 + timedelta(seconds=10), 161.0) == T0 + timedelta(seconds=10)
