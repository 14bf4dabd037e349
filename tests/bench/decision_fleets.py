"""Blind evaluation of faultline's decisions on randomised fleets (brief D2, issue 15 targets).

    python -m tests.bench.decision_fleets --seed 1 --fleets 2 --out /tmp/d2

Each fleet holds one job per situation of ``fleet_situations.SITUATIONS`` (healthy jobs and
look-alikes, corrected errors only, a real hardware fault with cascades delivered late, a
node-local port down, a fabric fault, the job's own errors once / repeated / different, two
hardware faults in two attempts, a failed restart, OOM, hangs, a slow node), with a seeded
size (1-64 nodes), GPU count and step time. The fleet's events go to one JSON-lines file,
written in delivery order (some lines late); ``faultline replay`` runs the whole topology on
it and the ``decision`` events it writes are scored by ``fleet_oracle.score``.

Output: a table on stdout and ``<out>/seed<N>.json`` (every situation, its expectation, its
decisions, the pipeline's incidents for the job, and every finding). Exit status 0 whatever
the findings: this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path

from tests.bench.fleet_jobs import JobRun, Json, iso, parse
from tests.bench.fleet_oracle import Situation, score
from tests.bench.fleet_situations import ROUND3, SITUATIONS, SUPPLEMENT, Builder, Slot

SIZES = (1, 2, 2, 3, 4, 4, 6, 8, 8, 12, 16)
BIG_SIZES = (24, 32, 48, 64)
STEP_S = (0.6, 1.0, 1.5, 2.5, 4.0)
ROOT = Path(__file__).resolve().parents[2]


def build_fleet(seed: int, fleet: int, table: dict[str, tuple[Builder, int]] | None = None,
                repeat: int = 1) -> tuple[list[JobRun], list[Situation]]:
    """One fleet: every situation of ``table`` (default ``SITUATIONS``) ``repeat`` times, in a
    seeded order, sizes and step times."""
    table = SITUATIONS if table is None else table
    rng = random.Random(seed * 1000 + fleet)
    names = list(table) * repeat
    rng.shuffle(names)
    big = rng.choice(names)
    jobs, sits, offset = [], [], 0
    for index, name in enumerate(names):
        builder, least = table[name]
        nodes = max(least, rng.choice(BIG_SIZES) if name == big else rng.choice(SIZES))
        gpus = 4 if nodes > 16 else rng.choice((4, 8))
        slot = Slot(index + fleet * 100, offset, nodes, gpus, rng.choice(STEP_S), random.Random(rng.random()))
        job, sit = builder(slot)
        job.settle_attempts()
        sit.variant += f" | {nodes}x{gpus} GPUs step {slot.step_s}s"
        jobs.append(job)
        sits.append(sit)
        offset += sit.nodes
    return jobs, sits


def write_events(jobs: list[JobRun], path: Path) -> int:
    """Write every job's events in delivery order (event time + ``_deliver_s``); returns how many."""
    keyed = []
    for job in jobs:
        for e in job.events:
            late = e.pop("_deliver_s", 0.0)
            when = iso(parse(e["event_time"]) + timedelta(seconds=late)) if late else e["event_time"]
            keyed.append((when, e["event_id"], e))
    keyed.sort(key=lambda k: (k[0], k[1]))
    with path.open("w", encoding="utf-8") as out:
        for _, _, e in keyed:
            out.write(json.dumps(e, separators=(",", ":")) + "\n")
    return len(keyed)


