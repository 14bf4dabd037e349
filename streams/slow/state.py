"""The state the slow-node detector keeps for one job, and its JSON form.

One :class:`JobState` per ``job_id``: identity (cluster, attempt, placement), the open
event-time window (index, buffers, and whether the job checkpoints or changed phase in it),
the job's step clock (highest step, when it advanced, the recent gaps between advances, the
step the attempt's warm-up ends at, an open hang), the last RDMA counter reading per node,
and one :class:`~streams.slow.track.NodeTrack` per node. Everything is bounded by the job's
size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from streams.slow.counters import NetCounters
from streams.slow.track import NodeTrack
from streams.slow.window import MetricWindow, NodeBuffer, StepBuffer


@dataclass
class JobState:
    """Everything the detector knows about one job."""

    job_id: str | None = None
    cluster: str | None = None
    attempt: int = 0
    placement: dict[str, list[int]] = field(default_factory=dict)
    seen: dict[str, list[int]] = field(default_factory=dict)
    window: int | None = None
    closed: int | None = None
    steps: StepBuffer = field(default_factory=StepBuffer)
    nodes: NodeBuffer = field(default_factory=NodeBuffer)
    counters: NetCounters = field(default_factory=NetCounters)
    tracks: dict[str, NodeTrack] = field(default_factory=dict)
    busy: bool = False
    disturbed: bool = False
    reports_steps: bool = False
    max_step: int = -1
    last_advance: float | None = None
    gaps: list[float] = field(default_factory=list)
    window_gap: float = 0.0
    warm_until: int | None = None
    hung: bool = False
    hung_step: int = -1
    pending: list[tuple[int, list[MetricWindow]]] = field(default_factory=list)
    """Windows gathered but not judged yet: one that closed with the job's next advance
    overdue, and every later one, wait for an advance past their end (``SlowNodeDetector``),
    so a window a hang began in is never judged."""

    def known_nodes(self) -> set[str]:
        """Nodes of the job: the placement's, or those seen reporting steps when none came."""
        return set(self.placement) or set(self.seen)

    def ranks_of(self, node: str) -> list[int]:
        """Ranks placed on (or seen reporting from) ``node``, ascending."""
        return sorted(self.placement.get(node) or self.seen.get(node) or [])

    def see(self, node: str, rank: int) -> None:
        """Remember that ``rank`` reported from ``node``."""
        ranks = self.seen.setdefault(node, [])
        if rank not in ranks:
            ranks.append(rank)

    def reset(self, keep_levels: bool = False) -> None:
        """Forget windows, counters, the step clock and node tracks (a new placement or the
        end); with ``keep_levels`` (a restart in place) keep each node's levels and baselines
        but drop its verdicts and open episode, and keep which ports are its compute rails
        (the bytes they carried): a rail that degraded around the restart would otherwise
        carry too little of the new attempt's traffic to count as a rail, and be ignored
        like a storage port."""
        self.window = None
        self.steps = StepBuffer()
        self.nodes = NodeBuffer()
        self.counters = NetCounters(volumes=self.counters.volumes) if keep_levels else NetCounters()
        self.tracks = {n: t.restarted() for n, t in self.tracks.items()} if keep_levels else {}
        self.seen = {}
        self.busy = False
        self.disturbed = False
        self.max_step = -1
        self.last_advance = None
        self.gaps = []
        self.window_gap = 0.0
        self.warm_until = None
        self.hung = False
        self.hung_step = -1
        self.pending = []

    def advance(self, step: int, when_s: float, keep: int) -> None:
        """Note a step report at ``when_s`` (epoch seconds): a new highest step is an advance;
        the gap since the previous advance is remembered (the newest ``keep``) and counted in
        the open window's largest gap. Steps past an open hang's last step end the hang."""
        self.reports_steps = True
        if step <= self.max_step:
            return
        if self.last_advance is not None:
            gap = max(when_s - self.last_advance, 0.0)
            self.window_gap = max(self.window_gap, gap)
            self.gaps.append(round(gap, 3))
            del self.gaps[:-keep]
        self.max_step, self.last_advance = step, when_s
        if self.hung and step > self.hung_step:
            self.hung = False

    def dump(self) -> dict[str, Any]:
        """JSON-ready form of the whole state."""
        return {
            "job_id": self.job_id,
            "cluster": self.cluster,
            "attempt": self.attempt,
            "placement": {n: list(r) for n, r in self.placement.items()},
            "seen": {n: list(r) for n, r in self.seen.items()},
            "window": self.window,
            "closed": self.closed,
            "steps": self.steps.dump(),
            "nodes": self.nodes.dump(),
            "counters": self.counters.dump(),
            "tracks": {n: t.dump() for n, t in self.tracks.items()},
            "busy": self.busy,
            "disturbed": self.disturbed,
            "pending": [[index, [mw.dump() for mw in windows]] for index, windows in self.pending],
            "clock": [self.reports_steps, self.max_step, self.last_advance, list(self.gaps),
                      self.window_gap, self.warm_until, self.hung, self.hung_step],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> JobState:
        """Inverse of :meth:`dump`."""
        clock = data.get("clock") or [False, -1, None, [], 0.0, None, False, -1]
        return cls(
            reports_steps=bool(clock[0]), max_step=int(clock[1]),
            last_advance=None if clock[2] is None else float(clock[2]),
            gaps=[float(g) for g in clock[3]], window_gap=float(clock[4]),
            warm_until=None if clock[5] is None else int(clock[5]), hung=bool(clock[6]),
            hung_step=int(clock[7]),
            job_id=data["job_id"],
            cluster=data["cluster"],
            attempt=int(data["attempt"]),
            placement={n: [int(r) for r in v] for n, v in data["placement"].items()},
            seen={n: [int(r) for r in v] for n, v in data["seen"].items()},
            window=None if data["window"] is None else int(data["window"]),
            closed=None if data.get("closed") is None else int(data["closed"]),
            steps=StepBuffer.load(data["steps"]),
            nodes=NodeBuffer.load(data["nodes"]),
            counters=NetCounters.load(data["counters"]),
            tracks={n: NodeTrack.load(t) for n, t in data["tracks"].items()},
            busy=bool(data.get("busy", False)),
            disturbed=bool(data.get("disturbed", False)),
            pending=[(int(index), [MetricWindow.load(mw) for mw in windows])
                     for index, windows in data.get("pending", [])],  # absent from older states
        )
