"""Validated settings of the classify stage, built once at the entry point and passed down."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ClassifySettings(BaseModel):
    """How the classify detector folds bursts and escalates blame.

    Defaults follow NVIDIA's guidance to treat Xids that repeat within minutes as one
    incident: a burst stays open until ``quiet_s`` (3 minutes) pass without a repeat.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    quiet_s: float = Field(default=180.0, gt=0)
    """A burst closes when its key has been silent for more than this many seconds."""
    report_s: float = Field(default=1.0, ge=0)
    """Lines of one burst less than this many seconds after the line that began its current
    report are that report, not repeats: the kernel prints a machine check's lines (CPU/Bank,
    TSC/ADDR/MISC, PROCESSOR, the EDAC decode) in the same instant, and a flood one report a
    second still counts 86,400 a day. 0 counts every line."""
    escalation_bursts: int = Field(default=2, ge=2)
    """A job-blamed Xid seen in this many separate bursts on one node is blamed on the node."""
    escalation_horizon_s: float = Field(default=86_400.0, gt=0)
    """Only bursts whose first line is within this many seconds count towards escalation."""
    max_open_bursts: int = Field(default=4096, ge=1)
    """Cap on open bursts per state key; the least recently seen is closed first."""
    max_escalation_keys: int = Field(default=1024, ge=1)
    """Cap on (node, Xid) histories kept per state key; the stalest is dropped first."""
    evidence_max_chars: int = Field(default=2000, ge=80)
    """Evidence (the first line of a burst) is cut to this length."""
    kb_path: str | None = None
    """Knowledge base file; ``None`` means the packaged ``kb.yaml``."""
    learned: bool = True
    """Offer lines no rule reads to the learned fallback (``streams.classify.learned``): its
    guesses are shown with rule id ``learned.<category>`` and never acted on."""
    learned_path: str | None = None
    """Learned model file; ``None`` means the packaged ``learned.json.gz``."""
