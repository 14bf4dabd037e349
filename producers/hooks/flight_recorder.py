"""PyTorch Flight Recorder -> ``collective_progress``: live polling and ``faultline fr import``.

The Flight Recorder (``TORCH_NCCL_TRACE_BUFFER_SIZE`` > 0) keeps a ring of recent
collectives per process. Its dump, from ``torch._C._distributed_c10d._dump_nccl_trace()``
or written on a watchdog timeout to ``<TORCH_NCCL_DEBUG_INFO_TEMP_FILE><rank>``, is a
pickled dict (PyTorch's "Flight Recorder for Debugging Stuck Jobs" tutorial):

    {"version": "2.x", "pg_config": {...},
     "pg_status": {pg_name: {"last_enqueued_collective", "last_started_collective",
                             "last_completed_collective"}},               (newer versions)
     "entries": [{"pg_id", "process_group": (pg_name, pg_desc), "collective_seq_id",
                  "p2p_seq_id", "is_p2p", "profiling_name": "nccl:all_reduce",
                  "state": "scheduled" | "started" | "completed", "time_created_ns",
                  "time_discovered_started_ns", "time_discovered_completed_ns", ...}, ...]}

Per process group (``comm_group`` = the pg name, identical on every rank of the group) this
gives the last enqueued and last completed collective sequence numbers and the oldest
collective still in flight. Point-to-point entries are left out: their sequence numbers
count per peer pair and cannot be compared across ranks. Dumps are unpickled with every
global refused (a dump holds only plain containers and scalars), so a crafted file cannot
run code. JSON dumps (``_dump_nccl_trace_json``) are read too.
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from typing import Any

from schemas import CollectiveProgress

log = logging.getLogger(__name__)

CANONICAL_OPS = ("allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "barrier",
                 "reduce", "gather", "scatter", "send", "recv")


class DumpError(ValueError):
    """A file or buffer that is not a Flight Recorder dump."""


def _same(value: Any, *_: Any) -> Any:
    return value


# torch's C++ pickler may tag typed containers with these helpers of torch.jit._pickle, which
# all return their first argument unchanged (no torch needed to read them).
_JIT_TAGS = frozenset({"build_intlist", "build_doublelist", "build_boollist", "build_tensorlist", "restore_type_tag"})


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles containers and scalars only; any class or function reference is refused,
    except torch's container type tags, which are read as the plain container."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch.jit._pickle" and name in _JIT_TAGS:
            return _same
        raise DumpError(f"a Flight Recorder dump holds no objects, found {module}.{name}")


def load_dump(data: bytes) -> dict[str, Any]:
    """The dict of a pickled (or JSON) Flight Recorder dump; DumpError when it is not one."""
    try:
        dump = json.loads(data) if data.lstrip()[:1] == b"{" else _PlainUnpickler(BytesIO(data)).load()
    except DumpError:
        raise
    except (pickle.UnpicklingError, ValueError, EOFError, TypeError, IndexError, KeyError,
            AttributeError, UnicodeDecodeError) as exc:
        raise DumpError(f"not a Flight Recorder dump: {type(exc).__name__}: {exc}") from exc
    if not isinstance(dump, dict) or not isinstance(dump.get("entries", []), list):
        raise DumpError("not a Flight Recorder dump: expected a dict with an 'entries' list")
    return dump


def canonical_op(profiling_name: object) -> str | None:
    """``"nccl:all_reduce"`` -> ``"allreduce"``; unknown names keep their squashed form."""
    if not isinstance(profiling_name, str) or not profiling_name:
        return None
    squashed = profiling_name.rsplit(":", 1)[-1].replace("_", "").lower()
    return next((op for op in CANONICAL_OPS if squashed.startswith(op)), squashed)


@dataclass(frozen=True)
class GroupProgress:
    """One process group's position in one rank's dump."""

    comm_group: str
    last_enqueued_seq: int
    last_completed_seq: int
    in_flight_op: str | None
    in_flight_since_ns: int | None


@dataclass(frozen=True)
class _Entry:
    group: str
    seq: int
    state: str
    op: str | None
    since_ns: int | None


def _entry(raw: Mapping[str, Any]) -> _Entry | None:
    """The collective part of one entry; None for a p2p entry. KeyError/TypeError/ValueError if malformed."""
    if raw.get("is_p2p"):
        return None
    pg = raw.get("process_group")
    group = str(pg[0]) if isinstance(pg, (list, tuple)) and pg else str(raw["pg_id"])
    since = raw.get("time_discovered_started_ns") or raw.get("time_created_ns")
    return _Entry(group=group, seq=int(raw["collective_seq_id"]), state=str(raw.get("state", "")),
                  op=canonical_op(raw.get("profiling_name")), since_ns=int(since) if since else None)


def _status_int(status: Mapping[str, Any], key: str) -> int:
    value = status.get(key)
    return int(value) if isinstance(value, int) else 0


def group_progress(dump: Mapping[str, Any]) -> tuple[list[GroupProgress], int]:
    """Per process group progress of one dump, and how many malformed entries were skipped."""
    by_group: dict[str, list[_Entry]] = {}
    skipped = 0
    for raw in dump.get("entries", []):
        try:
            entry = _entry(raw)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            skipped += 1
            continue
        if entry is not None:
            by_group.setdefault(entry.group, []).append(entry)
    status = dump.get("pg_status")
    statuses: Mapping[str, Any] = status if isinstance(status, Mapping) else {}
    names = sorted(set(by_group) | {str(k) for k in statuses})
    return [_one_group(name, by_group.get(name, []), statuses.get(name, {})) for name in names], skipped


def _one_group(name: str, entries: list[_Entry], status: Mapping[str, Any]) -> GroupProgress:
    enqueued = max([e.seq for e in entries] + [_status_int(status, "last_enqueued_collective")])
    completed = max([e.seq for e in entries if e.state == "completed"]
                    + [_status_int(status, "last_completed_collective")])
    enqueued = max(enqueued, completed, 0)
    pending = sorted((e for e in entries if e.seq > completed and e.state != "completed"), key=lambda e: e.seq)
    first = pending[0] if pending else None
    return GroupProgress(comm_group=name, last_enqueued_seq=enqueued, last_completed_seq=max(completed, 0),
                         in_flight_op=first.op if first else None,
                         in_flight_since_ns=first.since_ns if first else None)


def last_activity_ns(dump: Mapping[str, Any]) -> int | None:
    """The latest timestamp any entry of the dump carries (a lower bound of the dump time)."""
    stamps = [e.get(k) for e in dump.get("entries", []) if isinstance(e, Mapping)
              for k in ("time_created_ns", "time_discovered_started_ns", "time_discovered_completed_ns")]
    ints = [s for s in stamps if isinstance(s, int) and s > 0]
    return max(ints) if ints else None


def from_ns(ns: int) -> datetime:
    """An epoch-nanoseconds timestamp as an aware UTC datetime."""
    return datetime.fromtimestamp(ns / 1e9, UTC)


@dataclass(frozen=True)
class Source:
    """Whose dump it is: the identity stamped on the events."""

    job_id: str
    node_id: str
    rank: int
    cluster: str


def to_events(progress: list[GroupProgress], source: Source, event_time: datetime,
              id_seed: str | None = None) -> list[CollectiveProgress]:
    """One ``collective_progress`` per group. With ``id_seed`` (e.g. a hash of the dump
    file) ids are deterministic, so importing the same dump twice yields the same ids."""
    events = []
    for g in progress:
        event_id = (str(uuid.uuid5(uuid.NAMESPACE_URL, f"faultline:fr:{source.job_id}:{source.rank}:"
                                                       f"{g.comm_group}:{id_seed}"))
                    if id_seed is not None else str(uuid.uuid4()))
        since = from_ns(g.in_flight_since_ns) if g.in_flight_since_ns else None
        events.append(CollectiveProgress(
            event_id=event_id, event_time=event_time, cluster=source.cluster, job_id=source.job_id,
            node_id=source.node_id, rank=source.rank, comm_group=g.comm_group,
            last_enqueued_seq=g.last_enqueued_seq, last_completed_seq=g.last_completed_seq,
            in_flight_op=g.in_flight_op, in_flight_since=since))
    return events


def digest(data: bytes) -> str:
    """A short content hash of a dump, the seed of its events' ids."""
    return hashlib.sha256(data).hexdigest()[:32]


