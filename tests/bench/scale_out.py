"""Scale-out shown, not claimed: 1, 2 and 4 workers in one consumer group drain the same backlog.

    python -m tests.bench.scale_out [--workers 1 2 4] [--nodes 32] [--jobs 8] [--duration-s 420]

One local broker (``deploy/``). For each worker count N, a fresh namespace whose topics have
``--partitions`` partitions (at least N: a partition is the unit of work a group shares) gets the
whole fleet before any worker starts; then N ``faultline worker`` processes with one app id
(static membership, one instance id each) start together. The clock runs from their start to the
group's committed offsets reaching the end of every input topic (the worker commits only what
its state snapshots cover, see docs/topology.md), so start-up, the group's rebalances and the
re-keying hops between workers are all inside the figure. Then the derived topics are read and
compared with ``faultline replay`` of the same file: ids lost, extra, and changed in content,
and how long after the group's last commit the last answer came. A burst of faults closes when
its stage's event-time clock passes it; once the input stops, that clock moves on at wall-clock
pace (``streams.app.StageClock``), so a burst whose key fell silent near the end of a backlog
closes up to its quiet window (3 minutes) after the drain: the reading waits up to 5 minutes.

Each line gives events/s end to end, per worker (end to end / N), the time to the group's first
commit (start-up and rebalance), and the comparison. The workers, the broker and this process
share the machine's cores: on 2 cores, N workers cannot run N times as fast, and the per-worker
figure shows how much each one got done.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from deploy.local_kafka import LocalKafka, LocalKafkaSettings, create_registry_topics
from schemas.registry import TELEMETRY_TOPICS
from schemas.settings import KafkaSettings
from tests.chaos.harness import (
    Feed,
    Fleet,
    Proc,
    committed_total,
    compare,
    end_total,
    make_fleet,
    read_derived,
    start_worker,
    stop_all,
)


@dataclass(frozen=True)
class Drain:
    """One worker count's run: what it took and whether it derived what replay derives."""

    workers: int
    events: int
    elapsed_s: float
    first_commit_s: float
    lost: int
    extra: int
    changed: int
    compared: int
    crashed: int
    answers_s: float | None
    """Seconds from the group's last commit until every replayed answer was read (None: never)."""
    differences: tuple[str, ...] = ()
    """For each changed id, the fields that differ (streamed != replayed)."""

    def line(self) -> str:
        rate = self.events / self.elapsed_s
        steady = self.events / max(1e-9, self.elapsed_s - self.first_commit_s)
        same = (f"identical to replay, all read {self.answers_s:.0f} s after the last commit"
                if not (self.lost or self.extra or self.changed) else
                f"differs from replay: {self.lost} lost, {self.extra} extra, {self.changed} changed")
        return (f"  {self.workers} worker(s): {rate:,.0f} events/s end to end, {rate / self.workers:,.0f} per worker; "
                f"first commit after {self.first_commit_s:.1f} s, {steady:,.0f} events/s after it; "
                f"{self.compared} derived ids {same}" + (f"; {self.crashed} worker(s) crashed" if self.crashed else "")
                + "".join(f"\n      changed {d}" for d in self.differences))


def drain(broker: LocalKafka, fleet: Fleet, workers: int, partitions: int, workdir: Path,
          timeout_s: float = 1800.0) -> Drain:
    """Produce ``fleet`` into a fresh namespace, start ``workers`` workers together and time the
    group from their start until it has committed the end of every input topic."""
    kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace=f"s{uuid.uuid4().hex[:8]}.",
                          partitions=partitions)
    app_id = f"{kafka.namespace}pipeline"
    create_registry_topics(kafka, app_id)
    feed = Feed(kafka, fleet.events, speed=1e9)
    feed.run()  # in this thread: the whole backlog is on the broker before any worker starts
    if feed.error is not None:
        raise RuntimeError(f"producing the backlog failed: {feed.error!r}")
    end = end_total(kafka, TELEMETRY_TOPICS)
    started = time.monotonic()
    procs = [start_worker(kafka, workdir, app_id, f"w{i + 1}", wait=False) for i in range(workers)]
    first_commit_s = _wait_committed(kafka, app_id, end, started, procs, timeout_s)
    elapsed_s = time.monotonic() - started
    committed = time.monotonic()
    observed = read_derived(kafka, fleet.expected, timeout_s=300.0, idle_s=3.0)
    answers_s = time.monotonic() - committed - 3.0 if observed.complete else None
    result = compare(observed, fleet.expected)
    crashed = sum(p.crashed() for p in procs)
    for proc in procs:
        proc.stop()
    return Drain(workers, end, elapsed_s, first_commit_s, len(result.lost), len(result.extra),
                 len(result.changed), result.replayed, crashed, answers_s, tuple(result.differences))


def _wait_committed(kafka: KafkaSettings, group: str, end: int, started: float, procs: list[Proc],
                    timeout_s: float) -> float:
    """Block until ``group`` has committed ``end`` offsets in all; returns the seconds from
    ``started`` to its first commit. RuntimeError if every worker died or time runs out."""
    first: float | None = None
    deadline = started + timeout_s
    while time.monotonic() < deadline:
        done = committed_total(kafka, group, TELEMETRY_TOPICS)
        if done > 0 and first is None:
            first = time.monotonic() - started
        if done >= end:
            return first if first is not None else time.monotonic() - started
        if not any(p.alive() for p in procs):
            raise RuntimeError("every worker exited:\n" + "\n".join(p.tail(20) for p in procs))
        time.sleep(0.25)
    raise RuntimeError(f"the group committed {done:,} of {end:,} offsets in {timeout_s:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.scale_out", description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--nodes", type=int, default=32, help="fleet size (8 GPUs per node)")
    parser.add_argument("--jobs", type=int, default=8, help="jobs of equal size over the nodes")
    parser.add_argument("--duration-s", type=float, default=420.0, help="event time the fleet covers (faults in it)")
    parser.add_argument("--partitions", type=int, default=8, help="partitions per topic (>= the most workers)")
    args = parser.parse_args(argv)
    if args.partitions < max(args.workers):
        parser.error("--partitions must be at least the largest --workers")
    workroot = Path(tempfile.mkdtemp(prefix="scale-out-"))  # kept: the worker logs are the evidence
    os.environ["FAULTLINE_KAFKA_PARTITIONS"] = str(args.partitions)  # the workers' own topics (changelogs)
    fleet = make_fleet(workroot, duration_s=args.duration_s, nodes=args.nodes, jobs=args.jobs)
    print(f"scale-out: {len(fleet.events):,} events ({args.nodes} nodes x 8 GPUs, {args.jobs} jobs), "
          f"{args.partitions} partitions per topic, one local broker; logs in {workroot}", flush=True)
    with LocalKafka(LocalKafkaSettings(port=0, data_dir=workroot / "kafka")) as broker:
        try:
            for workers in args.workers:
                print(drain(broker, fleet, workers, args.partitions, workroot).line(), flush=True)
        finally:
            stop_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
