"""Settings of the streaming pipeline, built once at the entry point and passed down."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from schemas.settings import KafkaSettings
from streams.classify.settings import ClassifySettings
from streams.decide.settings import GuardSettings, PolicySettings
from streams.hang.settings import HangSettings
from streams.slow.settings import SlowSettings

REPO = Path(__file__).resolve().parent.parent


class DetectionSettings(BaseModel):
    """Every detector's thresholds; each sub-model documents its defaults."""

    model_config = ConfigDict(frozen=True)

    classify: ClassifySettings = Field(default_factory=ClassifySettings)
    hang: HangSettings = Field(default_factory=HangSettings)
    slow: SlowSettings = Field(default_factory=SlowSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    guards: GuardSettings = Field(default_factory=GuardSettings)
    lateness_s: float = Field(
        default=10.0, ge=0,
        description="How long a job's events are held to restore event-time order across topics "
        "(5 s sampling intervals + producer batching). Later events are processed at once and counted as late.",
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

    @property
    def resolved_app_id(self) -> str:
        """The Faust app id (and consumer group) of this pipeline."""
        return self.app_id or f"{self.kafka.namespace}pipeline"
