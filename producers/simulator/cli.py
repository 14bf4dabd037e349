"""Command line of the simulator: ``main(argv)``, ready to hang under ``faultline simulate``.

    --nodes 8 --jobs 1 --duration-s 1800 --seed 7 \\
    --scenario hang:job=0,at_s=600,source=single --scenario xid:node=2,gpu=1,xid=79,at_s=900 \\
    --out events.jsonl --truth truth.json

Events are streamed to ``--out`` (JSON lines, contract encoding) without holding the whole
run in memory. Returns the process exit code: 0 on success, 2 on bad arguments/scenarios.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from producers.simulator import scenarios as sc
from producers.simulator.config import FleetConfig
from producers.simulator.engine import Simulation
from producers.simulator.output import write_jsonl, write_truth
from producers.simulator.scenarios import Scenario
from producers.simulator.variation import parse_variation


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the simulator command."""
    p = argparse.ArgumentParser(prog="faultline simulate",
                                description="Simulate a GPU training fleet and inject faults.")
    p.add_argument("--nodes", type=int, default=8)
    p.add_argument("--gpus-per-node", type=int, default=8)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--nodes-per-job", type=int, default=None)
    p.add_argument("--duration-s", type=float, default=1800.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cluster", default="sim")
    p.add_argument("--scenario", action="append", default=[], metavar="NAME:K=V,...",
                   help=f"repeatable; names: {', '.join(sorted(set(sc.BY_NAME)))}")
    p.add_argument("--vary", default="", metavar="K=V,...",
                   help="telemetry variation knobs, e.g. sm_active=false,stacks=false,"
                        "flight_recorder=false,waiter_frames=real,hooks=false,announce=false,async_checkpoint=true,"
                        "checkpoint_writer=rank0,storage_port=true,skew_node=2,skew_s=4")
    p.add_argument("--out", default="events.jsonl", help="events as JSON lines")
    p.add_argument("--truth", default=None, help="ground truth JSON (optional)")
    return p


def _config(args: argparse.Namespace) -> FleetConfig:
    return FleetConfig(nodes=args.nodes, gpus_per_node=args.gpus_per_node, jobs=args.jobs,
                       nodes_per_job=args.nodes_per_job, duration_s=args.duration_s,
                       seed=args.seed, cluster=args.cluster, variation=parse_variation(args.vary))


def _prepare(args: argparse.Namespace) -> Simulation:
    """The prepared simulation; raises ValueError for bad settings or scenarios."""
    scenarios: list[Scenario] = [sc.parse(text) for text in args.scenario]
    return Simulation(_config(args), scenarios)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulator command with ``argv`` (default: ``sys.argv[1:]``)."""
    args = build_parser().parse_args(argv)
    try:
        sim = _prepare(args)
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    count = write_jsonl(sim.events(), args.out)
    if args.truth:
        write_truth(sim.truth, args.truth, {"seed": args.seed, "events": count,
                                            "scenarios": list(args.scenario)})
    elapsed = time.perf_counter() - started
    print(f"wrote {count} events to {args.out} in {elapsed:.1f}s; "
          f"{len(sim.truth)} truth entries" + (f" to {args.truth}" if args.truth else ""))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
