"""The ``faultline`` command: one entry point that builds settings once and dispatches.

Connection settings come from flags, else from ``FAULTLINE_*`` environment variables,
read here and nowhere else:

    FAULTLINE_KAFKA_BOOTSTRAP      host:port[,host:port]       (default 127.0.0.1:9092)
    FAULTLINE_NAMESPACE            topic prefix                (default "faultline.")
    FAULTLINE_KAFKA_SECURITY_PROTOCOL, FAULTLINE_KAFKA_SASL_MECHANISM,
    FAULTLINE_KAFKA_SASL_USERNAME, FAULTLINE_KAFKA_SASL_PASSWORD[_FILE], FAULTLINE_KAFKA_SSL_CA,
    FAULTLINE_KAFKA_SSL_CERT, FAULTLINE_KAFKA_SSL_KEY, FAULTLINE_KAFKA_SSL_KEY_PASSWORD[_FILE],
    FAULTLINE_KAFKA_SSL_CHECK_HOSTNAME                          (docs/security.md)
    FAULTLINE_KAFKA_PARTITIONS     partitions of every topic it creates        (default 6)
    FAULTLINE_KAFKA_REPLICATION_FACTOR  replication of every topic it creates  (default 1)
    FAULTLINE_CLICKHOUSE_DSN       chdb:///path or http(s)://user:pass@host:8123/db
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from schemas.settings import KafkaSettings, kafka_from

Command = Callable[[argparse.Namespace, list[str]], int]


def kafka_settings(args: argparse.Namespace, env: Mapping[str, str]) -> KafkaSettings:
    """Kafka settings from the global flags, then the environment."""
    return kafka_from(env, bootstrap=args.bootstrap, namespace=args.namespace)


def _worker(args: argparse.Namespace, rest: list[str]) -> int:
    from streams.app import run_worker
    from streams.settings import WorkerSettings

    kafka = kafka_settings(args, os.environ)
    limit = {} if args.state_single_max_bytes is None else {"state_single_max_bytes": args.state_single_max_bytes}
    run_worker(WorkerSettings(kafka=kafka, loglevel=args.loglevel, app_id=args.app_id, instance_id=args.instance_id,
                              processing_guarantee=args.processing_guarantee, **limit))
    return 0


def _replay(args: argparse.Namespace, rest: list[str]) -> int:
    from streams.replay import TerminalProgress, replay

    paths = [Path(p) for p in args.events]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"error: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    progress = TerminalProgress(sum(p.stat().st_size for p in paths))
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    try:
        with out:
            result = replay(paths, out, progress=progress, window_s=args.window_s)
    finally:
        progress.close()
    print(f"replay: {result.events} events ({result.late} late), {result.dead_letters} dead letters, "
          f"{result.derived} derived events", file=sys.stderr)
    return 0


def _produce(args: argparse.Namespace, rest: list[str]) -> int:
    from producers.replay_file import produce_file

    count = produce_file(Path(args.events), kafka_settings(args, os.environ), speed=args.speed)
    print(f"produced {count} events", file=sys.stderr)
    return 0


def _topics(args: argparse.Namespace, rest: list[str]) -> int:
    from streams.topics import topics_main

    return topics_main(rest, kafka_settings(args, os.environ))


def _delegate(target: str) -> Command:
    """A subcommand implemented elsewhere as ``main(argv) -> int``."""
    def run(args: argparse.Namespace, rest: list[str]) -> int:
        module, _, func = target.partition(":")
        import importlib

        return int(getattr(importlib.import_module(module), func)(rest))
    return run


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="faultline", description="Streaming fault analytics for GPU training fleets.")
    parser.add_argument("--bootstrap", help="Kafka bootstrap servers (env FAULTLINE_KAFKA_BOOTSTRAP)")
    parser.add_argument("--namespace", help="topic namespace prefix (env FAULTLINE_NAMESPACE)")
    sub = parser.add_subparsers(dest="command", required=True)
    worker = sub.add_parser("worker", help="run the Faust worker of the pipeline")
    worker.add_argument("--loglevel", default="warn", choices=["crit", "error", "warn", "info", "debug"])
    worker.add_argument("--app-id", default=None, help="Faust app id / consumer group")
    worker.add_argument("--processing-guarantee", default="effectively_once",
                        choices=["effectively_once", "at_least_once"],
                        help="at_least_once only to measure what the default guarantee costs")
    worker.add_argument("--instance-id", default=None,
                        help="static group membership id, unique per worker (fast rejoin after a restart)")
    worker.add_argument("--state-single-max-bytes", type=int, default=None,
                        help="a key's state whose JSON is longer is stored in parts (default 524288, the most)")
    rep = sub.add_parser("replay", help="run the detection chain over JSON-lines files of events (.gz too)")
    rep.add_argument("events", nargs="+")
    rep.add_argument("--output", "-o", default="-")
    rep.add_argument("--window-s", type=float, default=300.0,
                     help="event-time disorder tolerated within one file (default 300 s)")
    prod = sub.add_parser("produce", help="publish a JSON-lines file of events to Kafka")
    prod.add_argument("events")
    prod.add_argument("--speed", type=float, default=None,
                      help="pace events at this multiple of real time (default: as fast as possible)")
    sub.add_parser("topics", help="create the pipeline's topics: 'faultline topics create [--app-id ID]'",
                   add_help=False)
    for name, help_text in DELEGATED_HELP.items():
        sub.add_parser(name, help=help_text, add_help=False)
    return parser


DELEGATED: dict[str, str] = {
    "simulate": "producers.simulator.cli:main",
    "classify": "streams.cli:classify_command",
    "kb": "streams.cli:kb_command",
    "sql": "streams.cli:sql_command",
    "sink": "sinks.clickhouse.cli:main",
    "actuate": "sinks.actuators.cli:actuate_main",
    "kafka": "deploy.local_kafka:main",
    "demo": "deploy.demo:main",
    "agent": "producers.agent.cli:agent_main",
    "jobs": "producers.scheduler.cli:jobs_main",
    "fr": "producers.hooks.cli:fr_main",
    "ett": "streams.cli:ett_command",
    "load": "streams.cli:load_command",
    "report": "dashboards.cli:report_main",
    "dashboards": "dashboards.cli:dashboards_main",
}
DELEGATED_HELP = {
    "simulate": "simulate a fleet with injected faults (events + ground truth)",
    "classify": "classify raw log lines from stdin, one JSON object per line",
    "kb": "knowledge base tools: 'faultline kb check', 'faultline kb learn'",
    "sql": "ad-hoc SQL on the ClickHouse store (works while the pipeline runs)",
    "sink": "run the ClickHouse sink of the derived topics",
    "actuate": "run an actuator on the decisions topic",
    "kafka": "local Kafka broker: up | down | status",
    "demo": "the whole pipeline on a simulated fleet",
    "agent": "the per-node agent: GPU, RDMA, kernel log, training logs, stacks -> Kafka",
    "jobs": "job lifecycle events from Slurm, Kubernetes or a prolog/epilog ('emit')",
    "fr": "PyTorch Flight Recorder dumps -> collective_progress ('fr import DIR')",
    "ett": "effective training time: 'ett report --dsn ...', 'ett model ...'",
    "load": "load a replay's derived events into ClickHouse (idempotent)",
    "report": "a self-contained HTML report of the fleet (from a DSN or a replay's output)",
    "dashboards": "Grafana dashboards: 'export DIR' (file provisioning) or 'push'",
}
COMMANDS: dict[str, Command] = {"worker": _worker, "replay": _replay, "produce": _produce, "topics": _topics}
PASS_THROUGH = frozenset({"topics"})
"""Native commands that parse the rest of the command line themselves."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``faultline`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if args.command in DELEGATED:
        rest = argv[argv.index(args.command) + 1:]
        _export_global_flags(args)
        return _delegate(DELEGATED[args.command])(args, rest)
    if args.command in PASS_THROUGH:
        rest = argv[argv.index(args.command) + 1:]
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return COMMANDS[args.command](args, rest)


