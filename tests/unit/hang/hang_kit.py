"""Small hand-built event streams for the hang detector's unit tests (no simulator needed).

``Job`` describes a job of ``nodes x gpus`` ranks; ``stream(job, until_s, episodes)`` yields
every telemetry kind at realistic cadences (gpu/net/stack/collective every 5 s, a log line
every second, step_progress every 10 s) with episodes changing what the ranks do.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from schemas import (
    CollectiveProgress,
    Event,
    GpuSample,
    GpuStats,
    HangVerdict,
    HangVote,
    JobEvent,
    LogLine,
    NetPort,
    NetSample,
    Placement,
    StackSample,
    StepProgress,
)
from streams.hang import HangDetector, HangSettings

T0 = datetime(2026, 11, 22, 8, 0, 0, tzinfo=UTC)
HEALTHY_FRAMES = (
    ("main (train.py:1)", "train_step (train.py:40)", "forward (model.py:12)"),
    ("main (train.py:1)", "train_step (train.py:41)", "backward (autograd.py:200)"),
    ("main (train.py:1)", "train_step (train.py:42)", "step (optim.py:88)"),
    ("main (train.py:1)", "train_step (train.py:41)", "all_reduce (distributed_c10d.py:2050)"),
)
WAIT = ("main (train.py:1)", "train_step (train.py:41)", "all_reduce (distributed_c10d.py:2050)",
        "wait (ProcessGroupNCCL.cpp:500)")
STUCK = ("main (train.py:1)", "train_step (train.py:40)", "forward (model.py:12)", "bad_kernel (ops.py:7)")
SAVE = ("main (train.py:1)", "save_checkpoint (ckpt.py:10)", "write (serialization.py:300)")
EVAL = ("main (train.py:1)", "evaluate (eval.py:20)", "forward (model.py:12)")
BARRIER = ("main (train.py:1)", "on_step_end (loop.py:77)", "barrier (distributed_c10d.py:4562)")


def at(s: float) -> datetime:
    """Event time ``s`` seconds after T0."""
    return T0 + timedelta(seconds=s)


@dataclass(frozen=True)
class Job:
    """A job of ``nodes x gpus`` ranks; rank r on node r // gpus (node ids 1-based)."""

    job_id: str = "job-0000"
    nodes: int = 2
    gpus: int = 4
    attempt: int = 0

    @property
    def ranks(self) -> range:
        return range(self.nodes * self.gpus)

    def node(self, rank: int) -> str:
        return f"node-{rank // self.gpus + 1:04d}"


@dataclass(frozen=True)
class Episode:
    """From ``start_s`` to ``end_s`` the job is in ``kind``: hang, checkpoint, eval, dataload,
    rank0_save (rank 0 writes, the others wait in a barrier)."""

    kind: str
    start_s: float
    end_s: float = 1e9
    sources: tuple[int, ...] = ()
    lifecycle: bool = True


@dataclass
class _Clock:
    seq: int = 0
    rdma: dict[str, int] = field(default_factory=dict)
    step: int = 0


def lifecycle(job: Job, kind: str, s: float, attempt: int | None = None, **kw: object) -> JobEvent:
    """A job_event; ``scheduled`` gets the job's placement."""
    placement = tuple(Placement(rank=r, node_id=job.node(r)) for r in job.ranks)
    return JobEvent(
        event_id=f"je-{kind}-{s}", event_time=at(s), cluster="t", job_id=job.job_id,
        attempt=job.attempt if attempt is None else attempt, kind=kind,  # type: ignore[arg-type]
        placement=placement if kind == "scheduled" else (), **kw,  # type: ignore[arg-type]
    )


def _active(episodes: Iterable[Episode], s: float) -> Episode | None:
    return next((e for e in episodes if e.start_s <= s < e.end_s), None)


def _gpu(job: Job, node: int, s: float, ep: Episode | None) -> GpuSample:
    stats = []
    for i in range(job.gpus):
        rank = node * job.gpus + i
        util, sm = _util(rank, ep)
        power = 650.0 if sm >= 0.5 else 250.0 if util >= 80 else 100.0  # compute / spin / idle
        stats.append(GpuStats(index=i, util_pct=util, sm_active=sm, mem_used_bytes=1, temp_c=60,
                              power_w=power, ecc_sbe_total=0, ecc_dbe_total=0,
                              nvlink_crc_errors_total=0, pcie_replay_total=0, throttle_reasons=0))
    return GpuSample(event_id=f"g-{node}-{s}", event_time=at(s), cluster="t",
                     node_id=f"node-{node + 1:04d}", gpus=tuple(stats))


def _util(rank: int, ep: Episode | None) -> tuple[float, float]:
    if ep is None:
        return 97.0, 0.75
    if ep.kind == "hang":
        return (0.0, 0.0) if rank in ep.sources else (100.0, 0.04)
    if ep.kind == "rank0_save":
        return (2.0, 0.01) if rank == 0 else (100.0, 0.04)  # the others spin in a barrier
    if ep.kind == "eval":
        return 98.0, 0.8
    return 2.0, 0.01  # checkpoint / data loading: GPUs wait for I/O


