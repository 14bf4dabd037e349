"""``faultline fr import DIR``: Flight Recorder dumps of a timed-out job -> ``collective_progress``.

    faultline fr import DIR --job-id JOB [--prefix nccl_trace_rank_] [--cluster C]
        [--node RANK=NODE ...] [--default-node NODE] [--time mtime|last-activity|RFC3339]
        [--output FILE|-] [--bootstrap H:P] [--namespace faultline.]

Files are found under DIR (recursively) as ``<prefix><rank>`` (the prefix is inferred when
every file shares one). A rank's node is ``--node``, else the sub-directory holding its file
(dumps gathered per node), else ``--default-node``. ``event_time`` is the file's modification
time (when the watchdog wrote it) unless ``--time`` says otherwise. Event ids derive from
the file content, so importing twice is idempotent downstream.

Exit status: 0 when every file was imported, 1 when some were not dumps (the others are
still sent), 2 on bad arguments or when no dump file is found.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from producers.hooks.flight_recorder import (
    DumpError,
    Source,
    digest,
    from_ns,
    group_progress,
    last_activity_ns,
    load_dump,
    to_events,
)
from producers.hooks.sinks import Sink, open_sink
from producers.kafka import DeliveryError
from schemas import CollectiveProgress, parse_time
from schemas.settings import kafka_from

_RANKED = re.compile(r"^(.*?)(\d+)$")


@dataclass(frozen=True)
class DumpFile:
    """One rank's dump file."""

    path: Path
    rank: int
    node_dir: str | None


def find_dumps(root: Path, prefix: str | None) -> list[DumpFile]:
    """Every ``<prefix><rank>`` file under ``root``; ValueError when the prefix is ambiguous."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    if prefix is None:
        prefixes = {m.group(1) for p in files if (m := _RANKED.match(p.name))}
        if len(prefixes) != 1:
            raise ValueError(f"cannot infer the dump prefix from {sorted(prefixes)[:5]}; pass --prefix")
        prefix = prefixes.pop()
    found = []
    for path in files:
        rest = path.name[len(prefix):] if path.name.startswith(prefix) else ""
        if rest.isdigit():
            parent = path.parent.relative_to(root)
            found.append(DumpFile(path, int(rest), parent.parts[-1] if parent.parts else None))
    return sorted(found, key=lambda d: d.rank)


def parse_nodes(pairs: Sequence[str]) -> dict[int, str]:
    """``["0=node001", "1=node001"]`` -> {0: "node001", 1: "node001"}; ValueError if malformed."""
    out = {}
    for pair in pairs:
        rank, sep, node = pair.partition("=")
        if not sep or not rank.strip().isdigit() or not node.strip():
            raise ValueError(f"--node wants RANK=NODE, got {pair!r}")
        out[int(rank)] = node.strip()
    return out


def event_time(mode: str, path: Path, dump: Mapping[str, object]) -> datetime:
    """The event time of a dump's events per ``--time``."""
    if mode == "mtime":
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    if mode == "last-activity":
        ns = last_activity_ns(dump)
        if ns is None:
            raise DumpError("no timestamps in the dump for --time last-activity")
        return from_ns(ns)
    return parse_time(mode)


def import_dump(dump_file: DumpFile, args: argparse.Namespace, nodes: Mapping[int, str]) -> list[CollectiveProgress]:
    """The events of one dump file; DumpError/OSError when it cannot be read."""
    data = dump_file.path.read_bytes()
    dump = load_dump(data)
    progress, skipped = group_progress(dump)
    if skipped:
        print(f"{dump_file.path}: {skipped} malformed entries skipped", file=sys.stderr)
    node = nodes.get(dump_file.rank) or dump_file.node_dir or args.default_node
    source = Source(job_id=args.job_id, node_id=node, rank=dump_file.rank, cluster=args.cluster)
    return to_events(progress, source, event_time(args.time, dump_file.path, dump), id_seed=digest(data))


def build_parser() -> argparse.ArgumentParser:
    """The ``faultline fr`` argument parser."""
    p = argparse.ArgumentParser(prog="faultline fr", description="PyTorch Flight Recorder dumps")
    sub = p.add_subparsers(dest="action", required=True)
    imp = sub.add_parser("import", help="emit collective_progress from a directory of dumps")
    imp.add_argument("dir")
    imp.add_argument("--job-id", required=True)
    imp.add_argument("--cluster", default="default")
    imp.add_argument("--prefix", default=None, help="dump file prefix (TORCH_NCCL_DEBUG_INFO_TEMP_FILE's basename)")
    imp.add_argument("--node", action="append", default=[], metavar="RANK=NODE")
    imp.add_argument("--default-node", default="unknown")
    imp.add_argument("--time", default="mtime", help="mtime | last-activity | an RFC 3339 time")
    imp.add_argument("--output", "-o", default=None, help="JSON lines to FILE or - instead of Kafka")
    imp.add_argument("--bootstrap", default=None, help="Kafka bootstrap servers (env FAULTLINE_KAFKA_BOOTSTRAP)")
    imp.add_argument("--namespace", default=None, help="topic namespace (env FAULTLINE_NAMESPACE)")
    return p


def _send_all(dumps: list[DumpFile], args: argparse.Namespace, nodes: Mapping[int, str], sink: Sink) -> tuple[int, int]:
    sent = bad = 0
    for dump_file in dumps:
        try:
            events = import_dump(dump_file, args, nodes)
        except (DumpError, OSError, ValueError) as exc:
            print(f"{dump_file.path}: skipped: {exc}", file=sys.stderr)
            bad += 1
            continue
        for event in events:
            sink.send(event)
        sent += len(events)
    return sent, bad


def fr_main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run ``faultline fr`` with ``argv``; Kafka settings from flags, then ``env`` (os.environ)."""
    args = build_parser().parse_args(argv)
    try:
        nodes = parse_nodes(args.node)
        if args.time not in ("mtime", "last-activity"):
            parse_time(args.time)
        root = Path(args.dir)
        if not root.is_dir():
            raise ValueError(f"no such directory: {root}")
        dumps = find_dumps(root, args.prefix)
        if not dumps:
            raise ValueError(f"no dump files under {root}")
    except ValueError as exc:
        print(f"faultline fr: error: {exc}", file=sys.stderr)
        return 2
    kafka = None if args.output else kafka_from(os.environ if env is None else env, bootstrap=args.bootstrap,
                                                namespace=args.namespace)
    sink = open_sink(args.output, kafka)
    try:
        try:
            sent, bad = _send_all(dumps, args, nodes, sink)
        finally:
            sink.close()
    except (DeliveryError, OSError) as exc:
        print(f"faultline fr: events not delivered: {exc}", file=sys.stderr)
        return 1
    print(f"fr import: {len(dumps) - bad} dumps, {sent} collective_progress events, {bad} skipped", file=sys.stderr)
    return 1 if bad else 0
