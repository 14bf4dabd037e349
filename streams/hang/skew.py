"""Clock skew: a node whose clock is off the job's, estimated from the steps it reports.

The ranks of a synchronous job finish each step together, so every node's latest step report
``(step S_n, event time t_n)`` lies on the same line ``t = b + S x step_time`` up to report
cadence and jitter. A node whose clock runs ahead by ``d`` seconds has ``b_n`` larger by
``d``; the job's reference is the median intercept of the nodes reporting fresh steps. The
estimate needs no step to be matched across nodes (an ahead node's reports reach the detector
``d`` seconds after the others' in event-time order) and is updated at each vote on the
event-time grid, so replays reproduce it.

A node whose offset (the median of its last estimates) exceeds ``skew_tolerance_s`` is left
out of the probes and the localisation, and the verdict names it with its offset (method
``clock_skew``): its samples describe another moment than the others', and mixing them made
healthy ranks look behind or still busy.
"""

from __future__ import annotations

from collections import deque
from statistics import median

from schemas import Localization
from streams.hang.settings import HangSettings
from streams.hang.state import SKEW_ESTIMATES, JobState, seconds

MIN_NODES = 3
"""Nodes with fresh step reports needed for an estimate: with two, neither is the reference."""
MIN_ESTIMATES = 3
"""Estimates a node needs before its offset is trusted."""


def estimate(state: JobState, now_us: int, s: HangSettings) -> None:
    """Add one offset estimate per node with a fresh step report (mutates ``state``).

    Reports within the vote window (``window_s``) count: a node whose clock is behind the
    job's by a minute shows reports a minute old at every vote, and a node that stopped with
    the job keeps its intercept. Nothing is estimated unless at least half the job's
    reporting nodes (and ``MIN_NODES``) reported a step within it."""
    run = state.run
    if not run.step_ms or len(run.node_step) < MIN_NODES:
        return
    step_us = median(run.step_ms) * 1000.0
    fresh_after = now_us - seconds(s.window_s)
    fresh = {n: t - st * step_us for n, (st, t) in run.node_step.items() if t >= fresh_after}
    if len(fresh) < max(MIN_NODES, len(run.node_step) / 2):
        return
    reference = median(fresh.values())
    for node, intercept in fresh.items():
        kept = run.offsets_s.setdefault(node, deque(maxlen=SKEW_ESTIMATES))
        kept.append((intercept - reference) / 1e6)


def skewed_nodes(state: JobState, s: HangSettings) -> dict[str, float]:
    """Node -> clock offset in seconds (positive: ahead), for nodes off by more than the tolerance."""
    out = {}
    for node, kept in sorted(state.run.offsets_s.items()):
        if len(kept) >= MIN_ESTIMATES and abs(offset := median(kept)) > s.skew_tolerance_s:
            out[node] = offset
    return out


def skew_finding(skewed: dict[str, float]) -> Localization:
    """The verdict's note of the nodes left out for their clocks."""
    detail = ", ".join(f"{n} clock {o:+.0f} s" for n, o in skewed.items())
    return Localization(method="clock_skew", ranks=(), detail=f"left out: {detail}")
