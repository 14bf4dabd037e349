"""Hostile message values every consumer must turn into dead letters (and then go on)."""

from __future__ import annotations

HOSTILE: tuple[bytes, ...] = (
    b"{this is not json",
    b"\xff\xfe not utf-8 \x80",
    b"[1, 2, 3]",
    b'"a string"',
    b'{"schema": "nope/v1", "event_id": "x"}',
    b'{"event_id": "no schema"}',
    b'{"schema": "gpu_sample/v1", "event_id": "x"}',
    b'{"schema": "log_line/v1", "event_id": "a", "event_time": 1700000000, "cluster": "c", "source": "kernel", "line": "x"}',
    b'{"schema": "log_line/v1", "event_id": "a", "event_time": "2026-11-22T08:00:00Z", "cluster": "c",'
    b' "source": "kernel", "line": "x", "rank": true}',
    b'{"schema": "step_progress/v1", "event_id": "a", "event_time": "2026-11-22T08:00:00Z", "cluster": "c",'
    b' "job_id": "j", "node_id": "n", "rank": 0, "step": 1, "step_time_ms": NaN}',
    b'{"schema": "step_progress/v1", "event_id": "a", "event_time": "2026-11-22T08:00:00", "cluster": "c",'
    b' "job_id": "j", "node_id": "n", "rank": 0, "step": 1.0, "step_time_ms": 5}',
    b"[" * 100_000 + b"]" * 100_000,
    b'{"schema": "log_line/v1", "x": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
    b"x" * 1_500_000,
)
"""Every kind of bad line: not JSON, not UTF-8, not an object, unknown or missing schema,
missing fields, coercions the contract forbids, NaN, naive time, deep nesting, oversize."""

ONE_MB_NOT_JSON = b"\x00not json " * 99_000
"""Just under the broker's default 1 MB message limit, and not JSON (0.99 MB)."""


def over_kafka() -> tuple[bytes, ...]:
    """The hostile values that fit through a broker with its default 1 MB message limit."""
    return (*(value for value in HOSTILE if len(value) < 900_000), ONE_MB_NOT_JSON)
