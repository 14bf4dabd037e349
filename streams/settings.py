"""Settings of the streaming pipeline, built once at the entry point and passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.settings import KafkaSettings
from streams.classify.settings import ClassifySettings
from streams.decide.settings import GuardSettings, PolicySettings
from streams.ett.settings import EttSettings
from streams.hang.settings import HangSettings
from streams.incident.settings import IncidentSettings
from streams.slow.settings import SlowSettings
from streams.state_record import SINGLE_MAX_RAW_BYTES

REPO = Path(__file__).resolve().parent.parent


class DetectionSettings(BaseModel):
    """Every detector's thresholds; each sub-model documents its defaults."""

    model_config = ConfigDict(frozen=True)

    classify: ClassifySettings = Field(default_factory=ClassifySettings)
    hang: HangSettings = Field(default_factory=HangSettings)
    slow: SlowSettings = Field(default_factory=SlowSettings)
    incident: IncidentSettings = Field(default_factory=IncidentSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    guards: GuardSettings = Field(default_factory=GuardSettings)
    ett: EttSettings = Field(default_factory=EttSettings)
    lateness_s: float = Field(
        default=5.0, ge=0,
        description="Event-time slack below a job's watermark before its events are processed: "
        "covers disorder inside one periodic source (one 5 s sampling interval). Later events "
        "are processed at once and counted as late.",
    )
    max_skew_s: float = Field(
        default=60.0, gt=0,
        description="A periodic source (GPU/network/stack/collective samples) lagging the newest "
        "source of its path (node or job telemetry) by more than this is treated as idle and "
        "stops holding the watermark (a dead node must not stall its job's detectors). 60 s = "
        "12 sampling intervals.",
    )
    dead_node_s: float = Field(
        default=15.0, gt=0,
        description="A node whose periodic sources on both paths (GPU/network samples and stacks or "
        "collective snapshots) have all been silent for this long, and for three of their own "
        "sampling intervals, is dead: it stops holding the watermark at once rather than after "
        "max_skew_s, so that its silence reaches the detectors within seconds (a node with "
        "samples on one path only, which a lagging re-keying hop could delay, after twice this: "
        "the worker reads its partitions within 30 s of event time of each other). 15 s = 3 "
        "sampling intervals of 5 s.",
    )
    path_skew_s: float = Field(
        default=300.0, gt=0,
        description="Node telemetry reaches a job through an extra re-keying hop; when that whole "
        "path lags the job's newest event by more than this, it stops holding the watermark "
        "(every node of the job went silent). Within a path, sources are compared with each "
        "other (max_skew_s), so a backlog drained at any speed keeps its order up to this lag.",
    )


class WorkerSettings(BaseModel):
    """How a Faust worker runs: its app id (consumer group), state directory and logging."""

    model_config = ConfigDict(frozen=True)

    kafka: KafkaSettings = Field(default_factory=KafkaSettings)
    detection: DetectionSettings = Field(default_factory=DetectionSettings)
    app_id: str | None = Field(default=None, description="default: '<namespace>pipeline'")
    data_dir: Path = REPO / ".data" / "faust"
    loglevel: str = "warn"
    stats_interval_s: float = 30.0
    instance_id: str | None = Field(
        default=None,
        description="Static group membership (Kafka's group.instance.id): a worker restarted with "
        "the same id gets its partitions back at once instead of after a rebalance. Unique per "
        "worker (e.g. the pod or host name); None = dynamic membership.",
    )
    processing_guarantee: Literal["effectively_once", "at_least_once"] = Field(
        default="effectively_once",
        description="effectively_once: an input record is acked only once a saved state reflects "
        "it and its outputs are delivered, and a re-delivered record is skipped (nothing lost or "
        "applied twice after a crash). at_least_once: acked as soon as it is processed, state "
        "saved every state_every_s of event time (after a crash, records may be lost from state "
        "or applied twice); for measuring what the guarantee costs, not for production.",
    )
    state_single_max_bytes: int = Field(
        default=SINGLE_MAX_RAW_BYTES, ge=1024, le=SINGLE_MAX_RAW_BYTES,
        description="A key's state whose JSON is longer is written to its changelog as a head and parts "
        "(streams.state_record), each part at most 512 KB of JSON, so no value exceeds 1 MB. Lower it "
        "to split smaller states too.",
    )
    session_timeout_s: float = Field(
        default=10.0, ge=6.0,
        description="How long the group waits for a silent worker before giving its partitions "
        "to others (Faust's default is 60 s; the broker's minimum is 6 s).",
    )

    @property
    def resolved_app_id(self) -> str:
        """The Faust app id (and consumer group) of this pipeline."""
        return self.app_id or f"{self.kafka.namespace}pipeline"
