"""Node silence: a node whose every source stopped at once while the rest of the job reports.

A dead node (power, kernel panic, network partition) takes its node agent, its ranks'
stacks and flight recorder and its logs down together. That is evidence in itself and a
localisation method: it must not depend on the verdict winning a race against the
staleness horizon of the other probes. The silent node's ranks are left out of the other
probes, which then see the surviving ranks waiting for it.
"""

from __future__ import annotations

from collections.abc import Iterable

from streams.hang.settings import HangSettings
from streams.hang.state import JobState, seconds


def silent_nodes(state: JobState, now_us: int, s: HangSettings,
                 skewed: frozenset[str] = frozenset()) -> dict[str, int]:
    """Silent node -> the last event time it reported, at event time ``now_us``.

    Silent: not heard from for ``node_silence_s`` while another node of the job was heard
    from within ``node_silence_s / 2`` (so a job-wide stop, or the end of the data, names
    nobody). Nodes never heard from in this attempt are not judged. A node whose clock is known
    to run behind the job's (``run.skew_us`` < 0, ``skew.py``) is judged on the job's clock,
    its last report less its offset: its reports pass the job's reorder buffer as they arrive,
    so that is when it last spoke (a dead node whose clock ran behind is still the node that
    fell silent). The other ``skewed`` nodes are not judged: one that runs ahead has its
    reports held back by the buffer until the job's time reaches their stamps, and one put
    aside before its offset is known has no known clock; their event times say nothing about
    when they spoke.
    """
    offsets = state.run.skew_us
    seen = {n: t - offsets.get(n, 0) for n, t in state.run.node_seen_us.items()
            if n not in skewed or offsets.get(n, 0) < 0}
    limit = seconds(s.node_silence_s)
    alive = [n for n, t in seen.items() if now_us - t <= limit // 2]
    if not alive:
        return {}
    return {n: t for n, t in sorted(seen.items()) if now_us - t >= limit}


def silent_ranks(state: JobState, nodes: Iterable[str]) -> frozenset[int]:
    """The ranks placed on ``nodes``."""
    nodes = set(nodes)
    return frozenset(r for r, n in state.placement.items() if n in nodes)
