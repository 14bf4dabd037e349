"""``faultline load``: a replay's derived JSON lines -> the sink's ClickHouse tables, idempotently.

The file is what ``faultline replay`` writes (one derived event per line, dead letters
included), or any JSON-lines file of v1 events, plain or gzipped: derived kinds land in the same tables as
the streaming sink (same mapping, same store), telemetry and lifecycle kinds are skipped
and counted. A line that does not decode or validate becomes a ``dead_letter`` row (stage
``decode``/``validate``, ``source_topic`` ``load:<file name>``, offset = line number) and is
counted, never raised. Tables deduplicate on the derived ids, and the dead letters' ids and
times are derived from the file, so loading the same file twice gives the same FINAL rows.
"""

from __future__ import annotations

import argparse
import gzip
import io
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from schemas import DeadLetter, Event, dead_letter, decode
from sinks.clickhouse.errors import PermanentError, RetryableError, SinkError
from sinks.clickhouse.mapping import BY_MODEL
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, connect

CHUNK_EVENTS = 20_000
"""Events per insert round: large enough for ClickHouse parts, small enough for memory."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
DSN_ENV = "FAULTLINE_CLICKHOUSE_DSN"
GZIP_MAGIC = b"\x1f\x8b"


@dataclass
class LoadResult:
    """What one load read and wrote; every count is zero for an empty file.

    ``lines`` counts non-blank lines; ``loaded`` rows written (derived events, the file's own
    dead letters included); ``skipped`` lines of kinds without a table (telemetry,
    lifecycle); ``bad_lines`` lines that did not decode or validate (stored as dead letters);
    ``rejected`` events ClickHouse refused for good (stored as ``sink`` dead letters).
    """

    lines: int = 0
    loaded: int = 0
    skipped: int = 0
    bad_lines: int = 0
    rejected: int = 0
    by_table: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        """One human line, e.g. ``1200 lines: 1100 rows loaded (...), 90 skipped, 10 bad``."""
        tables = ", ".join(f"{t} {n}" for t, n in sorted(self.by_table.items()))
        return (f"{self.lines} lines: {self.loaded} rows loaded ({tables or 'none'}), "
                f"{self.skipped} skipped (no table), {self.bad_lines} bad lines dead-lettered, "
                f"{self.rejected} rejected by ClickHouse")


def load_derived(path: Path, dsn: str, database: str = "faultline") -> LoadResult:
    """Load ``path`` into the database ``database`` at ``dsn`` (migrating it first).

    Raises RetryableError (e.g. PathBusyError: a running sink owns the chDB path) when the
    store is unavailable, PermanentError for a bad DSN or schema, OSError for an unreadable
    file. Bad lines never raise: they are counted in the result and stored as dead letters.
    """
    settings = ClickHouseSettings(dsn=dsn, database=database, query_server=False)
    store = connect(settings)
    try:
        store.migrate()
        return _load(path, store)
    finally:
        store.close()


def _load(path: Path, store: Store) -> LoadResult:
    result = LoadResult()
    source = f"load:{path.name}"
    bad: list[DeadLetter] = []
    first_time: datetime | None = None
    for chunk in _chunks(path, source, result, bad):
        first_time = first_time or (chunk[0].event_time if chunk else None)
        _insert(store, chunk, result)
    if bad:
        # Timed at the file's first event (not now) so a second load writes identical rows.
        stamped = [b.model_copy(update={"event_time": first_time or EPOCH}) for b in bad]
        _insert(store, list(stamped), result)
    return result


def _chunks(path: Path, source: str, result: LoadResult, bad: list[DeadLetter]) -> Iterator[list[Event]]:
    """Derived events of ``path`` in chunks; counts lines, skips and bad lines into ``result``."""
    chunk: list[Event] = []
    with _open(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            result.lines += 1
            event = decode(line.rstrip(b"\r\n"), source_topic=source, offset=number)
            if isinstance(event, DeadLetter) and _made_by_decode(event, source, number):
                result.bad_lines += 1
                bad.append(event)
            elif type(event) not in BY_MODEL:
                result.skipped += 1
            else:
                chunk.append(event)
            if len(chunk) >= CHUNK_EVENTS:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def _open(path: Path) -> gzip.GzipFile | io.BufferedReader:
    """A binary reader of ``path``, gunzipping it when it starts with the gzip magic number."""
    with path.open("rb") as probe:
        gzipped = probe.read(2) == GZIP_MAGIC
    return gzip.open(path, "rb") if gzipped else path.open("rb")


def _made_by_decode(letter: DeadLetter, source: str, number: int) -> bool:
    """True when ``decode`` rejected line ``number`` (not a dead_letter event the file carries)."""
    return letter.source_topic == source and letter.offset == number and letter.stage in ("decode", "validate")


def _insert(store: Store, events: list[Event], result: LoadResult) -> None:
    """Insert ``events``; a permanent refusal bisects down to the refused events, which become dead letters."""
    if not events:
        return
    try:
        result.loaded += store.insert(events)
    except PermanentError as exc:
        if len(events) == 1:
            result.rejected += 1
            store.insert([_rejected(events[0], str(exc))])
            _count(result, "dead_letters", 1)
            result.loaded += 1
            return
        mid = len(events) // 2
        _insert(store, events[:mid], result)
        _insert(store, events[mid:], result)
        return
    for event in events:
        _count(result, BY_MODEL[type(event)].table, 1)


def _count(result: LoadResult, table: str, n: int) -> None:
    result.by_table[table] = result.by_table.get(table, 0) + n


def _rejected(event: Event, error: str) -> DeadLetter:
    raw = event.model_dump_json(by_alias=True).encode("utf-8")
    return dead_letter(raw, source_topic=f"load:{event.schema_name()}", stage="sink", error=error,
                       offset=0, key=event.event_id, cluster=event.cluster, event_time=event.event_time)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline load",
                                     description="Load a replay's derived JSON lines into ClickHouse (idempotent).")
    parser.add_argument("events", help="JSON-lines file, e.g. the output of 'faultline replay'")
    parser.add_argument("--dsn", help=f"chdb:///path or http(s)://user:pass@host:8123/db (env {DSN_ENV})")
    parser.add_argument("--database", default="faultline", help="database name (default faultline)")
    return parser


def load_main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Entry point of ``faultline load``: 0 loaded (bad lines are reported, not fatal),
    1 the data or schema was refused, 2 usage error or unreadable file, 3 store unavailable.

    ``environ`` (the caller passes ``os.environ``) may give ``FAULTLINE_CLICKHOUSE_DSN``.
    """
    args = _parser().parse_args(list(argv) if argv is not None else None)
    values: dict[str, Any] = {"database": args.database}
    dsn = args.dsn or (environ or {}).get(DSN_ENV)
    if dsn:
        values["dsn"] = dsn
    try:
        settings = ClickHouseSettings(**values)
    except ValueError as exc:
        print(f"faultline load: {exc}", file=sys.stderr)
        return 2
    path = Path(args.events)
    if not path.is_file():
        print(f"faultline load: no such file: {path}", file=sys.stderr)
        return 2
    try:
        result = load_derived(path, settings.dsn, settings.database)
    except RetryableError as exc:
        print(f"faultline load: unavailable: {exc}", file=sys.stderr)
        return 3
    except SinkError as exc:
        print(f"faultline load: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"faultline load: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    print(f"faultline load: {result.summary()}")
    return 0
