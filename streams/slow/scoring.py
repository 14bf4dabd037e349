"""Scoring one window of one metric across a job's warm nodes, and judging each node.

A node's *position* is where it sits relative to the job in the same window (its value over
the job's reference value, oriented so that larger is always worse; see
:class:`~streams.slow.settings.MetricRule` and :func:`positions`). Its *change* is its
position against its usual one (the median of its positions in recent normal windows), and
its *excess* that change beyond the median change of its behavioural peers (nodes at about
its level: same pipeline stage, same GPU model). Heterogeneity present from the start is in
the usual positions; anything that moves the whole job in a window (a slower phase, instant
GPU readings caught in a job-wide stall, a straggler elsewhere making everyone wait) cancels
in the same window, and a stage's own phase is in its peers' change. What remains is the
node's own news. A node is *suspect* when its excess reaches ``jump`` with a robust z of at
least ``z_min`` both across the group's excesses and against its own noise (the spread of
its past positions).

Instantaneous readings (GPU samples, port rates) are placed instant by instant
(:func:`instant_positions`): each reading against the job's reading of the same instant, so
a one-step stall of one rank, in which that node alone is busy while the whole job waits for
it, is one odd reading of the stalled node rather than a busy node in a window where every
other node looked idle.

Comparing within the window, rather than each node with its own level learnt over minutes,
matters when the job moves between regimes faster than levels follow: levels learnt from
different windows (nodes warm at different times, suspect windows left out) then disagree,
and the disagreement looked like news.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from streams.slow.peers import shared_changes
from streams.slow.robust import MAD_SCALE, low_median, mad, median, ratio, robust_z, spread
from streams.slow.settings import MetricRule


@dataclass(frozen=True)
class Observation:
    """One warm node's value in one window of one metric, against its expected value.

    ``position`` is where the node sits among its peers in this window (see
    :func:`position`), ``excess`` how much worse that is than its usual position."""

    value: float
    expected: float
    excess: float
    z: float
    position: float = 1.0


def position(rule: MetricRule, value: float, peers: float) -> float:
    """Where a node sits relative to its peers' median value ``peers`` in the same window,
    oriented so that larger is worse: ``value / peers`` (or ``peers / value`` when low is bad)
    for ratios, the difference for diffs. Whatever moves the whole group in a window (a phase,
    an instant reading caught in a job-wide stall, a straggler elsewhere) cancels out."""
    if rule.kind == "ratio":
        return ratio(value, peers) if rule.bad == "high" else ratio(peers, value)
    return value - peers if rule.bad == "high" else peers - value


def change(rule: MetricRule, value: float, level: float) -> float:
    """How much worse ``value`` is than ``level``, on the rule's scale (larger = worse)."""
    return position(rule, value, level)


def excess(rule: MetricRule, own: float, usual: float) -> float:
    """How much worse a position ``own`` is than the node's ``usual`` one (ratio or difference)."""
    return ratio(own, usual) if rule.kind == "ratio" else own - usual


def expected(rule: MetricRule, usual: float, shared: float, ref: float) -> float:
    """The value of a node at its ``usual`` position moved as its peers' did (``shared``)
    when the job's median value is ``ref``."""
    if rule.kind == "ratio":
        pos = usual * shared
        return pos * ref if rule.bad == "high" else ref / max(pos, 1e-9)
    pos = usual + shared
    return ref + pos if rule.bad == "high" else ref - pos


def peer_groups(levels: Mapping[str, float], band: float, least: int) -> dict[str, list[str]]:
    """Each node's peers: the other nodes whose level is within ``band`` (a fraction) of its
    own, when there are at least ``least`` of them; otherwise all other nodes.

    Nodes of one pipeline stage or one GPU model share a level, and they share a phase's
    effect too (a longer sequence batch slows every last-stage node, not the first stage);
    a node alone at its level falls back conservatively to the whole job."""
    out = {}
    for node, level in levels.items():
        lo, hi = level / (1 + band), level * (1 + band)
        near = [n for n, v in levels.items() if n != node and lo <= v <= hi]
        out[node] = near if len(near) >= least else [n for n in levels if n != node]
    return out


