"""Ground truth of a simulated run: what was injected, where, and when it really began.

``kind`` is the scenario kind (``hang``, ``slow_node``, ``xid``, ``oom``,
``trap_checkpoint``, ``trap_eval``, ``noise``). ``onset`` is the event time at which the
effect actually started (a trap that waits for a step boundary starts there, not at its
``at_s``); ``end`` is None when the effect lasts until the end of the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from schemas import format_time, parse_time


@dataclass(frozen=True)
class Truth:
    """One injected fault or trap; ``node_ids``/``ranks`` name its source (empty: none)."""

    kind: str
    job_id: str | None
    node_ids: tuple[str, ...]
    ranks: tuple[int, ...]
    onset: datetime
    end: datetime | None
    category: str | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; times as RFC 3339 UTC strings."""
        return {
            "kind": self.kind, "job_id": self.job_id, "node_ids": list(self.node_ids),
            "ranks": list(self.ranks), "onset": format_time(self.onset),
            "end": None if self.end is None else format_time(self.end),
            "category": self.category, "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Truth:
        """The inverse of :meth:`to_dict`; raises ``KeyError``/``ValueError`` on bad input."""
        end = data.get("end")
        return cls(
            kind=str(data["kind"]), job_id=data.get("job_id"),
            node_ids=tuple(str(n) for n in data.get("node_ids", ())),
            ranks=tuple(int(r) for r in data.get("ranks", ())),
            onset=parse_time(str(data["onset"])),
            end=None if end is None else parse_time(str(end)),
            category=data.get("category"), detail=str(data.get("detail", "")),
        )
