"""``faultline jobs``: job lifecycle events from Slurm, Kubernetes, or one prolog/epilog call.

    faultline jobs slurm [--interval-s 5] [--once | --polls N] [--squeue PATH]
        [--job-id ID ...] [--name NAME ...] [--user U ...] [--partition P ...]
        [--ranks-per-node N] [--no-running] [--cluster C] [--output FILE|-]
    faultline jobs kubernetes --selector 'app=train' [--namespace NS] [--kubeconfig PATH]
        [--context CTX] [--in-cluster] [--job-label faultline.io/job-id] [--no-running]
        [--cluster C] [--output FILE|-]
    faultline jobs emit --job-id ID --kind KIND [--attempt N] [--nodes HOSTLIST]
        [--tasks N | --ranks-per-node N] [--step S] [--detail TEXT] [--time RFC3339]
        [--cluster C] [--output FILE|-]

Every subcommand also takes ``--bootstrap`` and ``--namespace`` (else ``FAULTLINE_*``
variables); ``--output`` writes JSON lines instead of producing to Kafka. ``--no-running``
leaves the ``running`` event to the training hook (``hooks.running``), which knows when
initialisation ended and which step training resumed from.

Exit status: 0 on a clean stop, 1 when the sink fails, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import types
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from pydantic import ValidationError

from producers.hooks.sinks import Sink, open_sink
from producers.kafka import DeliveryError
from producers.scheduler.lifecycle import LifecycleTracker, job_event_id
from producers.scheduler.slurm import JobFilter, placement_of, squeue_jobs
from producers.scheduler.watch import SlurmWatcher
from schemas import JobEvent, parse_time
from schemas.settings import kafka_from


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", default="default")
    p.add_argument("--output", "-o", default=None, help="JSON lines to FILE or - instead of Kafka")
    p.add_argument("--bootstrap", default=None, help="Kafka bootstrap servers (env FAULTLINE_KAFKA_BOOTSTRAP)")
    p.add_argument("--namespace", default=None, help="topic namespace (env FAULTLINE_NAMESPACE)")


def build_parser() -> argparse.ArgumentParser:
    """The ``faultline jobs`` argument parser."""
    p = argparse.ArgumentParser(prog="faultline jobs", description="job lifecycle events from the scheduler")
    sub = p.add_subparsers(dest="source", required=True)
    s = sub.add_parser("slurm", help="poll squeue --json")
    s.add_argument("--interval-s", type=float, default=5.0)
    s.add_argument("--once", action="store_true", help="one poll, then exit")
    s.add_argument("--polls", type=int, default=None, help="stop after N polls")
    s.add_argument("--squeue", default="squeue")
    for flag in ("--job-id", "--name", "--user", "--partition"):
        s.add_argument(flag, action="append", default=[])
    s.add_argument("--ranks-per-node", type=int, default=None, help="ranks per node (default: the job's tasks)")
    s.add_argument("--no-running", action="store_true")
    _common(s)
    k = sub.add_parser("kubernetes", help="watch Pods and Jobs of a label selector")
    k.add_argument("--selector", required=True)
    k.add_argument("--kube-namespace", dest="kube_namespace", default=None, help="Kubernetes namespace (default: all)")
    k.add_argument("--kubeconfig", default=None)
    k.add_argument("--context", default=None)
    k.add_argument("--in-cluster", action="store_true")
    k.add_argument("--job-label", default="faultline.io/job-id")
    k.add_argument("--no-running", action="store_true")
    _common(k)
    e = sub.add_parser("emit", help="one job_event (from a prolog or epilog)")
    e.add_argument("--job-id", required=True)
    e.add_argument("--kind", required=True)
    e.add_argument("--attempt", type=int, default=0)
    e.add_argument("--nodes", default="", help="Slurm hostlist, e.g. $SLURM_JOB_NODELIST")
    e.add_argument("--tasks", type=int, default=None)
    e.add_argument("--ranks-per-node", type=int, default=None)
    e.add_argument("--step", type=int, default=None)
    e.add_argument("--detail", default=None)
    e.add_argument("--time", default=None, help="RFC 3339 event time (default: now)")
    _common(e)
    return p


def _sink(args: argparse.Namespace, env: Mapping[str, str]) -> Sink:
    kafka = None if args.output else kafka_from(env, bootstrap=args.bootstrap, namespace=args.namespace)
    return open_sink(args.output, kafka)


def emit_event(args: argparse.Namespace, now: datetime) -> JobEvent:
    """The job_event of ``faultline jobs emit``; ValueError/ValidationError when invalid."""
    placement = placement_of(args.nodes, args.tasks, args.ranks_per_node) if args.nodes else ()
    return JobEvent(event_id=job_event_id(args.cluster, args.job_id, args.attempt, args.kind),
                    event_time=parse_time(args.time) if args.time else now, cluster=args.cluster,
                    job_id=args.job_id, attempt=args.attempt, kind=args.kind, placement=placement,
                    step=args.step, detail=args.detail)


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()

    def handler(signum: int, frame: types.FrameType | None) -> None:
        stop.set()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)
        signal.signal(signal.SIGINT, handler)
    return stop


def _slurm(args: argparse.Namespace, sink: Sink) -> int:
    job_filter = JobFilter(frozenset(args.job_id), frozenset(args.name), frozenset(args.user),
                           frozenset(args.partition))
    tracker = LifecycleTracker(args.cluster, emit_running=not args.no_running)
    watcher = SlurmWatcher(tracker, sink, lambda: squeue_jobs(args.squeue), job_filter, args.ranks_per_node)
    watcher.run(args.interval_s, _stop_on_signals(), max_polls=1 if args.once else args.polls)
    st = watcher.stats
    print(f"jobs slurm: {st.polls} polls, {st.events} events, {st.bad_records} bad records, "
          f"{st.poll_errors} failed polls, {tracker.vanished} jobs vanished", file=sys.stderr)
    return 0


def _kubernetes(args: argparse.Namespace, sink: Sink) -> int:
    from kubernetes.config import ConfigException

    from producers.scheduler.kube_client import KubeConnection, api_sources, run_watch
    from producers.scheduler.kubernetes import KubeSettings, KubeState, KubeTranslator

    conn = KubeConnection(label_selector=args.selector, namespace=args.kube_namespace, kubeconfig=args.kubeconfig,
                          context=args.context, in_cluster=args.in_cluster)
    try:
        sources = api_sources(conn)
    except ConfigException as exc:
        print(f"faultline jobs kubernetes: error: {exc}", file=sys.stderr)
        return 2
    translator = KubeTranslator(KubeState(KubeSettings(job_label=args.job_label)),
                                LifecycleTracker(args.cluster, emit_running=not args.no_running))
    stats = run_watch(dict(sources), translator, sink, _stop_on_signals())
    print("jobs kubernetes: " + ", ".join(f"{k}: {s.lists} lists, {s.gone} x 410, {s.events} events"
                                          for k, s in stats.items()), file=sys.stderr)
    return 0


def jobs_main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run ``faultline jobs`` with ``argv``; Kafka settings from flags, then ``env`` (os.environ)."""
    args = build_parser().parse_args(argv)
    event = None
    if args.source == "emit":
        try:
            event = emit_event(args, datetime.now(UTC))
        except (ValueError, ValidationError) as exc:
            print(f"faultline jobs emit: error: {exc}", file=sys.stderr)
            return 2
    sink = _sink(args, os.environ if env is None else env)
    try:
        try:
            if event is not None:
                sink.send(event)
                return 0
            return _slurm(args, sink) if args.source == "slurm" else _kubernetes(args, sink)
        finally:
            sink.close()
    except (DeliveryError, OSError) as exc:
        print(f"faultline jobs: events not delivered: {exc}", file=sys.stderr)
        return 1
