"""The four hang probes: pure functions of (job state, event time) -> :class:`Probe`.

Each probe answers ``True`` (hang symptom present for long enough: the signal is "inactive"),
``False`` (the job shows activity on that signal) or ``None`` (no fresh data: never a vote).
Each also estimates when its symptom began (``onset_us``); evidence older than the state's
floor (the end of the last explained lifecycle phase) is not counted. Ranks on silent nodes
(``silence.py``) are left out: their last samples describe a node that no longer exists.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from statistics import median

from streams.hang.gpu import gpu_kind
from streams.hang.ingest import node_of_port
from streams.hang.settings import HangSettings
from streams.hang.stackview import StackView, stack_view, step_floor_us
from streams.hang.state import GpuPoint, JobState, NetPoint, last_activity_us, seconds

PROBES = ("log_silent", "metrics_idle", "stacks_frozen", "collective_stalled")
NOBODY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Probe:
    """One probe's answer: ``value`` True/False/None and, when True, the symptom's onset."""

    value: bool | None
    onset_us: int | None = None


NO_DATA = Probe(None)
ACTIVE = Probe(False)


def _floor(state: JobState) -> int:
    return state.run.floor_us if state.run.floor_us is not None else -(2**62)




def log_silent(state: JobState, now_us: int, s: HangSettings, solo: bool = False) -> Probe:
    """No training/NCCL line and no step progress for max(log_silence_s, log_gap_factor x
    the job's cadence: its median gap between lines or between step reports, the shorter);
    ``solo`` (the only probe with data) also demands
    ``solo_silence_s`` and twice the job's longest earlier quiet period.

    No data when the attempt has neither logged nor reported a step (GPUs seen computing,
    ``last_work_us``, move the silence's start, but are no log).
    """
    last = last_activity_us(state)
    if last is None or (state.run.last_log_us is None and state.run.last_progress_us is None):
        return NO_DATA
    since = max(last, _floor(state))
    limit = max(seconds(s.log_silence_s), int(s.log_gap_factor * _cadence_us(state)))
    if solo:
        longest = max(state.history.get("quiet", []), default=0.0)
        limit = max(limit, seconds(s.solo_silence_s), seconds(2 * longest))
    return Probe(True, since) if now_us - since >= limit else ACTIVE


def _cadence_us(state: JobState) -> float:
    """How often the job shows a sign of life: the shorter of its median gap between lines and
    between step-progress advances (a job that logs every 30 s but reports steps every 5 s is
    silent after missing a few step reports); 0 before either is known."""
    medians = [median(gaps) for gaps in (state.run.log_gaps, state.run.progress_gaps) if gaps]
    return min(medians, default=0.0)


def _gpu_quiet_since(points: deque[GpuPoint], peak_w: float | None, floor: int, s: HangSettings) -> int | None:
    """Start of the trailing run of spin/idle samples after ``floor``; None if the last computes."""
    since = None
    for point in reversed(points):
        if point[0] < floor or gpu_kind(point, peak_w, s) in ("compute", "unknown"):
            break
        since = point[0]
    return since


def _rates(points: deque[NetPoint]) -> list[tuple[int, float]]:
    """(interval start us, bytes/s) of consecutive points; a counter reset gives rate -1."""
    pts = list(points)
    return [(t0, (b1 - b0) / max((t1 - t0) / 1e6, 1e-6) if b1 >= b0 else -1.0)
            for (t0, b0), (t1, b1) in zip(pts[:-1], pts[1:], strict=True)]


def _port_flat_since(points: deque[NetPoint], floor: int, s: HangSettings) -> tuple[int | None, float]:
    """(start of the trailing run of flat intervals of one port after ``floor``, or None if
    the last interval moves; the port's peak rate in the window). Flat: at most
    ``rdma_flat_bps`` or ``rail_drop_fraction`` of the port's own peak rate."""
    rates = _rates(points)
    peak = max((r for _, r in rates), default=0.0)
    limit = max(s.rdma_flat_bps, s.rail_drop_fraction * peak)
    since = None
    for t0, rate in reversed(rates):
        if t0 < floor or rate < 0 or rate > limit:
            break
        since = t0
    return since, peak


def node_flat_since(ports: list[deque[NetPoint]], floor: int, s: HangSettings) -> int | None:
    """When the flat ports came to carry more than ``rail_majority`` of the node's peak
    traffic (None if they do not): the compute rails carry the job's collectives and stop
    together; a storage port that keeps moving carries a small share and does not veto."""
    flats = [_port_flat_since(p, floor, s) for p in ports]
    total = sum(peak for _, peak in flats)
    if total <= 0:  # nothing ever moved in the window: flat since the earliest evidence
        starts = [t for t, _ in flats if t is not None]
        return min(starts) if len(starts) == len(flats) and starts else None
    weight = 0.0
    for since, peak in sorted((t, p) for t, p in flats if t is not None):
        weight += peak
        if weight > s.rail_majority * total:
            return since
    return None


def metrics_idle(state: JobState, now_us: int, s: HangSettings, relaxed: bool = False,
                 excluded: frozenset[int] = NOBODY) -> Probe:
    """Most GPUs busy but not computing (any share when ``relaxed``), the rest idle, and RDMA
    flat on the compute rails of every reporting node, for ``idle_window_s`` (and
    ``step_factor`` median steps). Spinning is read from SM activity, or on NVML-only nodes
    from power far below the GPU's own busy peak. RDMA is used when present (nodes without
    RDMA counters rely on GPUs); without fresh GPU samples whose state can be read, RDMA
    decides alone (:func:`rdma_idle`)."""
    fresh_after, run = now_us - seconds(s.stale_s), state.run
    gpus = _fresh_gpus(state, now_us, s, excluded)
    known = _readable(state, gpus, s)
    if not known:
        return rdma_idle(state, now_us, s, excluded)
    spinning = sum(1 for k in known.values() if k == "spin")
    if not relaxed and spinning < s.min_spin_fraction * len(known):
        return ACTIVE
    floor = _floor(state)
    starts = [_gpu_quiet_since(gpus[r], run.power_peak_w.get(r), floor, s) for r in known]
    starts += _nets_flat(state, fresh_after, floor, s, excluded)
    if any(t is None for t in starts):
        return ACTIVE
    onset = max(t for t in starts if t is not None)
    limit = max(seconds(s.idle_window_s), step_floor_us(state, s))
    return Probe(True, onset) if now_us - onset >= limit else ACTIVE


def _readable(state: JobState, gpus: dict[int, deque[GpuPoint]], s: HangSettings) -> dict[int, str]:
    """Rank -> the state of its latest sample (``gpu_kind``), for the ranks whose state can be read."""
    kinds = {r: gpu_kind(p[-1], state.run.power_peak_w.get(r), s) for r, p in gpus.items()}
    return {r: k for r, k in kinds.items() if k != "unknown"}


def _fresh_gpus(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int]) -> dict[int, deque[GpuPoint]]:
    """Rank -> its GPU samples, for the ranks not ``excluded`` sampled within ``stale_s``."""
    fresh_after = now_us - seconds(s.stale_s)
    return {r: p for r, p in state.run.gpu.items() if r not in excluded and p and p[-1][0] >= fresh_after}


def gpus_readable(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int] = NOBODY) -> bool:
    """Whether some rank not ``excluded`` has a fresh GPU sample whose state can be read."""
    return bool(_readable(state, _fresh_gpus(state, now_us, s, excluded), s))


def gpus_computing(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int] = NOBODY) -> bool:
    """Whether at least ``compute_veto_fraction`` of the ranks with fresh, readable GPU
    samples computed in every sample of the last ``idle_window_s`` (``gpu_kind``): evidence of
    work, which no silence outweighs. False without such ranks. Stops at the first sample that
    does not compute, and as soon as too many ranks did not (a hang: the waiters spin)."""
    since_us, run = now_us - seconds(s.idle_window_s), state.run
    fresh = list(_fresh_gpus(state, now_us, s, excluded).items())
    allowed = (1.0 - s.compute_veto_fraction) * len(fresh)
    readable = idle = 0
    for rank, points in fresh:
        kind = "compute"
        for point in reversed(points):
            if point[0] < since_us:
                break
            kind = gpu_kind(point, run.power_peak_w.get(rank), s)
            if kind != "compute":
                break
        if kind == "unknown":
            continue
        readable += 1
        idle += kind != "compute"
        if idle > allowed:
            return False
    return readable > 0 and readable - idle >= s.compute_veto_fraction * readable


