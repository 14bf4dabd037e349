"""Decision builders for the actuator tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from schemas import Decision, Guard, Reason, derived_id

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def decision(action: str = "replace_nodes", nodes: tuple[str, ...] = ("node001",), scope: str = "cluster",
             job_id: str = "4242", ttl_s: float = 900, issued: datetime = NOW, guard: Guard | None = None,
             cause: str = "f1") -> Decision:
    """A final decision issued at ``issued`` expiring ``ttl_s`` later."""
    did = derived_id("decision", job_id, action, "test", cause)
    return Decision(event_id=did, event_time=issued, cluster="c1", decision_id=did, job_id=job_id,
                    attempt=0, issued_at=issued, action=action, nodes=nodes, block_scope=scope,  # type: ignore[arg-type]  # literal from str
                    reason=Reason(kind="explicit_fault", category="gpu_fallen_off_bus", cause_ids=(cause,),
                                  summary="Xid 79 on node001"),
                    policy_rule="single_node_fault", expires_at=issued + timedelta(seconds=ttl_s), guard=guard)


def later(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)
