"""The rows of the restart policy table (TAXONOMY.md) as pure functions from a cause to plans.

A :class:`Plan` is a proposed action before it gets an id and times. Each ``plans_for_*``
function reads the job state, records what it needs to remember (acted nodes, corrected-error
counts, job-blamed root causes per attempt) and returns the plans of the matching table row;
the ``checkpoint_now`` that precedes an interrupting action is added by the policy, not here.

Incidents (``streams.incident``) are the policy's view of faults: one root cause, its cascade
and the nodes of the root cause's tier. Only the root cause drives a decision.

Rule names (``Decision.policy_rule``) are part of the decision contract (docs/decisions.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from schemas import HangVerdict, Incident, Reason, SlowNode
from schemas.derived import Action, BlockScope
from streams.decide import severity
from streams.decide.settings import PolicySettings
from streams.decide.state import FaultInfo, JobState, need_iso

JOB_WIDE: frozenset[str] = frozenset({"restart_in_place", "resubmit_job", "stop_job"})
"""Actions that concern the whole job: at most one of them is proposed per attempt."""

NON_INTERRUPTING: frozenset[str] = frozenset({"notify", "checkpoint_now"})
"""Actions that do not stop the job, so no checkpoint is triggered before them."""

RULE_NODE_FAULT = "single_node_fault"
RULE_NODE_ERROR = "single_node_error"
RULE_NODE_NETWORK = "node_local_network"
RULE_FABRIC = "fabric_network"
RULE_LEMON = "lemon_node"
RULE_HANG_SOURCE = "hang_single_source"
RULE_SLOW_NODE = "slow_node_persistent"
RULE_MULTI_NODE = "not_single_point_multi_node"
RULE_NETWORK = "not_single_point_network"
RULE_HANG_WIDE = "not_single_point_hang"
RULE_ONE_NODE_DEADLOCK = "one_node_deadlock"
RULE_NODE_UNLOCALISED = "not_single_point_node_unknown"
RULE_RESTART_FAILED = "restart_failed"
RULE_JOB_REPEAT = "job_fault_repeated"
RULE_STORAGE = "storage_fault"
RULE_CHECKPOINT = "checkpoint_first"
RULE_WEAK_HANG = "weak_hang_evidence"

REPLACING_ACTIONS: frozenset[str] = frozenset({"replace_node", "contact_support"})
"""Recommended actions of a node fault that must be repaired: the node leaves the cluster."""


@dataclass(frozen=True)
class Plan:
    """One proposed action of one table row, before ids and times are assigned."""

    action: Action
    rule: str
    reason: Reason
    nodes: tuple[str, ...] = ()
    block_scope: BlockScope = "none"


def _reason(category: str, cause_ids: tuple[str, ...], summary: str) -> Reason:
    return Reason(kind="explicit_fault", category=category, cause_ids=cause_ids, summary=summary)


def _causes(incident: Incident) -> tuple[str, ...]:
    """An incident decision names the incident and its root-cause fault."""
    return tuple(sorted({incident.incident_id, incident.root_cause or incident.incident_id}))


def _restart(reason: Reason, rule: str) -> list[Plan]:
    return [Plan("restart_in_place", rule, reason)]


def _fabric(reason: Reason) -> list[Plan]:
    """The fabric row: restart in place (no node to blame) and tell a human."""
    return [*_restart(reason, RULE_FABRIC), Plan("notify", RULE_FABRIC, reason)]


# -- incidents -------------------------------------------------------------------------------


def root_info(state: JobState, incident: Incident) -> FaultInfo:
    """The root cause of ``incident`` as the policy saw it, or a stand-in built from the incident
    (level ``error``, action by blame) when the fault itself was not seen or was forgotten."""
    known = state.faults.get(incident.root_cause or "")
    if known is not None:
        return known
    node = incident.nodes[0] if len(incident.nodes) == 1 else None
    return FaultInfo(incident.category, "error", incident.blame, node, "reboot_node",
                     severity.TIER_JOB if incident.blame == "job" else severity.TIER_PRIMARY, None,
                     incident.first_seen)


def plans_for_incident(state: JobState, incident: Incident, root: FaultInfo, grown: bool,
                       cfg: PolicySettings) -> list[Plan]:
    """The plans for a new incident, a new root cause, or (``grown``) new nodes of its root tier."""
    if root.tier in (severity.TIER_NOTE, severity.TIER_CONTAINED):
        return minor_plans(state, incident, root, cfg)
    if root.tier == severity.TIER_PRIMARY:
        return _primary(state, incident, root, grown)
    if root.tier in (severity.TIER_JOB, severity.TIER_WEAK_JOB):
        return _job_root(state, incident, root)
    if root.tier == severity.TIER_SYMPTOM:
        if incident.attempt in state.acted_nodes.values():
            return []  # a node of this attempt is already being replaced: these are its cascade
        return _network_symptoms(state, incident, root)
    return []  # generic cascade alone: the launcher handles its own crash


PORT_CATEGORY = "ib_link"
"""The category a decision taken on port evidence names: the link, not the NCCL symptoms."""
PORT_WINDOW = timedelta(seconds=120)
"""How far before a network incident's first fault a port that went down counts as its cause
(NCCL gives up on an InfiniBand peer after its retries, seconds to a minute after the link)."""


def ports_down(state: JobState, around: datetime) -> list[str]:
    """The job's nodes with a port that went down (``policy._note_ports``) from ``PORT_WINDOW``
    before ``around`` on, in node order."""
    nodes = set(state.nodes)
    return sorted(n for n, t in state.ports_down.items()
                  if (not nodes or n in nodes) and need_iso(t) >= around - PORT_WINDOW)


def _network_symptoms(state: JobState, incident: Incident, root: FaultInfo) -> list[Plan]:
    """NCCL symptoms without a node, link or job error to explain them: a port that went down
    on one node names it (TAXONOMY: "one node's port down, link_downed rising on one node" is
    node-local: replace it); on several nodes it is the fabric (restart, tell a human); with
    no port evidence, not single-point (restart)."""
    causes, down = _causes(incident), ports_down(state, incident.first_seen)
    if len(down) == 1:
        if state.acted_nodes.get(down[0]) == incident.attempt:
            return []
        state.acted_nodes[down[0]] = incident.attempt
        summary = f"port down on {down[0]} alone, {root.category} its cascade: the node's own NIC or port, replace it"
        return [Plan("replace_nodes", RULE_NODE_NETWORK, _reason(PORT_CATEGORY, causes, summary), (down[0],), "cluster")]
    if len(down) > 1:
        summary = f"ports down on {', '.join(down)}, {root.category} their cascade: the fabric; restart, tell a human"
        reason = _reason(PORT_CATEGORY, causes, summary)
        return _fabric(reason)
    summary = (f"{root.category} on {len(incident.nodes) or 'unknown'} node(s) and no node, link or "
               f"job error to explain it: not single-point")
    return _restart(_reason(root.category, causes, summary), RULE_NETWORK)


def _primary(state: JobState, incident: Incident, root: FaultInfo, grown: bool) -> list[Plan]:
    causes = _causes(incident)
    if root.blame == "storage":
        summary = f"storage fault {root.category}: outside the scheduler's reach, notify"
        return [Plan("notify", RULE_STORAGE, _reason(root.category, causes, summary))]
    nodes = incident.nodes
    if len(nodes) == 1 and not grown:
        return _single_node(state, incident, root, nodes[0])
    where = ", ".join(nodes) if nodes else "no node named"
    if _network_only(state, incident, root):
        summary = f"network fault {root.category} on several nodes or the fabric ({where}): restart, tell a human"
        reason = _reason(root.category, causes, summary)
        return _fabric(reason)
    if not nodes:
        summary = f"node-blamed {root.category} without a node: not single-point"
        return _restart(_reason(root.category, causes, summary), RULE_NODE_UNLOCALISED)
    summary = f"node faults on {len(nodes)} nodes ({where}) at once: not single-point"
    return _restart(_reason(root.category, causes, summary), RULE_MULTI_NODE)


def _network_only(state: JobState, incident: Incident, root: FaultInfo) -> bool:
    primaries = [root, *(f for c in incident.cascade if (f := state.faults.get(c)) and f.tier == root.tier)]
    return all(f.link for f in primaries)


def _single_node(state: JobState, incident: Incident, root: FaultInfo, node: str) -> list[Plan]:
    if state.acted_nodes.get(node) == incident.attempt:
        return []
    if incident.attempt < state.attempt and state.nodes and node not in state.nodes:
        return []  # a late fault of an earlier attempt on a node the job no longer holds
    causes = _causes(incident)
    if root.link and (others := [n for n in ports_down(state, incident.first_seen) if n != node]):
        summary = (f"{root.category} on {node} and ports down on {', '.join(others)} at the same time: "
                   f"the fabric, not one node's NIC; restart, tell a human")
        reason = _reason(root.category, causes, summary)
        return _fabric(reason)
    state.acted_nodes[node] = incident.attempt
    if root.link:
        summary = f"{root.category} on {node} alone: the node's own NIC or port, replace it"
        return [Plan("replace_nodes", RULE_NODE_NETWORK, _reason(root.category, causes, summary), (node,), "cluster")]
    if root.action in REPLACING_ACTIONS:
        summary = f"{root.category} on {node} (action {root.action}): replace the node, block it cluster-wide"
        return [Plan("replace_nodes", RULE_NODE_FAULT, _reason(root.category, causes, summary), (node,), "cluster")]
    summary = f"{root.category} on {node} (action {root.action}): replace the node, drain and reboot it"
    reason = _reason(root.category, causes, summary)
    return [Plan("replace_nodes", RULE_NODE_ERROR, reason, (node,), "cluster"),
            Plan("drain_reboot_nodes", RULE_NODE_ERROR, reason, (node,), "cluster")]


def minor_plans(state: JobState, incident: Incident, root: FaultInfo, cfg: PolicySettings) -> list[Plan]:
    """A corrected/contained root cause counts its errors (its burst's lines so far) against
    its nodes, and so does every fault of its tier on that node that joined the incident as its
    cascade (contained errors within the incident window group: 30 Xid 94s over 25 minutes are
    a handful of incidents, each with several members); ``lemon_threshold`` of them within
    ``lemon_window_s`` make a node a lemon: ``drain_reboot_nodes`` + ``notify``, once per
    window. Called again when the incident is re-issued with the same root (its burst's count
    grew, or a member joined: errors that never fall quiet)."""
    at = root.first_seen
    plans: list[Plan] = []
    root_id = incident.root_cause or incident.incident_id
    for node in incident.nodes or ((root.node_id,) if root.node_id else ()):
        members = [(root_id, root.count, at)] + [
            (c, f.count, f.first_seen) for c in incident.cascade
            if (f := state.faults.get(c)) is not None and f.tier == root.tier and f.node_id == node]
        counted = _count_minor(state, node, members, cfg)
        errors = sum(state.minor_counts.get(k, 1) for k in counted)
        if errors < cfg.lemon_threshold or _reported(state, node, at, cfg):
            continue
        state.lemons[node] = at.isoformat()
        summary = (f"{errors} corrected/contained errors on {node} within "
                   f"{cfg.lemon_window_s:g} s: a lemon node, drain and reboot it")
        reason = _reason(root.category, tuple(sorted(counted)), summary)
        plans += [Plan("drain_reboot_nodes", RULE_LEMON, reason, (node,), "cluster"),
                  Plan("notify", RULE_LEMON, reason, (node,))]
    return plans


def _count_minor(state: JobState, node: str, members: list[tuple[str, int, datetime]],
                 cfg: PolicySettings) -> list[str]:
    """Record each member ``(fault id, errors so far, first seen)`` against ``node``; the node's
    faults within the lemon window of the newest member (older ones are forgotten, their counts too)."""
    horizon = max(at for _, _, at in members) - timedelta(seconds=cfg.lemon_window_s)
    old = state.minor.get(node, {})
    seen = {k: v for k, v in old.items() if need_iso(v) > horizon}
    for fault_id, count, at in members:
        seen.setdefault(fault_id, at.isoformat())
        state.minor_counts[fault_id] = max(count, state.minor_counts.get(fault_id, 1))
    for gone in set(old) - set(seen):
        state.minor_counts.pop(gone, None)
    state.minor[node] = seen
    return list(seen)


def _reported(state: JobState, node: str, at: datetime, cfg: PolicySettings) -> bool:
    last = state.lemons.get(node)
    return last is not None and at - need_iso(last) < timedelta(seconds=cfg.lemon_window_s)


def _job_root(state: JobState, incident: Incident, root: FaultInfo) -> list[Plan]:
    key = f"{root.category}|{'' if root.xid is None else root.xid}"
    attempt = incident.attempt
    state.job_roots.setdefault(attempt, {}).setdefault(key, incident.root_cause or incident.incident_id)
    for before, after in ((attempt - 1, attempt), (attempt, attempt + 1)):
        first, second = state.job_roots.get(before, {}).get(key), state.job_roots.get(after, {}).get(key)
        if first and second:
            summary = (f"job-blamed root cause {root.category} in attempts {before} and {after}: "
                       f"the job's own bug, stop it")
            reason = _reason(root.category, tuple(sorted({first, second})), summary)
            return [Plan("stop_job", RULE_JOB_REPEAT, reason), Plan("notify", RULE_JOB_REPEAT, reason)]
    return []


# -- hangs and slow nodes --------------------------------------------------------------------


def plans_for_hang(state: JobState, verdict: HangVerdict, cfg: PolicySettings) -> list[Plan]:
    """The plans for one hang verdict: replace its single source node, else restart in place;
    only ``notify`` when fewer than ``hang_min_signals`` independent signals saw the hang."""
    nodes = tuple(sorted(set(verdict.source_nodes)))
    seen = [name for name, value in verdict.signals.model_dump().items() if value is True]
    if len(seen) < cfg.hang_min_signals:
        summary = (f"possible hang seen by {len(seen)} signal(s) ({', '.join(seen) or 'none'}): too little "
                   f"evidence to stop a job that may be evaluating; look at it")
        return [Plan("notify", RULE_WEAK_HANG, Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary))]
    if len(nodes) == 1 and verdict.confidence >= cfg.hang_min_confidence:
        summary = f"hang localised to {nodes[0]} (confidence {verdict.confidence:.2f})"
        reason = Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary)
        if state.acted_nodes.get(nodes[0]) == verdict.attempt:
            return []
        state.acted_nodes[nodes[0]] = verdict.attempt
        return [Plan("replace_nodes", RULE_HANG_SOURCE, reason, nodes, "task")]
    if not nodes and len(state.nodes) == 1:
        summary = f"every rank of one-node job froze alike on {state.nodes[0]}: a software deadlock, restart"
        reason = Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary)
        return _restart(reason, RULE_ONE_NODE_DEADLOCK)
    where = ", ".join(nodes) if nodes else "no localisation"
    summary = f"hang not single-point ({where}, confidence {verdict.confidence:.2f})"
    reason = Reason(kind="hang", cause_ids=(verdict.verdict_id,), summary=summary)
    return _restart(reason, RULE_HANG_WIDE)


def plans_for_slow(state: JobState, slow: SlowNode, attempt: int, cfg: PolicySettings) -> list[Plan]:
    """The plans for one slow-node outlier: replace the node for this job once it persisted."""
    if slow.windows < cfg.slow_node_min_windows or state.acted_nodes.get(slow.node_id) == attempt:
        return []
    if state.nodes and slow.node_id not in state.nodes:
        return []  # the node already left the job
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


def plan_checkpoint(trigger: Plan, saving_since: datetime | None = None) -> Plan:
    """The ``checkpoint_now`` that precedes ``trigger`` while the job is still progressing
    (``saving_since``: the start of a checkpoint the job is already writing)."""
    summary = f"checkpoint before {trigger.action}: {trigger.reason.summary}"
    if saving_since is not None:
        summary += f" (a checkpoint is in progress since {saving_since.isoformat()}: save again once it completes)"
    reason = trigger.reason.model_copy(update={"summary": summary})
    return Plan("checkpoint_now", RULE_CHECKPOINT, reason)
