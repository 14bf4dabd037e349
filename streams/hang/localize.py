"""Localising the source of a hang: four independent methods and the rule that combines them.

Methods (each names a set of ranks, possibly empty, from the evidence at detection time;
the ranks of silent nodes are left to ``node_silence`` alone):

- ``collective_lag``: ranks whose ``last_enqueued_seq`` is behind the others' maximum in a
  communicator whose leading ranks have that collective in flight, in ``lag_min_groups``
  communicators (or all of theirs): they never entered the collective the rest wait in
  (PyTorch flight-recorder analysis).
- ``gpu_idle_outlier``: ranks whose GPU util is ~0 while the median of the others is busy:
  the culprit stopped launching kernels, everybody else spins inside NCCL.
- ``stack_outlier``: ranks whose stack differs from the waiter group's (the majority frozen
  in one identical stack, found by similarity: ``stackview.py``).
- ``node_silence``: the ranks of nodes whose every source stopped at once (``silence.py``).

A rank-level method names a single point when its ranks are at most
``max(2, max_source_fraction x ranks)``, or, in a job of two or more nodes, when they lie on at
most ``max(1, max_source_fraction x nodes)`` nodes (a whole node stalled: its host, data loader
or NIC stops all its ranks while the other nodes wait). The idle-GPU and stack methods, whose
"outlier" side is a matter of which group is larger, name such a node only when its ranks are
a strict minority of the ranks they judged: with two nodes half stalled, half waiting, the
idle or differing half may be either; unless every other rank's GPU spins in a collective's
wait, which only waiters do (the idle-GPU method). Anything more names nobody; ``node_silence`` naming more
than ``max(1, max_source_fraction x nodes)`` nodes too.

Each method judges only the ranks it has data for (its coverage): on a partially instrumented
job (stacks or the flight recorder on some nodes only, or no GPU samples from some) a method
says nothing about the nodes it cannot see, which is not disagreement.

Combination rule: ``source_nodes`` is non-empty only when (1) the naming methods agree wherever
they both see (each pair names the same nodes among the nodes both cover), and (2) every named
node is named by at least two methods, or by a ``strong_methods`` member, or by the only
rank-level methods that see it. The source is the union of the named nodes. Confidence is
0.95 for three agreeing methods, 0.8 for two, 0.6 for one, and 0.0 when no source is named.
When nothing is named and the ranks froze alike (a uniform freeze, e.g. a one-node
deadlock), a ``uniform`` finding says so: no node is named, the policy restarts in place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from statistics import median

from schemas import Localization
from streams.hang.gpu import waiting_in_collective
from streams.hang.settings import HangSettings
from streams.hang.silence import silent_nodes, silent_ranks
from streams.hang.stackview import StackView, stack_view
from streams.hang.state import JobState, Snapshot, seconds

CONFIDENCE_BY_AGREEING = {1: 0.6, 2: 0.8, 3: 0.95}
NOBODY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Source:
    """The combined localisation: source ranks/nodes, per-method findings and confidence;
    ``silent_since_us``: when the earliest silent node last reported (None if none)."""

    ranks: tuple[int, ...]
    nodes: tuple[str, ...]
    findings: tuple[Localization, ...]
    confidence: float
    silent_since_us: int | None = None


@dataclass(frozen=True)
class Finding:
    """One method's finding and the ranks it had data for (its coverage)."""

    found: Localization
    covered: frozenset[int]

    @property
    def has_data(self) -> bool:
        """Whether the method had any rank to judge."""
        return bool(self.covered)


def _cap(state: JobState, s: HangSettings) -> int:
    return max(2, int(s.max_source_fraction * len(state.placement)))


def _node_cap(state: JobState, s: HangSettings) -> int:
    """How many whole nodes a single-point source may span (0 in a one-node job: its ranks are
    judged by the rank cap alone, a uniform freeze there is a software deadlock)."""
    nodes = len(set(state.placement.values()))
    return max(1, int(s.max_source_fraction * nodes)) if nodes >= 2 else 0


def _single_point(state: JobState, s: HangSettings, ranks: list[int], judged: int | None) -> bool:
    """The rule of this module's docstring: few ranks, or the ranks of few nodes (a strict
    minority of the ``judged`` ranks when given)."""
    if len(ranks) <= _cap(state, s):
        return True
    nodes = _nodes(state, ranks)
    minority = judged is None or 2 * len(ranks) < judged
    return "?" not in nodes and len(nodes) <= _node_cap(state, s) and minority


def _finding(method: str, ranks: list[int], state: JobState, s: HangSettings, detail: str,
             judged: int | None = None) -> Localization:
    if not _single_point(state, s, ranks, judged):
        return Localization(method=method, ranks=(), detail=f"{len(ranks)} ranks: not single-point")
    return Localization(method=method, ranks=tuple(sorted(ranks)), detail=detail)