def reference(rule: MetricRule, value: float, usual: float) -> float:
    """The job reference at which a node of ``value`` would sit exactly at its ``usual``
    position (inverse of :func:`position`)."""
    if rule.kind == "ratio":
        return value / max(usual, 1e-9) if rule.bad == "high" else value * usual
    return value - usual if rule.bad == "high" else value + usual


def positions(
    rule: MetricRule, values: Mapping[str, float], usual: Mapping[str, float] | None = None,
    least: int = 3,
) -> tuple[dict[str, float], float]:
    """Every node's position relative to the job's reference value in this window, and that
    reference. Whatever moves the whole job in a window (a phase, instant readings caught in
    a job-wide stall, a straggler elsewhere) cancels out, whoever counts as whose peer.

    The reference is the median over the nodes with a ``usual`` position (at least
    ``least``) of the reference each implies (:func:`reference`): every healthy node agrees
    on it, so it stays put even when the job is bimodal (half the nodes an older GPU model),
    where the plain median of the values sits in the gap and jumps with any node. Until then
    it is the median of the values."""
    known = [reference(rule, values[n], u) for n, u in (usual or {}).items() if n in values]
    ref = median(known) if len(known) >= least else median(list(values.values()))
    return {n: position(rule, v, ref) for n, v in values.items()}, ref


def instant_positions(
    rule: MetricRule, samples: Mapping[str, Sequence[float]], usual: Mapping[str, float],
    least: int = 3,
) -> dict[str, float]:
    """Every node's position from instantaneous readings (GPU samples, port rates): at each
    sampling instant (the ``k``-th sample of every node of the window: samplers share one
    period) the node's reading against the job's reference *of that instant*
    (:func:`positions`), then the lower median of the node's positions (larger is worse).

    A synchronous job moves together at every instant: when one rank stalls for a step, all
    the others idle in the collective while the stalled node alone is busy. Reducing each
    node's readings first (the lower median per node) keeps that instant for everyone except
    the stalled node, which then looks busy against a job that was idle: a straggler's
    signature from a single reading. Compared instant by instant, the others sit at their
    usual position and the stalled node's one high reading is dropped by its lower median,
    while a real straggler stays out of place at every instant."""
    slots = max((len(v) for v in samples.values()), default=0)
    per_node: dict[str, list[float]] = {n: [] for n, v in samples.items() if v}
    for k in range(slots):
        now = {n: v[k] for n, v in samples.items() if len(v) > k}
        for node, pos in positions(rule, now, usual, least)[0].items():
            per_node[node].append(pos)
    return {n: low_median(p) for n, p in per_node.items()}


def observe(
    rule: MetricRule, values: Mapping[str, float], levels: Mapping[str, float],
    usual: Mapping[str, float] | None = None, band: float = 0.1, least: int = 2,
) -> dict[str, Observation]:
    """Score every node with a level (``levels``: its own recent value, which chooses its
    peers) on how its position in the job changed from its ``usual`` position (median of its
    recent normal windows; by default its position at the levels), beyond the median such
    change of its peers (:func:`score_positions`)."""
    if usual is None:
        usual = positions(rule, levels)[0]
    now, ref = positions(rule, {n: values[n] for n in levels}, usual, least + 1)
    return score_positions(rule, values, now, ref, usual, levels, band, least)


def score_positions(
    rule: MetricRule, values: Mapping[str, float], now: Mapping[str, float], ref: float,
    usual: Mapping[str, float], levels: Mapping[str, float], band: float, least: int,
) -> dict[str, Observation]:
    """Observations of the nodes with a ``usual`` position (all of them in ``levels``). A
    node's change is its position ``now`` against its usual one; its excess is that change
    beyond the median change of its warm peers (:func:`peer_groups` of ``levels`` for ratio
    metrics, the whole job for differences): nodes of one stage share a stage's phase. The
    group z uses the spread of all excesses."""
    changes = {n: excess(rule, now[n], u) for n, u in usual.items()}
    shared = shared_changes(changes, levels, band, least, rule.kind != "ratio", rule.neutral)
    shared = _without_outliers(rule, changes, shared, levels, band, least)
    excesses = {n: excess(rule, c, shared[n]) for n, c in changes.items()}
    sigma = spread(list(excesses.values()), rule.sigma_floor)
    return {
        n: Observation(values[n], expected(rule, usual[n], shared[n], ref), x,
                       robust_z(x, rule.neutral, sigma), now[n])
        for n, x in excesses.items()
    }


