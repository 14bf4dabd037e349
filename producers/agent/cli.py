"""``faultline agent``: build the settings once, assemble collectors and output, run.

Settings come from ``--config FILE`` (YAML, the :class:`AgentSettings` field names), then
flags (which win). Kafka connection settings come from ``--bootstrap``/``--namespace`` or
the ``FAULTLINE_*`` variables (schemas.settings.kafka_from), read here and nowhere else.
Every flag is documented in docs/agent.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import IO, Any

import yaml

from producers.agent.base import Collector
from producers.agent.dcgm import DcgmScraper
from producers.agent.journald import JournaldCollector
from producers.agent.kmsg import KmsgCollector
from producers.agent.metrics import AgentMetrics
from producers.agent.nvml import GpuCollector, NvmlDevices, load_nvml
from producers.agent.output import JsonLinesOutput, KafkaOutput, Output
from producers.agent.rdma import NetCollector
from producers.agent.runner import Runner
from producers.agent.settings import AgentSettings
from producers.agent.spool import Spool
from producers.agent.stacks import StackCollector
from producers.agent.tail import LogTailer
from producers.agent.xid import XidWatcher
from schemas.settings import KafkaSettings, kafka_from

log = logging.getLogger("faultline.agent")

# flag dest -> AgentSettings field, for flags given on the command line
_FIELDS = {
    "node_id": "node_id", "cluster": "cluster", "host_root": "host_root", "state_dir": "state_dir",
    "gpu_interval": "gpu_interval_s", "net_interval": "net_interval_s", "stack_interval": "stack_interval_s",
    "poll_interval": "tail_poll_s", "kmsg": "kmsg", "kmsg_path": "kmsg_path", "log_dir": "log_dirs",
    "job_id": "job_id", "node_rank": "node_rank", "nproc_per_node": "nproc_per_node",
    "stack_match": "stack_match", "stack_trigger_file": "stack_trigger_file", "py_spy": "py_spy",
    "dcgm_exporter_url": "dcgm_exporter_url", "metrics_port": "metrics_port",
    "spool_max_bytes": "spool_max_bytes", "spool_fsync": "spool_fsync",
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="faultline agent", description="Per-node telemetry agent (docs/agent.md).")
    p.add_argument("--config", type=Path, help="YAML file of AgentSettings fields (flags override it)")
    p.add_argument("--node-id", help="this node's id (default: the host name)")
    p.add_argument("--cluster", help="cluster name (default: default)")
    p.add_argument("--host-root", type=Path, help="read /sys, /proc, /dev/kmsg under this root (e.g. /host)")
    p.add_argument("--state-dir", type=Path, help="spool and read positions (default /var/lib/faultline-agent)")
    p.add_argument("--once", action="store_true", help="one round of every collector, then exit")
    p.add_argument("--output", help="write JSON lines of v1 events to FILE ('-' = stdout) instead of Kafka")
    p.add_argument("--bootstrap", help="Kafka bootstrap servers (env FAULTLINE_KAFKA_BOOTSTRAP)")
    p.add_argument("--namespace", help="topic namespace prefix (env FAULTLINE_NAMESPACE)")
    p.add_argument("--gpu-interval", type=float, help="seconds between GPU samples (5)")
    p.add_argument("--net-interval", type=float, help="seconds between RDMA samples (5)")
    p.add_argument("--stack-interval", type=float, help="seconds between stack dumps (30)")
    p.add_argument("--poll-interval", type=float, help="seconds between polls of kmsg/logs/Xid queue (0.5)")
    for name in ("gpu", "xid", "net", "stacks"):
        p.add_argument(f"--no-{name}", action="store_true", help=f"disable the {name} collector")
    p.add_argument("--kmsg", choices=["kmsg", "journald", "off"], help="kernel log source (kmsg)")
    p.add_argument("--kmsg-path", type=Path, help="kernel log device or a file/FIFO in its format")
    p.add_argument("--log-dir", type=Path, action="append", help="torchrun --log-dir root to tail (repeatable)")
    p.add_argument("--job-id", help="job id of this node's training job")
    p.add_argument("--node-rank", type=int, help="torchrun node rank (for global ranks)")
    p.add_argument("--nproc-per-node", type=int, help="torchrun processes per node (for global ranks)")
    p.add_argument("--stack-match", action="append", help="cmdline substring of training processes (repeatable)")
    p.add_argument("--stack-trigger-file", type=Path, help="dump stacks when this file appears")
    p.add_argument("--py-spy", help="py-spy executable (default: py-spy on PATH)")
    p.add_argument("--dcgm-exporter-url", help="dcgm-exporter /metrics URL for SM activity without GPM")
    p.add_argument("--metrics-port", type=int, help="Prometheus /metrics port (9403; 0 disables)")
    p.add_argument("--spool-max-bytes", type=int, help="bound of the on-disk spool (256 MiB)")
    p.add_argument("--spool-fsync", choices=["always", "interval", "never"], help="spool fsync policy (interval)")
    p.add_argument("--loglevel", default="info", choices=["debug", "info", "warning", "error"])
    return p


def settings_from(args: argparse.Namespace) -> AgentSettings:
    """The agent settings: YAML config, then flags, then defaults."""
    values: dict[str, Any] = {}
    if args.config is not None:
        values.update(yaml.safe_load(args.config.read_text()) or {})
    for dest, field in _FIELDS.items():
        given = getattr(args, dest)
        if given is not None:
            values[field] = tuple(given) if isinstance(given, list) else given
    for name in ("gpu", "net", "stacks"):
        if getattr(args, f"no_{name}"):
            values[name] = False
    if args.no_xid:
        values["xid_events"] = False
    if values.get("metrics_port") == 0:
        values["metrics_port"] = None
    values.setdefault("node_id", socket.gethostname())
    return AgentSettings(**values)


def build_collectors(settings: AgentSettings, metrics: AgentMetrics, once: bool = False) -> list[Collector]:
    """The enabled collectors (continuous-only sources are left out of ``--once``)."""
    out: list[Collector] = []
    if settings.gpu or settings.xid_events:
        devices = NvmlDevices(load_nvml())
        dcgm = DcgmScraper(settings.dcgm_exporter_url, metrics) if settings.dcgm_exporter_url else None
        if settings.gpu:
            out.append(GpuCollector(settings, metrics, devices, dcgm))
        if settings.xid_events and not once:
            out.append(XidWatcher(settings, metrics, devices))
    if settings.net:
        out.append(NetCollector(settings, metrics))
    if settings.kmsg == "kmsg":
        out.append(KmsgCollector(settings, metrics))
    elif settings.kmsg == "journald" and not once:
        out.append(JournaldCollector(settings, metrics))
    if settings.log_dirs:
        out.append(LogTailer(settings, metrics))
    if settings.stacks:
        out.append(StackCollector(settings, metrics))
    return out


def build_output(args: argparse.Namespace, settings: AgentSettings, metrics: AgentMetrics) -> Output:
    if args.output is not None:
        stream: IO[bytes] = sys.stdout.buffer if args.output == "-" else open(args.output, "ab")  # noqa: SIM115
        return JsonLinesOutput(stream, metrics, owned=args.output != "-")
    kafka: KafkaSettings = kafka_from(os.environ, bootstrap=args.bootstrap, namespace=args.namespace)
    spool = Spool(settings.spool_dir, metrics, max_bytes=settings.spool_max_bytes,
                  segment_bytes=settings.spool_segment_bytes, fsync=settings.spool_fsync,
                  fsync_interval_s=settings.spool_fsync_interval_s)
    return KafkaOutput(kafka, spool, metrics, send_batch=settings.send_batch)


def agent_main(argv: list[str] | None = None) -> int:
    """Entry point of ``faultline agent``; returns the process exit code."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.loglevel.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = settings_from(args)
    metrics = AgentMetrics()
    collectors = build_collectors(settings, metrics, once=args.once)
    output = build_output(args, settings, metrics)
    runner = Runner(collectors, output, metrics, backoff_initial_s=settings.backoff_initial_s,
                    backoff_max_s=settings.backoff_max_s)
    try:
        if args.once:
            return _once(runner)
        if settings.metrics_port is not None:
            metrics.serve(settings.metrics_port)
        _daemon(runner, collectors)
        return 0
    finally:
        # Stop every thread first (the Xid watcher uses NVML), then release resources.
        for method in ("stop", "close"):
            for collector in collectors:
                if hasattr(collector, method):
                    getattr(collector, method)()
        output.close()


def _once(runner: Runner) -> int:
    started = time.monotonic()
    failed = runner.run_once()
    log.info("one round in %.1f ms, %d collector(s) failed", (time.monotonic() - started) * 1000, failed)
    return 1 if failed == len(runner.collectors) and failed else 0


def _daemon(runner: Runner, collectors: list[Collector]) -> None:
    stop = threading.Event()

    def on_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    def on_usr1(signum: int, frame: FrameType | None) -> None:
        for collector in collectors:
            if isinstance(collector, StackCollector):
                collector.request()

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGUSR1, on_usr1)
    log.info("agent running: %s", ", ".join(f"{c.name}/{c.interval_s:g}s" for c in collectors))
    runner.run(stop)


def main() -> None:
    raise SystemExit(agent_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