def _group_views(state: JobState, now_us: int, s: HangSettings,
                 excluded: frozenset[int]) -> dict[str, dict[int, Snapshot]]:
    """Fresh snapshots by communicator, then by rank (ranks of silent nodes left out)."""
    fresh_after = now_us - seconds(s.stale_s)
    groups: dict[str, dict[int, Snapshot]] = {}
    for (rank, group), snap in state.run.colls.items():
        if snap.t_us >= fresh_after and rank not in excluded:
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


def collective_lag(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int] = NOBODY) -> Finding:
    """Ranks missing from the collective the rest of a communicator waits in, in at least
    ``min(lag_min_groups, communicators the rank is in)`` communicators."""
    behind: dict[int, int] = {}
    member: dict[int, int] = {}
    views = _group_views(state, now_us, s, excluded)
    for snaps in views.values():
        for rank in snaps:
            member[rank] = member.get(rank, 0) + 1
        for rank in _laggers(snaps):
            behind[rank] = behind.get(rank, 0) + 1
    lagging = [r for r, n in behind.items() if n >= min(s.lag_min_groups, member[r])]
    detail = "; ".join(f"rank {r} behind in {behind[r]}/{member[r]} communicators" for r in sorted(lagging))
    found = _finding("collective_lag", lagging, state, s, detail or "no rank behind")
    return Finding(found, frozenset(member))


def gpu_idle_outlier(state: JobState, now_us: int, s: HangSettings, excluded: frozenset[int] = NOBODY) -> Finding:
    """Ranks with mean util <= util_idle_pct while the median of the rest is >= util_busy_pct
    (util only: works on NVML-only nodes). The idle ranks of a whole node need not be a strict
    minority when every other rank's GPU spins (busy, not computing: ``waiting_in_collective``):
    the spinning half of a two-node job waits inside a collective, the idle half never launched
    it. Without that evidence (a busy half that computes, or util alone) the sides may be either
    (waiters in a CPU barrier idle their GPUs while a culprit's kernel runs)."""
    recent_after, fresh_after = now_us - seconds(s.idle_window_s), now_us - seconds(s.stale_s)
    util: dict[int, float] = {}
    for rank, points in state.run.gpu.items():
        recent = [p[1] for p in points if p[0] >= recent_after]
        if recent and points[-1][0] >= fresh_after and rank not in excluded:
            util[rank] = sum(recent) / len(recent)
    idle = [r for r, u in util.items() if u <= s.util_idle_pct]
    idle_set = frozenset(idle)
    rest = [u for r, u in util.items() if r not in idle_set]
    if not idle or not rest or median(rest) < s.util_busy_pct:
        return Finding(Localization(method="gpu_idle_outlier", detail="no idle outlier among busy GPUs"),
                       frozenset(util))
    detail = ", ".join(f"rank {r} util {util[r]:.0f}%" for r in sorted(idle))
    spinning = all(waiting_in_collective(state, r, s) for r in util if r not in idle_set)
    found = _finding("gpu_idle_outlier", idle, state, s, f"{detail}; others median {median(rest):.0f}%"
                     + ("; every other rank waits in a collective" if spinning else ""),
                     judged=None if spinning else len(util))
    return Finding(found, frozenset(util))


def stack_outlier(state: JobState, view: StackView, s: HangSettings) -> Finding:
    """Ranks whose stack differs from the waiter group's, when that group holds at least
    ``waiter_fraction`` of the reporting ranks. Until such a group has frozen (``frozen_samples`` identical samples:
    a minute at a 10 s sampling period; waiters reach their wait a sample or two apart, so the first to freeze are a
    few) the method covers nothing: with no waiters to compare with it has seen no rank either way, and must not veto
    a method that has (as on a job without stacks). Nor does it judge when the ranks that differ are as many as the
    group (two halves of a two-node job: either half may be the waiters)."""
    if not view.group or len(view.group) < s.waiter_fraction * len(view.reporting):  # no waiters yet: no judgement
        return Finding(Localization(method="stack_outlier", detail="no frozen group of waiters yet"), frozenset())
    if len(view.group) <= len(view.others):  # two halves: either may be the waiters, no judgement either way
        return Finding(Localization(method="stack_outlier",
                                    detail=f"{len(view.group)} ranks frozen alike, {len(view.others)} differ: "
                                           "no majority of waiters"), frozenset())
    covered = frozenset(view.reporting)
    if not view.others:
        return Finding(Localization(method="stack_outlier", detail="no rank differs from a frozen majority"),
                       covered)
    frames = {r: view.reporting[r].sig.rsplit("\n", 1)[-1] for r in view.others}
    waiters = (view.group_sig or "").rsplit("\n", 1)[-1]
    detail = "; ".join(f"rank {r} in {f}" for r, f in frames.items())
    return Finding(_finding("stack_outlier", list(view.others), state, s,
                            f"{detail}; {len(view.group)} ranks wait in {waiters}"), covered)


