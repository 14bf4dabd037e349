"""Settings of the ETT stage: the productive-gap rule of ETT.md and the bounds of its state.

Built once at the entry point and passed to :class:`streams.ett.detector.EttDetector`.

- ETT.md: a gap between two done steps (or ``running`` and the first done step) is
  productive when it is no longer than ``max(60 s, 10 x median step_time_ms)``; the median
  is over the attempt's steps done before the gap (so the rule is known when the gap opens).
- The median is estimated over the last ``median_window`` done steps of the attempt: exact
  for short attempts, a sliding estimate for long ones, bounded in memory and in the dump.
- Intervals are cut on a grid of ``split_every_s`` of event time aligned to the Unix epoch:
  a running job then reports its productive time at least that often, and because the grid
  divides a day every interval lies inside one UTC day (per-day analytics need no split).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

SECONDS_PER_DAY = 86_400


class EttSettings(BaseModel):
    """All knobs of :class:`~streams.ett.detector.EttDetector` (frozen, validated)."""

    model_config = ConfigDict(frozen=True)

    productive_gap_floor_s: float = Field(default=60.0, gt=0)
    """ETT.md: a step gap up to this long is always productive (evaluation-free jitter)."""
    productive_gap_factor: float = Field(default=10.0, gt=0)
    """ETT.md: a step gap up to this many median step times is productive (reports every
    N steps, N <= 10, still count)."""
    median_window: int = Field(default=128, ge=1)
    """Done steps of the attempt kept for the median step time (the most recent ones)."""
    split_every_s: int = Field(default=900, ge=1)
    """Intervals never cross a multiple of this many seconds of epoch time (15 minutes: a
    running job's dashboards lag by at most that plus one step gap)."""
    max_checkpoint_spans: int = Field(default=16, ge=1)
    """Checkpoint spans kept inside one unresolved stretch (no done step in between). Past it
    the newest span is merged into the previous one (counted in ``EttState.ignored``)."""

    @model_validator(mode="after")
    def _grid_divides_day(self) -> EttSettings:
        if SECONDS_PER_DAY % self.split_every_s:
            raise ValueError("split_every_s must divide a day (86400 s) so intervals split at midnight UTC")
        return self
