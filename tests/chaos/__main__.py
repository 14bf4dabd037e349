"""``python -m tests.chaos [--scenario NAME ...]``: run the chaos scenarios, print the table.

A broker is started for the run (on a fixed free port, so a restarted broker comes back on the
same address) unless ``FAULTLINE_TEST_KAFKA_BOOTSTRAP`` names one (then ``broker-restart`` is
skipped: the harness may only stop a broker it owns). Scenarios run one at a time, each on a
fresh topic namespace. Exit status 0 only when every scenario met its targets.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import traceback
import uuid
from contextlib import ExitStack
from pathlib import Path

from deploy.local_kafka import LauncherError, LocalKafka, LocalKafkaSettings, create_registry_topics, free_port
from schemas.settings import KafkaSettings
from tests.chaos.harness import stop_all
from tests.chaos.scenarios import SCENARIOS, Env, Row, fuzz_run

HEADER = ("scenario", "events in", "derived s/r", "lost", "extra", "dup", "changed", "dead letters", "crashes",
          "recovery s", "result")


def cells(row: Row) -> tuple[str, ...]:
    recovery = "-" if row.recovery_s is None else f"{row.recovery_s:.1f}"
    return (row.scenario, str(row.events_in), f"{row.streamed}/{row.replayed}", str(row.lost), str(row.extra),
            str(row.duplicated), str(row.changed), str(row.dead_letters), str(row.crashes), recovery,
            "PASS" if row.passed else "FAIL")


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table, followed by each row's notes and failed checks."""
    lines = [HEADER, *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    for row in rows:
        for item in [*(f"FAILED CHECK: {f}" for f in row.failures), *row.notes]:
            text.append(f"  {row.scenario}: {item}")
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.chaos", description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS),
                        help="run only this scenario (repeatable); default: all")
    parser.add_argument("--speed", type=float, default=5.0, help="event-time pace of the feed (x real time)")
    parser.add_argument("--fuzz-count", type=int, default=10_000)
    args = parser.parse_args(argv)
    names = args.scenario or list(SCENARIOS)
    rows: list[Row] = []
    with ExitStack() as stack:
        workroot = Path(tempfile.mkdtemp(prefix="chaos-"))  # kept: the process logs are the evidence
        print(f"[chaos] logs and data in {workroot}", file=sys.stderr, flush=True)
        bootstrap = os.environ.get("FAULTLINE_TEST_KAFKA_BOOTSTRAP")
        broker = None
        if not bootstrap:
            broker = _broker(workroot / "kafka")
            stack.callback(broker.stop)
            bootstrap = broker.bootstrap
        for name in names:
            if name == "broker-restart" and broker is None:
                print("skipping broker-restart: the broker is not ours to stop", file=sys.stderr)
                continue
            kafka = KafkaSettings(bootstrap_servers=bootstrap, namespace=f"c{uuid.uuid4().hex[:8]}.")
            create_registry_topics(kafka, f"{kafka.namespace}pipeline")
            workdir = workroot / name
            workdir.mkdir()
            env = Env(kafka=kafka, workdir=workdir, broker=broker, speed=args.speed)
            print(f"[chaos] {name} ...", file=sys.stderr, flush=True)
            try:
                row = fuzz_run(env, count=args.fuzz_count) if name == "fuzz" else SCENARIOS[name](env)
            except Exception as exc:  # noqa: BLE001 - one broken scenario must not hide the others' rows
                row = Row(name, failures=[f"harness error: {exc!r}"])
                traceback.print_exc()
            finally:
                stop_all()
            rows.append(row)
            print(table([row]), file=sys.stderr, flush=True)
    print(table(rows))
    return 0 if rows and all(r.passed for r in rows) else 1


def _broker(data_dir: Path, attempts: int = 3) -> LocalKafka:
    """A local broker on fixed ports. Retried: ``kafka-storage format`` rejects a random cluster
    id that begins with '-' (deploy/local_kafka.py `_cluster_id`, about 1 start in 64)."""
    for attempt in range(1, attempts + 1):
        broker = LocalKafka(LocalKafkaSettings(port=free_port(), controller_port=free_port(), data_dir=data_dir))
        try:
            return broker.start()
        except LauncherError:
            if attempt == attempts:
                raise
            shutil.rmtree(data_dir, ignore_errors=True)
    raise AssertionError("unreachable")


if __name__ == "__main__":
    raise SystemExit(main())
