"""``faultline sink``: run the ClickHouse sink of the derived topics until stopped."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Mapping

from schemas.settings import kafka_from
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.sink import ClickHouseSink, SinkCounters, tune_gc_for_batches


def _progress(counters: SinkCounters) -> None:
    if counters.flushes % 20 == 1:
        print(f"sink: consumed {counters.consumed} inserted {counters.inserted} "
              f"dead-lettered {counters.dead_lettered} retries {counters.retries}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Consume every derived topic into ClickHouse; SIGINT/SIGTERM flush, commit and exit 0."""
    env = os.environ if env is None else env
    parser = argparse.ArgumentParser(prog="faultline sink", description=__doc__)
    parser.add_argument("--bootstrap")
    parser.add_argument("--namespace")
    parser.add_argument("--dsn", default=env.get("FAULTLINE_CLICKHOUSE_DSN"))
    parser.add_argument("--group-id", default=None, help="consumer group (default '<namespace>clickhouse-sink')")
    parser.add_argument("--idle-exit-s", type=float, default=None, help="exit after this long without messages")
    parser.add_argument("--session-timeout-ms", type=int, default=10_000,
                        help="how soon the group hands a crashed sink's partitions on (default 10000)")
    parser.add_argument("--instance-id", default=None,
                        help="static group membership: unique per sink (e.g. the host name); a restarted "
                        "sink with the same id resumes at once")
    args = parser.parse_args(argv)
    kafka = kafka_from(env, bootstrap=args.bootstrap, namespace=args.namespace)
    ch = ClickHouseSettings(dsn=args.dsn) if args.dsn else ClickHouseSettings()
    tune_gc_for_batches()  # this process only runs the sink
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    sink = ClickHouseSink(kafka, ch, args.group_id or f"{kafka.namespace}clickhouse-sink",
                          session_timeout_ms=args.session_timeout_ms, instance_id=args.instance_id)
    print(f"sink: {kafka.bootstrap_servers} ({kafka.namespace}*) -> {ch.dsn}", file=sys.stderr, flush=True)
    counters = sink.run(stop=stop, idle_exit_s=args.idle_exit_s, progress=_progress)
    print(f"sink: stopped after inserting {counters.inserted} rows "
          f"({counters.dead_lettered} dead-lettered)", file=sys.stderr, flush=True)
    return 0
