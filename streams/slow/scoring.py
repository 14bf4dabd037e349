"""Scoring one window of one metric across a job's warm nodes, and judging each node.

A node's *change* says how much worse its value is than its own level (the median of its
recent normal windows), oriented so that larger is always worse (see
:class:`~streams.slow.settings.MetricRule`). Its *excess* is its change beyond the median
change of its peers in the same window: heterogeneity present from the start is in the
levels, a job-wide shift (a slower phase, a straggler elsewhere making everyone wait) is in
the peers' median change, and what remains is the node's own news. A node is *suspect* when
its excess reaches ``jump`` with a robust z of at least ``z_min`` both across the group's
excesses and against its own past excesses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from streams.slow.robust import MAD_SCALE, mad, median, ratio, robust_z, spread
from streams.slow.settings import MetricRule


@dataclass(frozen=True)
class Observation:
    """One warm node's value in one window of one metric, against its expected value."""

    value: float
    expected: float
    excess: float
    z: float


def change(rule: MetricRule, value: float, level: float) -> float:
    """How much worse ``value`` is than ``level``, on the rule's scale (larger = worse)."""
    if rule.kind == "ratio":
        return ratio(value, level) if rule.bad == "high" else ratio(level, value)
    return value - level if rule.bad == "high" else level - value


def excess(rule: MetricRule, own: float, peers: float) -> float:
    """The node's change beyond its peers' median change (ratio of changes, or difference)."""
    return ratio(own, peers) if rule.kind == "ratio" else own - peers


def expected(rule: MetricRule, level: float, peers: float) -> float:
    """The value a node at ``level`` would have if it changed exactly as its peers did."""
    if rule.kind == "ratio":
        return level * peers if rule.bad == "high" else level / max(peers, 1e-9)
    return level + peers if rule.bad == "high" else level - peers


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


def observe(
    rule: MetricRule, values: Mapping[str, float], levels: Mapping[str, float],
    band: float = 0.1, least: int = 2,
) -> dict[str, Observation]:
    """Score every node with a level (``levels``) against its peers' median change (peers by
    :func:`peer_groups` for ratio metrics, the whole job for differences)."""
    changes = {n: change(rule, values[n], lvl) for n, lvl in levels.items()}
    if rule.kind == "ratio":
        groups = peer_groups(levels, band, least)
    else:
        groups = {n: [m for m in levels if m != n] for n in levels}
    shared = {n: median([changes[m] for m in g]) if g else rule.neutral for n, g in groups.items()}
    excesses = {n: excess(rule, c, shared[n]) for n, c in changes.items()}
    sigma = spread(list(excesses.values()), rule.sigma_floor)
    return {
        n: Observation(values[n], expected(rule, levels[n], shared[n]), x,
                       robust_z(x, rule.neutral, sigma))
        for n, x in excesses.items()
    }


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

    ``history`` holds the node's excesses in its recent normal windows (non-empty). The score
    is the smaller of the group z and the z against the node's own history.
    """
    own = robust_z(obs.excess, median(history), spread(history, rule.sigma_floor))
    score = min(obs.z, own)
    suspect = obs.excess >= rule.jump and score >= rule.z_min
    return Verdict(suspect, score)
