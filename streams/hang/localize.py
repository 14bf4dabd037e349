"""Localising the source of a hang: three independent methods and the rule that combines them.

Methods (each names a set of ranks, possibly empty, from the evidence at detection time):

- ``collective_lag``: ranks whose ``last_enqueued_seq`` is behind the others' maximum in a
  communicator whose leading ranks have that collective in flight, in ``lag_min_groups``
  communicators (or all of theirs): they never entered the collective the rest wait in
  (PyTorch flight-recorder analysis).
- ``gpu_idle_outlier``: ranks whose GPU util is ~0 while the median of the others is busy:
  the culprit stopped launching kernels, everybody else spins inside NCCL.
- ``stack_outlier``: ranks whose latest stack is not a communication wait while most ranks
  wait in communication.

A method naming more than ``max(2, max_source_fraction x ranks)`` ranks names nobody.

Combination rule: ``source_nodes`` is non-empty only when (a) at least two methods name
ranks and all of them name exactly the same node set, or (b) exactly one method names ranks,
it is a ``strong_methods`` member, and no other method names anything else. Confidence is
0.95 for three agreeing methods, 0.8 for two, 0.6 for one strong method, and 0.0 when no
source is named (a uniform freeze, or methods that disagree: not single-point).
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from schemas import Localization
from streams.hang.settings import HangSettings
from streams.hang.state import JobState, Snapshot, seconds

CONFIDENCE_BY_AGREEING = {1: 0.6, 2: 0.8, 3: 0.95}


@dataclass(frozen=True)
class Source:
    """The combined localisation: source ranks/nodes, per-method findings and confidence."""

    ranks: tuple[int, ...]
    nodes: tuple[str, ...]
    findings: tuple[Localization, ...]
    confidence: float


def _cap(state: JobState, s: HangSettings) -> int:
    return max(2, int(s.max_source_fraction * len(state.placement)))


def _finding(method: str, ranks: list[int], cap: int, detail: str) -> Localization:
    if len(ranks) > cap:
        return Localization(method=method, ranks=(), detail=f"{len(ranks)} ranks: not single-point")
    return Localization(method=method, ranks=tuple(sorted(ranks)), detail=detail)


def _group_views(state: JobState, now: int, s: HangSettings) -> dict[str, dict[int, Snapshot]]:
    """Fresh snapshots by communicator, then by rank."""
    fresh_after = now - seconds(s.stale_s)
    groups: dict[str, dict[int, Snapshot]] = {}
    for (rank, group), snap in state.run.colls.items():
        if snap.t_us >= fresh_after:
            groups.setdefault(group, {})[rank] = snap
    return groups


def _laggers(snaps: dict[int, Snapshot]) -> list[int]:
    """Ranks behind the group's last enqueued collective, if the leaders are waiting in it.

    Requiring the leaders to have that collective in flight filters the healthy skew of
    snapshots taken a few milliseconds apart in a busy communicator.
    """
    top = max(snap.enqueued for snap in snaps.values())
    leaders = [snap for snap in snaps.values() if snap.enqueued == top]
    if len(leaders) == len(snaps) or not all(snap.since_us is not None for snap in leaders):
        return []
    return [rank for rank, snap in snaps.items() if snap.enqueued < top]


def collective_lag(state: JobState, now: int, s: HangSettings) -> Localization:
    """Ranks missing from the collective the rest of a communicator waits in, in at least
    ``min(lag_min_groups, communicators the rank is in)`` communicators."""
    behind: dict[int, int] = {}
    member: dict[int, int] = {}
    for snaps in _group_views(state, now, s).values():
        for rank in snaps:
            member[rank] = member.get(rank, 0) + 1
        for rank in _laggers(snaps):
            behind[rank] = behind.get(rank, 0) + 1
    lagging = [r for r, n in behind.items() if n >= min(s.lag_min_groups, member[r])]
    detail = "; ".join(f"rank {r} behind in {behind[r]}/{member[r]} communicators" for r in sorted(lagging))
    return _finding("collective_lag", lagging, _cap(state, s), detail or "no rank behind")


def gpu_idle_outlier(state: JobState, now: int, s: HangSettings) -> Localization:
    """Ranks with mean util <= util_idle_pct while the median of the rest is >= util_busy_pct."""
    recent_after, fresh_after = now - seconds(s.idle_window_s), now - seconds(s.stale_s)
    util: dict[int, float] = {}
    for rank, points in state.run.gpu.items():
        recent = [p[1] for p in points if p[0] >= recent_after]
        if recent and points[-1][0] >= fresh_after:
            util[rank] = sum(recent) / len(recent)
    idle = [r for r, u in util.items() if u <= s.util_idle_pct]
    rest = [u for r, u in util.items() if r not in idle]
    if not idle or not rest or median(rest) < s.util_busy_pct:
        return Localization(method="gpu_idle_outlier", detail="no idle outlier among busy GPUs")
    detail = ", ".join(f"rank {r} util {util[r]:.0f}%" for r in sorted(idle))
    return _finding("gpu_idle_outlier", idle, _cap(state, s), f"{detail}; others median {median(rest):.0f}%")


def stack_outlier(state: JobState, now: int, s: HangSettings) -> Localization:
    """Ranks not waiting in communication while most ranks are."""
    fresh_after = now - seconds(s.stale_s)
    runs = {r: run for r, run in state.run.stacks.items() if run.last_us >= fresh_after and run.sig}
    waiting = [r for r, run in runs.items() if run.comm]
    others = [r for r, run in runs.items() if not run.comm]
    if not others or len(waiting) < s.comm_wait_fraction * len(runs):
        return Localization(method="stack_outlier", detail="no outlier to a communication-waiting majority")
    frames = {r: runs[r].sig.rsplit("\n", 1)[-1] for r in sorted(others)}
    detail = "; ".join(f"rank {r} in {f}" for r, f in frames.items())
    return _finding("stack_outlier", others, _cap(state, s), detail)


def combine(state: JobState, findings: tuple[Localization, ...], s: HangSettings) -> Source:
    """Apply the combination rule of this module's docstring to the methods' findings."""
    named = [f for f in findings if f.ranks]
    node_sets = {frozenset(state.placement.get(r, "?") for r in f.ranks) for f in named}
    agreed = len(node_sets) == 1 and (len(named) >= 2 or named[0].method in s.strong_methods)
    if not named or not agreed:
        return Source(ranks=(), nodes=(), findings=findings, confidence=0.0)
    ranks = tuple(sorted({r for f in named for r in f.ranks}))
    nodes = tuple(sorted(next(iter(node_sets))))
    return Source(ranks, nodes, findings, CONFIDENCE_BY_AGREEING[min(len(named), 3)])


def localize(state: JobState, now: int, s: HangSettings) -> Source:
    """Run the three methods on the evidence at event time ``now`` and combine them."""
    findings = (
        collective_lag(state, now, s),
        gpu_idle_outlier(state, now, s),
        stack_outlier(state, now, s),
    )
    return combine(state, findings, s)
