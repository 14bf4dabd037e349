"""Folding telemetry into the per-job state: one small function per event kind.

Every function mutates the state it is given and never looks at the wall clock; buffers are
pruned to the vote window of the event's own time, so memory stays bounded however long
the job runs.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from schemas import CollectiveProgress, GpuSample, LogLine, NetSample, StackSample, StepProgress
from streams.hang.settings import HangSettings
from streams.hang.state import MAX_POINTS, JobState, Snapshot, StackRun, seconds, to_us

JOB_LOG_SOURCES = ("training", "nccl")


def is_comm_wait(frames: tuple[str, ...], settings: HangSettings) -> bool:
    """Whether a stack (outermost first) waits in communication: a marker in an inner frame."""
    inner = frames[-settings.comm_frame_depth:]
    lowered = [frame.lower() for frame in inner]
    return any(marker in frame for frame in lowered for marker in settings.comm_markers)


def on_log(state: JobState, event: LogLine) -> None:
    """Record a training/NCCL line as a sign of life; kernel/system lines say nothing.

    For a job that reports no steps, a line after a verdict closes the hang episode.
    """
    if event.source not in JOB_LOG_SOURCES:
        return
    run, now = state.run, to_us(event.event_time)
    if run.last_log_us is not None and now > run.last_log_us:
        run.log_gaps.append(now - run.last_log_us)
    if run.last_log_us is None or now > run.last_log_us:
        run.last_log_us = now
    if run.verdict_open and not run.saw_steps and run.verdict_us is not None and now > run.verdict_us:
        run.verdict_open = False  # a job without step reports shows progress by logging again


def on_step(state: JobState, event: StepProgress) -> None:
    """Record training progress; progress past a verdict's step closes the hang episode."""
    run, now = state.run, to_us(event.event_time)
    run.saw_steps = True
    run.step_ms.append(event.step_time_ms)
    if run.max_step is None or event.step > run.max_step:
        run.max_step = event.step
        run.last_progress_us = now
    if run.verdict_open and run.verdict_step is not None and event.step > run.verdict_step:
        run.verdict_open = False


def on_stack(state: JobState, event: StackSample, settings: HangSettings) -> None:
    """Extend or restart the rank's run of identical stacks."""
    now, sig = to_us(event.event_time), "\n".join(event.frames)
    comm = is_comm_wait(event.frames, settings)
    current = state.run.stacks.get(event.rank)
    if current is not None and current.sig == sig and current.length > 0:
        current.length += 1
        current.last_us = now
        return
    state.run.stacks[event.rank] = StackRun(sig=sig, start_us=now, length=1, last_us=now, comm=comm)


def on_collective(state: JobState, event: CollectiveProgress) -> None:
    """Keep the latest snapshot of (rank, communicator)."""
    since = to_us(event.in_flight_since) if event.in_flight_since is not None else None
    state.run.colls[(event.rank, event.comm_group)] = Snapshot(
        t_us=to_us(event.event_time),
        enqueued=event.last_enqueued_seq,
        completed=event.last_completed_seq,
        op=event.in_flight_op,
        since_us=since,
    )


def on_gpu(state: JobState, event: GpuSample, settings: HangSettings) -> None:
    """Append each GPU's util/SM to its rank (local index = position among the node's ranks)."""
    ranks = state.ranks_of(event.node_id)
    now = to_us(event.event_time)
    for gpu in event.gpus:
        if gpu.index >= len(ranks):
            continue
        points = state.run.gpu.setdefault(ranks[gpu.index], deque(maxlen=MAX_POINTS))
        points.append((now, gpu.util_pct, gpu.sm_active))
        _prune(points, now, settings)


def on_net(state: JobState, event: NetSample, settings: HangSettings) -> None:
    """Append the node's total RDMA bytes (tx + rx over all ports); ignores unplaced nodes."""
    if not state.ranks_of(event.node_id):
        return
    now = to_us(event.event_time)
    total = sum(p.tx_bytes_total + p.rx_bytes_total for p in event.ports)
    points = state.run.net.setdefault(event.node_id, deque(maxlen=MAX_POINTS))
    points.append((now, total))
    _prune(points, now, settings)


def _prune(points: deque[Any], now: int, settings: HangSettings) -> None:
    horizon = now - seconds(settings.window_s)
    while points and points[0][0] < horizon:
        points.popleft()


def prune_stale(state: JobState, now: int, settings: HangSettings) -> None:
    """Forget collective snapshots older than the window (ranks that stopped reporting)."""
    horizon = now - seconds(settings.window_s)
    for key in [k for k, s in state.run.colls.items() if s.t_us < horizon]:
        del state.run.colls[key]
