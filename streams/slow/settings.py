"""Settings of the slow-node detector: every threshold, with its default and the reason for it.

Built once at the entry point and passed to :class:`streams.slow.detector.SlowNodeDetector`.
Defaults come from public knowledge, not from fitting examples:

- Robust scores use the median and the median absolute deviation (MAD, scaled by 1.4826 so
  it estimates a standard deviation for Gaussian noise). The cut-off ``z_min = 3.5`` is the
  modified z-score limit recommended by Iglewicz and Hoaglin (1993) for outlier labelling.
- Heterogeneity present from the start is the baseline, never news. Production fleets run
  pipeline stages of unequal cost and mixed GPU generations side by side (the Alibaba PAI
  traces, Xiao et al. OSDI 2020, job_2: "workers differ from each other, stable over time";
  ByteDance MegaScale, NSDI 2024, and ByteRobust, 2025, detect stragglers as nodes that got
  slower *than they were*, not than the fleet). So every node first learns its own level
  during a warm-up (``warmup_windows``), and a node is suspect only when its value changed
  from its own level by ``jump`` *more than its peers' values changed in the same window*
  ("a change its peers do not share"): a job-wide slowdown moves every node and no one.
- Stragglers worth replacing a node are 1.1-2x and persist for minutes (MegaScale; "Falcon:
  pinpointing and mitigating stragglers", Wu et al. 2024, and the "What-if" straggler study
  of Lin et al., 2025, which finds most slowdowns persist and are 1.1-1.5x). ``jump = 1.15``
  leaves margin below the 1.25x detection target while being 3 to 5 times the per-window jitter
  of a healthy node; M-of-N persistence (3 of the last 4 windows of 20 s) rejects spikes and
  still answers within two minutes.
- Synchronous jobs report the same ``step_time_ms`` on every rank: a straggler is then seen
  from GPU evidence (slowdown throttle bits, temperature, and the straggler's GPUs staying
  busy while its peers' go idle waiting in collectives: SM activity, or board power when SM
  activity is not collected) and from ``comm_wait_ms`` (``step_time_ms - comm_wait_ms`` is the
  rank's own busy time when ``compute_ms`` is missing).
- RDMA evidence comes only from the ports that carry the job's collectives (compute rails,
  learned per node from their traffic), never from the weakest port of all: storage and
  management NICs carry little, bursty traffic and would look like a dead link.
- Nothing is judged while the job is not training steadily: evaluation phases and other step
  gaps, checkpoints, the first ``warmup_steps`` of an attempt (compilation, cache warm-up) and
  an open hang (a ``hang_verdict`` until steps advance again).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

MetricKind = Literal["ratio", "diff"]
Bad = Literal["high", "low"]

# NVML clocks-event (throttle) reason bits that mean the GPU is being slowed down by a fault:
# HwSlowdown 0x8, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80.
# GpuIdle (0x1), ApplicationsClocksSetting (0x2), SyncBoost (0x10) and DisplayClockSetting
# (0x100) are not slowdowns. SwPowerCap (0x4) is left out too: it is the normal operating
# point of a busy GPU held at its power limit (NVML documents it as the clocks being managed
# under TDP), and it flickers on and off with the load, so it would open episodes on healthy
# nodes; a power-capped straggler still shows in its busy time and temperature.
SLOWDOWN_MASK = 0x8 | 0x20 | 0x40 | 0x80


class MetricRule(BaseModel):
    """Thresholds of one metric's change test.

    A node's *position* is its value against the job's reference in the same window, on the
    rule's scale: ``ratio`` (value / reference, or reference / value when ``bad`` is ``low``)
    or ``diff`` (value - reference, or reference - value). Its *change* is its position
    against its usual position (median of its recent normal windows), and its *excess* that
    change beyond the median change of its peers (ratio of changes, or difference); see
    :mod:`streams.slow.scoring`. A warm node is suspect when the excess reaches ``jump`` (1.15
    = 15 % worse for a ratio, 10.0 = 10 units for a diff) with a robust z of at least
    ``z_min`` both across the group's excesses and against the spread of the node's own past
    positions. ``sigma_floor`` is the smallest spread
    used in a robust z (a fraction for ratios, units for diffs), so a perfectly steady group
    does not turn a 0.1 % wobble into a huge score. ``standalone`` metrics can open an episode
    on their own; the others only corroborate a standalone one.
    """

    model_config = ConfigDict(frozen=True)

    kind: MetricKind
    bad: Bad
    jump: float
    z_min: float = Field(default=3.5, ge=0)
    sigma_floor: float = Field(gt=0)
    standalone: bool = True
    never_normal: bool = False
    """A bad value is never a node's normal: its baseline learns at most the neutral position
    and level (``throttle``: a GPU slowed down by a hardware or thermal fault throttles no
    matter how long it has done so, unlike a node that is slower for good because of its
    pipeline stage or GPU model). A node already throttling when its baseline is learnt
    (from the start, or soon after a restart) is then judged against its peers."""
    max_group_spread: float | None = Field(default=None, gt=0)
    """Skip a window whose peers' changes are not consistent: robust spread of the changes
    (scaled MAD; a fraction for ratios) above this. Asynchronous samplers straddling a phase
    change (training -> checkpoint, a job-wide slowdown) scatter the whole group; no single
    node is news then."""

    @property
    def neutral(self) -> float:
        """The change of a node exactly at its own level (1 for ratios, 0 for diffs)."""
        return 1.0 if self.kind == "ratio" else 0.0


def _step_rule() -> MetricRule:
    # compute_ms (or step_time_ms - comm_wait_ms, or step_time_ms): 15 % excess; a 1 % sigma
    # floor is below typical per-window jitter of a healthy rank (a few %).
    return MetricRule(kind="ratio", bad="high", jump=1.15, sigma_floor=0.01)


def _temp_rule() -> MetricRule:
    # Rack position makes GPUs differ by several degrees for good (that is the level);
    # throttling starts in the mid 80s C while healthy training GPUs sit 60-75 C, so warming
    # 10 C more than the peers did is a thermal problem; 1 C is the sensor's resolution.
    return MetricRule(kind="diff", bad="high", jump=10.0, sigma_floor=1.0)


def _throttle_rule() -> MetricRule:
    # Fraction of samples with a slowdown bit set on any GPU of the node: a node newly
    # throttled for at least half the window while its peers are not.
    return MetricRule(kind="diff", bad="high", jump=0.5, sigma_floor=0.05, never_normal=True)


def _busy_rule() -> MetricRule:
    # The node's median GPU SM activity, against its level and its peers': in a synchronous
    # job a straggler's GPUs stay busy while its peers' wait in collectives, so the excess
    # estimates the slowdown itself (peers drop by 1/s, the straggler does not). 1.15 as the
    # step rule; waiting peers never show it, so it can stand alone.
    return MetricRule(kind="ratio", bad="high", jump=1.15, sigma_floor=0.02, max_group_spread=0.2)


def _power_rule() -> MetricRule:
    # Board power, the busy-time proxy every GPU reports (SM activity needs DCGM profiling):
    # idle power dilutes it, so a 1.25x straggler keeps only about 1.15-1.2x of its peers'
    # change; a 15 % excess with both robust z past 3.5, three windows in four, is still far
    # outside a healthy node's power jitter (a few %).
    return MetricRule(kind="ratio", bad="high", jump=1.15, sigma_floor=0.02, max_group_spread=0.2)


def _rdma_rule() -> MetricRule:
    # Byte rate of the node's weakest compute rail: a degraded port or link (one slow rail
    # hides in a node total). Ring/tree collectives move the same volume per rail, and when a
    # job slows every rail slows with it, so only a rail that fell to two thirds of its peers'
    # change is news (a link down-shift or PFC storm halves a rail or worse); samplers that
    # straddle a job-wide change scatter by tens of percent, which a 25 % bar did not clear.
    return MetricRule(kind="ratio", bad="low", jump=1.5, sigma_floor=0.02, max_group_spread=0.2)


def _port_error_rule() -> MetricRule:
    # Symbol, receive and link-down counter growth per second over the node's ports: healthy
    # links do not grow them at all, so 0.05/s (3 per minute) is a link going bad. Errors with
    # good throughput do not slow the job: corroboration only.
    return MetricRule(kind="diff", bad="high", jump=0.05, sigma_floor=0.01, standalone=False)


FAMILIES = {
    "compute_ms": "step", "busy_ms": "step", "step_time_ms": "step",
    "sm_active": "gpu_busy", "power_w": "gpu_busy",
    "temp_c": "thermal", "throttle": "thermal",
    "rdma_rate": "network", "port_errors": "network",
}
"""Independent sources of evidence. SM activity and board power are two readings of the same
thing (how busy the GPUs are: one stall moves both), as are temperature and throttling, and a
rail's bytes and its errors: two metrics of one family confirm nothing the other did not."""


