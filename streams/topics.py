"""Topic provisioning: the one path that creates the pipeline's topics (``faultline topics create``).

Used by the local broker launcher, the worker before it joins its group, and the tests. It
creates every registry topic under the namespace and, given a worker's app id, the Faust
changelog topics of every stage's state table plus Faust's assignor topic, all with the
partition count and replication factor of :class:`~schemas.settings.KafkaSettings`.
Creating a topic that already exists is success (whatever created it); any other failure
raises :class:`TopicError` naming the topic.

Why the worker's internal topics are created here and not left to Faust: a topic Faust
creates during its first rebalance can be missing from that rebalance's metadata ("Ignoring
missing topic"), which leaves a table unassigned and the worker never ready.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from schemas.registry import TOPICS
from schemas.settings import KafkaSettings

MAX_STATE_MESSAGE_BYTES = 8 * 1024 * 1024
"""Largest changelog message the pipeline writes (set on changelog topics and the producer)."""

STATE_TABLES = ("classify", "lifecycle", "route", "jobs", "guards")
"""Stage names of the topology, whose state tables have changelog topics (kept equal to
``streams.topology.build().stages`` by a test; listed here so provisioning needs no detector)."""


class TopicError(RuntimeError):
    """A topic could not be created (other than because it already exists)."""


@dataclass(frozen=True)
class TopicPlan:
    """One topic to create."""

    name: str
    partitions: int
    replication_factor: int
    config: dict[str, str] = field(default_factory=dict)


def table_name(stage: str) -> str:
    """The Faust table holding ``stage``'s per-key state."""
    return f"{stage}-state"


def changelog_topic(app_id: str, stage: str) -> str:
    """Faust's changelog topic name of ``stage``'s state table in app ``app_id``."""
    return f"{app_id}-{table_name(stage)}-changelog"


def plan(kafka: KafkaSettings, app_id: str | None = None) -> list[TopicPlan]:
    """Every topic the pipeline needs under ``kafka.namespace`` (and app ``app_id``'s internals)."""
    rf = kafka.replication_factor
    topics = [TopicPlan(kafka.topic(spec.name), kafka.partitions, rf) for spec in TOPICS]
    if app_id:
        compact = {"cleanup.policy": "compact", "max.message.bytes": str(MAX_STATE_MESSAGE_BYTES)}
        topics += [TopicPlan(changelog_topic(app_id, s), kafka.partitions, rf, compact) for s in STATE_TABLES]
        topics.append(TopicPlan(f"{app_id}-__assignor-__leader", 1, rf))
    return topics


def create_topics(kafka: KafkaSettings, app_id: str | None = None, timeout_s: float = 30.0) -> list[str]:
    """Create :func:`plan`'s topics; returns their names. Existing topics are left as they are."""
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import AdminClient, NewTopic

    wanted = plan(kafka, app_id)
    admin = AdminClient(kafka.confluent())
    futures = admin.create_topics([NewTopic(t.name, t.partitions, t.replication_factor, config=t.config)
                                   for t in wanted], operation_timeout=timeout_s)
    for name, future in futures.items():
        try:
            future.result()
        except Exception as exc:  # noqa: BLE001 - inspected: only "already exists" is success
            err = exc.args[0] if exc.args else None
            if not (isinstance(err, KafkaError) and err.code() == KafkaError.TOPIC_ALREADY_EXISTS):
                raise TopicError(f"creating topic {name} failed: {exc}") from exc
    return [t.name for t in wanted]


def topics_main(argv: Sequence[str], base: KafkaSettings) -> int:
    """``faultline topics create|plan [--app-id ID] [--partitions N] [--replication-factor N]``."""
    parser = argparse.ArgumentParser(prog="faultline topics", description="Create the pipeline's topics.")
    parser.add_argument("action", choices=["create", "plan"])
    parser.add_argument("--app-id", default=None, help="also the worker's changelog topics (default: '<namespace>pipeline')")
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--replication-factor", type=int, default=None)
    args = parser.parse_args(argv)
    kafka = base.model_copy(update={k: v for k, v in (("partitions", args.partitions),
                                                       ("replication_factor", args.replication_factor)) if v})
    app_id = args.app_id or f"{kafka.namespace}pipeline"
    if args.action == "plan":
        for t in plan(kafka, app_id):
            print(f"{t.name}\tpartitions={t.partitions}\treplication={t.replication_factor}")
        return 0
    try:
        names = create_topics(kafka, app_id)
    except TopicError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{len(names)} topics present under {kafka.namespace!r} on {kafka.bootstrap_servers}", file=sys.stderr)
    return 0
