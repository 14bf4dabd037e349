"""Shared helpers of the hooks tests: sinks with controllable behaviour, hooks on a list sink."""

from __future__ import annotations

import threading

from producers.hooks import Hooks, HookSettings, ListSink, Reporter
from schemas import Event


def make_hooks(rank: int = 0, queue_size: int = 1000, sink: object | None = None, **extra: object) -> Hooks:
    settings = HookSettings.model_validate({"job_id": "job-7", "node_id": "node003", "rank": rank,
                                            "attempt": 2, "cluster": "c1", "queue_size": queue_size, **extra})
    return Hooks(settings, Reporter(sink or ListSink(), queue_size=settings.queue_size, idle_poll_s=0.05))  # type: ignore[arg-type]  # duck-typed sinks


def sent(hooks: Hooks) -> list[Event]:
    """Close the hooks (draining the queue) and return what reached the list sink."""
    hooks.close()
    sink = hooks.reporter.sink
    assert isinstance(sink, ListSink)
    return sink.events


class BlockingSink(ListSink):
    """Blocks every send until ``release`` is set; ``entered`` is set at the first send."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def send(self, event: Event) -> None:
        self.entered.set()
        assert self.release.wait(30), "test never released the sink"
        super().send(event)


class FlakySink(ListSink):
    """Raises on the first ``failures`` sends, then works; ``close`` can be made to fail."""

    def __init__(self, failures: int, fail_close: bool = False) -> None:
        super().__init__()
        self.failures = failures
        self.fail_close = fail_close

    def send(self, event: Event) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise ConnectionError("broker unreachable")
        super().send(event)

    def close(self) -> None:
        if self.fail_close:
            raise RuntimeError("3 undelivered")