def _export_global_flags(args: argparse.Namespace) -> None:
    """Hand ``faultline --bootstrap X --namespace Y <command>`` to a delegated command through
    the ``FAULTLINE_*`` variables every command reads at its entry point."""
    if args.bootstrap:
        os.environ["FAULTLINE_KAFKA_BOOTSTRAP"] = args.bootstrap
    if args.namespace:
        os.environ["FAULTLINE_NAMESPACE"] = args.namespace


def classify_command(argv: list[str]) -> int:
    """``faultline classify [--source S] [--kb PATH] [--learned PATH | --no-learned]``: stdin
    lines -> JSON lines."""
    from streams.classify.cli import classify_main

    parser = argparse.ArgumentParser(prog="faultline classify")
    parser.add_argument("--source", default="training", choices=["training", "nccl", "kernel", "system"])
    parser.add_argument("--kb", default=None, help="knowledge base YAML (default: the built-in one)")
    parser.add_argument("--learned", default=None, help="learned fallback model (default: the built-in one)")
    parser.add_argument("--no-learned", action="store_true", help="rules only: no learned fallback")
    args = parser.parse_args(argv)
    return classify_main(sys.stdin, sys.stdout, source=args.source, kb_path=args.kb,
                         learned_path=args.learned, learned=not args.no_learned)


