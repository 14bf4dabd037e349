"""Dense telemetry of a run, built lazily one time window at a time.

Each emitter returns the events whose event time falls in ``[a, b)`` (milliseconds since
the start); the engine calls them for consecutive windows, so any per-node state they
keep (cumulative counters) advances in event-time order.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from producers.simulator import collectives, gpu, net, stacks, texts
from producers.simulator.factory import EventFactory, Item
from producers.simulator.timeline import ACTIVE_ROLES, JobTimeline
from schemas import CollectiveProgress, GpuSample, LogLine, NetSample, StackSample, StepProgress

T = TypeVar("T")
STEP_REPORT_MAX_DELAY_MS = 30
"""Ranks report a step up to this long after it ends (rank 0's log line last)."""


@dataclass(frozen=True)
class Periodic(Generic[T]):
    """Entities sampled every ``interval_ms``, each at its own fixed offset in the interval."""

    interval_ms: int
    offsets: tuple[int, ...]
    entities: tuple[T, ...]

    @classmethod
    def of(cls, interval_ms: int, entities: Sequence[T], rng: random.Random) -> Periodic[T]:
        """Give each entity a seeded offset in ``[0, interval_ms)``, sorted for bisection."""
        pairs = sorted((rng.randrange(interval_ms), i) for i in range(len(entities)))
        return cls(interval_ms, tuple(o for o, _ in pairs), tuple(entities[i] for _, i in pairs))

    def due(self, a: int, b: int) -> Iterator[tuple[int, T]]:
        """(time, entity) for every sample time in ``[a, b)``, in time order."""
        iv = self.interval_ms
        for k in range(max(0, (a - iv) // iv), b // iv + 1):
            base = k * iv
            lo, hi = bisect_left(self.offsets, a - base), bisect_left(self.offsets, b - base)
            for i in range(lo, hi):
                yield base + self.offsets[i], self.entities[i]


@dataclass(frozen=True)
class RankRef:
    """One rank of one job's timeline."""

    tl: JobTimeline
    rank: int


def _compute_ms(tl: JobTimeline, step_index: int, rank: int, rng: random.Random) -> float:
    speed, end, length = tl.speed, tl.step_ends[step_index], tl.step_lens[step_index]
    pos = rank // tl.layout.gpus_per_node
    factor = speed.compute_factor(pos, end - length)
    spike = tl.spikes.get(step_index)
    if spike is not None and spike[0] == pos:
        factor *= spike[1]
    value = speed.compute_base_ms * factor * tl.step_jits[step_index]
    return min(value * (1 + rng.gauss(0, speed.rank_noise)), length - 0.5)


def _step_reports(f: EventFactory, tl: JobTimeline, i: int, a: int, b: int,
                  rng: random.Random) -> list[Item]:
    items, end, length = [], tl.step_ends[i], tl.step_lens[i]
    lay = tl.layout
    for rank in range(lay.world_size):
        ms = end + (rank % 7) * 3
        if a <= ms < b:
            compute = round(_compute_ms(tl, i, rank, rng), 3)
            items.append(f.trusted(StepProgress, ms, job_id=lay.job_id, node_id=lay.node_of(rank),
                                rank=rank, step=i + 1, step_time_ms=float(length),
                                compute_ms=compute, comm_wait_ms=round(length - compute, 3)))
    return items


def _iteration_log(f: EventFactory, tl: JobTimeline, i: int, every: int, total: int,
                   rng: random.Random) -> Item:
    lens = tl.step_lens[max(0, i + 1 - every):i + 1]
    ms = tl.step_ends[i] + STEP_REPORT_MAX_DELAY_MS - 5
    line = texts.iteration(f.time(ms), i + 1, total, sum(lens) / len(lens), rng.gauss(0, 0.02))
    return f.make(LogLine, ms, node_id=tl.layout.node_ids[0], job_id=tl.layout.job_id, rank=0,
                  source="training", line=line)


def steps(f: EventFactory, tl: JobTimeline, a: int, b: int, report_every: int,
          log_every: int, total: int, rng: random.Random) -> list[Item]:
    """step_progress of every ``report_every``-th step and rank 0's iteration log lines."""
    items: list[Item] = []
    lo = bisect_left(tl.step_ends, a - STEP_REPORT_MAX_DELAY_MS)
    for i in range(lo, bisect_left(tl.step_ends, b)):
        if (i + 1) % report_every == 0:
            items += _step_reports(f, tl, i, a, b, rng)
        log_ms = tl.step_ends[i] + STEP_REPORT_MAX_DELAY_MS - 5
        if (i + 1) % log_every == 0 and a <= log_ms < b:
            items.append(_iteration_log(f, tl, i, log_every, total, rng))
    return items


def stack(f: EventFactory, ref: RankRef, ms: int, rng: random.Random) -> list[Item]:
    """The stack sample of one rank at ``ms`` (none when it has no training process)."""
    tl, rank = ref.tl, ref.rank
    role = tl.role(rank, ms)
    if role not in ACTIVE_ROLES or not tl.variation.stacks:
        return []
    variant = tl.hang.variant if tl.hang else 0
    real = tl.variation.waiter_frames == "real"
    return [f.trusted(StackSample, ms, job_id=tl.layout.job_id, node_id=tl.layout.node_of(rank),
                   rank=rank, pid=tl.layout.pid(rank),
                   frames=stacks.frames_for(role, rng, variant, real))]


def collective(f: EventFactory, ref: RankRef, ms: int) -> list[Item]:
    """One collective_progress per communicator of one rank at ``ms`` (none without process)."""
    tl, rank = ref.tl, ref.rank
    role = tl.role(rank, ms)
    if role not in ACTIVE_ROLES or not tl.variation.flight_recorder:
        return []
    items = []
    for group in collectives.GROUPS:
        snap = collectives.snapshot(tl, role, group, ms)
        since = None if snap.since_ms is None else f.time(snap.since_ms)
        items.append(f.trusted(CollectiveProgress, ms, job_id=tl.layout.job_id,
                            node_id=tl.layout.node_of(rank), rank=rank, comm_group=group,
                            last_enqueued_seq=snap.enqueued, last_completed_seq=snap.completed,
                            in_flight_op=snap.op, in_flight_since=since))
    return items


@dataclass
class NodeRef:
    """One node, its job (if any) and its persistent GPU and port state."""

    node_id: str
    tl: JobTimeline | None
    pos: int
    gpus: gpu.NodeGpus
    ports: list[net.PortState]
    net_last_ms: int | None = None


def gpu_sample(f: EventFactory, node: NodeRef, ms: int, rng: random.Random) -> list[Item]:
    """The gpu_sample of ``node`` at ``ms``."""
    node.gpus.advance(ms)
    tl, gpn = node.tl, len(node.gpus.gpus)
    if tl is not None and (tl.node_dead(node.pos, ms) or not tl.variation.node_metrics
                           or not tl.variation.gpu_metrics):
        return []  # the node agent died with the node, or the job's nodes have none
    sm_active = tl.variation.sm_active if tl is not None else True
    thermal = tl is not None and tl.speed.is_slow(node.pos, ms, "thermal")
    stats = []
    for index, state in enumerate(node.gpus.gpus):
        role = "off" if tl is None else tl.role(node.pos * gpn + index, ms)
        stats.append(gpu.gpu_stats(index, role, thermal and role == "train", state, rng, sm_active))
    return [f.make(GpuSample, ms, node_id=node.node_id, gpus=stats)]


def net_sample(f: EventFactory, node: NodeRef, ms: int, interval_ms: int,
               rng: random.Random) -> list[Item]:
    """The net_sample of ``node`` at ``ms``, after moving the traffic since the last one."""
    if node.tl is not None and (node.tl.node_dead(node.pos, ms) or not node.tl.variation.node_metrics):
        return []
    last = node.net_last_ms if node.net_last_ms is not None else max(0, ms - interval_ms)
    tl, node.net_last_ms = node.tl, ms
    seconds, throughput, degraded, storage_s = 0.0, 1.0, False, 0.0
    if tl is not None:
        spent = tl.overlap(last, ms)
        seconds = net.active_seconds(spent)
        throughput = tl.speed.throughput(ms)
        degraded = tl.speed.is_slow(node.pos, ms, "nic")
        storage_s = net.storage_seconds(spent, (ms - last) / 1000.0)
    net.advance(node.ports, seconds, throughput, degraded, rng, storage_s)
    return [f.make(NetSample, ms, node_id=node.node_id, ports=[p.wire() for p in node.ports])]
