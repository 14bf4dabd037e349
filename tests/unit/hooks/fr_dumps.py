"""Flight Recorder dumps built in PyTorch's documented format (the tutorial's unpickled dict)."""

from __future__ import annotations

import pickle
from typing import Any

T0_NS = 1_795_000_000_000_000_000  # 2026-11-18T...Z


def entry(seq: int, state: str, pg: str = "0", desc: str = "default_pg", op: str = "nccl:all_reduce",
          created_ns: int | None = None, p2p: bool = False, record_id: int = 0) -> dict[str, Any]:
    created = created_ns if created_ns is not None else T0_NS + seq * 1_000_000
    return {
        "frames": [{"name": "train_step", "filename": "train.py", "line": 88}],
        "record_id": record_id, "pg_id": int(pg) if pg.isdigit() else 9, "process_group": (pg, desc),
        "collective_seq_id": 0 if p2p else seq, "p2p_seq_id": seq if p2p else 0, "op_id": seq,
        "profiling_name": op, "time_created_ns": created,
        "input_sizes": [[3, 4]], "input_dtypes": ["Float"], "output_sizes": [[3, 4]], "output_dtypes": ["Float"],
        "state": state,
        "time_discovered_started_ns": created + 1000 if state in ("started", "completed") else None,
        "time_discovered_completed_ns": created + 5000 if state == "completed" else None,
        "retired": state == "completed", "timeout_ms": 600000, "is_p2p": p2p,
    }


def dump(entries: list[dict[str, Any]], pg_status: dict[str, dict[str, int]] | None = None,
         version: str = "2.5") -> dict[str, Any]:
    out: dict[str, Any] = {"version": version,
                           "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1, 2, 3]"}},
                           "entries": entries}
    if pg_status is not None:
        out["pg_status"] = pg_status
    return out


def rank_dump(completed: int, enqueued: int, pg: str = "0") -> dict[str, Any]:
    """A rank that completed collectives 1..completed and has enqueued up to ``enqueued``."""
    entries = [entry(s, "completed", pg=pg, record_id=s) for s in range(1, completed + 1)]
    entries += [entry(s, "scheduled", pg=pg, record_id=s) for s in range(completed + 1, enqueued + 1)]
    return dump(entries)


def pickled(d: dict[str, Any]) -> bytes:
    return pickle.dumps(d)
