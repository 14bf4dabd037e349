"""The Faust worker, built from the declared topology (``streams.topology``): one agent per stage.

Every stage becomes an agent subscribed to its input topics, with its detector's per-key
state in a changelog-backed table. The agent only decodes (in the shell), keys the event
with the stage's key function, steps the detector, stores the state and publishes what the
stage resolves its outputs to; ``faultline replay`` runs the same stages in one process.
"""

from __future__ import annotations

import logging
import ssl
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import faust

from schemas import Event, HangVote, JobEvent
from schemas.settings import KafkaSettings
from streams import topology
from streams.align import InputAligner
from streams.core.detector import Forward, Output
from streams.core.topology import Stage
from streams.delivery import eager_delivery
from streams.settings import WorkerSettings
from streams.shell import Aligned, Delivery, Message, Shell
from streams.state_table import StateTable
from streams.topics import MAX_STATE_MESSAGE_BYTES, create_topics, table_name

log = logging.getLogger("faultline.streams")

FETCH_BYTES_PER_PARTITION = 1024 * 1024
"""Bytes per partition of one fetch (aiokafka's ``max_partition_fetch_bytes``; its default).
Live, a fetch holds what arrived since the last one whatever the cap; draining a backlog,
128 KB fetches made the worker go back to the broker eight times as often: 2,079-2,108 ->
2,505-2,745 events/s end to end in three same-minute pairs (tests.bench.ratios --part
worker). The input aligner's per-partition flow control (``streams.align``), not the
fetch size, keeps what one partition delivers ahead of the others bounded."""
PRODUCER_LINGER_S = 0.005
"""Wall seconds the producer waits to batch messages of a partition before it sends them
(aiokafka's ``linger_ms``; Faust's default 0 sends every message in its own request)."""
SAVE_IDLE_EVERY_S = 1.0
"""Wall seconds after which a key no record touched has its state saved and its records acked."""


