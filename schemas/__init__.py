"""faultline's v1 event contract: models, topic registry, codec, deterministic ids.

``schemas.mirror`` (not re-exported: only the sink uses it) decodes chosen kinds several times
faster into msgspec mirrors of their models, declining whatever pydantic might read otherwise.

This package imports nothing else from the repository; everything else may import it.
"""

from schemas.codec import dead_letter, decode, encode
from schemas.derived import (
    Actuation,
    DeadLetter,
    Decision,
    EttInterval,
    Fault,
    Guard,
    HangSignals,
    HangVerdict,
    HangVote,
    Incident,
    Localization,
    Reason,
    SlowNode,
)
from schemas.envelope import Event, format_time, parse_time
from schemas.ids import derived_id
from schemas.jobs import JobEvent, Placement, StepProgress
from schemas.registry import BY_NAME, EVENT_KINDS, TOPICS, TopicSpec, physical, topic_for
from schemas.telemetry import (
    CollectiveProgress,
    GpuSample,
    GpuStats,
    LogLine,
    NetPort,
    NetSample,
    StackSample,
)

__all__ = [
    "BY_NAME", "EVENT_KINDS", "TOPICS", "Actuation", "CollectiveProgress", "DeadLetter",
    "Decision", "EttInterval", "Event", "Fault", "GpuSample", "GpuStats", "Guard", "HangSignals",
    "HangVerdict", "HangVote", "Incident", "JobEvent", "Localization", "LogLine", "NetPort", "NetSample",
    "Placement", "Reason", "SlowNode", "StackSample", "StepProgress", "TopicSpec", "dead_letter",
    "decode", "derived_id", "encode", "format_time", "parse_time", "physical", "topic_for",
]
