"""Training hooks: step progress, checkpoints and Flight Recorder snapshots from a training script.

    import os
    from producers import hooks

    hooks.init(hooks.settings_from_env(os.environ), output="/tmp/events.jsonl")  # or kafka=KafkaSettings(...)
    hooks.flight_recorder()          # with torch and TORCH_NCCL_TRACE_BUFFER_SIZE > 0
    hooks.running(resumed_from_step=start)
    for step in range(start, steps):
        with hooks.timer(step):
            train_one_step()
        if step % 1000 == 0:
            with hooks.checkpoint(step):
                save(model)
    hooks.shutdown()

Nothing here blocks or raises into training: events go through a bounded queue to a
background sender; a full queue drops and counts, every internal exception is swallowed
and counted (:func:`counters`). Calls made before :func:`init` are counted and ignored.
Importable without torch, Lightning or transformers (their callbacks import lazily).
"""

from __future__ import annotations

import atexit
import contextlib
from collections.abc import Iterator
from typing import Any

from producers.hooks.api import Hooks, StepTimer
from producers.hooks.flight_recorder import FlightRecorderPoller
from producers.hooks.reporter import HookCounters, Reporter
from producers.hooks.settings import HookSettings, settings_from_env
from producers.hooks.sinks import JsonLinesSink, KafkaSink, ListSink, Sink, open_sink
from schemas.settings import KafkaSettings

__all__ = [
    "HookCounters", "HookSettings", "Hooks", "JsonLinesSink", "KafkaSink", "ListSink", "Reporter", "Sink",
    "FlightRecorderPoller", "StepTimer", "checkpoint", "counters", "current", "flight_recorder", "init", "running",
    "settings_from_env", "shutdown",
    "step", "timer",
]

_current: Hooks | None = None
_uninitialised_calls = 0


def init(settings: HookSettings, *, sink: Sink | None = None, kafka: KafkaSettings | None = None,
         output: str | None = None) -> Hooks:
    """Start this process's hooks: events go to ``sink``, else JSON lines ``output``, else Kafka.

    Replaces (and closes) hooks started earlier. Unlike the hook calls, ``init`` raises on
    bad configuration (ValueError) so that a misconfigured job is visible at start-up.
    """
    global _current
    if _current is not None:
        _current.close()
    chosen = sink if sink is not None else open_sink(output, kafka, flush_timeout_s=10.0)
    _current = Hooks(settings, Reporter(chosen, queue_size=settings.queue_size))
    return _current


def current() -> Hooks | None:
    """The hooks started by :func:`init`, or None."""
    return _current


def _hooks() -> Hooks | None:
    global _uninitialised_calls
    if _current is None:
        _uninitialised_calls += 1
    return _current


def step(step: int, step_time_ms: float, compute_ms: float | None = None, comm_wait_ms: float | None = None) -> None:
    """Report one finished step of this rank (see :meth:`Hooks.step`)."""
    hooks = _hooks()
    if hooks is not None:
        hooks.step(step, step_time_ms, compute_ms, comm_wait_ms)


class _NullTimer:
    compute_ms: float | None = None
    comm_wait_ms: float | None = None

    def __enter__(self) -> _NullTimer:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def timer(step: int) -> StepTimer | _NullTimer:
    """``with hooks.timer(step): ...`` times and reports one step (a no-op before init)."""
    hooks = _hooks()
    return hooks.timer(step) if hooks is not None else _NullTimer()


@contextlib.contextmanager
def checkpoint(step: int | None = None) -> Iterator[None]:
    """Wrap a save call with checkpoint_started / checkpoint_completed (see :meth:`Hooks.checkpoint`)."""
    hooks = _hooks()
    if hooks is None:
        yield
        return
    with hooks.checkpoint(step):
        yield


def running(resumed_from_step: int | None = None) -> None:
    """Report that this attempt started training, from ``resumed_from_step`` (rank 0 only)."""
    hooks = _hooks()
    if hooks is not None:
        hooks.running(resumed_from_step)


def flight_recorder(interval_s: float | None = None) -> FlightRecorderPoller | None:
    """Poll torch's Flight Recorder into ``collective_progress`` every ``interval_s`` (default
    ``HookSettings.fr_poll_s``); None when not initialised or torch is absent (counted)."""
    hooks = _hooks()
    return hooks.start_flight_recorder(interval_s=interval_s) if hooks is not None else None


def counters() -> dict[str, Any]:
    """The current hooks' counters plus ``uninitialised_calls``; safe to call at any time."""
    snap: dict[str, Any] = _current.counters() if _current is not None else {}
    snap["uninitialised_calls"] = _uninitialised_calls
    return snap


def shutdown(timeout_s: float = 10.0) -> None:
    """Flush and stop the hooks (also run at interpreter exit). Never raises."""
    global _current
    if _current is not None:
        _current.close(timeout_s)
        _current = None


atexit.register(shutdown)