def rdma_idle(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int] = NOBODY) -> Probe:
    """The idle pattern from RDMA counters alone (no GPU whose state can be read: a node agent
    with RDMA counters only, or NVML before any busy peak is known): the compute rails of
    every reporting node flat for ``idle_window_s`` (and ``step_factor`` median steps).

    Only nodes whose rails carried traffic in the window count: a job whose ports never
    moved (a one-node job talks over NVLink) says nothing about a hang, so it has no data."""
    fresh_after, floor = now_us - seconds(s.stale_s), _floor(state)
    nodes = _node_ports(state, fresh_after, excluded)
    moving = [ports for ports in nodes
              if max((rate for p in ports for _, rate in _rates(p)), default=0.0) > s.rdma_flat_bps]
    if not moving:
        return NO_DATA
    starts = [node_flat_since(ports, floor, s) for ports in moving]
    if any(t is None for t in starts):
        return ACTIVE
    onset = max(t for t in starts if t is not None)
    limit = max(seconds(s.idle_window_s), step_floor_us(state, s))
    return Probe(True, onset) if now_us - onset >= limit else ACTIVE


def _node_ports(state: JobState, fresh_after: int, excluded: frozenset[int]) -> list[list[deque[NetPoint]]]:
    """The fresh port series (two points or more) of each reporting node not on a silent node,
    in node order."""
    gone = {state.placement[r] for r in excluded if r in state.placement}
    by_node: dict[str, list[deque[NetPoint]]] = {}
    for key, points in state.run.net.items():
        node = node_of_port(key)
        if node not in gone and len(points) >= 2 and points[-1][0] >= fresh_after:
            by_node.setdefault(node, []).append(points)
    return [ports for _, ports in sorted(by_node.items())]