def build_app(settings: WorkerSettings) -> faust.App:
    """A Faust app with one agent per stage of the declared topology."""
    datadir = settings.data_dir / settings.resolved_app_id
    datadir.mkdir(parents=True, exist_ok=True)
    kafka = settings.kafka
    app = faust.App(
        settings.resolved_app_id,
        broker=f"kafka://{kafka.bootstrap_servers}",
        broker_credentials=_credentials(kafka),
        store="memory://",
        datadir=str(datadir),
        topic_partitions=kafka.partitions,
        topic_replication_factor=kafka.replication_factor,
        web_enabled=False,
        producer_acks=-1,
        producer_max_request_size=MAX_STATE_MESSAGE_BYTES,
        consumer_max_fetch_size=FETCH_BYTES_PER_PARTITION,
        producer_linger=PRODUCER_LINGER_S,
        broker_session_timeout=settings.session_timeout_s,
        broker_heartbeat_interval=settings.session_timeout_s / 5,
        consumer_group_instance_id=settings.instance_id,
        # Records are acked only once a state snapshot reflecting them is saved (shell.StateTable),
        # so some stay unacked for a while; a rebalance must not wait for them: the new owner
        # reads them again and skips what its saved state already reflects.
        stream_wait_empty=False,
    )
    eager_delivery(app.consumer)
    shell = Shell(app, kafka)
    stages = topology.build(settings.detection).stages
    wired = [_wire_stage(app, shell, stage, kafka, settings) for stage in stages]
    writers: dict[str, list[InputAligner[Aligned]]] = {}
    for stage, (_, aligner, _) in zip(stages, wired, strict=True):
        for name in {*stage.outputs, *(topic for _, topic, _ in stage.redirect)}:
            writers.setdefault(kafka.topic(name), []).append(aligner)
    for _, aligner, inputs in wired:  # what each agent's aligner knows of its inputs' supply
        aligner.supply = shell
        aligner.upstream = {topic: list(writers[topic]) for topic in inputs if topic in writers}
        for topic in inputs:  # per-partition flow control (streams.align.FetchGate)
            shell.gate.readers.setdefault(topic, []).append(aligner)

    @app.on_partitions_revoked.connect
    def _revoked(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        for table, aligner, _ in wired:
            table.forget()
            aligner.clear()  # Faust reads the uncommitted records again after the rebalance
        shell.resume_all()

    sources = frozenset(topic for _, _, inputs in wired for topic in inputs)

    @app.on_rebalance_complete.connect
    async def _recovered(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        rewound = await shell.rewind_uncommitted(sources)  # before Faust resumes the stream partitions
        if rewound:
            log.info("reading %d partitions never committed from their start", len(rewound))

    @app.on_partitions_assigned.connect
    def _assigned(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        assigned, now_s = args[0], time.monotonic()  # Faust sends the consumer's whole assignment
        for _, aligner, topics in wired:
            aligner.assign({(tp.topic, tp.partition) for tp in assigned if tp.topic in topics}, now_s)

    @app.timer(settings.stats_interval_s)
    async def _stats() -> None:
        log.warning("stats: %s", shell.summary())

    return app


def _credentials(kafka: KafkaSettings) -> Any:
    """Faust (aiokafka) credentials for ``kafka.security_protocol``; None for PLAINTEXT.

    SSL and SASL_SSL verify the broker against ``ssl_ca_location`` (else the system CAs) and
    present the client certificate when one is configured (mutual TLS). The password stays in
    the credentials object, whose repr shows the user name only."""
    protocol = kafka.security_protocol
    context = ssl_context(kafka) if protocol in ("SSL", "SASL_SSL") else None
    if protocol == "SSL":
        return faust.SSLCredentials(context)
    if protocol == "PLAINTEXT" or kafka.sasl_mechanism is None:
        return None
    password = kafka.sasl_password.get_secret_value() if kafka.sasl_password else ""
    return faust.SASLCredentials(username=kafka.sasl_username, password=password,
                                 ssl_context=context, mechanism=kafka.sasl_mechanism)


def ssl_context(kafka: KafkaSettings) -> ssl.SSLContext:
    """A client TLS context equivalent to what ``kafka.confluent()`` asks of librdkafka."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=kafka.ssl_ca_location)
    if kafka.ssl_certificate_location and kafka.ssl_key_location:
        password = kafka.ssl_key_password.get_secret_value() if kafka.ssl_key_password else None
        context.load_cert_chain(kafka.ssl_certificate_location, kafka.ssl_key_location, password)
    if not kafka.ssl_check_hostname:
        context.check_hostname = False
    return context


def _wire_stage(app: faust.App, shell: Shell, stage: Stage, kafka: KafkaSettings,
                settings: WorkerSettings) -> tuple[StateTable, InputAligner[Aligned], frozenset[str]]:
    """The agent (and its timers) of one stage; returns its state table, its input aligner and
    its physical input topics."""
    lateness_s = settings.detection.lateness_s
    at_least_once = settings.processing_guarantee == "at_least_once"
    # values are deflated JSON, written raw (streams.state_record); keys stay JSON text
    table = StateTable(app.Table(table_name(stage.name), default=None, key_type=str, value_type=bytes,
                                 partitions=kafka.partitions), stage.detector, stage.state_every_s,
                       single_max_bytes=settings.state_single_max_bytes)
    inputs = frozenset(kafka.topic(name) for name in stage.inputs)
    aligner: InputAligner[Aligned] = InputAligner()

    async def handle(event: Event, message: Message) -> None:
        key = stage.key(shell.logical(message.topic), event, message.key)
        if key is None or table.seen(key, message):
            message.ack()
        else:
            state, outputs = stage.detector.step(table.get(key), event)
            sent = await _publish(shell, stage, outputs, event, message.value)
            if at_least_once:  # acked now; state saved on its event-time cadence only
                table.put(key, state, message, sent, event.event_time, changed=False)
                message.ack()
            else:
                table.put(key, state, message, sent, event.event_time, changed=_changed(event, outputs))
        table.sweep(message.partition, event.event_time, key)

    async def agent(stream: Any) -> None:
        await shell.consume(stage.name, stream, handle, aligner)

    agent.__name__ = agent.__qualname__ = f"agent_{stage.name}"
    app.agent(shell.source(stage.name, *stage.inputs), name=stage.name)(agent)
    if stage.tick_s > 0:
        _tick(app, shell, stage, table, lateness_s)

    @app.timer(SAVE_IDLE_EVERY_S, name=f"save_{stage.name}")
    async def _save_idle() -> None:
        table.save_idle(time.monotonic(), idle_s=SAVE_IDLE_EVERY_S)

    return table, aligner, inputs


def _changed(event: Event, outputs: Sequence[Output]) -> bool:
    """Whether a key's state must be written now (else at most every ``state_every_s``).

    Findings and lifecycle change what a replay from the changelog would decide; hang votes
    (every few seconds) and forwarded samples do not need their own checkpoint."""
    return isinstance(event, JobEvent) or any(not isinstance(o, (HangVote, Forward)) for o in outputs)


async def _publish(shell: Shell, stage: Stage, outputs: Sequence[Output], event: Event | None,
                   raw: bytes | None) -> list[Delivery]:
    """Send a stage's outputs; an output that is the input ``event`` itself is forwarded as its
    original bytes ``raw``. Returns the deliveries (the state snapshot waits for them)."""
    sent: list[Delivery] = []
    for output in outputs:
        topic, key, out = stage.resolve(output)
        if out is event and raw is not None:
            sent.append(await shell.forward(topic, key, raw))  # unchanged: re-key the original bytes
        else:
            sent.append(await shell.emit(out, topic=topic, key=key))
    return sent


@dataclass
class StageClock:
    """A stage's event-time clock for flushing quiet keys: the median of its keys' newest
    event times, moved on at wall-clock pace once that median has stood still for
    ``idle_after_s`` of wall time.

    The median alone stops when input stops: the last burst of a fleet that fell silent, or
    of the only node that logs at all, would never close. An idle input is assumed to be at
    least as fast as real time (the idle-source rule of stream processors, e.g. Flink's
    ``withIdleness``), so the clock never runs ahead of a live producer, and it lags a
    backlog read faster than real time (closing later, never earlier). Only the moment a
    quiet key is flushed depends on the wall clock; what the flush emits depends on the
    key's events alone, the same as ``faultline replay``'s flush at the end of its input.
    """

    idle_after_s: float
    since: datetime | None = None
    wall_s: float = 0.0

    def now(self, median: datetime | None, wall_s: float) -> datetime | None:
        """The clock at wall time ``wall_s`` (monotonic seconds) given the keys' ``median``."""
        if median is None:
            return None
        if self.since is None or median > self.since:
            self.since, self.wall_s = median, wall_s
            return median
        idle_s = wall_s - self.wall_s
        return self.since + timedelta(seconds=idle_s) if idle_s >= self.idle_after_s else self.since


def _tick(app: faust.App, shell: Shell, stage: Stage, table: StateTable, lateness_s: float) -> None:
    """Flush the stage's live states to its event-time watermark every ``tick_s`` (through
    the detector's ``tick`` if it has one: the job pipeline's flush is the end of input).

    Bursts close when their key falls silent, which no event of that key will announce; a
    job whose sources all stopped is evaluated for a hang. The
    watermark is the stage clock (:class:`StageClock`: the median of the keys' newest event
    times, not the newest of all, so one node whose clock runs ahead cannot close every
    other key's bursts early) less the allowed lateness."""
    clock = StageClock(idle_after_s=lateness_s)
    own_tick = getattr(stage.detector, "tick", None)
    tick = own_tick or stage.detector.flush

    @app.timer(stage.tick_s, name=f"flush_{stage.name}")  # one timer per stage: names must differ
    async def _flush_quiet() -> None:
        latest = clock.now(table.median_latest(), time.monotonic())
        if latest is None:
            return
        watermark = latest - timedelta(seconds=lateness_s)
        for key in list(table.cache):
            state, outputs = tick(table.cache[key], watermark)
            table.cache[key] = state
            if outputs or own_tick is None:  # a tick that made nothing leaves nothing to save
                table.touch(key, await _publish(shell, stage, outputs, None, None))


def run_worker(settings: WorkerSettings) -> None:
    """Run the pipeline's Faust worker in this process until SIGINT/SIGTERM."""
    app = build_app(settings)
    create_topics(settings.kafka, settings.resolved_app_id)
    faust_worker(app, settings).execute_from_commandline()


def faust_worker(app: faust.App, settings: WorkerSettings) -> Any:
    """The Faust ``Worker`` that runs ``app``, without its start-up spinner: the spinner sets
    the root logger to DEBUG (its handler spins on every record), so each per-message debug
    call of aiokafka and Faust built a log record (~2% of the worker's CPU)."""
    from faust.worker import Worker

    worker = Worker(app, loglevel=settings.loglevel, quiet=True)
    worker.spinner = None
    return worker
