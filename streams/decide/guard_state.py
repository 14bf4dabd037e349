"""Per-cluster state of the guards, with an exact JSON round trip (``dump``/``load``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from streams.decide.state import from_iso, iso, need_iso


@dataclass
class Block:
    """One node taken out by a passed decision, inside the blast-radius window."""

    at: datetime
    job_id: str
    node: str
    scope: str

    def dump(self) -> list[Any]:
        """JSON-ready data of this block."""
        return [iso(self.at), self.job_id, self.node, self.scope]

    @classmethod
    def load(cls, data: list[Any]) -> Block:
        """The block :meth:`dump` saved."""
        return cls(need_iso(data[0]), data[1], data[2], data[3])


@dataclass
class NodeRecord:
    """The last block of one node and when (if) it came back into a placement."""

    blocked_at: datetime
    job_id: str
    scope: str
    causes: str
    """The sorted cause ids of the block, joined: a companion decision of the same causes
    (``drain_reboot_nodes`` next to ``replace_nodes``) is not a repeat."""
    returned_at: datetime | None = None

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this record."""
        return {"blocked_at": iso(self.blocked_at), "job_id": self.job_id, "scope": self.scope,
                "causes": self.causes, "returned_at": iso(self.returned_at)}

    @classmethod
    def load(cls, data: dict[str, Any]) -> NodeRecord:
        """The record :meth:`dump` saved."""
        return cls(need_iso(data["blocked_at"]), data["job_id"], data["scope"], data["causes"],
                   from_iso(data["returned_at"]))


@dataclass
class ClusterState:
    """Everything the guards remember about one cluster (one state per ``cluster``)."""

    placed_nodes: set[str] = field(default_factory=set)
    blocks: list[Block] = field(default_factory=list)
    nodes: dict[str, NodeRecord] = field(default_factory=dict)
    seen: dict[str, str] = field(default_factory=dict)
    """decision id -> ISO time first seen (duplicate suppression)."""
    alerted_at: datetime | None = None
    """When the last cluster blast-radius alert (a ``notify``) was emitted."""
    job_sizes: dict[str, int] = field(default_factory=dict)
    """job_id -> nodes in its latest placement (the per-job limit scales with it)."""
    job_wide: dict[str, int] = field(default_factory=dict)
    """job_id -> latest attempt for which a job-wide action (restart, resubmit, stop) passed."""
    restarts: dict[str, int] = field(default_factory=dict)
    """job_id -> attempt of the latest ``restart_in_place`` that passed, until a later attempt of
    the job reports ``running`` (the restart brought it back)."""
    fallbacks: dict[str, str] = field(default_factory=dict)
    """job_id -> joined cause ids of the latest refusal that got a fallback (one per cause)."""

    def forget_job(self, job_id: str) -> None:
        """Drop what is kept per job once the job finished or was cancelled."""
        for table in (self.job_sizes, self.job_wide, self.restarts, self.fallbacks):
            table.pop(job_id, None)

    def dump(self) -> dict[str, Any]:
        """JSON-ready data of this state."""
        return {
            "placed_nodes": sorted(self.placed_nodes),
            "blocks": [b.dump() for b in self.blocks],
            "nodes": {k: v.dump() for k, v in self.nodes.items()},
            "seen": dict(self.seen), "alerted_at": iso(self.alerted_at),
            "job_sizes": dict(self.job_sizes), "job_wide": dict(self.job_wide),
            "restarts": dict(self.restarts), "fallbacks": dict(self.fallbacks),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> ClusterState:
        """The state :meth:`dump` saved."""
        return cls(
            placed_nodes=set(data["placed_nodes"]),
            blocks=[Block.load(b) for b in data["blocks"]],
            nodes={k: NodeRecord.load(v) for k, v in data["nodes"].items()},
            seen=dict(data["seen"]), alerted_at=from_iso(data["alerted_at"]),
            job_sizes=dict(data.get("job_sizes", {})), job_wide=dict(data.get("job_wide", {})),
            restarts=dict(data.get("restarts", {})), fallbacks=dict(data.get("fallbacks", {})),
        )