def _nets_flat(state: JobState, fresh_after: int, floor: int, s: HangSettings,
               excluded: frozenset[int]) -> list[int | None]:
    """Per reporting node (not on a silent node), when its compute rails went flat."""
    return [node_flat_since(ports, floor, s) for ports in _node_ports(state, fresh_after, excluded)]


def stacks_frozen(state: JobState, now_us: int, s: HangSettings, relaxed: bool = False,
                  excluded: frozenset[int] = NOBODY, view: StackView | None = None) -> Probe:
    """At least ``waiter_fraction`` of the reporting ranks are frozen in one identical stack
    (``frozen_samples`` samples spanning ``step_factor`` median steps): the waiters, found by
    similarity whatever their frames. A group frozen in checkpoint I/O frames is a save, not
    waiters (unless ``relaxed``: the save overran its budget). No data without fresh stacks."""
    view = view if view is not None else stack_view(state, now_us, s, excluded)
    if not view.reporting:
        return NO_DATA
    if not view.group or len(view.group) < s.waiter_fraction * len(view.reporting):
        return ACTIVE
    if view.group_io and not relaxed:
        return ACTIVE
    since = view.frozen_since()
    return Probe(True, since) if since is not None else ACTIVE


def collective_stalled(state: JobState, now_us: int, s: HangSettings,
                       excluded: frozenset[int] = NOBODY) -> Probe:
    """At least ``collective_min_fraction`` of the reporting ranks have a collective in flight
    for ``collective_stall_s`` (and ``step_factor`` median steps). No data without a fresh
    collective_progress snapshot."""
    fresh_after, floor = now_us - seconds(s.stale_s), _floor(state)
    limit = max(seconds(s.collective_stall_s), step_floor_us(state, s))
    ranks: set[int] = set()
    stalled: dict[int, int] = {}
    for (rank, _group), snap in state.run.colls.items():
        if snap.t_us < fresh_after or rank in excluded:
            continue
        ranks.add(rank)
        if snap.since_us is None:
            continue
        since = max(snap.since_us, floor)
        if now_us - since >= limit:
            stalled[rank] = min(since, stalled.get(rank, since))
    if not ranks:
        return NO_DATA
    if not stalled or len(stalled) < s.collective_min_fraction * len(ranks):
        return ACTIVE
    return Probe(True, min(stalled.values()))


def run_probes(state: JobState, now_us: int, s: HangSettings, relaxed: bool = False,
               excluded: frozenset[int] = NOBODY, view: StackView | None = None) -> dict[str, Probe]:
    """All four probes at event time ``now_us``, keyed by their HangSignals field name.

    ``relaxed`` (a lifecycle phase overran its budget) drops the collective-wait signature
    from the stack and metrics probes: the job should have left the phase, so frozen I/O
    frames and idle GPUs with no traffic are hang symptoms too. When log/step progress is
    the only probe with data, or the only one besides RDMA counters, it is re-read with its
    longer ``solo`` window.
    """
    probes = {
        "log_silent": log_silent(state, now_us, s),
        "metrics_idle": metrics_idle(state, now_us, s, relaxed, excluded),
        "stacks_frozen": stacks_frozen(state, now_us, s, relaxed, excluded, view),
        "collective_stalled": collective_stalled(state, now_us, s, excluded),
    }
    if solo_progress(probes) or _rdma_and_logs(probes, state, now_us, s, excluded):
        probes["log_silent"] = log_silent(state, now_us, s, solo=True)
    return probes


def _rdma_and_logs(probes: dict[str, Probe], state: JobState, now_us: int, s: HangSettings,
                   excluded: frozenset[int]) -> bool:
    """Whether log/step progress and RDMA counters are the only probes with data (no stacks,
    no collective progress, no GPU whose state can be read). Flat compute rails cannot tell a
    save from a hang: every rank stops talking in both. Such a job's log silence gets the
    solo window (twice the job's longest earlier unannounced quiet period), or a job that
    saves every few minutes without announcing it has a verdict at every save."""
    if probes["stacks_frozen"].value is not None or probes["collective_stalled"].value is not None:
        return False
    return probes["metrics_idle"].value is not None and not gpus_readable(state, now_us, s, excluded)


def solo_progress(probes: dict[str, Probe]) -> bool:
    """Whether log/step progress is the only probe with data (a logs + step progress job).

    Which probes have data does not depend on ``relaxed``: it is known before a phase's
    overrun is judged."""
    return all(p.value is None for n, p in probes.items() if n != "log_silent")
