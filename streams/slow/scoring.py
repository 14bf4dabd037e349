"""Scoring one window of one metric across a job's nodes, and judging each node.

A node's *deviation* says how much worse than the job's median it is, oriented so that larger
is always worse (see :class:`~streams.slow.settings.MetricRule`). A node is *suspect* in a
window when it is past the absolute floor and either (cold, no baseline yet) past ``cold`` with
a robust z across the group of at least ``z_min``, or (warm) its deviation jumped from its own
baseline by ``jump`` with a robust z against its own history of at least ``z_min``, *and* its
own raw value moved by ``jump`` from its own raw level. The last condition tells a node that
changed from a reference that moved: in a multimodal group (half the workers twice as slow)
the median sits in the gap and one worker crossing over shifts every ratio at once, while
no node's own time changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from streams.slow.robust import median, ratio, robust_z, spread
from streams.slow.settings import MetricRule


@dataclass(frozen=True)
class Observation:
    """One node's value in one window of one metric, against the job's median."""

    value: float
    centre: float
    deviation: float
    z: float


def deviation(rule: MetricRule, value: float, centre: float) -> float:
    """How much worse than ``centre`` the ``value`` is, on the rule's scale (larger = worse)."""
    if rule.kind == "ratio":
        return ratio(value, centre) if rule.bad == "high" else ratio(centre, value)
    return value - centre if rule.bad == "high" else centre - value


def observe(rule: MetricRule, values: Mapping[str, float]) -> dict[str, Observation]:
    """Score every node's value against the group's median and robust spread."""
    vals = list(values.values())
    centre = median(vals)
    floor = rule.sigma_floor * abs(centre) if rule.kind == "ratio" else rule.sigma_floor
    sigma = spread(vals, floor if floor > 0 else rule.sigma_floor)
    sign = 1.0 if rule.bad == "high" else -1.0
    return {
        node: Observation(v, centre, deviation(rule, v, centre), sign * robust_z(v, centre, sigma))
        for node, v in values.items()
    }


def jump(rule: MetricRule, dev: float, base: float) -> float:
    """The change of a deviation from the node's baseline deviation, on the rule's scale."""
    if rule.kind == "ratio":
        return ratio(dev, base)
    return dev - base


def own_change(rule: MetricRule, value: float, levels: Sequence[float]) -> float:
    """How much worse the node's raw value is than its own raw level, on the rule's scale."""
    return deviation(rule, value, median(levels))


@dataclass(frozen=True)
class Verdict:
    """Whether a node is suspect in a window, and the robust z that decided it."""

    suspect: bool
    score: float


def judge(
    rule: MetricRule, obs: Observation, history: Sequence[float], levels: Sequence[float],
    warm: bool,
) -> Verdict:
    """Cold rule without a baseline (``warm`` False), jump rule with one (see module doc).

    ``history`` holds the node's deviations and ``levels`` its raw values in its recent
    normal windows; both are non-empty when ``warm``. The score is the group z when cold and
    the z against the node's own history when warm.
    """
    if not warm:
        cold = obs.deviation >= max(rule.floor, rule.cold) and obs.z >= rule.z_min
        return Verdict(cold, obs.z)
    base = median(history)
    score = robust_z(obs.deviation, base, spread(history, rule.sigma_floor))
    suspect = (
        obs.deviation >= rule.floor
        and jump(rule, obs.deviation, base) >= rule.jump
        and score >= rule.z_min
        and jump(rule, own_change(rule, obs.value, levels), rule.neutral) >= rule.jump
    )
    return Verdict(suspect, score)
