"""A synthetic fleet history for the ETT analytics, and the bench of the fleet-overview queries.

``generate(jobs, days, seed)`` builds the derived rows a month of a fleet would leave in
ClickHouse: per job, ``ett_interval`` rows that tile its lifetime, cut on the ETT stage's
15-minute grid as the stage emits them (queue, initialization,
productive runs cut by checkpoints, detection, post-detection scheduling, recompute, idle),
and behind every interruption the ``fault`` / ``hang_verdict`` / ``incident`` and the
``decision`` its ``cause_id`` names. Shapes follow published fleet figures: job sizes from 8 to
2,048 GPUs (most jobs small), node failures at about r_f = 6.5e-3 per node-day with a few
lemon nodes failing far more often, restart overhead of minutes, checkpoints every 10-60 min.

``python -m tests.bench.ett_history [--jobs 1000 --days 30]`` loads it into a temporary chDB
and prints each analytics query's time (the target is < 1 s each).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from schemas import Decision, EttInterval, Event, Fault, HangSignals, HangVerdict, Incident, Reason, derived_id

if TYPE_CHECKING:
    from sinks.clickhouse.store import Store

T0 = datetime(2026, 10, 1, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
GRID = timedelta(minutes=15)
"""The ETT stage cuts intervals on this epoch-aligned grid (``EttSettings.split_every_s``)."""
GPUS_PER_NODE = 8
SIZES = ((8, 0.40), (16, 0.15), (64, 0.15), (256, 0.15), (1024, 0.10), (2048, 0.05))
NODE_CATEGORIES = ("gpu_fallen_off_bus", "gpu_memory_ecc", "gpu_nvlink", "ib_link", "hardware_mce")
JOB_CATEGORIES = ("cuda_oom", "segfault", "process_exit_nonzero")
JOB_RATE_PER_H = 0.01
"""Job-blamed failures (the program's own bugs) per hour, whatever the job's size."""
LEMON_FACTOR = 40.0


def interval(job: str, attempt: int, kind: str, start: datetime, end: datetime, *, gpus: int,
             cluster: str, cause_id: str | None = None) -> EttInterval:
    """One ``ett_interval`` with the id the ETT stage would give it."""
    return EttInterval(event_id=derived_id("ett_interval", job, attempt, kind, start), event_time=end,
                       cluster=cluster, job_id=job, attempt=attempt, kind=kind,  # type: ignore[arg-type]
                       start=start, end=end, cause_id=cause_id, gpus=gpus)


def fault(fault_id: str, *, job: str, attempt: int, node: str | None, category: str, blame: str,
          at: datetime, cluster: str) -> Fault:
    """An explicit fault seen at ``at`` on ``node``."""
    return Fault(event_id=fault_id, event_time=at, cluster=cluster, fault_id=fault_id, node_id=node, job_id=job,
                 category=category, family="gpu_hw" if blame == "node" else "process", level="fault",
                 blame=blame, rule_id=f"r_{category}", evidence=category, first_seen=at, count=1,  # type: ignore[arg-type]
                 attempt=attempt)


def verdict(verdict_id: str, *, job: str, attempt: int, onset: datetime, detected: datetime,
            nodes: tuple[str, ...], cluster: str) -> HangVerdict:
    """A hang verdict localised to ``nodes``."""
    return HangVerdict(event_id=verdict_id, event_time=detected, cluster=cluster, verdict_id=verdict_id, job_id=job,
                       attempt=attempt, onset_time=onset, detected_at=detected,
                       signals=HangSignals(log_silent=True, collective_stalled=True),
                       source_ranks=(0,) if nodes else (), source_nodes=nodes, confidence=0.9)


def incident(incident_id: str, *, job: str, attempt: int, root: str | None, category: str, blame: str,
             nodes: tuple[str, ...], at: datetime, cluster: str) -> Incident:
    """An incident whose root cause is ``root``."""
    return Incident(event_id=incident_id, event_time=at, cluster=cluster, incident_id=incident_id, job_id=job,
                    attempt=attempt, root_cause=root, category=category, blame=blame,  # type: ignore[arg-type]
                    nodes=nodes, first_seen=at, last_seen=at)


def decision(decision_id: str, *, job: str, attempt: int, at: datetime, action: str, nodes: tuple[str, ...],
             reason_kind: str, category: str | None, causes: tuple[str, ...], cluster: str) -> Decision:
    """A decision on ``job`` issued at ``at``."""
    return Decision(event_id=decision_id, event_time=at, cluster=cluster, decision_id=decision_id, job_id=job,
                    attempt=attempt, issued_at=at, action=action, nodes=nodes,  # type: ignore[arg-type]
                    block_scope="cluster" if nodes else "none",
                    reason=Reason(kind=reason_kind, category=category, cause_ids=causes),  # type: ignore[arg-type]
                    policy_rule="bench")


@dataclass
class _Job:
    """The state of one job while its timeline is generated."""

    job_id: str
    cluster: str
    gpus: int
    nodes: tuple[str, ...]
    end_of_work: datetime
    attempt: int = 0
    events: list[Event] = field(default_factory=list)

    def add(self, kind: str, start: datetime, end: datetime, cause_id: str | None = None) -> datetime:
        """Append [start, end) cut on the ETT stage's grid (``split_every_s``, 15 min); returns ``end``."""
        while start < end:
            cut = min(end, EPOCH + ((start - EPOCH) // GRID + 1) * GRID)
            self.events.append(interval(self.job_id, self.attempt, kind, start, cut, gpus=self.gpus,
                                        cluster=self.cluster, cause_id=cause_id))
            start = cut
        return end


@dataclass
class _Fleet:
    rng: random.Random
    clusters: dict[str, list[str]]
    lemons: frozenset[str]
    r_f: float
    end: datetime

    def node_rate_per_h(self, nodes: tuple[str, ...]) -> float:
        """Node-blamed failures per hour of a job on ``nodes`` (lemon nodes fail 40 times as often)."""
        return sum(self.r_f * (LEMON_FACTOR if n in self.lemons else 1.0) for n in nodes) / 24.0


def _minutes(rng: random.Random, median: float, sigma: float = 0.5) -> timedelta:
    return timedelta(minutes=median * rng.lognormvariate(0.0, sigma))


def _fleet(rng: random.Random, nodes_per_cluster: int, days: int, r_f: float) -> _Fleet:
    clusters = {name: [f"{name}-n{i:04d}" for i in range(nodes_per_cluster)] for name in ("rsc1", "rsc2")}
    everyone = [n for nodes in clusters.values() for n in nodes]
    lemons = frozenset(rng.sample(everyone, max(1, len(everyone) // 200)))
    return _Fleet(rng, clusters, lemons, r_f, T0 + timedelta(days=days))


def _new_job(fleet: _Fleet, index: int) -> tuple[_Job, datetime]:
    """A job and the end of its queue wait (its first interval)."""
    rng = fleet.rng
    cluster = rng.choice(sorted(fleet.clusters))
    gpus = rng.choices([s for s, _ in SIZES], weights=[w for _, w in SIZES])[0]
    nodes = tuple(rng.sample(fleet.clusters[cluster], gpus // GPUS_PER_NODE))
    submitted = T0 + timedelta(seconds=rng.uniform(0, (fleet.end - T0).total_seconds() * 0.9))
    work = timedelta(hours=min(720.0, 12.0 * rng.lognormvariate(0.0, 1.3)))
    job = _Job(f"job-{index:05d}", cluster, gpus, nodes, end_of_work=min(fleet.end, submitted + work))
    queued_until = job.add("scheduling", submitted, submitted + _minutes(rng, 10 + gpus / 64))
    return job, queued_until


def _job_history(fleet: _Fleet, index: int) -> list[Event]:
    """Every derived row of one job, from submission to the end of its work (or of the window)."""
    rng = fleet.rng
    job, queued_until = _new_job(fleet, index)
    now = job.add("initialization", queued_until, queued_until + _minutes(rng, 5))
    checkpoint_every = timedelta(minutes=rng.choice((10, 20, 30, 60)))
    last_checkpoint = now
    while now < job.end_of_work:
        node_rate = fleet.node_rate_per_h(job.nodes)
        failure_at = now + timedelta(hours=rng.expovariate(node_rate + JOB_RATE_PER_H))
        node_blamed = rng.random() < node_rate / (node_rate + JOB_RATE_PER_H)
        now, last_checkpoint = _run_until(job, now, min(failure_at, job.end_of_work), checkpoint_every,
                                          last_checkpoint, rng)
        if failure_at >= job.end_of_work:
            job.add("idle", now, now + timedelta(minutes=1))
            break
        now = _interrupt(fleet, job, now, last_checkpoint, node_blamed)
        last_checkpoint = now
    return job.events


def _run_until(job: _Job, now: datetime, until: datetime, every: timedelta, last_checkpoint: datetime,
               rng: random.Random) -> tuple[datetime, datetime]:
    """Productive runs cut by checkpoints (non-blocking writes still occupy their interval)."""
    while now < until:
        next_checkpoint = last_checkpoint + every
        if next_checkpoint >= until:
            return job.add("productive", now, until), last_checkpoint
        now = job.add("productive", now, next_checkpoint)
        write_end = min(until, now + timedelta(seconds=rng.uniform(30, 150)))
        now = job.add("checkpoint", now, write_end)
        last_checkpoint = now
    return now, last_checkpoint


def _interrupt(fleet: _Fleet, job: _Job, onset: datetime, last_checkpoint: datetime, node_blamed: bool) -> datetime:
    """Detection, the cause rows and decision, scheduling, then the next attempt up to productive."""
    rng = fleet.rng
    kind = rng.choices(("node_fault", "hang"), weights=(0.65, 0.35))[0] if node_blamed else "job_fault"
    detect = timedelta(seconds=rng.uniform(5, 40)) if kind != "hang" else _minutes(rng, 3, 0.6)
    detected = onset + detect
    cause = _cause_rows(fleet, job, kind, onset, detected)
    now = job.add("detection", onset, detected, cause)
    now = job.add("scheduling", now, now + _minutes(rng, 6 + job.gpus / 256), cause)
    job.attempt += 1
    now = job.add("initialization", now, now + _minutes(rng, 5))
    lost = onset - last_checkpoint
    return job.add("recompute", now, now + lost)


def _cause_rows(fleet: _Fleet, job: _Job, kind: str, onset: datetime, detected: datetime) -> str:
    """The fault/verdict/incident and decision behind one interruption; returns the decision id."""
    rng, key, att = fleet.rng, job.job_id, job.attempt
    node = _blamed_node(fleet, job)
    did = derived_id("decision", key, att, detected)
    if kind == "hang":
        vid = derived_id("hang_verdict", key, att, onset)
        job.events.append(verdict(vid, job=key, attempt=att, onset=onset, detected=detected, nodes=(node,),
                                  cluster=job.cluster))
        job.events.append(decision(did, job=key, attempt=att, at=detected, action="replace_nodes", nodes=(node,),
                                   reason_kind="hang", category=None, causes=(vid,), cluster=job.cluster))
        return did
    node_blamed = kind == "node_fault"
    category = rng.choice(NODE_CATEGORIES if node_blamed else JOB_CATEGORIES)
    fid = derived_id("fault", node, onset)
    iid = derived_id("incident", key, att, onset)
    blame = "node" if node_blamed else "job"
    job.events.append(fault(fid, job=key, attempt=att, node=node, category=category, blame=blame, at=onset,
                            cluster=job.cluster))
    job.events.append(incident(iid, job=key, attempt=att, root=fid, category=category, blame=blame,
                               nodes=(node,) if node_blamed else (), at=onset, cluster=job.cluster))
    job.events.append(decision(did, job=key, attempt=att, at=detected,
                               action="replace_nodes" if node_blamed else "restart_in_place",
                               nodes=(node,) if node_blamed else (), reason_kind="explicit_fault",
                               category=category, causes=(iid,), cluster=job.cluster))
    return did


def _blamed_node(fleet: _Fleet, job: _Job) -> str:
    weights = [LEMON_FACTOR if n in fleet.lemons else 1.0 for n in job.nodes]
    return fleet.rng.choices(job.nodes, weights=weights)[0]


def generate(jobs: int = 1000, days: int = 30, seed: int = 1, nodes_per_cluster: int = 1200,
             r_f: float = 6.5e-3) -> list[Event]:
    """The derived rows of ``jobs`` jobs submitted over ``days`` days; the same seed gives the same rows."""
    fleet = _fleet(random.Random(seed), nodes_per_cluster, days, r_f)
    events: list[Event] = []
    for index in range(jobs):
        events += _job_history(fleet, index)
    return events


def _timed(name: str, run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Generate, load into a temporary chDB, and time every analytics query (best of 3)."""
    from sinks.clickhouse.mapping import TABLES
    from sinks.clickhouse.settings import ClickHouseSettings
    from sinks.clickhouse.store import connect

    parser = argparse.ArgumentParser(prog="python -m tests.bench.ett_history")
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    events = generate(args.jobs, args.days, args.seed)
    print(f"generated {len(events)} rows for {args.jobs} jobs over {args.days} days "
          f"in {time.perf_counter() - started:.1f} s")
    tmp = Path(tempfile.mkdtemp(prefix="ett-bench-"))
    store = connect(ClickHouseSettings(dsn=f"chdb://{tmp / 'clickhouse'}", query_server=False))
    try:
        store.migrate()
        load_s = _timed("insert", lambda: [store.insert(events[i:i + 50_000]) for i in range(0, len(events), 50_000)])
        _, counts = store.query(f"SELECT count() FROM {store.database}.ett_intervals")
        print(f"loaded in {load_s:.1f} s; ett_intervals rows: {counts[0][0]}")
        fresh = _time_queries(store)
        for spec in TABLES:  # what the engine's background merges do to a live store
            store.command(f"OPTIMIZE TABLE {store.database}.{spec.table} FINAL")
        merged = _time_queries(store)
        print(f"  {'query (best of 3)':<28} {'as inserted':>12} {'parts merged':>13}")
        for name in fresh:
            print(f"  {name:<28} {fresh[name] * 1000:9.1f} ms {merged[name] * 1000:10.1f} ms")
        for label, times in (("as inserted", fresh), ("parts merged", merged)):
            worst = max(times.values())
            print(f"slowest query, {label}: {worst * 1000:.1f} ms ({'OK' if worst < 1.0 else 'OVER'} the 1 s target)")
        _print_fit(store, args.seed)
    finally:
        store.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _time_queries(store: Store) -> dict[str, float]:
    """Seconds per overview query, best of 3 (the machine may be shared)."""
    return {name: min(_timed(name, lambda s=sql: store.query(s)) for _ in range(3))  # type: ignore[misc]
            for name, sql in overview_queries(store.database).items()}


def expected_r_f(r_f: float = 6.5e-3, lemon_share: float = 1 / 200) -> float:
    """The fleet-mean failures per node-day the generator draws (ordinary and lemon nodes mixed)."""
    return r_f * (1 - lemon_share + lemon_share * LEMON_FACTOR)


def _print_fit(store: Store, seed: int) -> None:
    """What the analytics recover from the history against what the generator put in."""
    from sinks.clickhouse import analytics

    cols, rows = store.query(analytics.failure_rate_sql(store.database))
    fleet = dict(zip(cols, rows[-1], strict=True))
    print(f"fitted r_f {fleet['r_f']:.5f} per node-day (generated mean {expected_r_f():.5f}), "
          f"u0 {fleet['mean_overhead_min']:.1f} min over {fleet['interruptions']} interruptions")
    _, worst = store.query(analytics.lemon_nodes_sql(store.database, limit=10))
    lemons = _fleet(random.Random(seed), 1200, 1, 6.5e-3).lemons
    print(f"lemon nodes: {sum(1 for row in worst if row[1] in lemons)} of the top 10 by lost GPU-hours are true lemons")


def overview_queries(database: str) -> dict[str, str]:
    """Every fleet-overview query: each view in full, and the saved queries."""
    from sinks.clickhouse import analytics

    queries = {v.name: analytics.view_sql(database, v.name) for v in analytics.VIEWS if v.name != "ett_base"}
    queries["top_jobs"] = analytics.top_jobs_sql(database)
    queries["lemon_nodes"] = analytics.lemon_nodes_sql(database)
    queries["failure_rate"] = analytics.failure_rate_sql(database)
    return queries


if __name__ == "__main__":
    raise SystemExit(main())
