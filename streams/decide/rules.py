"""The rows of the restart policy table (TAXONOMY.md) as pure functions from a cause to plans.

A :class:`Plan` is a proposed action before it gets an id and times. Each ``plans_for_*``
function reads the job state, records what it needs to remember (acted nodes, recent node
faults, job-blamed categories) and returns the plans of the matching table row; the
``checkpoint_now`` that precedes an interrupting action is added by the policy, not here.

Rule names (``Decision.policy_rule``) are part of the decision contract (docs/decisions.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from schemas import Fault, HangVerdict, Reason, SlowNode
from schemas.derived import Action, BlockScope
from streams.decide.settings import PolicySettings
from streams.decide.state import JobState, need_iso

JOB_WIDE: frozenset[str] = frozenset({"restart_in_place", "resubmit_job", "stop_job"})
"""Actions that concern the whole job: at most one of them is proposed per attempt."""

NON_INTERRUPTING: frozenset[str] = frozenset({"notify", "checkpoint_now"})
"""Actions that do not stop the job, so no checkpoint is triggered before them."""

RULE_NODE_FAULT = "single_node_fault"
RULE_NODE_ERROR = "single_node_error"
RULE_HANG_SOURCE = "hang_single_source"
RULE_SLOW_NODE = "slow_node_persistent"
RULE_MULTI_NODE = "not_single_point_multi_node"
RULE_NETWORK = "not_single_point_network"
RULE_HANG_WIDE = "not_single_point_hang"
RULE_NODE_UNLOCALISED = "not_single_point_node_unknown"
RULE_RESTART_FAILED = "restart_failed"
RULE_JOB_REPEAT = "job_fault_repeated"
RULE_STORAGE = "storage_fault"
RULE_CHECKPOINT = "checkpoint_first"


@dataclass(frozen=True)
class Plan:
    """One proposed action of one table row, before ids and times are assigned."""

    action: Action
    rule: str
    reason: Reason
    nodes: tuple[str, ...] = ()
    block_scope: BlockScope = "none"


def _fault_reason(fault: Fault, cause_ids: tuple[str, ...], summary: str) -> Reason:
    return Reason(kind="explicit_fault", category=fault.category, cause_ids=cause_ids,
                  summary=summary)


def _restart(reason: Reason, rule: str) -> list[Plan]:
    return [Plan("restart_in_place", rule, reason)]


def plans_for_fault(state: JobState, fault: Fault, attempt: int, cfg: PolicySettings) -> list[Plan]:
    """The plans for one explicit fault (first sighting of its ``fault_id``)."""
    if fault.blame == "node" and fault.node_id:
        return _node_fault(state, fault, fault.node_id, attempt, cfg)
    if fault.blame in ("node", "network"):
        rule = RULE_NETWORK if fault.blame == "network" else RULE_NODE_UNLOCALISED
        where = fault.node_id or "unknown node"
        summary = f"{fault.blame}-blamed {fault.category} ({where}): not single-point"
        return _restart(_fault_reason(fault, (fault.fault_id,), summary), rule)
    if fault.blame == "job":
        return _job_fault(state, fault, attempt)
    summary = f"storage fault {fault.category}: outside the scheduler's reach, notify"
    return [Plan("notify", RULE_STORAGE, _fault_reason(fault, (fault.fault_id,), summary))]


def _other_recent_nodes(state: JobState, node: str, at: datetime,
                        cfg: PolicySettings) -> list[tuple[str, str, str]]:
    horizon = at - timedelta(seconds=cfg.multi_node_window_s)
    state.recent_node_faults = [r for r in state.recent_node_faults if need_iso(r[0]) >= horizon]
    return [r for r in state.recent_node_faults if r[1] != node]


def _node_fault(state: JobState, fault: Fault, node: str, attempt: int,
                cfg: PolicySettings) -> list[Plan]:
    at = fault.first_seen
    others = _other_recent_nodes(state, node, at, cfg)
    state.recent_node_faults.append((at.isoformat(), node, fault.fault_id))
    if others:
        nodes = sorted({r[1] for r in others} | {node})
        causes = tuple(sorted({r[2] for r in others} | {fault.fault_id}))
        summary = f"node faults on {len(nodes)} nodes ({', '.join(nodes)}) at once: not single-point"
        return _restart(_fault_reason(fault, causes, summary), RULE_MULTI_NODE)
    if state.acted_nodes.get(node) == attempt:
        return []
    state.acted_nodes[node] = attempt
    return _replace_node(fault, node)


def _replace_node(fault: Fault, node: str) -> list[Plan]:
    causes = (fault.fault_id,)
    if fault.level == "fault":
        summary = f"{fault.category} on {node} (level fault): replace the node, block it cluster-wide"
        reason = _fault_reason(fault, causes, summary)
        return [Plan("replace_nodes", RULE_NODE_FAULT, reason, (node,), "cluster")]
    summary = f"{fault.category} on {node} (level error): replace the node, drain and reboot it"
    reason = _fault_reason(fault, causes, summary)
    return [Plan("replace_nodes", RULE_NODE_ERROR, reason, (node,), "cluster"),
            Plan("drain_reboot_nodes", RULE_NODE_ERROR, reason, (node,), "cluster")]


def _job_fault(state: JobState, fault: Fault, attempt: int) -> list[Plan]:
    earlier = state.job_faults.get(fault.category)
    if earlier is None or earlier[0] >= attempt:
        if earlier is None:
            state.job_faults[fault.category] = (attempt, fault.fault_id)
        return []
    causes = tuple(sorted({earlier[1], fault.fault_id}))
    summary = (f"job-blamed {fault.category} repeated in attempt {attempt} "
               f"(first in attempt {earlier[0]}): the job's own bug, stop it")
    reason = _fault_reason(fault, causes, summary)
    return [Plan("stop_job", RULE_JOB_REPEAT, reason), Plan("notify", RULE_JOB_REPEAT, reason)]


def plans_for_hang(state: JobState, verdict: HangVerdict, cfg: PolicySettings) -> list[Plan]:
    """The plans for one hang verdict: replace its single source node, else restart in place."""
    nodes = tuple(sorted(set(verdict.source_nodes)))
    if len(nodes) == 1 and verdict.confidence >= cfg.hang_min_confidence:
        summary = f"hang localised to {nodes[0]} (confidence {verdict.confidence:.2f})"
        reason = Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary)
        if state.acted_nodes.get(nodes[0]) == verdict.attempt:
            return []
        state.acted_nodes[nodes[0]] = verdict.attempt
        return [Plan("replace_nodes", RULE_HANG_SOURCE, reason, nodes, "task")]
    where = ", ".join(nodes) if nodes else "no localisation"
    summary = f"hang not single-point ({where}, confidence {verdict.confidence:.2f})"
    reason = Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary)
    return _restart(reason, RULE_HANG_WIDE)


def plans_for_slow(state: JobState, slow: SlowNode, attempt: int, cfg: PolicySettings) -> list[Plan]:
    """The plans for one slow-node outlier: replace the node for this job once it persisted."""
    if slow.windows < cfg.slow_node_min_windows or state.acted_nodes.get(slow.node_id) == attempt:
        return []
    state.acted_nodes[slow.node_id] = attempt
    summary = (f"{slow.node_id} slow on {slow.metric}: {slow.slowdown:.2f}x the job median "
               f"for {slow.windows} windows")
    reason = Reason(kind="slow_node", category=slow.metric, cause_ids=(slow.outlier_id,),
                    summary=summary)
    return [Plan("replace_nodes", RULE_SLOW_NODE, reason, (slow.node_id,), "task")]


def plan_resubmit(watch_decision: str, cause_ids: list[str], why: str) -> Plan:
    """The ``resubmit_job`` plan of a restart_in_place that did not bring the job back."""
    reason = Reason(kind="restart_failed", cause_ids=tuple(sorted({watch_decision, *cause_ids})),
                    summary=f"restart_in_place {watch_decision} did not bring the job back: {why}")
    return Plan("resubmit_job", RULE_RESTART_FAILED, reason)


def plan_checkpoint(trigger: Plan) -> Plan:
    """The ``checkpoint_now`` that precedes ``trigger`` while the job is still progressing."""
    summary = f"checkpoint before {trigger.action}: {trigger.reason.summary}"
    reason = trigger.reason.model_copy(update={"summary": summary})
    return Plan("checkpoint_now", RULE_CHECKPOINT, reason)