class FlightRecorderPoller:
    """Polls ``dump()`` every ``interval_s`` in a daemon thread and emits ``collective_progress``.

    ``emit`` must not block (the hooks' reporter). Every failure (no Flight Recorder, a
    malformed dump, a bad value) is counted through ``count_error`` and polling goes on.
    """

    def __init__(self, dump: Callable[[], bytes], source: Source, emit: Callable[[CollectiveProgress], object],
                 count_error: Callable[[str], None], interval_s: float = 10.0,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._dump, self.source, self._emit = dump, source, emit
        self._count_error, self._interval_s, self._clock = count_error, interval_s, clock
        self._stop = threading.Event()
        self.polls = 0
        self._thread = threading.Thread(target=self._run, name="faultline-flight-recorder", daemon=True)

    def start(self) -> FlightRecorderPoller:
        """Start the thread; returns self."""
        self._thread.start()
        return self

    def poll_once(self) -> int:
        """One snapshot: returns the number of events emitted (0 on a counted failure)."""
        try:
            progress, skipped = group_progress(load_dump(self._dump()))
            if skipped:
                self._count_error("flight_recorder_entry")
            events = to_events(progress, self.source, self._clock())
        except Exception:  # noqa: BLE001 - never let a dump problem reach training; counted
            self._count_error("flight_recorder")
            log.debug("flight recorder poll failed", exc_info=True)
            return 0
        for event in events:
            self._emit(event)
        return len(events)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self.poll_once()
            self.polls += 1

    def is_alive(self) -> bool:
        """True while the polling thread runs."""
        return self._thread.is_alive()

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop polling (waits up to ``timeout_s`` for the thread)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)


def torch_dump() -> Callable[[], bytes] | None:
    """The in-process Flight Recorder dump function when torch with c10d is installed, else None."""
    try:
        import torch  # type: ignore[import-not-found,unused-ignore]  # optional: absent in the project's env
        c10d = torch._C._distributed_c10d
    except (ImportError, AttributeError):
        return None

    def dump() -> bytes:
        try:
            return bytes(c10d._dump_nccl_trace(includeCollectives=True, includeStackTraces=False, onlyActive=False))
        except TypeError:  # older releases take no keyword arguments
            return bytes(c10d._dump_nccl_trace())
    return dump