def _without_outliers(
    rule: MetricRule, changes: Mapping[str, float], shared: Mapping[str, float],
    levels: Mapping[str, float], band: float, least: int,
) -> dict[str, float]:
    """The peers' shared change of every node, estimated again without the nodes whose first
    excess reached ``jump`` (a minority, else ``shared`` unchanged).

    A node's peers are few in a small job or a small stage (two in a three-node job), and
    the median of two is their mean: a straggler among them drags its healthy peers' shared
    change halfway towards its own, so they look better than usual by as much, the group's
    excesses scatter and the window is skipped (a 1.9x node of a five-node job was never
    found). A second pass without the outliers (one step of an iteratively trimmed
    estimate) gives healthy nodes the change of healthy peers; the outliers keep theirs,
    which never included themselves."""
    outliers = {n for n, c in changes.items() if excess(rule, c, shared[n]) >= rule.jump}
    if not outliers or 2 * len(outliers) >= len(changes):
        return dict(shared)
    rest = {n: v for n, v in levels.items() if n not in outliers}
    kept = {n: c for n, c in changes.items() if n not in outliers}
    clean = shared_changes(kept, rest, band, least, rule.kind != "ratio", rule.neutral)
    return {n: shared[n] if n in outliers else clean[n] for n in changes}


def pair_observations(
    rule: MetricRule, values: Mapping[str, float], levels: Mapping[str, float],
) -> dict[str, Observation]:
    """Observations of the two nodes of a two-node job (both warm: ``levels`` holds each one's
    own level) on a metric of :data:`~streams.slow.settings.PAIR_METRICS`.

    A node's change is its value against its own level; its excess is the smaller of that
    change and the change beyond its peer's: it must have got worse itself (a peer getting
    better is no news about the node) by more than its peer did (a phase moves both). The
    excess is also the node's position, so its history is its own noise; no group spread
    exists, so ``z`` is left to that noise (infinite here, :func:`judge` takes the smaller)."""
    if len(values) != 2 or any(n not in levels for n in values):
        return {}
    own = {n: change(rule, values[n], levels[n]) for n in values}
    out = {}
    for node, peer in (tuple(values), tuple(reversed(tuple(values)))):
        beyond = excess(rule, own[node], own[peer])
        x = min(own[node], beyond)
        out[node] = Observation(values[node], expected(rule, rule.neutral, own[peer], levels[node]),
                                x, float("inf"), x)
    return out


def scattered(rule: MetricRule, observations: Mapping[str, Observation]) -> bool:
    """Whether the peers' excesses disagree too much for any single node to be news."""
    if rule.max_group_spread is None or len(observations) < 2:
        return False
    return MAD_SCALE * mad([o.excess for o in observations.values()]) > rule.max_group_spread


@dataclass(frozen=True)
class Verdict:
    """Whether a node is suspect in a window, and the robust z that decided it."""

    suspect: bool
    score: float


def judge(rule: MetricRule, obs: Observation, history: Sequence[float]) -> Verdict:
    """Suspect when the excess reaches ``jump`` with both robust z at least ``z_min``.

    ``history`` holds the node's positions among its peers in its recent normal windows
    (non-empty): how much they wobble is the node's own noise. The score is the smaller of the
    group z and the z of the excess against that noise (relative for ratios).
    """
    centre = median(history)
    if rule.kind == "ratio":
        own_sigma = max(MAD_SCALE * mad(history) / max(centre, 1e-9), rule.sigma_floor)
    else:
        own_sigma = spread(history, rule.sigma_floor)
    own = robust_z(obs.excess, rule.neutral, own_sigma)
    score = min(obs.z, own)
    suspect = obs.excess >= rule.jump and score >= rule.z_min
    return Verdict(suspect, score)
