"""The Faust topology: every topic -> agent -> topic edge of the pipeline, in one place.

    telemetry.log + telemetry.kernel ---------- classify ---------> faults.classified
    jobs.lifecycle ------------------------------ placements -----> (global table node -> job)
    telemetry.gpu + telemetry.net + faults ------ route ----------> jobs.feed (re-keyed by job)
    telemetry.log/stack/collective, jobs.lifecycle/progress, jobs.feed
                                          ------ jobs (reorder -> hang -> slow -> policy)
                                                   -> hangs.votes, hangs.verdicts, nodes.outliers,
                                                      decisions.proposed (re-keyed by cluster)
    decisions.proposed -------------------------- guards ---------> decisions

Agents only decode, load state, call the pure core, store state and emit; the same core
runs in ``faultline replay`` (streams.core.chain.Chain).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, MutableMapping
from datetime import timedelta
from typing import Any

import faust
from faust.types import TableT

from schemas import Decision, Event, HangVote, JobEvent
from schemas.settings import KafkaSettings
from streams import detectors
from streams.core.routing import Placements, classify_key, job_of
from streams.settings import WorkerSettings
from streams.shell import Message, Shell, StageStats, StateTable

log = logging.getLogger("faultline.streams")

STATE_EVERY_S = 10.0
"""Event-time seconds between state checkpoints of a key that emitted nothing new."""

MAX_MESSAGE_BYTES = 8 * 1024 * 1024
"""Largest changelog message (a big job's compressed state); set on the changelog topics too."""


def build_app(settings: WorkerSettings) -> faust.App:
    """A Faust app with every agent of the pipeline wired to the registry's topics."""
    datadir = settings.data_dir / settings.resolved_app_id
    datadir.mkdir(parents=True, exist_ok=True)
    app = faust.App(
        settings.resolved_app_id,
        broker=f"kafka://{settings.kafka.bootstrap_servers}",
        broker_credentials=_credentials(settings.kafka),
        store="memory://",
        datadir=str(datadir),
        topic_partitions=6,
        web_enabled=False,
        producer_acks=-1,
        producer_max_request_size=MAX_MESSAGE_BYTES,
    )
    shell = Shell(app, settings.kafka)
    _wire(app, shell, settings)
    return app


def _credentials(kafka: KafkaSettings) -> Any:
    if kafka.sasl_mechanism is None:
        return None
    password = kafka.sasl_password.get_secret_value() if kafka.sasl_password else ""
    return faust.SASLCredentials(username=kafka.sasl_username, password=password,
                                 mechanism=kafka.sasl_mechanism)


def _table(app: faust.App, name: str) -> TableT[Any, Any]:
    # Keys and values are text (values: a detector's state as JSON); the changelog keeps them.
    return app.Table(name, default=None, key_type=str, value_type=str, partitions=6)


def _wire(app: faust.App, shell: Shell, settings: WorkerSettings) -> None:
    det = settings.detection
    classify = StateTable(_table(app, "classify-state"), detectors.classifier(det), STATE_EVERY_S)
    jobs = StateTable(_table(app, "job-state"), detectors.job_pipeline(det), STATE_EVERY_S)
    guard = StateTable(_table(app, "guard-state"), detectors.guards(det), 0.0)
    placements = app.GlobalTable("placements", default=None, key_type=str, value_type=str, partitions=6)

    async def on_log(event: Event, message: Message) -> None:
        key = classify_key(event)
        if key is None:
            return
        state, faults = classify.detector.step(classify.get(key), event)
        classify.put(key, state, event.event_time, changed=bool(faults))
        for fault in faults:
            await shell.emit(fault)

    async def on_lifecycle(event: Event, message: Message) -> None:
        if isinstance(event, JobEvent):
            Placements(_TextView(placements)).observe(event)

    node_jobs = Placements(_TextView(placements))

    async def on_node_event(event: Event, message: Message) -> None:
        job = job_of(event, node_jobs)
        if job is not None:
            await shell.forward("jobs.feed", job, message.value)

    async def on_job_event(event: Event, message: Message) -> None:
        job = message.key if message.topic == shell.kafka.topic("jobs.feed") else job_of(event, Placements())
        if not job:
            return
        state, outputs = jobs.detector.step(jobs.get(job), event)
        # votes come every few seconds; checkpoint on real findings or when due
        jobs.put(job, state, event.event_time, changed=any(not isinstance(o, HangVote) for o in outputs))
        for out in outputs:
            if isinstance(out, Decision):
                await shell.emit(out, topic="decisions.proposed", key=out.cluster)
            else:
                await shell.emit(out)

    async def on_proposal(event: Event, message: Message) -> None:
        state, decided = guard.detector.step(guard.get(event.cluster), event)
        guard.put(event.cluster, state, event.event_time, changed=True)
        for decision in decided:
            await shell.emit(decision)

    edges = [
        ("classify", ("telemetry.log", "telemetry.kernel"), on_log),
        ("placements", ("jobs.lifecycle",), on_lifecycle),
        ("route", ("telemetry.gpu", "telemetry.net", "faults.classified"), on_node_event),
        ("jobs", ("telemetry.log", "telemetry.stack", "telemetry.collective", "jobs.lifecycle",
                  "jobs.progress", "jobs.feed"), on_job_event),
        ("guards", ("decisions.proposed",), on_proposal),
    ]
    for stage, sources, handler in edges:
        _agent(app, shell, stage, sources, handler)

    @app.on_partitions_revoked.connect
    def _revoked(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        for table in (classify, jobs, guard):
            table.forget()

    @app.timer(det.classify.quiet_s / 6)
    async def _close_quiet_bursts() -> None:
        # Bursts also close when their key falls silent: advance them to the stage's
        # event-time watermark (latest event time seen, less the allowed lateness).
        latest = shell.stats.get("classify", StageStats()).max_event_time
        if latest is None:
            return
        watermark = latest - timedelta(seconds=det.lateness_s)
        for key in list(classify.cache):
            state, faults = classify.detector.flush(classify.cache[key], watermark)
            classify.cache[key] = state
            for fault in faults:
                await shell.emit(fault)

    @app.timer(settings.stats_interval_s)
    async def _stats() -> None:
        log.warning("stats: %s", shell.summary())


class _TextView(MutableMapping[str, str]):
    """A str -> str view of a Faust table in which an empty value means "absent"."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def __getitem__(self, key: str) -> str:
        raw = self.table.get(key)
        if not raw:
            raise KeyError(key)
        return str(raw)

    def __setitem__(self, key: str, value: str) -> None:
        self.table[key] = value

    def __delitem__(self, key: str) -> None:
        self.table[key] = ""

    def __iter__(self) -> Iterator[str]:
        return (k for k, v in self.table.items() if v)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _agent(app: faust.App, shell: Shell, stage: str, sources: tuple[str, ...], handler: Any) -> None:
    async def agent(stream: Any) -> None:
        await shell.consume(stage, stream, handler)

    agent.__name__ = agent.__qualname__ = f"agent_{stage}"
    app.agent(shell.source(stage, *sources), name=stage)(agent)


def declare_internal_topics(settings: WorkerSettings, app: faust.App) -> None:
    """Create the app's changelog and assignor topics before the worker joins its group.

    Faust would create them itself, but a topic created during the first rebalance can be
    missing from that rebalance's metadata ("Ignoring missing topic"), which leaves a
    global table unassigned and the worker never ready. Creating them first avoids the race.
    """
    from confluent_kafka.admin import AdminClient, NewTopic

    config = {"cleanup.policy": "compact", "max.message.bytes": str(MAX_MESSAGE_BYTES)}
    wanted = [NewTopic(table.changelog_topic.get_topic_name(), table.partitions or 6, 1, config=config)
              for table in app.tables.values()]
    wanted.append(NewTopic(f"{app.conf.id}-__assignor-__leader", 1, 1))
    admin = AdminClient(settings.kafka.confluent())
    for name, future in admin.create_topics(wanted, operation_timeout=30).items():
        try:
            future.result()
        except Exception as exc:  # noqa: BLE001 - an existing topic is what we want
            if "TOPIC_ALREADY_EXISTS" not in str(exc):
                raise RuntimeError(f"cannot create internal topic {name}: {exc}") from exc


def run_worker(settings: WorkerSettings) -> None:
    """Run the pipeline's Faust worker in this process until SIGINT/SIGTERM."""
    from faust.worker import Worker

    app = build_app(settings)
    declare_internal_topics(settings, app)
    worker = Worker(app, loglevel=settings.loglevel, quiet=True)
    worker.execute_from_commandline()
