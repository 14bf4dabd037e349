"""The state the slow-node detector keeps for one job, and its JSON form.

One :class:`JobState` per ``job_id``: identity (cluster, attempt, placement), the open
event-time window (index, buffers, and whether the job checkpoints or changed phase in it),
the last RDMA counter reading per node, and one :class:`~streams.slow.track.NodeTrack` per
node. Everything is bounded by the job's size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from streams.slow.counters import NetCounters
from streams.slow.track import NodeTrack
from streams.slow.window import NodeBuffer, StepBuffer


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

    def reset(self) -> None:
        """Forget windows, counters and node tracks (a new attempt or placement, or the end)."""
        self.window = None
        self.steps = StepBuffer()
        self.nodes = NodeBuffer()
        self.counters = NetCounters()
        self.tracks = {}
        self.seen = {}
        self.busy = False
        self.disturbed = False

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
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> JobState:
        """Inverse of :meth:`dump`."""
        return cls(
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
        )
