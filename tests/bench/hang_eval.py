"""Evaluate the hang detector on randomized simulated scenarios.

    python -m tests.bench.hang_eval --scenarios 40 --seed 1

Scenario ``i`` draws (from ``seed`` and ``i`` only) a job size, an onset and a kind, cycling
through the kinds so every batch mixes them: hang with a single source, two sources or a
uniform freeze, a long checkpoint trap and a long evaluation trap, with per-node speed
noise. Healthy load is a separate fleet with several jobs and no injected fault. Prints
detection latency p50/p95 from the true onset, detection rate, exact-source rates, verdicts
on traps and false verdicts per 1000 job-hours. This module may import the simulator; the
detector it evaluates may not.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from producers.simulator import FleetConfig, simulate
from producers.simulator import scenarios as sc
from schemas import Event, GpuSample, HangVerdict, JobEvent, NetSample
from streams.hang.detector import HangDetector
from streams.hang.settings import HangSettings
from streams.hang.state import JobState

KINDS = ("single", "two", "uniform", "checkpoint", "eval")


@dataclass(frozen=True)
class Case:
    """One randomized scenario run: the fleet, what is injected and its kind."""

    kind: str
    config: FleetConfig
    scenarios: tuple[Any, ...]


def draw_case(seed: int, index: int) -> Case:
    """Scenario ``index`` of the batch ``seed`` (deterministic)."""
    rng = random.Random(f"hang-eval/{seed}/{index}")
    kind = KINDS[index % len(KINDS)]
    duration = rng.choice([1800.0, 2400.0])
    config = FleetConfig(nodes=rng.choice([2, 4, 8]), gpus_per_node=8, jobs=1, duration_s=duration,
                         seed=rng.randrange(1_000_000), cluster="eval")
    at_s = rng.uniform(240.0, duration - 700.0)
    noise = sc.Heterogeneity(job=0, spread=rng.uniform(0.0, 0.1))
    injected: Any
    if kind in ("single", "two", "uniform"):
        injected = sc.Hang(job=0, at_s=at_s, source=kind)  # type: ignore[arg-type]  # kind is a HangSource here
    elif kind == "checkpoint":
        injected = sc.LongCheckpoint(job=0, at_s=at_s, duration_s=rng.uniform(240.0, 900.0))
    else:
        injected = sc.LongEval(job=0, at_s=at_s, duration_s=rng.uniform(240.0, 900.0))
    return Case(kind, config, (noise, injected))


def route(events: Iterable[Event]) -> dict[str, list[Event]]:
    """Group events by job like the streaming shell: node samples go to the job placed there."""
    node_job: dict[str, str] = {}
    by_job: dict[str, list[Event]] = {}
    for event in events:
        if isinstance(event, JobEvent) and event.kind == "scheduled":
            node_job.update({p.node_id: event.job_id for p in event.placement})
        if isinstance(event, (GpuSample, NetSample)):
            job = node_job.get(event.node_id)
        else:
            job = getattr(event, "job_id", None)
        if isinstance(job, str):
            by_job.setdefault(job, []).append(event)
    return by_job


def detect(events: Sequence[Event], settings: HangSettings) -> list[HangVerdict]:
    """Run one job's events through a fresh detector (flushing at the end); its verdicts."""
    detector = HangDetector(settings)
    state: JobState = detector.initial()
    out: list[Event] = []
    for event in events:
        state, emitted = detector.step(state, event)
        out += emitted
    if events:
        state, emitted = detector.flush(state, events[-1].event_time)
        out += emitted
    return [e for e in out if isinstance(e, HangVerdict)]


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` (0-100) of ``values``; None when empty."""
    if not values:
        return None
    ranked = sorted(values)
    return ranked[max(0, math.ceil(q / 100 * len(ranked)) - 1)]


@dataclass
class Tally:
    """Counters accumulated over a batch; ``exact`` is per hang kind, one flag per detection."""

    latencies: list[float] = field(default_factory=list)
    hangs: int = 0
    detected: int = 0
    exact: dict[str, list[bool]] = field(default_factory=lambda: {k: [] for k in KINDS[:3]})
    traps: int = 0
    trap_verdicts: int = 0
    early_verdicts: int = 0


def score_case(case: Case, tally: Tally, settings: HangSettings) -> None:
    """Simulate ``case``, run the detector, and add its outcome to ``tally``."""
    run = simulate(case.config, list(case.scenarios))
    verdicts = detect(route(run.events).get("job-0000", []), settings)
    truth = next((t for t in run.truth if t.kind == "hang"), None)
    if case.kind in ("checkpoint", "eval"):
        tally.traps += 1
        tally.trap_verdicts += len(verdicts)
        return
    if truth is None:
        return
    tally.hangs += 1
    tally.early_verdicts += sum(1 for v in verdicts if v.detected_at < truth.onset)
    hit = next((v for v in verdicts if v.detected_at >= truth.onset), None)
    if hit is None:
        return
    tally.detected += 1
    tally.latencies.append((hit.detected_at - truth.onset).total_seconds())
    tally.exact[case.kind].append(tuple(sorted(hit.source_nodes)) == tuple(sorted(truth.node_ids)))


def healthy_false_verdicts(seed: int, runs: int, settings: HangSettings) -> tuple[float, int]:
    """Job-hours simulated and verdicts issued on a healthy fleet of 4 jobs x 1 h per run."""
    hours, verdicts = 0.0, 0
    for i in range(runs):
        config = FleetConfig(nodes=8, gpus_per_node=8, jobs=4, duration_s=3600.0,
                             seed=seed * 1000 + i, cluster="healthy")
        noise = [sc.Heterogeneity(job=j, spread=0.08) for j in range(config.jobs)]
        for events in route(simulate(config, noise).events).values():
            verdicts += len(detect(events, settings))
        hours += config.jobs * config.duration_s / 3600.0
    return hours, verdicts


def _rate(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def evaluate(n: int = 40, seed: int = 1, healthy_runs: int = 2,
             settings: HangSettings | None = None) -> dict[str, Any]:
    """Run ``n`` randomized scenarios and ``healthy_runs`` healthy fleets; the figures as a dict."""
    settings = settings or HangSettings()
    tally = Tally()
    for i in range(n):
        score_case(draw_case(seed, i), tally, settings)
    hours, false = healthy_false_verdicts(seed, healthy_runs, settings)
    return {
        "scenarios": n, "seed": seed, "hangs": tally.hangs, "detected": tally.detected,
        "detection_rate": tally.detected / tally.hangs if tally.hangs else None,
        "latency_p50_s": percentile(tally.latencies, 50),
        "latency_p95_s": percentile(tally.latencies, 95),
        "latency_max_s": max(tally.latencies, default=None),
        "single_source_exact_rate": _rate(tally.exact["single"]),
        "two_source_exact_rate": _rate(tally.exact["two"]),
        "uniform_no_source_rate": _rate(tally.exact["uniform"]),
        "verdicts_before_onset": tally.early_verdicts,
        "trap_runs": tally.traps, "trap_verdicts": tally.trap_verdicts,
        "healthy_job_hours": hours, "healthy_false_verdicts": false,
        "false_verdicts_per_1000_job_hours": 1000.0 * false / hours if hours else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; prints the figures (text, or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench.hang_eval", description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--healthy-runs", type=int, default=2, help="healthy fleets of 4 jobs x 1 h")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = evaluate(args.scenarios, args.seed, args.healthy_runs)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:34s} {value:.3f}" if isinstance(value, float) else f"{key:34s} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
