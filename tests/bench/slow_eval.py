"""Evaluate the slow-node detector: simulated fleets (precision, recall, latency, false
positives per 1000 node-hours) and the real Alibaba PAI mini-batch traces.

    python -m tests.bench.slow_eval --scenarios 40 --seed 1

Each randomized scenario is one synchronous job of 8 to 64 nodes from the shared simulator
with one slow node (thermal or NIC, slowdown 1.25 to 2.0) injected at a random time, with or
without Heterogeneity noise. A detection is a true positive when it names the injected node at
or after the onset (latency = ``detected_at - onset``); every other slow_node is a false
positive. Healthy runs (half with Heterogeneity noise) give false positives per 1000
node-hours. This module does I/O (simulator, CSV files); the detector itself does not.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from schemas import Event, GpuSample, JobEvent, NetSample, SlowNode, StepProgress
from streams.slow.detector import SlowNodeDetector
from streams.slow.settings import SlowSettings
from tests.bench.alibaba import job_events, step_at

ALIBABA_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "alibaba-pai-minibatch"
"""The real traces, in the shared folder that sits beside the repository (../shared)."""


def _job_key(event: Event, node_jobs: dict[str, str]) -> str | None:
    """The job whose state ``event`` belongs to: its job_id, or the job placed on its node."""
    if isinstance(event, JobEvent) and event.kind == "scheduled":
        node_jobs.update({p.node_id: event.job_id for p in event.placement})
    if isinstance(event, JobEvent | StepProgress):
        return event.job_id
    if isinstance(event, GpuSample | NetSample):
        return node_jobs.get(event.node_id)
    return None


def detect(events: Iterable[Event], settings: SlowSettings | None = None) -> list[SlowNode]:
    """Run one detector state per job over ``events`` (event-time order), flush at the end.

    Like the streaming shell, node samples go to the job placed on their node (unplaced
    nodes are skipped) and every other event kind is left out.
    """
    detector = SlowNodeDetector(settings)
    states: dict[str, Any] = {}
    node_jobs: dict[str, str] = {}
    out: list[SlowNode] = []
    last = None
    for event in events:
        key = _job_key(event, node_jobs)
        if key is None:
            continue
        states[key], emitted = detector.step(states.get(key) or detector.initial(), event)
        out.extend(e for e in emitted if isinstance(e, SlowNode))
        last = event.event_time
    for key, state in states.items():
        if last is not None:
            states[key], emitted = detector.flush(state, last + timedelta(hours=1))
            out.extend(e for e in emitted if isinstance(e, SlowNode))
    return out


@dataclass(frozen=True)
class Case:
    """One randomized scenario: job size, cause, slowdown, onset, noise."""

    nodes: int
    cause: Literal["thermal", "nic", "none"]
    slowdown: float
    at_s: float
    spread: float
    seed: int
    duration_s: float
    slow: bool = True


def draw_cases(n: int, seed: int, spread_max: float = 0.08) -> list[Case]:
    """``n`` randomized slow-node cases (half with Heterogeneity noise of spread 2 % to
    ``spread_max``)."""
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        at_s = rng.uniform(300, 600)
        spread = rng.uniform(0.02, spread_max) if i % 2 else 0.0
        cause: Literal["thermal", "nic"] = "nic" if rng.random() < 0.5 else "thermal"
        cases.append(Case(rng.randint(8, 64), cause,
                          round(rng.uniform(1.25, 2.0), 3), round(at_s, 1), round(spread, 3),
                          rng.randrange(1 << 30), at_s + 300))
    return cases


def draw_healthy(n: int, seed: int, duration_s: float = 1800,
                 spread_max: float = 0.08) -> list[Case]:
    """``n`` healthy cases (odd ones with Heterogeneity noise) for false positives per hour."""
    rng = random.Random(seed + 1_000_003)
    return [Case(rng.randint(8, 64), "none", 1.0, 0.0,
                 rng.uniform(0.02, spread_max) if i % 2 else 0.0,
                 rng.randrange(1 << 30), duration_s, slow=False) for i in range(n)]


def simulate_case(case: Case) -> tuple[list[Event], list[Any]]:
    """Events and truths of one case from the shared simulator (``producers.simulator``)."""
    from producers.simulator import FleetConfig, simulate
    from producers.simulator import scenarios as sc

    scenarios: list[Any] = []
    if case.slow:
        scenarios.append(sc.SlowNode(job=0, node=case.nodes // 3, at_s=case.at_s,
                                     slowdown=case.slowdown,
                                     cause="nic" if case.cause == "nic" else "thermal"))
    if case.spread:
        scenarios.append(sc.Heterogeneity(job=0, spread=case.spread))
    config = FleetConfig(nodes=case.nodes, gpus_per_node=8, jobs=1, duration_s=case.duration_s,
                         seed=case.seed, cluster="sim")
    run = simulate(config, scenarios)
    return list(run.events), [t for t in run.truth if t.kind == "slow_node"]


def score_case(outputs: Sequence[SlowNode], truths: Sequence[Any]) -> dict[str, Any]:
    """True positives (first hit per truth, at or after its onset), latencies, false positives."""
    latencies: list[float] = []
    used: set[str] = set()
    for truth in truths:
        hits = [o for o in outputs if o.node_id in truth.node_ids and o.detected_at >= truth.onset
                and o.outlier_id not in used]
        if hits:
            first = min(hits, key=lambda o: o.detected_at)
            used.add(first.outlier_id)
            latencies.append((first.detected_at - truth.onset).total_seconds())
    fps = [o for o in outputs if o.outlier_id not in used]
    return {"tp": len(latencies), "fn": len(truths) - len(latencies), "fp": len(fps),
            "latencies": latencies}


def _percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _run_cases(cases: Sequence[Case], settings: SlowSettings | None,
               steps_only: bool) -> list[dict[str, Any]]:
    rows = []
    for case in cases:
        events, truths = simulate_case(case)
        if steps_only:
            events = [e for e in events if isinstance(e, StepProgress | JobEvent)]
        result = score_case(detect(events, settings), truths)
        rows.append({**case.__dict__, **result})
    return rows


def evaluate(n: int = 40, seed: int = 1, healthy: int | None = None,
             settings: SlowSettings | None = None, steps_only: bool = False,
             spread_max: float = 0.08, healthy_duration_s: float = 1800) -> dict[str, Any]:
    """Precision, recall, latency p50/p95 over ``n`` slow cases and FP per 1000 node-hours
    over ``healthy`` healthy runs (default ``max(4, n // 4)``). ``steps_only`` feeds only
    step progress and lifecycle (no GPU/RDMA telemetry) to measure the step-time path."""
    count = healthy if healthy is not None else max(4, n // 4)
    slow_rows = _run_cases(draw_cases(n, seed, spread_max), settings, steps_only)
    healthy_rows = _run_cases(draw_healthy(count, seed, healthy_duration_s, spread_max),
                              settings, steps_only)
    tp = sum(r["tp"] for r in slow_rows)
    fp = sum(r["fp"] for r in slow_rows)
    fn = sum(r["fn"] for r in slow_rows)
    lat = [x for r in slow_rows for x in r["latencies"]]
    node_hours = sum(r["nodes"] * r["duration_s"] / 3600 for r in healthy_rows)
    healthy_fp = sum(r["fp"] for r in healthy_rows)
    return {
        "scenarios": n, "seed": seed, "steps_only": steps_only, "spread_max": spread_max,
        "tp": tp, "fp": fp, "fn": fn,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "latency_p50_s": statistics.median(lat) if lat else None,
        "latency_p95_s": _percentile(lat, 0.95), "latency_max_s": max(lat) if lat else None,
        "healthy_runs": len(healthy_rows), "healthy_node_hours": node_hours,
        "healthy_fp": healthy_fp,
        "fp_per_1000_node_hours": 1000 * healthy_fp / node_hours if node_hours else 0.0,
        "misses": [r for r in slow_rows if r["fn"] or r["fp"]],
    }


def alibaba_report(directory: Path = ALIBABA_DIR, nominal_step_s: float = 1.0,
                   settings: SlowSettings | None = None) -> list[dict[str, Any]]:
    """What the detector says on each Alibaba PAI job (one dict per CSV, sorted by name)."""
    report = []
    for path in sorted(directory.glob("job_*_norm.csv")):
        events = job_events(path, nominal_step_s)
        steps = [e.step for e in events if isinstance(e, StepProgress)]
        outputs = detect(events, settings)
        report.append({
            "job": path.stem.replace("_norm", ""), "workers": len({e.node_id for e in events
                                                                  if isinstance(e, StepProgress)}),
            "steps": max(steps) if steps else 0, "outliers": [_outlier_row(o, nominal_step_s)
                                                              for o in outputs]})
    return report


def _outlier_row(out: SlowNode, nominal_step_s: float) -> dict[str, Any]:
    return {"worker": int(out.node_id.split("-")[1]), "node": out.node_id, "metric": out.metric,
            "slowdown": round(out.slowdown, 3), "score": round(out.score, 1),
            "windows": out.windows, "detected_step": step_at(out.detected_at, nominal_step_s)}


def _print_sim(result: dict[str, Any]) -> None:
    def fmt(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.0f} s"

    print(f"simulated slow-node scenarios: {result['scenarios']} (seed {result['seed']}, "
          f"heterogeneity spread up to {result['spread_max']}, "
          f"{'step progress only' if result['steps_only'] else 'all signals'})")
    print(f"  precision {result['precision']:.3f}  recall {result['recall']:.3f}  "
          f"(tp {result['tp']}, fp {result['fp']}, fn {result['fn']})")
    print(f"  detection latency p50 {fmt(result['latency_p50_s'])}  p95 "
          f"{fmt(result['latency_p95_s'])}  max {fmt(result['latency_max_s'])}")
    print(f"  healthy load: {result['healthy_runs']} runs, {result['healthy_node_hours']:.0f} "
          f"node-hours, {result['healthy_fp']} false positives = "
          f"{result['fp_per_1000_node_hours']:.2f} per 1000 node-hours")
    for miss in result["misses"]:
        print(f"  miss/fp: {json.dumps(miss, default=str)}")


def _print_alibaba(report: list[dict[str, Any]]) -> None:
    print("Alibaba PAI mini-batch traces (worker = node, step = iteration, 1 s nominal step):")
    for job in report:
        found = ", ".join(
            f"{o['node']} at step {o['detected_step']} (x{o['slowdown']}, z {o['score']}, "
            f"{o['windows']} windows)" for o in job["outliers"]) or "no outlier"
        print(f"  {job['job']}: {job['workers']} workers, {job['steps']} steps: {found}")


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--healthy", type=int, default=None)
    parser.add_argument("--alibaba-dir", type=Path, default=ALIBABA_DIR)
    parser.add_argument("--healthy-duration", type=float, default=1800.0)
    parser.add_argument("--spread-max", type=float, default=0.08)
    parser.add_argument("--steps-only", action="store_true",
                        help="feed only step progress and lifecycle (no GPU/RDMA telemetry)")
    parser.add_argument("--skip-sim", action="store_true", help="only the Alibaba traces")
    args = parser.parse_args(argv)
    if not args.skip_sim:
        _print_sim(evaluate(args.scenarios, args.seed, args.healthy, steps_only=args.steps_only,
                            spread_max=args.spread_max,
                            healthy_duration_s=args.healthy_duration))
    _print_alibaba(alibaba_report(args.alibaba_dir))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
