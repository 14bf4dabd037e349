"""The hooks a training script calls: step progress, checkpoints, the start of training.

Every public call is wrapped so that an exception of ours (a bad value, a full queue, a
broken sink) is swallowed and counted, never raised into the training loop. Exceptions
raised by the user's own code inside :meth:`Hooks.checkpoint` or :class:`StepTimer`
always propagate untouched.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from producers.hooks.flight_recorder import FlightRecorderPoller, Source, torch_dump
from producers.hooks.reporter import Reporter
from producers.hooks.settings import HookSettings
from schemas import Event, JobEvent, StepProgress
from schemas.jobs import JobEventKind

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The observation time of a producer event (the source's clock, by contract)."""
    return datetime.now(UTC)


class Hooks:
    """The hooks of one training process (one rank), sending through ``reporter``."""

    def __init__(self, settings: HookSettings, reporter: Reporter, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.reporter = reporter
        self._clock = clock
        self._pollers: list[FlightRecorderPoller] = []

    @contextmanager
    def guard(self, site: str) -> Iterator[None]:
        """Run the block; any exception in it is swallowed and counted under ``site``."""
        try:
            yield
        except Exception:  # noqa: BLE001 - the hooks' contract: never crash training; counted per site
            self.reporter.count_error(site)
            log.debug("faultline hook %s failed", site, exc_info=True)

    def _envelope(self) -> dict[str, Any]:
        return {"event_id": str(uuid.uuid4()), "event_time": self._clock(), "cluster": self.settings.cluster}

    def emit(self, event: Event) -> bool:
        """Queue an already built event; False when dropped. Never raises."""
        return self.reporter.submit(event)

    def step(self, step: int, step_time_ms: float, compute_ms: float | None = None,
             comm_wait_ms: float | None = None) -> None:
        """Report that this rank finished ``step`` in ``step_time_ms`` (a ``step_progress``)."""
        with self.guard("step"):
            s = self.settings
            self.emit(StepProgress(**self._envelope(), job_id=s.job_id, node_id=s.node_id, rank=s.rank,
                                   step=step, step_time_ms=step_time_ms, compute_ms=compute_ms,
                                   comm_wait_ms=comm_wait_ms))

    def job_event(self, kind: JobEventKind, step: int | None = None, detail: str | None = None) -> None:
        """Emit a job_event of this job and attempt, from rank 0 only unless configured otherwise."""
        with self.guard(kind):
            s = self.settings
            if s.rank != 0 and not s.checkpoint_all_ranks:
                return
            self.emit(JobEvent(**self._envelope(), job_id=s.job_id, attempt=s.attempt, kind=kind,
                               step=step, detail=detail))

    def running(self, resumed_from_step: int | None = None) -> None:
        """Training of this attempt has started (after init), from ``resumed_from_step``."""
        self.job_event("running", step=resumed_from_step)

    @contextmanager
    def checkpoint(self, step: int | None = None) -> Iterator[None]:
        """Wrap the user's save call: ``checkpoint_started`` before, ``checkpoint_completed`` after.

        When the save raises, no ``checkpoint_completed`` is sent (the checkpoint does not
        exist) and the exception propagates to the caller unchanged.
        """
        self.job_event("checkpoint_started", step=step)
        yield
        self.job_event("checkpoint_completed", step=step)

    def timer(self, step: int) -> StepTimer:
        """A context manager timing one step of this rank (see :class:`StepTimer`)."""
        return StepTimer(self, step)

    def start_flight_recorder(self, dump: Callable[[], bytes] | None = None,
                              interval_s: float | None = None) -> FlightRecorderPoller | None:
        """Poll the Flight Recorder (torch's by default) into ``collective_progress`` events.

        Returns None, and counts ``flight_recorder_unavailable``, when torch is not installed.
        The Flight Recorder itself records only with ``TORCH_NCCL_TRACE_BUFFER_SIZE`` > 0.
        """
        dump = dump or torch_dump()
        if dump is None:
            self.reporter.count_error("flight_recorder_unavailable")
            return None
        s = self.settings
        source = Source(job_id=s.job_id, node_id=s.node_id, rank=s.rank, cluster=s.cluster)
        poller = FlightRecorderPoller(dump, source, self.emit, self.reporter.count_error,
                                      interval_s or s.fr_poll_s, clock=self._clock)
        self._pollers.append(poller)
        return poller.start()

    def counters(self) -> dict[str, int]:
        """The reporter's counters (submitted, dropped_full, sent, errors by site, ...)."""
        return self.reporter.counters.snapshot()

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop the Flight Recorder pollers, send what is queued (up to ``timeout_s``) and close
        the sink. Never raises."""
        for poller in self._pollers:
            poller.stop(timeout_s)
        self.reporter.close(timeout_s)


class StepTimer:
    """``with hooks.timer(step) as t: ...`` reports the step with its wall duration.

    Set ``t.compute_ms`` / ``t.comm_wait_ms`` inside the block when the script measures them.
    A block that raises reports nothing (the step did not complete) and the error propagates.
    """

    def __init__(self, hooks: Hooks, step: int) -> None:
        self.hooks = hooks
        self.step = step
        self.compute_ms: float | None = None
        self.comm_wait_ms: float | None = None
        self._start_s = 0.0

    def __enter__(self) -> StepTimer:
        self._start_s = time.perf_counter()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            elapsed_ms = (time.perf_counter() - self._start_s) * 1000.0
            self.hooks.step(self.step, elapsed_ms, self.compute_ms, self.comm_wait_ms)
