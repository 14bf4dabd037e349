"""File output of a run: events as JSON lines, ground truth as one JSON document.

This is the simulator's only I/O module; the rest of the package is pure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from producers.simulator.truth import Truth
from schemas import Event, encode


def write_jsonl(events: Iterable[Event], path: str | Path) -> int:
    """Write one ``schemas.codec.encode``-d event per line; returns the number written."""
    count = 0
    with open(path, "wb") as out:
        for event in events:
            out.write(encode(event))
            out.write(b"\n")
            count += 1
    return count


def write_truth(truth: Iterable[Truth], path: str | Path,
                meta: dict[str, Any] | None = None) -> None:
    """Write ``{"version": 1, "meta": ..., "truth": [Truth.to_dict(), ...]}`` as JSON."""
    doc = {"version": 1, "meta": meta or {}, "truth": [t.to_dict() for t in truth]}
    Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def read_truth(path: str | Path) -> list[Truth]:
    """Read a file written by :func:`write_truth` (or a bare JSON list of truth dicts)."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    entries = doc["truth"] if isinstance(doc, dict) else doc
    return [Truth.from_dict(e) for e in entries]
