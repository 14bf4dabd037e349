"""Clock skew: a node whose clock is off the job's, estimated from the steps it reports.

The ranks of a synchronous job finish each step together, so every node's latest step report
``(step S_n, event time t_n)`` lies on the same line ``t = b + S x step_time`` up to report
cadence and jitter. A node whose clock runs ahead by ``d`` seconds has ``b_n`` larger by
``d``; the job's reference is the median intercept of the nodes reporting fresh steps. The
estimate needs no step to be matched across nodes (an ahead node's reports reach the detector
``d`` seconds after the others' in event-time order) and is updated at each vote on the
event-time grid, so replays reproduce it.

A node whose offset (the median of its last estimates) exceeds ``skew_tolerance_s`` is left
out of the probes and the localisation, its log lines count as signs of life at the job's time
(their own less the offset: the job's last line must not move with one node's clock), and the verdict names it with its offset (method
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
    """Add one offset estimate per node with a fresh step report and refresh the offsets of
    the skewed nodes (``run.skew_us``) (mutates ``state``).

    Reports within the vote window (``window_s``) count: a node whose clock is behind the
    job's by a minute shows reports a minute old at every vote, and a node that stopped with
    the job keeps its intercept. Reports from before the job's last pause ended (``floor_us``,
    at the node's known offset) do not: across a pause the intercepts differ by its length. Nothing is estimated unless at least half the job's
    reporting nodes (and ``MIN_NODES``) reported a step within it."""
    run = state.run
    if not run.step_ms or len(run.node_step) < MIN_NODES:
        return
    step_us = median(run.step_ms) * 1000.0
    fresh_after = now_us - seconds(s.window_s)
    since_us = run.floor_us if run.floor_us is not None else fresh_after
    fresh = {n: t - st * step_us for n, (st, t) in run.node_step.items()
             if t >= fresh_after and t - run.skew_us.get(n, 0) >= since_us}
    if len(fresh) < max(MIN_NODES, len(run.node_step) / 2):
        return
    reference = median(fresh.values())
    for node, intercept in fresh.items():
        kept = run.offsets_s.setdefault(node, deque(maxlen=SKEW_ESTIMATES))
        kept.append((intercept - reference) / 1e6)
    run.skew_us = {node: seconds(offset) for node, offset in skewed_nodes(state, s).items()}


def skewed_nodes(state: JobState, s: HangSettings) -> dict[str, float]:
    """Node -> clock offset in seconds (positive: ahead), for nodes off by more than the tolerance."""
    out = {}
    for node, kept in sorted(state.run.offsets_s.items()):
        if len(kept) >= MIN_ESTIMATES and abs(offset := median(kept)) > s.skew_tolerance_s:
            out[node] = offset
    return out


def clocks_known(state: JobState) -> bool:
    """Whether every node reporting steps has its clock offset estimated (always, in a job
    with fewer than ``MIN_NODES`` of them: no estimate, no correction). Until then the
    job's time of a report is unknown, and a quiet period measured on it may be a clock error."""
    run = state.run
    if len(run.node_step) < MIN_NODES:
        return True
    return all(len(run.offsets_s.get(node, ())) >= MIN_ESTIMATES for node in run.node_step)


def note_arrival(state: JobState, node: str | None, stamped_us: int, s: HangSettings) -> None:
    """Before ``node``'s event stamped ``stamped_us`` is folded in: a node whose first report
    of the attempt lies more than ``skew_tolerance_s`` ahead of the job's newest time is put
    aside as ``ahead`` (its clock may be off, and its offset cannot be estimated before it
    reports steps); it is taken back once its offset is estimated (``skew_us`` then corrects
    it) or the job's time comes within the tolerance of its reports (it was the others that
    came late). Mutates ``state``; O(1)."""
    if node is None:
        return
    run = state.run
    if node not in run.node_seen_us:
        if (state.last_us is not None and stamped_us - state.last_us > seconds(s.skew_tolerance_s)
                and state.places(node)):
            run.ahead.add(node)
        return
    if node in run.ahead and (len(run.offsets_s.get(node, ())) >= MIN_ESTIMATES or state.last_us is not None
                              and run.node_seen_us[node] - state.last_us <= seconds(s.skew_tolerance_s)):
        run.ahead.discard(node)


def job_time_us(state: JobState, node: str | None, stamped_us: int) -> int:
    """The job's time of an event ``node`` stamped ``stamped_us``: less the node's clock offset
    as of the last vote (see :func:`skewed_nodes`; 0 unless the node is skewed). A node put
    aside as ``ahead`` (:func:`note_arrival`) reports at the job's newest time at most.

    A node that runs behind and sends samples holds the reorder buffer's watermark, which then
    releases the job's events in stamp order: that node's events come early, and their
    corrected times would be in the job's future, so they are held to the newest job time
    already seen (``state.last_us``). A node without samples does not hold the watermark: its
    events come in arrival order, at their corrected times."""
    if node is not None and node in state.run.ahead and state.last_us is not None:
        return min(stamped_us, state.last_us)  # its clock is not known yet: a sign of life now
    offset_us = state.run.skew_us.get(node, 0) if node is not None else 0
    if offset_us >= 0 or node is None or not _sends_samples(state, node):
        return stamped_us - offset_us
    newest_us = stamped_us if state.last_us is None else max(state.last_us, stamped_us)
    return min(stamped_us - offset_us, newest_us)


def _sends_samples(state: JobState, node: str) -> bool:
    """Whether ``node`` sent the attempt GPU or stack samples (periodic kinds that hold the
    job's reorder buffer; O(ranks of the node))."""
    run = state.run
    return any(r in run.gpu or r in run.stacks for r in state.ranks_of(node))


def skew_finding(skewed: dict[str, float]) -> Localization:
    """The verdict's note of the nodes left out for their clocks."""
    detail = ", ".join(f"{n} clock {o:+.0f} s" for n, o in skewed.items())
    return Localization(method="clock_skew", ranks=(), detail=f"left out: {detail}")
