"""Per-event cost of the hang detector, simulation excluded.

    python -m tests.bench.hang_cost --repeats 5

Simulates a fixed set of jobs once (every availability profile, a hang, a long evaluation),
routes their events per job, then times only the detector (``step`` for every event and the
shell's ``flush`` every ``eval_every_s`` of event time, as ``hang_eval.detect`` drives it).
Prints the best of ``--repeats`` runs in microseconds per event: the best run is the one
least disturbed by other processes on a shared machine. Compare two versions of the
detector by running this module against each, one after the other.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from producers.simulator import FleetConfig, Variation, simulate
from producers.simulator import scenarios as sc
from schemas import Event
from streams.hang.settings import HangSettings
from tests.bench.hang_eval import PROFILES, detect, profile_knobs, route


def knobs(profile: str) -> dict[str, Any]:
    """The Variation fields of ``profile``."""
    return dict(profile_knobs(profile))


def workload() -> list[list[Event]]:
    """Events of each simulated job (fixed seeds): one per profile, hung, and one evaluating."""
    jobs: list[list[Event]] = []
    for i, profile in enumerate(PROFILES):
        config = FleetConfig(nodes=2, gpus_per_node=8, jobs=1, duration_s=1200.0, seed=100 + i, cluster="cost",
                             variation=Variation(**knobs(profile)))
        for scenario in (sc.Hang(job=0, at_s=700.0, source="single"), sc.LongEval(job=0, at_s=300.0,
                                                                                   duration_s=400.0)):
            jobs.append(route(simulate(config, [scenario]).events)["job-0000"])
    return jobs


def measure(jobs: list[list[Event]], repeats: int) -> tuple[float, int]:
    """(best microseconds per event over ``repeats`` passes, events per pass)."""
    settings, events = HangSettings(), sum(len(j) for j in jobs)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for job in jobs:
            detect(job, settings)
        best = min(best, time.perf_counter() - start)
    return best / events * 1e6, events


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point: prints the per-event cost."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench.hang_cost", description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    us, events = measure(workload(), args.repeats)
    print(f"hang detector: {us:.2f} us/event (best of {args.repeats} passes over {events} events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