def node_silence(state: JobState, silent: dict[str, int], s: HangSettings) -> Finding:
    """The ranks of the nodes whose every source stopped at once."""
    if not silent:
        return Finding(Localization(method="node_silence", detail="every node reports"), frozenset())
    everyone = frozenset(state.placement)
    nodes = set(state.placement.values())
    cap = max(1, int(s.max_source_fraction * len(nodes)))
    if len(silent) > cap:
        return Finding(Localization(method="node_silence", detail=f"{len(silent)} nodes silent: not single-point"),
                       everyone)
    ranks = tuple(sorted(silent_ranks(state, silent)))
    detail = "; ".join(f"{n} silent since its last report at +{(t - min(silent.values())) / 1e6:.0f}s"
                       for n, t in sorted(silent.items()))
    return Finding(Localization(method="node_silence", ranks=ranks, detail=f"every source stopped: {detail}"),
                   everyone)


def _uniform(state: JobState, view: StackView) -> Localization:
    """The no-source finding of a freeze where all ranks look alike."""
    nodes = set(state.placement.values())
    where = "on the job's only node" if len(nodes) == 1 else f"on {len(nodes)} nodes"
    alike = f"all {len(view.group)} reporting ranks frozen in one stack" if view.group and not view.others \
        else f"no rank differs from the others ({len(state.placement)} ranks)"
    return Localization(method="uniform",
                        detail=f"{alike} {where}: no single source, restart in place (no node to replace)")


def _nodes(state: JobState, ranks: Iterable[int]) -> frozenset[str]:
    return frozenset(state.placement.get(r, "?") for r in ranks)


@dataclass(frozen=True)
class _Judged:
    """A finding's named and seen nodes, computed once per combination."""

    finding: Finding
    names: frozenset[str]
    sees: frozenset[str]


def _consistent(named: list[_Judged]) -> bool:
    """Every pair of naming methods names the same nodes among the nodes both cover."""
    for a, b in combinations(named, 2):
        both = a.sees & b.sees
        if a.names & both != b.names & both:
            return False
    return True


def _supported(node: str, named: list[_Judged], judges: list[_Judged], s: HangSettings) -> bool:
    """A named node stands when two methods name it, a strong method does, or every rank-level
    method that sees it names it."""
    namers = [j for j in named if node in j.names]
    return len(namers) >= 2 or any(j.finding.found.method in s.strong_methods for j in namers) \
        or all(node in j.names for j in judges if node in j.sees)


def combine(state: JobState, findings: tuple[Finding, ...], s: HangSettings) -> Source:
    """Apply the combination rule of this module's docstring to the methods' findings."""
    judged = [_Judged(f, _nodes(state, f.found.ranks), _nodes(state, f.covered)) for f in findings]
    named = [j for j in judged if j.names]
    judges = [j for j in judged if j.finding.has_data and j.finding.found.method != "node_silence"]
    plain = tuple(f.found for f in findings)
    nodes = frozenset().union(*(j.names for j in named))
    if not named or not _consistent(named) or not all(_supported(n, named, judges, s) for n in nodes):
        return Source(ranks=(), nodes=(), findings=plain, confidence=0.0)
    ranks = tuple(sorted({r for j in named for r in j.finding.found.ranks}))
    return Source(ranks, tuple(sorted(nodes)), plain, CONFIDENCE_BY_AGREEING[min(len(named), 3)])


def localize(state: JobState, now_us: int, s: HangSettings, skewed: frozenset[str] = frozenset()) -> Source:
    """Run the four methods on the evidence at event time ``now_us`` and combine them
    (``skewed``: nodes whose clocks are off the job's, left out: their evidence is from another moment)."""
    silent = silent_nodes(state, now_us, s, skewed)
    excluded = silent_ranks(state, silent) | silent_ranks(state, skewed)
    view = stack_view(state, now_us, s, excluded)
    findings = (
        collective_lag(state, now_us, s, excluded),
        gpu_idle_outlier(state, now_us, s, excluded),
        stack_outlier(state, view, s),
        node_silence(state, silent, s),
    )
    source = combine(state, findings, s)
    since = min(silent.values()) if silent else None
    if not source.nodes and not any(f.found.ranks for f in findings):
        source = Source((), (), source.findings + (_uniform(state, view),), 0.0)
    return Source(source.ranks, source.nodes, source.findings, source.confidence, since)
