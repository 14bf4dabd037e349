"""Event factories for the ClickHouse sink's unit tests (pure, no I/O).

A uniquely named module rather than conftest, so test modules may import it safely.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from schemas import Decision, Fault, Guard, HangSignals, HangVerdict, Localization, Reason

T0 = datetime(2026, 11, 22, 8, 0, 0, 123000, tzinfo=UTC)


def fault(fault_id: str = "f1", count: int = 1, **extra: Any) -> Fault:
    base: dict[str, Any] = dict(
        event_id=fault_id, event_time=T0, cluster="c1", fault_id=fault_id, node_id="n1",
        category="gpu_xid", family="gpu", level="fault", blame="node", rule_id="xid79",
        evidence="Xid 79", first_seen=T0, count=count,
    )
    return Fault(**{**base, **extra})


def decision(decision_id: str = "d1", **extra: Any) -> Decision:
    base: dict[str, Any] = dict(
        event_id=decision_id, event_time=T0, cluster="c1", decision_id=decision_id, job_id="j1",
        attempt=0, issued_at=T0, action="replace_nodes", nodes=("n1", "n2"), block_scope="task",
        reason=Reason(kind="explicit_fault", category="gpu_xid", cause_ids=("f1",), summary="xid"),
        policy_rule="explicit_node_fault", guard=Guard(refused=False, rule="blast", detail="ok"),
    )
    return Decision(**{**base, **extra})


def verdict(verdict_id: str = "v1") -> HangVerdict:
    return HangVerdict(
        event_id=verdict_id, event_time=T0, cluster="c1", verdict_id=verdict_id, job_id="j1",
        attempt=1, onset_time=T0 - timedelta(seconds=30), detected_at=T0,
        signals=HangSignals(log_silent=True, metrics_idle=None, stacks_frozen=True),
        source_ranks=(3,), source_nodes=("n2",),
        localization=(Localization(method="collective_lag", ranks=(3,), detail="seq 41"),),
        confidence=0.9,
    )
