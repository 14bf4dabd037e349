"""The non-blocking path from a training loop to a sink: a bounded queue and one sender thread.

``submit`` never blocks and never raises: when the queue is full the event is dropped and
counted. The sender thread is the only caller of the sink; a sink failure is counted and
the thread goes on with the next event. The producing side (the training thread and the
Flight Recorder poller) counts under a lock (uncontended: a few hundred nanoseconds); the
sender thread alone writes ``sent``/``send_errors``/``close_errors``.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import Counter
from dataclasses import dataclass, field

from producers.hooks.sinks import Sink
from schemas import Event

log = logging.getLogger(__name__)

_STOP = object()


@dataclass
class HookCounters:
    """What happened to the hooks' events; ``errors`` counts swallowed exceptions by site."""

    submitted: int = 0
    dropped_full: int = 0
    sent: int = 0
    send_errors: int = 0
    close_errors: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def snapshot(self) -> dict[str, int]:
        """A flat copy: the counters plus ``error.<site>`` per swallowed-exception site."""
        flat = {"submitted": self.submitted, "dropped_full": self.dropped_full, "sent": self.sent,
                "send_errors": self.send_errors, "close_errors": self.close_errors}
        flat.update({f"error.{site}": n for site, n in sorted(self.errors.items())})
        return flat


class Reporter:
    """Owns the queue, the sender thread and the sink; ``close`` drains and flushes."""

    def __init__(self, sink: Sink, queue_size: int = 10_000, idle_poll_s: float = 0.5) -> None:
        self.sink = sink
        self.counters = HookCounters()
        self._queue: queue.Queue[object] = queue.Queue(maxsize=queue_size)
        self._idle_poll_s = idle_poll_s
        self._closed = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="faultline-hooks-sender", daemon=True)
        self._thread.start()

    def submit(self, event: Event) -> bool:
        """Queue ``event`` for sending; False (and counted) when full or closed. Never blocks."""
        if self._closed:
            self.count_error("submit_after_close")
            return False
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            with self._lock:
                self.counters.dropped_full += 1
            return False
        with self._lock:
            self.counters.submitted += 1
        return True

    def count_error(self, site: str) -> None:
        """Record one swallowed exception at ``site`` (from any producing thread)."""
        with self._lock:
            self.counters.errors[site] += 1

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self._idle_poll_s)
            except queue.Empty:
                self._poll_sink()
                continue
            if item is _STOP:
                return
            self._send(item)  # type: ignore[arg-type]  # only events and _STOP are queued

    def _send(self, event: Event) -> None:
        try:
            self.sink.send(event)
            self.counters.sent += 1
        except Exception:  # noqa: BLE001 - a sink failure must never reach training; counted
            self.counters.send_errors += 1
            log.debug("hook sink failed", exc_info=True)

    def _poll_sink(self) -> None:
        try:
            self.sink.poll()
        except Exception:  # noqa: BLE001 - counted like a send failure
            self.counters.send_errors += 1

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop accepting events, send what is queued (up to ``timeout_s``), close the sink.

        A queue that cannot drain in time is abandoned (the thread is a daemon); a sink that
        fails to flush is counted in ``close_errors``. Idempotent; never raises.
        """
        if self._closed:
            return
        self._closed = True
        try:
            self._queue.put(_STOP, timeout=timeout_s)
        except queue.Full:
            self.counters.close_errors += 1
            return
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            self.counters.close_errors += 1
            return
        try:
            self.sink.close()
        except Exception:  # noqa: BLE001 - e.g. DeliveryError at exit: counted, never raised into training
            self.counters.close_errors += 1
            log.debug("hook sink close failed", exc_info=True)