def _net(job: Job, node: int, s: float, ep: Episode | None, clock: _Clock) -> NetSample:
    name = f"node-{node + 1:04d}"
    if ep is None:
        clock.rdma[name] = clock.rdma.get(name, 0) + 5 * 10**10
    port = NetPort(device="mlx5_0", port=1, state="ACTIVE", tx_bytes_total=clock.rdma.get(name, 0),
                   rx_bytes_total=clock.rdma.get(name, 0), symbol_errors_total=0,
                   link_downed_total=0, rcv_errors_total=0)
    return NetSample(event_id=f"n-{node}-{s}", event_time=at(s), cluster="t", node_id=name,
                     ports=(port,))


def _frames(rank: int, s: float, ep: Episode | None) -> tuple[str, ...]:
    if ep is None:
        return HEALTHY_FRAMES[(int(s // 5) + rank) % len(HEALTHY_FRAMES)]
    if ep.kind == "hang":
        return STUCK if rank in ep.sources else WAIT
    if ep.kind == "rank0_save":
        return SAVE[:-1] + (f"write (serialization.py:{300 + int(s) % 7})",) if rank == 0 else BARRIER
    return {"checkpoint": SAVE, "eval": EVAL}.get(ep.kind, ("main (train.py:1)", "__next__ (dataloader.py:630)"))


def _coll(job: Job, rank: int, s: float, ep: Episode | None, clock: _Clock) -> CollectiveProgress:
    since: datetime | None = at(s - 0.2)
    seq = clock.seq
    if ep is not None and ep.kind == "hang":
        seq = clock.seq if rank in ep.sources else clock.seq + 1
        since = None if rank in ep.sources else at(ep.start_s)
    elif ep is not None and ep.kind == "rank0_save":
        seq = clock.seq if rank == 0 else clock.seq + 1
        since = None if rank == 0 else at(ep.start_s)
    elif ep is not None:
        since = None
    return CollectiveProgress(event_id=f"c-{rank}-{s}", event_time=at(s), cluster="t",
                              job_id=job.job_id, node_id=job.node(rank), rank=rank,
                              comm_group="world", last_enqueued_seq=seq,
                              last_completed_seq=seq if since is None else seq - 1,
                              in_flight_op="allreduce" if since else None, in_flight_since=since)


def _sampled(job: Job, s: float, ep: Episode | None, clock: _Clock) -> list[Event]:
    out: list[Event] = []
    for node in range(job.nodes):
        out += [_gpu(job, node, s, ep), _net(job, node, s, ep, clock)]
    for rank in job.ranks:
        out.append(StackSample(event_id=f"s-{rank}-{s}", event_time=at(s), cluster="t",
                               job_id=job.job_id, node_id=job.node(rank), rank=rank, pid=100 + rank,
                               frames=_frames(rank, s, ep)))
        out.append(_coll(job, rank, s, ep, clock))
    return out


def _per_second(job: Job, s: float, clock: _Clock) -> list[Event]:
    clock.step += 1
    clock.seq += 1
    out: list[Event] = [LogLine(event_id=f"l-{s}", event_time=at(s), cluster="t", job_id=job.job_id,
                                node_id=job.node(0), rank=0, source="training",
                                line=f"step {clock.step} loss 1.0")]
    if clock.step % 10 == 0:
        out += [StepProgress(event_id=f"p-{r}-{s}", event_time=at(s), cluster="t", job_id=job.job_id,
                             node_id=job.node(r), rank=r, step=clock.step, step_time_ms=1000.0)
                for r in job.ranks]
    return out


def _lifecycle_of(job: Job, episodes: Iterable[Episode], until_s: float) -> list[Event]:
    out: list[Event] = []
    for ep in episodes:
        if ep.kind == "checkpoint" and ep.lifecycle:
            out.append(lifecycle(job, "checkpoint_started", ep.start_s))
            if ep.end_s < until_s:
                out.append(lifecycle(job, "checkpoint_completed", ep.end_s, step=1))
    return out


def stream(job: Job, until_s: float, episodes: tuple[Episode, ...] = (), start_s: float = 0.0) -> list[Event]:
    """Every event of ``job`` from ``start_s`` to ``until_s`` (scheduled at start, running +10 s)."""
    clock = _Clock()
    out: list[Event] = [lifecycle(job, "scheduled", start_s), lifecycle(job, "running", start_s + 10)]
    out += _lifecycle_of(job, episodes, until_s)
    s = start_s + 10.5
    while s < until_s:
        ep = _active(episodes, s)
        if ep is None:
            out += _per_second(job, s, clock)
        if int(s * 2) % 10 == 1:
            out += _sampled(job, s, ep, clock)
        s += 1.0
    return sorted(out, key=lambda e: (e.event_time, e.event_id))


def run(events: list[Event], settings: HangSettings | None = None) -> list[Event]:
    """Every output of a fresh detector fed ``events``."""
    detector = HangDetector(settings)
    state = detector.initial()
    out: list[Event] = []
    for event in events:
        state, emitted = detector.step(state, event)
        out += emitted
    return out


def verdicts(out: list[Event]) -> list[HangVerdict]:
    """The verdicts among ``out``."""
    return [e for e in out if isinstance(e, HangVerdict)]


def votes(out: list[Event]) -> list[HangVote]:
    """The votes among ``out``."""
    return [e for e in out if isinstance(e, HangVote)]
