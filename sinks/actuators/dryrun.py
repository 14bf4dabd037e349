"""The default actuator: logs what it would do, touches nothing.

With ``journal_path`` set it also appends one JSON line per applied decision (fsynced before
``apply`` returns), which makes the dry run auditable and lets ``recover`` answer exactly
whether an interrupted decision had already been logged.
"""

from __future__ import annotations

import json
import logging
import os
import time
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from schemas import Actuation, Decision
from sinks.actuators.base import actuation, describe, tag

log = logging.getLogger(__name__)


class DryRunSettings(BaseModel):
    """Settings of the dry-run actuator."""

    model_config = ConfigDict(frozen=True)

    journal_path: str | None = None
    """Where to append one JSON line per applied decision; None: log only."""
    delay_s: float = Field(default=0.0, ge=0)
    """Simulated actuation latency before the effect (tests use it to crash mid-apply); 0."""


class DryRunActuator:
    """Logs each decision it would carry out (see the module docstring)."""

    name = "dry-run"

    def __init__(self, settings: DryRunSettings | None = None) -> None:
        self.settings = settings or DryRunSettings()

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """Log (and journal) ``decision``; always ``applied``."""
        if self.settings.delay_s:
            time.sleep(self.settings.delay_s)
        text = f"dry-run: would {describe(decision)}"
        log.info(text)
        self._journal(decision, now)
        return actuation(decision, self.name, "applied", text, now)

    def recover(self, decision: Decision) -> bool:
        """True when the journal already holds ``decision`` (always False without a journal)."""
        path = self.settings.journal_path
        if path is None or not Path(path).exists():
            return False
        with open(path, encoding="utf-8") as fh:
            return any(json.loads(line).get("decision_id") == decision.decision_id
                       for line in fh if line.strip())

    def _journal(self, decision: Decision, now: datetime) -> None:
        path = self.settings.journal_path
        if path is None:
            return
        line = json.dumps({"decision_id": decision.decision_id, "tag": tag(decision),
                           "action": decision.action, "nodes": list(decision.nodes),
                           "at": now.isoformat()})
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())
