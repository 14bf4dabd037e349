"""Throughput of the ETT detector alone on a mixed stream of one job (run: python ett_bench.py).

The stream: 16 ranks report every step (one report is the done step, 15 are duplicates), 8
nodes send a GPU sample every 5 s, a checkpoint every 500 steps, a hang verdict and a restart
every 4000 steps. Events are built before the clock starts; only ``step``/``flush`` are timed.
"""

from __future__ import annotations

import sys
import time

from ett_kit import gpu, job, step, verdict

from schemas import EttInterval, Event, GpuSample
from streams.ett import EttDetector


def mixed_events(total: int) -> list[Event]:
    """About ``total`` events of one job with 1 s steps (see the module docstring)."""
    events: list[Event] = [job("submitted", 0), job("scheduled", 10, ranks=16), job("running", 20, step=0)]
    t, n, attempt = 20.0, 0, 0
    while len(events) < total:
        t += 1.0
        n += 1
        events.extend(step(t, n, 1000.0, rank) for rank in range(16))
        if n % 5 == 0:
            events.extend(_gpu(t, node) for node in range(8))
        if n % 500 == 0:
            events += [job("checkpoint_started", t + 0.1, attempt), job("checkpoint_completed", t + 0.6, attempt)]
        if n % 4000 == 0:
            t += 120
            attempt += 1
            events += [verdict(t, attempt - 1, vid=f"v{attempt}"), job("restarting", t + 1, attempt),
                       job("running", t + 30, attempt, step=n - 300)]
            t += 30
            n -= 300
    return events[:total]


def _gpu(t: float, node: int) -> GpuSample:
    sample = gpu(t)
    return sample.model_copy(update={"node_id": f"n{node}", "event_id": f"g-{t}-{node}"})


def measure(total: int = 200_000) -> tuple[float, int, int]:
    """(events per second, intervals emitted, gpu samples) on ``total`` mixed events."""
    events = mixed_events(total)
    detector = EttDetector()
    state = detector.initial()
    emitted = 0
    start = time.perf_counter()
    for event in events:
        state, out = detector.step(state, event)
        emitted += len(out)
    state, out = detector.flush(state, events[-1].event_time)
    elapsed = time.perf_counter() - start
    assert all(isinstance(o, EttInterval) for o in out)
    return total / elapsed, emitted + len(out), sum(isinstance(e, GpuSample) for e in events)


if __name__ == "__main__":
    rate, emitted, samples = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
    print(f"ett detector: {rate:,.0f} events/s, {emitted} intervals, {samples} gpu samples")
