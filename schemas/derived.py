"""Derived events of the v1 contract: what the pipeline concludes from the telemetry.

Every derived event's ``event_id`` equals its own id field (``fault_id``, ``verdict_id``,
...) and is deterministic (see ``schemas.ids``), so replays reproduce it and sinks and
actuators deduplicate on it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.envelope import Event, UtcTime

Level = Literal["error", "fault"]
Blame = Literal["node", "network", "job", "storage"]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)


LEARNED_RULE_PREFIX = "learned."
"""The ``rule_id`` prefix of faults whose category the learned fallback guessed."""


class Fault(Event):
    """An explicit fault classified from log lines; ``count`` folds repeats in its dedup window.

    A burst is announced at its first line (``count`` 1) and re-issued with the same
    ``fault_id`` and the final ``count`` and ``last_seen`` when it closes; consumers keep the
    row with the highest ``count``.
    """

    KIND = "fault"
    fault_id: str
    node_id: str | None = None
    job_id: str | None = None
    rank: int | None = None
    category: str
    family: str
    level: Level
    blame: Blame
    explicit: bool = True
    xid: int | None = None
    rule_id: str
    evidence: str
    first_seen: UtcTime
    count: int = Field(ge=1)
    # v1 extensions (optional, additive)
    last_seen: UtcTime | None = None
    gpu_index: int | None = None
    attempt: int | None = None
    gpu_pci: str | None = None
    """PCI address of the GPU the line names (``0000:3b:00``), when it names one."""
    action: str | None = None
    """The vendor's recommended action for this fault (e.g. the Xid catalog's), when known."""

    @property
    def learned(self) -> bool:
        """Whether the category is the learned fallback's guess (``rule_id`` ``learned.<category>``)
        for a line no rule reads: shown, never a cause of a decision (EVENTS.md)."""
        return self.rule_id.startswith(LEARNED_RULE_PREFIX)


class HangSignals(_Part):
    """The four hang probes; ``None`` where a probe had no data in the window."""

    log_silent: bool | None = None
    metrics_idle: bool | None = None
    stacks_frozen: bool | None = None
    collective_stalled: bool | None = None


class HangVote(Event):
    """One evaluation of the hang vote for one job."""

    KIND = "hang_vote"
    job_id: str
    attempt: int = Field(ge=0)
    window_start: UtcTime
    window_end: UtcTime
    signals: HangSignals
    votes: int = Field(ge=0)
    hang: bool


class Localization(_Part):
    """One localisation method's finding."""

    method: str
    ranks: tuple[int, ...] = ()
    detail: str = ""


class HangVerdict(Event):
    """One verdict per hang, with the estimated onset and the localised source."""

    KIND = "hang_verdict"
    verdict_id: str
    job_id: str
    attempt: int = Field(ge=0)
    onset_time: UtcTime
    detected_at: UtcTime
    signals: HangSignals
    source_ranks: tuple[int, ...] = ()
    source_nodes: tuple[str, ...] = ()
    localization: tuple[Localization, ...] = ()
    confidence: float = Field(ge=0, le=1)


class SlowNode(Event):
    """A persistent group-consistency outlier: one per episode, not one per window."""

    KIND = "slow_node"
    outlier_id: str
    job_id: str
    node_id: str
    ranks: tuple[int, ...] = ()
    metric: str
    value: float
    baseline: float
    slowdown: float
    score: float
    windows: int = Field(ge=1)
    detected_at: UtcTime
    # v1 extension (optional, additive)
    attempt: int | None = None


Action = Literal[
    "checkpoint_now",
    "restart_in_place",
    "replace_nodes",
    "resubmit_job",
    "drain_reboot_nodes",
    "stop_job",
    "notify",
]
BlockScope = Literal["none", "task", "cluster"]
ReasonKind = Literal["explicit_fault", "hang", "slow_node", "restart_failed", "manual"]


class Reason(_Part):
    """Why a decision was taken: the kind of cause, its category and the causing event ids."""

    kind: ReasonKind
    category: str | None = None
    cause_ids: tuple[str, ...] = ()
    summary: str = ""


class Guard(_Part):
    """Set when a blast-radius, cooldown or flap guard downgraded or refused the action."""

    refused: bool
    rule: str
    detail: str = ""


class Decision(Event):
    """The public contract downstream schedulers consume (see docs/decisions.md)."""

    KIND = "decision"
    decision_id: str
    job_id: str
    attempt: int = Field(ge=0)
    issued_at: UtcTime
    action: Action
    nodes: tuple[str, ...] = ()
    block_scope: BlockScope = "none"
    reason: Reason
    policy_rule: str
    expires_at: UtcTime | None = None
    guard: Guard | None = None


ActuationStatus = Literal["applied", "duplicate", "refused", "failed"]


class Actuation(Event):
    """What an actuator did with one decision."""

    KIND = "actuation"
    decision_id: str
    actuator: str
    status: ActuationStatus
    detail: str = ""
    applied_at: UtcTime


EttKind = Literal[
    "productive", "detection", "scheduling", "initialization", "recompute", "checkpoint", "idle"
]


class EttInterval(Event):
    """One interval of a job's wall time, attributed to productive work or one kind of loss."""

    KIND = "ett_interval"
    job_id: str
    attempt: int = Field(ge=0)
    kind: EttKind
    start: UtcTime
    end: UtcTime
    cause_id: str | None = None
    gpus: int | None = Field(default=None, ge=0)
    """v1 extension: ranks in the attempt's placement, for GPU-hours."""


class Incident(Event):
    """v1 extension: a job's faults of one incident window, one root cause and its cascade.

    Re-issued with the same ``incident_id`` as the incident grows (more cascade, later
    ``last_seen``); consumers keep the row with the latest ``last_seen``.
    """

    KIND = "incident"
    incident_id: str
    job_id: str
    attempt: int = Field(ge=0)
    root_cause: str | None = None
    cascade: tuple[str, ...] = ()
    category: str
    blame: Blame
    nodes: tuple[str, ...] = ()
    first_seen: UtcTime
    last_seen: UtcTime


DeadLetterStage = Literal["decode", "validate", "process", "sink"]


class DeadLetter(Event):
    """A message that could not be decoded, validated, processed or sunk, kept with its raw bytes."""

    KIND = "dead_letter"
    source_topic: str
    partition: int = -1
    offset: int = -1
    stage: DeadLetterStage
    error: str
    raw: str = ""
    key: str | None = None
    # v1 extensions (optional, additive): a dead letter stays under the broker's message
    # limit, so ``raw`` keeps at most the first MAX_RAW_BYTES of the original value.
    raw_bytes: int | None = Field(default=None, ge=0)
    """Length of the original value in bytes (``raw`` may hold only its beginning)."""
    raw_sha256: str | None = None
    """SHA-256 (hex) of the whole original value."""
