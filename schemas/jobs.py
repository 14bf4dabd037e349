"""Job inputs of the v1 contract: scheduler/launcher lifecycle and per-rank step progress."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from schemas.envelope import Event

JobEventKind = Literal[
    "submitted",
    "scheduled",
    "initialized",
    "running",
    "checkpoint_started",
    "checkpoint_completed",
    "failed",
    "restarting",
    "finished",
    "cancelled",
]


class Placement(BaseModel):
    """Where one rank of a job runs."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)
    rank: int = Field(ge=0)
    node_id: str = Field(min_length=1)


class JobEvent(Event):
    """A scheduler or launcher hook.

    ``attempt`` is 0 for the first run and +1 per restart or resubmission; a ``restarting``
    event already carries the new attempt, and ``running`` carries in ``step`` the step that
    attempt resumed from. ``placement`` is required on ``scheduled``.
    """

    KIND = "job_event"
    job_id: str = Field(min_length=1)
    attempt: int = Field(ge=0)
    kind: JobEventKind
    placement: tuple[Placement, ...] = ()
    step: int | None = Field(default=None, ge=0)
    detail: str | None = None

    @model_validator(mode="after")
    def _placement_when_scheduled(self) -> JobEvent:
        if self.kind == "scheduled" and not self.placement:
            raise ValueError("a 'scheduled' job_event needs a placement")
        return self


class StepProgress(Event):
    """A training hook's report of one step on one rank."""

    KIND = "step_progress"
    job_id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    rank: int = Field(ge=0)
    step: int = Field(ge=0)
    step_time_ms: float = Field(ge=0)
    compute_ms: float | None = Field(default=None, ge=0)
    comm_wait_ms: float | None = Field(default=None, ge=0)