PAIR_METRICS = frozenset({"compute_ms", "busy_ms", "temp_c", "throttle"})
"""Metrics a two-node job is judged on. With two nodes no median says who is odd, but these
readings are the node's own: a straggler's compute (or busy) time and its GPUs' temperature
and slowdown bits rise on it alone, while its peer's stay where they were (the peer only
waits longer, which these readings do not count). So a node whose own reading rose from its
own level while its peer's did not is news (:func:`streams.slow.scoring.pair_observations`).
Step time (equal on every rank of a synchronous job), SM activity and power (the peer's drop
while it waits looks the same as the node rising) and rail bytes (a ring slows both ends
alike) cannot tell the two apart, and are not judged."""


class SlowSettings(BaseModel):
    """All knobs of :class:`~streams.slow.detector.SlowNodeDetector` (frozen, validated)."""

    model_config = ConfigDict(frozen=True)

    window_s: float = Field(default=20.0, gt=0)
    """Event-time window length. 20 s holds two reports per rank at the usual every-10-steps
    cadence, and 3 of 4 windows then fit well inside the two-minute detection budget."""
    min_nodes: int = Field(default=3, ge=3)
    """Fewest warm nodes with data for a change test: a median of two says nothing about who
    is odd. A job of exactly two nodes is judged on :data:`PAIR_METRICS` alone."""
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
    """Persistence when a metric of another evidence family (:data:`FAMILIES`) of the same
    node is suspect in the same window."""
    recovery_windows: int = Field(default=9, ge=1)
    """Consecutive normal windows that close an episode (3 minutes at the default window).
    Longer than the persistence needed to open one (hysteresis): a straggler that wobbles
    near the bar for a minute or two keeps its one episode instead of being announced again
    (the real Alibaba job_4's worker 6 stays slow for an hour after it doubles)."""
    warmup_windows: int = Field(default=6, ge=1)
    """Normal windows a node needs before its own level is trusted (2 minutes); until then it
    is never suspect: whatever it does from the start is its baseline."""
    baseline_windows: int = Field(default=15, ge=1)
    """Normal windows kept per node and metric for its level (5 minutes). Bounds memory and
    the saved state (about 100 KB for a 64-node job with every metric)."""
    warmup_steps: int = Field(default=50, ge=0)
    """Steps of each attempt (from the step it resumed at, or its first report) that are not
    judged: compilation, allocator and data-loader warm-up make the first steps slow, and
    unevenly so across nodes."""
    max_step_gap: float = Field(default=2.0, gt=1)
    """A window is training steadily when no gap between the job's step advances in it (and
    from its last advance to its end) exceeds this many times the job's typical gap: longer
    gaps are evaluation, a stall or a hang, when GPUs and NICs measure something else."""
    peer_band: float = Field(default=0.1, ge=0)
    """Peers of a node (whose shared change is divided out) are the nodes whose own level is
    within this fraction of its level: the same pipeline stage or GPU model, inferred from
    behaviour because communicator names do not say which stage a rank runs. A node with
    fewer than ``min_nodes - 1`` such peers is compared with the whole job."""
    rail_share: float = Field(default=0.5, gt=0, le=1)
    """A port is a compute rail of its node when it carried at least this share of the
    node's busiest port's bytes during the attempt: rails of a ring carry about the same
    volume; storage and management ports far less."""
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
    busy: MetricRule = Field(default_factory=_busy_rule)
    power: MetricRule = Field(default_factory=_power_rule)
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
            "busy_ms": self.step,
            "step_time_ms": self.step,
            "temp_c": self.temp,
            "throttle": self.throttle,
            "sm_active": self.busy,
            "power_w": self.power,
            "rdma_rate": self.rdma,
            "port_errors": self.port_errors,
        }[metric]
