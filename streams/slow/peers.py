"""The median change of each node's peers, in O(n log n) rather than O(n²) for n nodes.

A node's peers are :func:`streams.slow.scoring.peer_groups` (ratio metrics: the other nodes
whose level is within ``band`` of its own, when there are at least ``least`` of them, else the
whole job) or the whole job (difference metrics). Listing every node's peers costs n² once the
nodes of a job mostly share a level, as they usually do; a 1,024-node job would pay it for
every metric of every window. Here the nodes are walked in level order: the band of level
values around a node only moves up as the level does, so the peers' changes are kept in one
sorted window that slides, and a node's peer median is read from the window (or from all the
job's changes) with its own change left out. The value is the same as the median of the
listed peers' changes: the same multiset, the same arithmetic (:func:`median_without`).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Mapping, Sequence

from streams.slow.robust import median


def median_without(ordered: Sequence[float], value: float) -> float | None:
    """The median of the sorted ``ordered`` with one occurrence of ``value`` (which it must
    hold) left out, as :func:`~streams.slow.robust.median` of the rest computes it; None if
    nothing is left."""
    size = len(ordered) - 1
    if size <= 0:
        return None
    gone = bisect_left(ordered, value)

    def at(index: int) -> float:
        return ordered[index if index < gone else index + 1]

    half = size // 2
    if size % 2:
        return float(at(half))
    return float((at(half - 1) + at(half)) / 2)


def shared_changes(changes: Mapping[str, float], levels: Mapping[str, float], band: float, least: int,
                   whole_job: bool, neutral: float) -> dict[str, float]:
    """For each node of ``changes`` (all of them in ``levels``), the median change of its peers
    that have a change (``neutral`` if none): the whole job's if ``whole_job``, else the peers
    of :func:`~streams.slow.scoring.peer_groups` ``(levels, band, least)``."""
    if any(math.isnan(v) for v in (*levels.values(), *changes.values())):
        return _listed(changes, levels, band, least, whole_job, neutral)  # NaN has no place in an order
    everyone = sorted(changes.values())

    def whole(node: str) -> float:
        found = median_without(everyone, changes[node])
        return neutral if found is None else found

    if whole_job:
        return {n: whole(n) for n in changes}
    return _sliding(changes, levels, band, least, whole, neutral)


def _sliding(changes: Mapping[str, float], levels: Mapping[str, float], band: float, least: int,
             whole: Callable[[str], float], neutral: float) -> dict[str, float]:
    """:func:`shared_changes` for banded peers, walking the nodes in level order. A node's band
    ``[level / (1 + band), level * (1 + band)]`` grows with its level (an empty band, at a
    negative level, included), so both its ends only move forward in the sorted levels."""
    order = sorted(levels, key=levels.__getitem__)
    values = [levels[n] for n in order]
    window: list[float] = []  # sorted changes of the nodes at positions [start, end) that have one
    start = end = 0
    out: dict[str, float] = {}
    for node in order:
        level = levels[node]
        lo, hi = level / (1 + band), level * (1 + band)
        first, last = bisect_left(values, lo), max(bisect_left(values, lo), bisect_right(values, hi))
        for position in range(end, last):
            if order[position] in changes:
                insort(window, changes[order[position]])
        for position in range(start, first):
            if order[position] in changes:
                del window[bisect_left(window, changes[order[position]])]
        start, end = first, last
        if node not in changes:
            continue
        inside = lo <= level <= hi
        if last - first - inside < least:
            out[node] = whole(node)
        elif inside:
            found = median_without(window, changes[node])
            out[node] = neutral if found is None else found
        else:
            out[node] = median(window) if window else neutral
    return {n: out[n] for n in changes}


def _listed(changes: Mapping[str, float], levels: Mapping[str, float], band: float, least: int,
            whole_job: bool, neutral: float) -> dict[str, float]:
    """:func:`shared_changes` by listing each node's peers (quadratic; the definition)."""
    out: dict[str, float] = {}
    for node in changes:
        level = levels[node]
        lo, hi = level / (1 + band), level * (1 + band)
        near = [] if whole_job else [m for m, v in levels.items() if m != node and lo <= v <= hi]
        group = near if not whole_job and len(near) >= least else [m for m in levels if m != node]
        peers = [changes[m] for m in group if m in changes]
        out[node] = median(peers) if peers else neutral
    return out
