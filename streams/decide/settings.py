"""Settings of the restart policy and its guards: frozen, validated, every default explained.

Built once at the entry point (``faultline decide`` / ``faultline replay``) and passed to
:class:`~streams.decide.policy.PolicyDetector` and :class:`~streams.decide.guards.GuardDetector`.
All durations are event-time seconds.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PolicySettings(BaseModel):
    """How the pure policy turns faults, hang verdicts and slow nodes into proposed decisions."""

    model_config = ConfigDict(frozen=True)

    progress_window_s: float = Field(default=60.0, gt=0)
    """A job counts as still progressing when its last step is at most
    ``max(progress_window_s, progress_steps x median step time)`` old at the cause's event
    time. 60 s covers common step times while excluding a job that is already hung or dead,
    for which a checkpoint is useless."""

    progress_steps: float = Field(default=5.0, gt=0)
    """The progress window in median step times, for jobs whose steps are long (a 40 s step
    would look stalled after 60 s): five steps of silence is no longer training."""

    lemon_threshold: int = Field(default=10, ge=1)
    """Corrected or contained errors (reports: a burst's repeats included, the lines of one report
    once, see ``ClassifySettings.report_s``) on one node within
    ``lemon_window_s`` that make it a lemon node: ``drain_reboot_nodes`` + ``notify``. 10 per
    24 h is mcelog's default ``memory-ce-threshold`` ("10 / 24h"), which counts errors, not
    episodes: a corrected error every 30 s never falls quiet, yet it is 2,880 a day. Below it
    such errors never take a node."""

    lemon_window_s: float = Field(default=86_400.0, gt=0)
    """The window of the lemon count (24 h), also how long a lemon report is not repeated."""

    fault_memory_s: float = Field(default=7200.0, gt=0)
    """How long the policy keeps what it needs of each fault (to read incidents' root causes):
    longer than any incident can keep growing (``IncidentSettings.absorb_s``)."""

    max_faults: int = Field(default=2048, ge=16)
    """At most this many faults are kept per job (the oldest go first)."""

    checkpoint_repeat_s: float = Field(default=300.0, ge=0)
    """No second ``checkpoint_now`` for a job within this window of the previous one: a burst of
    faults should trigger one checkpoint, not one per line (a checkpoint takes minutes)."""

    restart_deadline_s: float = Field(default=900.0, gt=0)
    """After a ``restart_in_place``, the job must report a step of its new attempt within this
    time or it is resubmitted (reason ``restart_failed``). 15 min covers re-scheduling, NCCL
    initialisation and checkpoint loading of large jobs (Baige/MegaScale report minutes)."""

    decision_ttl_s: float = Field(default=900.0, gt=0)
    """``expires_at = issued_at + decision_ttl_s``: an actuator must not act on a decision older
    than this, because the situation it answers has most likely changed (15 min)."""

    slow_node_min_windows: int = Field(default=1, ge=1)
    """A slow-node outlier is acted on once it persisted for at least this many evaluation
    windows. The slow-node detector already requires persistence before it emits (one
    ``slow_node`` per episode), so by default every emitted outlier is acted on; raise this
    to demand more evidence than the detector does."""

    hang_min_confidence: float = Field(default=0.5, ge=0, le=1)
    """A hang verdict localised to one node is acted on as single-point only at or above this
    confidence; below it the hang is treated as unlocalised (restart in place)."""

    hang_min_signals: int = Field(default=2, ge=1, le=4)
    """Independent hang signals (log silence, idle metrics, frozen stacks, stalled collectives)
    a verdict needs before the policy restarts or replaces anything. A job reporting only
    logs and steps has one: a long evaluation looks exactly like a hang there, so such a
    verdict gets a ``notify`` (the framework's own watchdog still ends a real hang)."""

    memory_s: float = Field(default=86_400.0, gt=0)
    """How long cause ids are remembered to act once per fault/verdict/outlier id (24 h: far
    longer than any redelivery or burst re-issue)."""


class GuardSettings(BaseModel):
    """Blast-radius, cooldown, flap and duplicate guards applied to proposed decisions."""

    model_config = ConfigDict(frozen=True)

    window_s: float = Field(default=3600.0, gt=0)
    """Length of the sliding event-time window of the blast-radius limits (the "per hour")."""

    max_nodes_per_job: int = Field(default=2, ge=0)
    """Distinct nodes one job may take out (any block scope) per window, at least. A job that
    keeps breaking nodes is more likely broken itself; beyond the limit the node action is
    refused and the job gets the strongest job-wide action that removes no node + ``notify``."""

    max_job_share: float = Field(default=0.05, ge=0, le=1)
    """The per-job limit grows with the job: ``max(max_nodes_per_job, floor(share x nodes of
    the job))``. A 512-node job loses a node every few hours on its own (Llama 3: 419
    interruptions in 54 days on 16k GPUs); 5 % of it per hour is still far from a job that
    breaks everything it touches."""

    max_nodes_per_cluster: int = Field(default=16, ge=0)
    """Distinct nodes the whole cluster may block (block scope ``cluster``) per window."""

    max_cluster_share: float = Field(default=0.05, ge=0, le=1)
    """Share of the cluster's nodes that may be blocked (scope ``cluster``) per window. The
    effective limit is ``min(max_nodes_per_cluster, floor(share * size))`` but never below
    ``min_nodes_per_cluster``. 5 %: a real hardware failure rate is well under 1 %/h; a mass
    failure above 5 % is almost always a shared cause (network, storage, a bad driver rollout)
    that draining would only make worse."""

    min_nodes_per_cluster: int = Field(default=1, ge=0)
    """Floor of the cluster limit so that small clusters can still block one node."""

    cluster_size: int | None = Field(default=None, ge=1)
    """Number of nodes of the cluster; ``None``: the distinct nodes seen in job placements. When
    the size is unknown (no placement seen yet) only ``max_nodes_per_cluster`` applies."""

    node_cooldown_s: float = Field(default=3600.0, ge=0)
    """A node blocked less than this ago, and not seen back in a placement since, is not
    blocked again: the earlier action is still in flight or the node is still out."""

    flap_window_s: float = Field(default=86_400.0, ge=0)
    """A node blocked again within this time after it came back (reappeared in a placement)
    is flapping: it gets a ``cluster`` block plus a ``notify`` for a human (24 h)."""

    memory_s: float = Field(default=86_400.0, gt=0)
    """How long decision ids are remembered for duplicate suppression (24 h)."""
