"""The actuator contract: ``apply(decision) -> Actuation``, plus what every actuator shares.

An actuator turns one final decision into side effects on a target (Slurm, Kubernetes, an
HTTP endpoint, a log). The :class:`~sinks.actuators.runner.ActuatorRunner` guarantees that
``apply`` sees each decision id at most once per store, never sees an expired decision or one
a guard refused, and calls :meth:`Actuator.recover` instead of ``apply`` for a decision whose
earlier ``apply`` was interrupted by a crash (see ``store.py`` for the exactly-once argument).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from schemas import Actuation, Decision, derived_id
from schemas.derived import ActuationStatus

TAG_PREFIX = "faultline"


class Actuator(Protocol):
    """Something that carries out decisions on one kind of target."""

    name: str
    """The ``actuation.actuator`` value (``dry-run``, ``slurm``, ``kubernetes``, ``webhook``)."""

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """Carry out ``decision`` at wall-clock ``now``; returns status ``applied`` (or ``failed``
        for a result the target reported as not done). Raises ``RetryableActuatorError`` for a
        transient failure (nothing or an idempotent part was done) and
        ``PermanentActuatorError`` for a failure retrying cannot fix."""
        ...

    def recover(self, decision: Decision) -> bool:
        """After a crash in the middle of ``apply(decision)``: True when the target shows the
        decision's effect already landed (so it must not be applied again), False when it did
        not (the runner applies it now). Must not change the target."""
        ...


def tag(decision: Decision) -> str:
    """The short marker written into the target with each effect (Slurm reason, node
    annotation, log line): it is how :meth:`Actuator.recover` finds a landed effect."""
    return f"{TAG_PREFIX}:{decision.decision_id[:16]}"


def actuation(decision: Decision, actuator: str, status: ActuationStatus, detail: str,
              now: datetime, salt: str = "") -> Actuation:
    """The actuation event for ``decision``; its id is deterministic in the decision, the
    actuator, the status and ``salt`` (used to tell repeated ``duplicate`` reports apart)."""
    event_id = derived_id("actuation", decision.decision_id, actuator, status, salt or None)
    return Actuation(event_id=event_id, event_time=now, cluster=decision.cluster,
                     decision_id=decision.decision_id, actuator=actuator, status=status,
                     detail=detail[:2000], applied_at=now)


def is_expired(decision: Decision, now: datetime) -> bool:
    """True when ``decision`` has an ``expires_at`` at or before wall-clock ``now``."""
    return decision.expires_at is not None and decision.expires_at <= now


def describe(decision: Decision) -> str:
    """A one-line human description of what ``decision`` asks for."""
    nodes = f" nodes={','.join(decision.nodes)}" if decision.nodes else ""
    return (f"{decision.action} job={decision.job_id} attempt={decision.attempt}{nodes} "
            f"scope={decision.block_scope} rule={decision.policy_rule} id={decision.decision_id}")
