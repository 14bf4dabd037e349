"""Settings of the incident stage: frozen, validated, every default explained (event-time s)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class IncidentSettings(BaseModel):
    """How a job's faults are grouped into incidents (TAXONOMY.md "Incidents")."""

    model_config = ConfigDict(frozen=True)

    window_s: float = Field(default=120.0, gt=0)
    """A fault that could be a root cause (anything but NCCL symptoms and generic cascade)
    joins an incident of the same attempt whose first fault is at most this far from its own
    ``first_seen``. 2 min spans the spread of one failure across ranks and kernel logs (the
    old policy's multi-node window)."""

    absorb_s: float = Field(default=1200.0, gt=0)
    """NCCL symptoms and generic cascade lines join the latest incident of their attempt that
    has a stronger root cause up to this long after it began: NCCL watchdogs fire only after
    the collective timeout (PyTorch's default 10 min), long after the fault that caused them."""

    settle_s: float = Field(default=60.0, ge=0)
    """An incident whose root cause is only the job's own error or a symptom is published once
    event time passed ``first_seen + settle_s`` (or at once if an infrastructure fault joins):
    kernel lines naming the real cause often arrive after the ranks' errors, shipped by another
    agent. 60 s is the pipeline's ``max_skew_s``: how far a node's telemetry may lag its job
    before the node counts as idle, so a kernel line inside that lag is waited for.
    Infrastructure root causes are published at once (detection latency matters there)."""

    link_settle_s: float = Field(default=15.0, ge=0)
    """An incident whose root cause is a link/port/NIC fault is published this long after its
    start, so that a switch or fabric failure (ports of several nodes going down within seconds)
    is seen as one multi-node incident rather than a replacement of the first node reported."""

    memory_s: float = Field(default=7200.0, gt=0)
    """Incidents untouched for this long are forgotten (they can no longer grow)."""

    max_incidents: int = Field(default=64, ge=4)
    """Open incidents kept per job at most (the stalest go first): bounds the state."""

    max_faults_per_incident: int = Field(default=256, ge=8)
    """Faults remembered per incident; later cascade faults only extend ``last_seen``. A
    1000-rank failure prints one NCCL error per rank; the cascade list need not hold them all."""