def replay(events: Path, derived: Path) -> str:
    """Run ``faultline replay`` (the whole topology) on ``events``; returns its stderr summary."""
    exe = ROOT / ".venv" / "bin" / "faultline"
    done = subprocess.run([str(exe), "replay", str(events), "-o", str(derived)], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


def read_derived(path: Path) -> dict[str, dict[str, list[Json]]]:
    """job_id -> schema -> derived events of that job (decisions in output order)."""
    by_job: dict[str, dict[str, list[Json]]] = defaultdict(lambda: defaultdict(list))
    with path.open(encoding="utf-8") as handle:
        for raw in handle:
            e = json.loads(raw)
            kind = e["schema"].split("/")[0]
            if kind in ("decision", "incident", "hang_verdict", "slow_node", "fault", "dead_letter"):
                by_job[e.get("job_id") or "-"][kind].append(e)
    return by_job


def _brief(kind: str, e: Json) -> Json:
    keep = {"incident": ("attempt", "category", "blame", "nodes", "root_cause", "first_seen"),
            "hang_verdict": ("attempt", "source_nodes", "onset_time", "detected_at", "confidence"),
            "slow_node": ("node_id", "metric", "slowdown", "windows", "detected_at"),
            "fault": ("attempt", "node_id", "category", "blame", "level", "action", "first_seen", "evidence")}[kind]
    return {k: e.get(k) for k in keep}


TABLES: dict[str, tuple[dict[str, tuple[Builder, int]], int]] = {
    "fleet": (SITUATIONS, 1), "supplement": (SUPPLEMENT, 4), "round3": (ROUND3, 1)}
"""Which table a run uses (its file stem) -> (the table, how many jobs per situation per fleet)."""


def evaluate(seed: int, fleets: int, out: Path, score_only: bool = False, supplement: bool = False,
             kind: str | None = None) -> list[Json]:
    """Build, replay and score ``fleets`` fleets of ``seed``; returns one record per situation.

    ``score_only``: rebuild the (deterministic) fleets for their expectations and score the
    replay output already in ``out`` (after an oracle fix), without writing or replaying.
    ``kind``: a key of ``TABLES`` (default: ``supplement`` when ``supplement``, else ``fleet``)."""
    records: list[Json] = []
    kind = kind or ("supplement" if supplement else "fleet")
    situations, repeat = TABLES[kind]
    for fleet in range(fleets):
        jobs, sits = build_fleet(seed, fleet, situations, repeat)
        stem = f"seed{seed}_{kind}{fleet}"
        events, derived = out / f"{stem}.jsonl", out / f"{stem}.out.jsonl"
        count = sum(len(j.events) for j in jobs) if score_only else write_events(jobs, events)
        summary = "scored the existing replay output" if score_only else replay(events, derived)
        print(f"seed {seed} fleet {fleet}: {len(sits)} jobs, {sum(s.nodes for s in sits)} nodes, {count} events; {summary}",
              file=sys.stderr)
        by_job = read_derived(derived)
        letters = by_job.get("-", {}).get("dead_letter", [])
        if letters:
            print(f"  WARNING {len(letters)} dead letters, e.g. {letters[0].get('error')}", file=sys.stderr)
        for sit in sits:
            got = by_job.get(sit.job_id, {})
            decisions = got.get("decision", [])
            findings = score(sit, decisions)
            records.append({"seed": seed, "fleet": fleet, "situation": sit.to_dict(),
                            "decisions": decisions,
                            "pipeline": {k: [_brief(k, e) for e in got.get(k, [])[:40]]
                                         for k in ("incident", "hang_verdict", "slow_node", "fault")},
                            "findings": [asdict(f) | {"decision": None} for f in findings]})
    return records


def table(records: list[Json]) -> str:
    """Per situation: jobs, forbidden, missing, guarded, doubt, extra; then counts per cause (not extra)."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    causes: Counter[tuple[str, str, str]] = Counter()
    for r in records:
        name = r["situation"]["name"]
        rows[name]["jobs"] += 1
        for f in r["findings"]:
            rows[name][f["kind"]] += 1
            if f["kind"] != "extra":
                causes[(f["kind"], f["cause"], name)] += 1
    kinds = ("forbidden", "missing", "guarded", "doubt", "extra")
    lines = [f"{'situation':<20}{'jobs':>5}" + "".join(f"{k:>10}" for k in kinds)]
    total: Counter[str] = Counter()
    for name in sorted(rows):
        total.update(rows[name])
        lines.append(f"{name:<20}{rows[name]['jobs']:>5}" + "".join(f"{rows[name][k]:>10}" for k in kinds))
    lines.append(f"{'TOTAL':<20}{total['jobs']:>5}" + "".join(f"{total[k]:>10}" for k in kinds))
    lines.append("")
    lines += [f"{kind:<10}{cause:<36}{name:<20}{n:>4}" for (kind, cause, name), n in sorted(causes.items())]
    return "\n".join(lines)


def guard_note(records: list[Json]) -> str:
    """Per fleet (one cluster): nodes blocked cluster-wide and refusals, to read the blast-radius
    guard against 'at most N nodes (or P%) ... per cluster per hour' (N, P configurable)."""
    lines = []
    for key in sorted({(r["seed"], r["fleet"]) for r in records}):
        ds = [d for r in records if (r["seed"], r["fleet"]) == key for d in r["decisions"]]
        blocked = sorted({n for d in ds if d["action"] == "replace_nodes" and d.get("block_scope") == "cluster"
                          and not (d.get("guard") or {}).get("refused") for n in d.get("nodes") or []})
        refused = Counter(str((d.get("guard") or {}).get("rule")) for d in ds if (d.get("guard") or {}).get("refused"))
        lines.append(f"guards seed {key[0]} fleet {key[1]}: {len(blocked)} nodes blocked cluster-wide, refusals {dict(refused)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """CLI entry: ``--seed N --fleets K [--out DIR]``; prints the table, writes ``seed<N>.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fleets", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("/tmp/decision_fleets"))
    parser.add_argument("--score-only", action="store_true", help="re-score the replay output already in --out")
    parser.add_argument("--supplement", action="store_true",
                        help="fleets of the supplementary situations (port counters only, fabric), 4 jobs each")
    parser.add_argument("--round3", action="store_true", help="fleets of the round-3 situations (brief D3)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    kind = "round3" if args.round3 else "supplement" if args.supplement else "fleet"
    records = evaluate(args.seed, args.fleets, args.out, args.score_only, kind=kind)
    suffix = "" if kind == "fleet" else f"_{kind}"
    (args.out / f"seed{args.seed}{suffix}.json").write_text(json.dumps(records, indent=1, default=str), encoding="utf-8")
    print(table(records))
    print(guard_note(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
