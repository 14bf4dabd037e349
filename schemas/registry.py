"""The topic registry: the only place topic names and keys live (partition counts are settings).

Every topic is addressed by its logical name (``"telemetry.gpu"``); the physical name
adds a configurable namespace prefix (default ``"faultline."``) so several pipelines can
share one cluster and tests can isolate themselves with a random namespace.
"""

from __future__ import annotations

from dataclasses import dataclass

from schemas.derived import (
    Actuation,
    DeadLetter,
    Decision,
    EttInterval,
    Fault,
    HangVerdict,
    HangVote,
    Incident,
    SlowNode,
)
from schemas.envelope import Event
from schemas.jobs import JobEvent, StepProgress
from schemas.telemetry import CollectiveProgress, GpuSample, LogLine, NetSample, StackSample

DEFAULT_NAMESPACE = "faultline."


@dataclass(frozen=True)
class TopicSpec:
    """One topic of the contract.

    ``key_fields`` are tried in order: the message key is the first one that is set on the
    event (``faults.classified`` is keyed by node_id, or job_id when there is no node).
    ``internal`` topics are the pipeline's own plumbing, not part of the public contract.
    """

    name: str
    kinds: tuple[type[Event], ...]
    key_fields: tuple[str, ...]
    internal: bool = False

    def key_of(self, event: Event) -> str | None:
        """The message key of ``event`` on this topic, or None if no key field is set."""
        for field in self.key_fields:
            value = getattr(event, field, None)
            if value is not None:
                return str(value)
        return None


TOPICS: tuple[TopicSpec, ...] = (
    TopicSpec("telemetry.gpu", (GpuSample,), ("node_id",)),
    TopicSpec("telemetry.net", (NetSample,), ("node_id",)),
    TopicSpec("telemetry.log", (LogLine,), ("job_id", "node_id")),
    TopicSpec("telemetry.kernel", (LogLine,), ("node_id",)),
    TopicSpec("telemetry.stack", (StackSample,), ("job_id",)),
    TopicSpec("telemetry.collective", (CollectiveProgress,), ("job_id",)),
    TopicSpec("jobs.lifecycle", (JobEvent,), ("job_id",)),
    TopicSpec("jobs.progress", (StepProgress,), ("job_id",)),
    TopicSpec("faults.classified", (Fault,), ("node_id", "job_id")),
    TopicSpec("hangs.votes", (HangVote,), ("job_id",)),
    TopicSpec("hangs.verdicts", (HangVerdict,), ("job_id",)),
    TopicSpec("nodes.outliers", (SlowNode,), ("job_id",)),
    TopicSpec("decisions", (Decision,), ("job_id",)),
    TopicSpec("actuations", (Actuation,), ("decision_id",)),
    TopicSpec("ett.intervals", (EttInterval,), ("job_id",)),
    TopicSpec("incidents", (Incident,), ("job_id",)),
    TopicSpec("deadletter", (DeadLetter,), ("source_topic",)),
    # Internal plumbing of the topology (streams.topology; not part of the public contract):
    # each job's placement split per node, keyed by node (co-partitioned with node telemetry),
    TopicSpec("placements.feed", (JobEvent,), ("node_id",), internal=True),
    # node-keyed samples and faults re-keyed by the job whose placement holds the node,
    TopicSpec("jobs.feed", (GpuSample, NetSample, Fault), ("job_id",), internal=True),
    # and per-job policy proposals plus lifecycle, keyed by cluster, for the cluster-wide guards.
    TopicSpec("guards.feed", (Decision, JobEvent), ("cluster",), internal=True),
)

BY_NAME: dict[str, TopicSpec] = {spec.name: spec for spec in TOPICS}

EVENT_KINDS: dict[str, type[Event]] = {
    kind.schema_name(): kind for spec in TOPICS for kind in spec.kinds
}
"""Every v1 event model by its ``schema`` wire value."""

TELEMETRY_TOPICS = tuple(
    s.name for s in TOPICS if s.name.startswith(("telemetry.", "jobs.")) and not s.internal
)
DERIVED_TOPICS = tuple(s.name for s in TOPICS if s.name not in TELEMETRY_TOPICS and not s.internal)


_PUBLIC_TOPIC_OF: dict[type[Event], TopicSpec] = {}
"""The first public topic carrying each kind, by exact class (one lookup per event, not a scan)."""
for _spec in TOPICS:
    for _kind in _spec.kinds:
        if not _spec.internal:
            _PUBLIC_TOPIC_OF.setdefault(_kind, _spec)


def topic_for(event: Event) -> TopicSpec:
    """The topic an event is published to; kernel/system log lines go to ``telemetry.kernel``."""
    kind = type(event)
    spec = _PUBLIC_TOPIC_OF.get(kind)
    if (spec is None or kind is LogLine) and isinstance(event, LogLine):
        return BY_NAME["telemetry.kernel" if event.source in ("kernel", "system") else "telemetry.log"]
    if spec is None:
        raise KeyError(f"no topic carries {kind.__name__}")
    return spec


def physical(name: str, namespace: str = DEFAULT_NAMESPACE) -> str:
    """The broker-side topic name of logical topic ``name`` under ``namespace``."""
    if name not in BY_NAME:
        raise KeyError(f"unknown topic {name!r}; topics live in schemas.registry.TOPICS")
    return f"{namespace}{name}"


def logical(physical_name: str, namespace: str = DEFAULT_NAMESPACE) -> str:
    """Inverse of :func:`physical`; raises KeyError for a topic outside the namespace."""
    if not physical_name.startswith(namespace) or physical_name[len(namespace):] not in BY_NAME:
        raise KeyError(f"{physical_name!r} is not a registry topic under {namespace!r}")
    return physical_name[len(namespace):]
