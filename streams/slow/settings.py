"""Settings of the slow-node detector: every threshold, with its default and the reason for it.

Built once at the entry point and passed to :class:`streams.slow.detector.SlowNodeDetector`.
Defaults come from public practice, not from fitting examples:

- Robust scores use the median and the median absolute deviation (MAD, scaled by 1.4826 so
  it estimates a standard deviation for Gaussian noise). The cut-off ``z_min = 3.5`` is the
  modified z-score limit recommended by Iglewicz and Hoaglin (1993) for outlier labelling.
- Baidu Baige flags a rank whose step time deviates from the job median by more than a
  threshold; NVIDIA nvidia-resiliency-ext scores ranks relative to the group. The absolute
  floor (``floor = 1.10``: 10 % slower than the job's median) is where a node starts to set
  the pace of a synchronous job in a way worth an operator's attention.
- "Stable heterogeneity is not news": each node learns its own level relative to the job
  (median of its recent normal windows); after a warm-up, a node is only suspect when it
  jumps from that level by ``jump`` (15 %, leaving margin below the 1.25x target while being
  3 to 5 times the per-window jitter of healthy nodes). Before a baseline exists, a node must
  be ``cold`` (20 %) slower than the median to be suspect, so a node that was always a bit
  slow never fires.
- Persistence is M of N windows (3 of the last 4) as in alerting practice: one noisy window
  neither makes nor breaks an episode, while a single-step spike can never reach M.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MetricKind = Literal["ratio", "diff"]
Bad = Literal["high", "low"]

# NVML clocks-event (throttle) reason bits that mean the GPU is being slowed down:
# SwPowerCap 0x4, HwSlowdown 0x8, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40,
# HwPowerBrakeSlowdown 0x80. GpuIdle (0x1), ApplicationsClocksSetting (0x2), SyncBoost (0x10)
# and DisplayClockSetting (0x100) are not slowdowns. SwPowerCap is common on busy GPUs; the
# group test makes it news only when one node has it and its peers do not.
SLOWDOWN_MASK = 0x4 | 0x8 | 0x20 | 0x40 | 0x80


class MetricRule(BaseModel):
    """Thresholds of one metric's group-consistency test.

    ``kind`` says how a node's deviation from the job's median is measured: ``ratio``
    (value / median, or median / value when ``bad`` is ``low``) or ``diff`` (value - median,
    or median - value). ``floor`` and ``cold`` are deviations (1.10 = 10 % worse for a ratio,
    10.0 = 10 units for a diff), ``jump`` is the change from the node's own baseline (ratio of
    deviations, or difference of deviations). ``sigma_floor`` is the smallest spread used in a
    robust z (a fraction of the median for ratios, units for diffs), so that a perfectly
    uniform group does not turn a 0.1 % wobble into a huge score. ``standalone`` metrics can
    open an episode on their own; the others only corroborate a standalone one.
    """

    model_config = ConfigDict(frozen=True)

    kind: MetricKind
    bad: Bad
    floor: float
    cold: float
    jump: float
    z_min: float = Field(default=3.5, ge=0)
    sigma_floor: float = Field(gt=0)
    standalone: bool = True
    max_group_cv: float | None = Field(default=None, gt=0)
    """Skip a window whose group is not consistent: robust coefficient of variation (scaled
    MAD / median) above this. Asynchronous samplers straddling a phase change (training ->
    checkpoint, a job-wide slowdown) scatter the whole group; no single node is news then."""

    @property
    def neutral(self) -> float:
        """The deviation of a node exactly at the median (1 for ratios, 0 for diffs)."""
        return 1.0 if self.kind == "ratio" else 0.0


def _step_rule() -> MetricRule:
    # compute_ms (or step_time_ms): 10 % floor, 20 % cold, 15 % jump; 1 % sigma floor is
    # below typical per-window jitter of a healthy rank (a few %).
    return MetricRule(kind="ratio", bad="high", floor=1.10, cold=1.20, jump=1.15, sigma_floor=0.01)


def _temp_rule() -> MetricRule:
    # Rack position makes GPUs differ by several degrees for good; throttling starts in the
    # mid 80s C while healthy training GPUs sit 60-75 C, so +10 C above the job (+15 C cold)
    # is a thermal problem, and 1 C is the sensor's resolution.
    return MetricRule(kind="diff", bad="high", floor=10.0, cold=15.0, jump=10.0, sigma_floor=1.0)


def _throttle_rule() -> MetricRule:
    # Fraction of samples with a slowdown bit set on any GPU of the node, against the job's
    # median fraction: throttled for at least half the window while peers are not.
    return MetricRule(kind="diff", bad="high", floor=0.5, cold=0.5, jump=0.5, sigma_floor=0.05)


def _power_rule() -> MetricRule:
    # Weakest GPU's power at most 80 % (cold: 71 %) of the job's: clocks pulled down. In a
    # synchronous job the waiting peers also draw less, so power only corroborates.
    return MetricRule(
        kind="ratio", bad="low", floor=1.25, cold=1.4, jump=1.25, sigma_floor=0.02,
        standalone=False, max_group_cv=0.25,
    )


def _sm_rule() -> MetricRule:
    # SM activity of the weakest GPU two thirds of the job's: corroboration only, because
    # waiting peers of a straggler drop too.
    return MetricRule(
        kind="ratio", bad="low", floor=1.5, cold=1.5, jump=1.5, sigma_floor=0.02,
        standalone=False, max_group_cv=0.25,
    )


def _rdma_rule() -> MetricRule:
    # tx+rx byte rate of the node's weakest RDMA port at most 80 % (cold: 67 %) of the job's
    # median weakest port: a degraded port or link (one slow rail hides in a node total).
    # Ring/tree collectives move the same volume per node and rail, so peers agree closely
    # (a few % apart); a group scattered by more than 25 % is in a phase change.
    return MetricRule(
        kind="ratio", bad="low", floor=1.25, cold=1.5, jump=1.25, sigma_floor=0.02,
        max_group_cv=0.25,
    )


def _port_error_rule() -> MetricRule:
    # Symbol, receive and link-down counter growth per second over the node's ports: healthy
    # links do not grow them at all, so 0.05/s (3 per minute) is a link going bad. Errors with
    # good throughput do not slow the job: corroboration only.
    return MetricRule(
        kind="diff", bad="high", floor=0.05, cold=0.05, jump=0.05, sigma_floor=0.01,
        standalone=False,
    )


class SlowSettings(BaseModel):
    """All knobs of :class:`~streams.slow.detector.SlowNodeDetector` (frozen, validated)."""

    model_config = ConfigDict(frozen=True)

    window_s: float = Field(default=20.0, gt=0)
    """Event-time window length. 20 s holds two reports per rank at the usual every-10-steps
    cadence, and 3 of 4 windows then fit well inside the two-minute detection budget."""
    min_nodes: int = Field(default=3, ge=3)
    """Fewest nodes with data for a group test: a median of two says nothing about who is odd."""
    min_coverage: float = Field(default=0.5, gt=0, le=1)
    """A window is evaluated once at least this fraction of the job's known nodes reported;
    otherwise its samples carry over to the next window (slow jobs, sparse reporting)."""
    min_reports: int = Field(default=2, ge=1)
    """Reports a rank is judged on at least: its fresh ones, topped up with its latest
    earlier ones (see ``StepBuffer``); and samples per node a GPU/RDMA window needs, else it
    carries over. Two let the lower median drop a single spike."""
    persistence: int = Field(default=3, ge=1)
    """Suspect windows needed among the last ``span`` evaluated ones to open an episode."""
    span: int = Field(default=4, ge=1)
    """The N of M-of-N persistence."""
    corroborated_persistence: int = Field(default=2, ge=1)
    """Persistence when another metric of the same node is suspect in the same window."""
    recovery_windows: int = Field(default=6, ge=1)
    """Consecutive normal windows that close an episode (2 minutes at the default window)."""
    warmup_windows: int = Field(default=6, ge=1)
    """Normal windows a node needs before its own baseline is trusted (2 minutes)."""
    baseline_windows: int = Field(default=15, ge=1)
    """Normal windows kept per node and metric for its baseline (5 minutes). Bounds memory and
    the saved state (about 100 KB for a 64-node job with every metric)."""
    max_outlier_fraction: float = Field(default=0.5, gt=0, le=1)
    """If at least this fraction of a job's nodes is suspect on a metric in one window, the
    median no longer stands for healthy nodes (its breakdown point is 50 %): the window is a
    job-wide shift and is skipped for that metric."""
    max_samples: int = Field(default=64, ge=2)
    """Samples kept per rank (or node and metric) in one window; bounds memory."""
    throttle_mask: int = Field(default=SLOWDOWN_MASK, ge=0)
    """Throttle-reason bits that count as a slowdown (NVML clocks-event reasons)."""
    step: MetricRule = Field(default_factory=_step_rule)
    temp: MetricRule = Field(default_factory=_temp_rule)
    throttle: MetricRule = Field(default_factory=_throttle_rule)
    power: MetricRule = Field(default_factory=_power_rule)
    sm: MetricRule = Field(default_factory=_sm_rule)
    rdma: MetricRule = Field(default_factory=_rdma_rule)
    port_errors: MetricRule = Field(default_factory=_port_error_rule)

    @model_validator(mode="after")
    def _persistence_fits(self) -> SlowSettings:
        if self.persistence > self.span or self.corroborated_persistence > self.span:
            raise ValueError("persistence cannot exceed span")
        if self.warmup_windows > self.baseline_windows:
            raise ValueError("warmup_windows cannot exceed baseline_windows")
        return self

    def rule(self, metric: str) -> MetricRule:
        """The rule of an output metric name (``compute_ms``, ``temp_c``, ``rdma_rate``, ...)."""
        return {
            "compute_ms": self.step,
            "step_time_ms": self.step,
            "temp_c": self.temp,
            "throttle": self.throttle,
            "power_w": self.power,
            "sm_active": self.sm,
            "rdma_rate": self.rdma,
            "port_errors": self.port_errors,
        }[metric]