def kb_command(argv: list[str]) -> int:
    """``faultline kb check [--kb PATH]``: validate the knowledge base; ``faultline kb learn
    [--corpus PATH] [--out PATH]``: train the learned fallback on labelled lines."""
    from streams.classify.cli import kb_check_main, kb_learn_main
    from streams.classify.learn import DEFAULT_C, DEFAULT_CORPORA, DEFAULT_THRESHOLD
    from streams.classify.learned import DEFAULT_PATH

    parser = argparse.ArgumentParser(prog="faultline kb")
    parser.add_argument("action", choices=["check", "learn"])
    parser.add_argument("--kb", default=None)
    parser.add_argument("--corpus", action="append", default=None,
                        help="learn: JSON lines with line, source and category (null: benign); repeatable "
                             f"(default: {' and '.join(DEFAULT_CORPORA)})")
    parser.add_argument("--out", default=str(DEFAULT_PATH), help="learn: the model file to write (.json or .json.gz)")
    parser.add_argument("--c", type=float, default=DEFAULT_C, help="learn: inverse regularisation")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="learn: probability of a fault at or above which a line gets the model's category")
    args = parser.parse_args(argv)
    if args.action == "learn":
        corpora = args.corpus or list(DEFAULT_CORPORA)
        return kb_learn_main(sys.stdout, corpora, args.out, c=args.c, threshold=args.threshold, kb_path=args.kb)
    return kb_check_main(sys.stdout, kb_path=args.kb)


def ett_command(argv: list[str]) -> int:
    """``faultline ett report|model ...``, with the DSN from flags or the environment."""
    from sinks.clickhouse.ett_cli import ett_main

    return ett_main(argv, os.environ)


def load_command(argv: list[str]) -> int:
    """``faultline load DERIVED.jsonl [--dsn ...]``, with the DSN from flags or the environment."""
    from sinks.clickhouse.load import load_main

    return load_main(argv, os.environ)


def sql_command(argv: list[str]) -> int:
    """``faultline sql "SELECT ..."``, with the DSN from flags or the environment."""
    from sinks.clickhouse.query import sql_main

    return sql_main(argv, os.environ)


if __name__ == "__main__":
    raise SystemExit(main())
