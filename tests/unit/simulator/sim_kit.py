"""Shared, session-cached simulated runs and helpers for the simulator tests (pure, no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from producers.simulator import FleetConfig, Run, simulate
from producers.simulator import scenarios as sc
from schemas import Event

E = TypeVar("E", bound=Event)

SMALL = FleetConfig(nodes=4, duration_s=900, seed=11, checkpoint_every_s=300)


@cache
def cached_run(config: FleetConfig, scenarios: tuple[Any, ...]) -> Run:
    """One simulation per (config, scenarios) for the whole test session."""
    return simulate(config, list(scenarios))


def small(*scenarios: Any, **overrides: Any) -> Run:
    """A cached run of the small fleet (4 nodes x 8 GPUs, one job, 900 s)."""
    config = SMALL if not overrides else FleetConfig(**{**SMALL.__dict__, **overrides})
    return cached_run(config, tuple(scenarios))


def at(run: Run, seconds: float) -> datetime:
    """The event time ``seconds`` after the start of ``run``."""
    return run.config.at(int(seconds * 1000))


def of(run: Run, cls: type[E], where: Callable[[E], bool] = lambda e: True) -> list[E]:
    """The events of ``run`` of type ``cls`` satisfying ``where``, in stream order."""
    return [e for e in run.events if isinstance(e, cls) and where(e)]


def between(events: Iterable[E], run: Run, start_s: float, end_s: float) -> list[E]:
    """The events with an event time in ``[start_s, end_s)`` seconds of the run."""
    lo, hi = at(run, start_s), at(run, end_s)
    return [e for e in events if lo <= e.event_time < hi]


__all__ = ["SMALL", "at", "between", "cached_run", "of", "sc", "small"]
