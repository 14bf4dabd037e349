"""Deterministic ids for derived events.

An id is the first 32 hex characters of SHA-256 over the event kind, its key and the ids or
event-time bounds of its causes, joined with an unambiguous separator. The same causes give
the same id in every replay, so sinks and actuators can deduplicate.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from schemas.envelope import format_time

Part = str | int | float | datetime | None


def _text(part: Part) -> str:
    if isinstance(part, datetime):
        return format_time(part)
    return "" if part is None else str(part)


def derived_id(kind: str, key: str | None, *causes: Part) -> str:
    """The deterministic id of a derived event of ``kind`` keyed ``key`` with these causes."""
    joined = "\x1f".join([kind, _text(key), *(_text(c) for c in causes)])
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:32]
