"""The agent's scheduler: every collector on its own interval, each failing alone.

One thread polls the collectors (blocking work lives in the collectors' own threads: the
Xid watcher, journalctl's reader, the Kafka sender). A round that raises is logged,
counted in ``faultline_agent_collector_errors{collector}`` and retried after an exponential
backoff (``backoff_initial_s`` doubling up to ``backoff_max_s``); the other collectors
keep their pace. After the output took a round's events, the collector's ``commit()`` (if
it has one) persists its read position, so a restart neither resends nor skips.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from producers.agent.base import Collector
from producers.agent.metrics import AgentMetrics
from producers.agent.output import Output

log = logging.getLogger(__name__)


class Runner:
    """Polls collectors into an output; ``run_once`` for ``--once``, ``run(stop)`` as a daemon."""

    def __init__(self, collectors: Sequence[Collector], output: Output, metrics: AgentMetrics, *,
                 backoff_initial_s: float = 1.0, backoff_max_s: float = 300.0,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.collectors = list(collectors)
        self.output = output
        self.metrics = metrics
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.monotonic = monotonic
        self.failures = {c.name: 0 for c in self.collectors}
        self.due = {c.name: 0.0 for c in self.collectors}

    def run_once(self) -> int:
        """One round of every collector; returns how many rounds failed."""
        return sum(0 if self.round(c) else 1 for c in self.collectors)

    def run(self, stop: threading.Event) -> None:
        """Poll until ``stop`` is set."""
        while not stop.is_set():
            now = self.monotonic()
            for collector in self.collectors:
                if now >= self.due[collector.name] or _wanted(collector):
                    self.round(collector)
            next_due = min(self.due.values(), default=now + 1.0)
            stop.wait(min(max(next_due - self.monotonic(), 0.0), 0.25))

    def round(self, collector: Collector) -> bool:
        """Run one round of ``collector``; False (and a backoff) if it or the output failed."""
        started = self.monotonic()
        name = collector.name
        try:
            events = collector.collect()
            self.output.emit(events)
            commit = getattr(collector, "commit", None)
            if commit is not None:
                commit()
        except Exception as exc:  # noqa: BLE001 - the one catch point: a collector never takes the agent down
            self.failures[name] += 1
            delay = min(self.backoff_initial_s * 2 ** (self.failures[name] - 1), self.backoff_max_s)
            self.due[name] = started + delay
            self.metrics.collector_errors.labels(name).inc()
            log.warning("collector %s failed (%d in a row, retry in %.1fs): %s: %s",
                        name, self.failures[name], delay, type(exc).__name__, exc)
            return False
        finally:
            self.metrics.rounds.labels(name).inc()
            self.metrics.round_seconds.labels(name).set(self.monotonic() - started)
        self.failures[name] = 0
        self.due[name] = started + collector.interval_s
        return True


def _wanted(collector: Collector) -> bool:
    wanted = getattr(collector, "wanted", None)
    return bool(wanted()) if wanted is not None else False
