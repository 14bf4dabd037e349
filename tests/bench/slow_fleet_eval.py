"""Evaluate the slow-node detector on the independent fleet of :mod:`tests.bench.slow_fleet`.

    python -m tests.bench.slow_fleet_eval --seed 1 --slow 60 --healthy 40

Tune on seed 1, report on seeds 2 and 3. Prints precision, recall, detection latency (all
stragglers and the 1.25x ones), false positives by condition (job phase at detection and the
node's structural labels) and false positives per 1,000 healthy node-hours with an upper
95 % bound (Poisson; 3 / exposure when none were seen, the "rule of three").
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from schemas import SlowNode
from streams.slow.detector import SlowNodeDetector
from streams.slow.settings import SlowSettings
from streams.slow.state import JobState
from tests.bench.slow_fleet import FleetCase, Run, draw_healthy, draw_slow, generate, phase_of


def run_detector(run: Run, settings: SlowSettings | None = None) -> list[SlowNode]:
    """Every event of the job through one detector state (as the per-job pipeline does)."""
    detector = SlowNodeDetector(settings or SlowSettings())
    state: JobState = detector.initial()
    out: list[SlowNode] = []
    for event in run.events:
        state, emitted = detector.step(state, event)
        out.extend(e for e in emitted if isinstance(e, SlowNode))
    if run.events:
        state, emitted = detector.flush(state, run.events[-1].event_time + timedelta(minutes=5))
        out.extend(e for e in emitted if isinstance(e, SlowNode))
    return out


def _fp_label(run: Run, out: SlowNode) -> str:
    tags = run.labels.get(out.node_id, []) or ["plain"]
    return f"{phase_of(run, out.detected_at)}/{'+'.join(tags)}/{out.metric}"


def score(run: Run, outputs: Sequence[SlowNode]) -> dict[str, Any]:
    """First output on each truth node at or after its onset is a hit; later episodes on it
    are repeats; all others are false positives."""
    used: set[str] = set()
    latencies: list[float] = []
    for truth in run.truths:
        hits = [o for o in outputs if o.node_id == truth.node_id and o.detected_at >= truth.onset]
        if hits:
            first = min(hits, key=lambda o: o.detected_at)
            used.add(first.outlier_id)
            latencies.append((first.detected_at - truth.onset).total_seconds())
    # A later episode on a real straggler (after a restart forgot the first) is a repeat, not
    # a healthy node blamed.
    slow = {(t.node_id) for t in run.truths}
    onset = {t.node_id: t.onset for t in run.truths}
    repeats = [o for o in outputs if o.outlier_id not in used and o.node_id in slow
               and o.detected_at >= onset[o.node_id]]
    fps = [o for o in outputs if o.outlier_id not in used and o not in repeats]
    return {"tp": len(latencies), "fn": len(run.truths) - len(latencies), "fp": len(fps),
            "repeats": len(repeats), "latencies": latencies,
            "fp_labels": [_fp_label(run, o) for o in fps]}


def _pct(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)]


def poisson_upper95(count: int) -> float:
    """One-sided 95 % upper bound of a Poisson mean after ``count`` events (exact for 0..3,
    Wilson-Hilferty beyond)."""
    exact = {0: 2.996, 1: 4.744, 2: 6.296, 3: 7.754}
    if count in exact:
        return exact[count]
    k = count + 1
    return k * (1 - 1 / (9 * k) + 1.645 / (3 * math.sqrt(k))) ** 3


def evaluate(seed: int, slow: int, healthy: int, settings: SlowSettings | None = None,
             verbose: bool = False) -> dict[str, Any]:
    """Run both case sets of ``seed``; returns the figures (see module doc)."""
    rows: list[tuple[FleetCase, dict[str, Any]]] = []
    for case in draw_slow(slow, seed):
        run = generate(case)
        rows.append((case, score(run, run_detector(run, settings))))
        if verbose and (rows[-1][1]["fn"] or rows[-1][1]["fp"]):
            print("  slow case", case, rows[-1][1])
    tp = sum(r["tp"] for _, r in rows)
    fp = sum(r["fp"] for _, r in rows)
    fn = sum(r["fn"] for _, r in rows)
    repeats = sum(r["repeats"] for _, r in rows)
    lat = [x for _, r in rows for x in r["latencies"]]
    lat125 = [x for c, r in rows for x in r["latencies"] if c.slowdown == 1.25]
    fp_by = Counter(lbl for _, r in rows for lbl in r["fp_labels"])
    node_h, hfp, hfp_by = 0.0, 0, Counter[str]()
    for case in draw_healthy(healthy, seed):
        run = generate(case)
        res = score(run, run_detector(run, settings))
        node_h += case.nodes * case.duration_s / 3600
        hfp += res["fp"]
        hfp_by.update(res["fp_labels"])
    return {"seed": seed, "tp": tp, "fp": fp, "fn": fn, "repeats": repeats,
            "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0,
            "lat_p50": statistics.median(lat) if lat else None, "lat_p95": _pct(lat, 0.95),
            "lat125_p50": statistics.median(lat125) if lat125 else None,
            "lat125_p95": _pct(lat125, 0.95), "n125": len([c for c, _ in rows if c.slowdown == 1.25]),
            "hit125": len(lat125), "fp_by": dict(fp_by), "healthy_node_hours": node_h,
            "healthy_fp": hfp, "healthy_fp_by": dict(hfp_by),
            "fp_per_1000h": 1000 * hfp / node_h if node_h else 0.0,
            "fp_per_1000h_upper95": 1000 * poisson_upper95(hfp) / node_h if node_h else 0.0}


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0f} s"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow", type=int, default=60)
    parser.add_argument("--healthy", type=int, default=60)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    r = evaluate(args.seed, args.slow, args.healthy, verbose=args.verbose)
    print(f"independent fleet, seed {r['seed']}: {args.slow} straggler jobs, {args.healthy} healthy")
    print(f"  precision {r['precision']:.3f}  recall {r['recall']:.3f}  (tp {r['tp']}, fp {r['fp']}, "
          f"fn {r['fn']}, repeat episodes on real stragglers {r['repeats']})")
    print(f"  latency p50 {_fmt(r['lat_p50'])}  p95 {_fmt(r['lat_p95'])};  1.25x nodes: "
          f"{r['hit125']}/{r['n125']} found, p50 {_fmt(r['lat125_p50'])}  p95 {_fmt(r['lat125_p95'])}")
    print(f"  false positives in straggler jobs by phase/node/metric: {r['fp_by']}")
    print(f"  healthy: {r['healthy_node_hours']:.0f} node-hours, {r['healthy_fp']} false positives "
          f"= {r['fp_per_1000h']:.2f} per 1000 node-hours (95 % upper bound "
          f"{r['fp_per_1000h_upper95']:.2f}); by condition: {r['healthy_fp_by']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
