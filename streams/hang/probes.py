"""The four hang probes: pure functions of (job state, event time) -> :class:`Probe`.

Each probe answers ``True`` (hang symptom present for long enough: the signal is "inactive"),
``False`` (the job shows activity on that signal) or ``None`` (no fresh data: never a vote).
Each also estimates when its symptom began (``onset_us``); evidence older than the state's
floor (the end of the last explained lifecycle phase) is not counted.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from statistics import median

from streams.hang.settings import HangSettings
from streams.hang.state import GpuPoint, JobState, NetPoint, seconds

PROBES = ("log_silent", "metrics_idle", "stacks_frozen", "collective_stalled")


@dataclass(frozen=True)
class Probe:
    """One probe's answer: ``value`` True/False/None and, when True, the symptom's onset."""

    value: bool | None
    onset_us: int | None = None


NO_DATA = Probe(None)
ACTIVE = Probe(False)


def _floor(state: JobState) -> int:
    return state.run.floor_us if state.run.floor_us is not None else -(2**62)


def _step_floor(state: JobState, s: HangSettings) -> int:
    """``step_factor`` x the job's median step time, in microseconds (0 without steps)."""
    steps = state.run.step_ms
    return int(s.step_factor * median(steps) * 1000) if steps else 0


def log_silent(state: JobState, now: int, s: HangSettings) -> Probe:
    """No training/NCCL line from any rank for max(log_silence_s, log_gap_factor x median gap).

    No data when the attempt has not logged yet (a job that never logs cannot fall silent).
    """
    last = state.run.last_log_us
    if last is None:
        return NO_DATA
    since = max(last, _floor(state))
    gaps = state.run.log_gaps
    limit = max(seconds(s.log_silence_s), int(s.log_gap_factor * median(gaps)) if gaps else 0)
    return Probe(True, since) if now - since >= limit else ACTIVE


def _gpu_kind(point: GpuPoint, s: HangSettings) -> str:
    """``spin`` (busy GPU, idle SMs: waiting in a collective), ``idle`` or ``compute``."""
    _, util, sm = point
    if util >= s.util_busy_pct and sm is not None and sm <= s.sm_idle_max:
        return "spin"
    return "idle" if util <= s.util_idle_pct else "compute"


def _gpu_quiet_since(points: deque[GpuPoint], floor: int, s: HangSettings) -> int | None:
    """Start of the trailing run of spin/idle samples after ``floor``; None if the last computes."""
    since = None
    for point in reversed(points):
        if point[0] < floor or _gpu_kind(point, s) == "compute":
            break
        since = point[0]
    return since


def _net_flat_since(points: deque[NetPoint], floor: int, s: HangSettings) -> int | None:
    """Start of the trailing run of flat RDMA intervals after ``floor``; None if the last moves."""
    since = None
    pts = list(points)
    for (t0, b0), (t1, b1) in zip(reversed(pts[:-1]), reversed(pts[1:]), strict=True):
        rate = (b1 - b0) / max((t1 - t0) / 1e6, 1e-6)
        if t0 < floor or b1 < b0 or rate > s.rdma_flat_bps:
            break
        since = t0
    return since


def metrics_idle(state: JobState, now: int, s: HangSettings, relaxed: bool = False) -> Probe:
    """RDMA flat on every reporting node while every GPU spins or idles, most of them spinning
    (any share when ``relaxed``), for ``idle_window_s`` (and ``step_factor`` median steps). No data without fresh GPU samples
    carrying SM activity, or without at least two fresh RDMA samples of some node."""
    fresh_after = now - seconds(s.stale_s)
    gpus = [p for p in state.run.gpu.values() if p and p[-1][0] >= fresh_after]
    nets = [p for p in state.run.net.values() if len(p) >= 2 and p[-1][0] >= fresh_after]
    if not gpus or not nets or all(p[-1][2] is None for p in gpus):
        return NO_DATA
    spinning = sum(1 for p in gpus if _gpu_kind(p[-1], s) == "spin")
    if not relaxed and spinning < s.min_spin_fraction * len(gpus):
        return ACTIVE
    floor = _floor(state)
    starts = [_gpu_quiet_since(p, floor, s) for p in gpus]
    starts += [_net_flat_since(p, floor, s) for p in nets]
    if any(t is None for t in starts):
        return ACTIVE
    onset = max(t for t in starts if t is not None)
    limit = max(seconds(s.idle_window_s), _step_floor(state, s))
    return Probe(True, onset) if now - onset >= limit else ACTIVE


def stacks_frozen(state: JobState, now: int, s: HangSettings, relaxed: bool = False) -> Probe:
    """Every reporting rank repeated its stack ``frozen_samples`` times (spanning at least
    ``step_factor`` median steps), and most of them wait
    in communication (in any frame when ``relaxed``). No data without a fresh stack sample."""
    fresh_after = now - seconds(s.stale_s)
    runs = [r for r in state.run.stacks.values() if r.length > 0 and r.last_us >= fresh_after]
    if not runs:
        return NO_DATA
    floor = _step_floor(state, s)
    if any(r.length < s.frozen_samples or r.last_us - r.start_us < floor for r in runs):
        return ACTIVE
    if not relaxed and sum(1 for r in runs if r.comm) < s.comm_wait_fraction * len(runs):
        return ACTIVE
    return Probe(True, max(r.start_us for r in runs))


def collective_stalled(state: JobState, now: int, s: HangSettings) -> Probe:
    """At least ``collective_min_fraction`` of the reporting ranks have a collective in flight
    for ``collective_stall_s`` (and ``step_factor`` median steps). No data without a fresh collective_progress snapshot."""
    fresh_after, floor = now - seconds(s.stale_s), _floor(state)
    limit = max(seconds(s.collective_stall_s), _step_floor(state, s))
    ranks: set[int] = set()
    stalled: dict[int, int] = {}
    for (rank, _group), snap in state.run.colls.items():
        if snap.t_us < fresh_after:
            continue
        ranks.add(rank)
        if snap.since_us is None:
            continue
        since = max(snap.since_us, floor)
        if now - since >= limit:
            stalled[rank] = min(since, stalled.get(rank, since))
    if not ranks:
        return NO_DATA
    if not stalled or len(stalled) < s.collective_min_fraction * len(ranks):
        return ACTIVE
    return Probe(True, min(stalled.values()))


def run_probes(state: JobState, now: int, s: HangSettings, relaxed: bool = False) -> dict[str, Probe]:
    """All four probes at event time ``now``, keyed by their HangSignals field name.

    ``relaxed`` (a lifecycle phase overran its budget) drops the collective-wait signature
    from the stack and metrics probes: the job should have left the phase, so frozen I/O
    frames and idle GPUs with no traffic are hang symptoms too.
    """
    return {
        "log_silent": log_silent(state, now, s),
        "metrics_idle": metrics_idle(state, now, s, relaxed),
        "stacks_frozen": stacks_frozen(state, now, s, relaxed),
        "collective_stalled": collective_stalled(state, now, s),
    }
