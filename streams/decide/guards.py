"""The guards (pure): proposed decisions in, final decisions out, one state per cluster.

:class:`GuardDetector` implements :class:`streams.core.detector.Detector` keyed by
``cluster``. The shell feeds it, in event-time order, the proposed decisions of the policy
(``guard is None``) and the cluster's ``JobEvent`` (placements tell the cluster size and when
a blocked node came back). For every proposed decision it emits, in this order of checks:

1. nothing, when the ``decision_id`` was already seen (duplicate suppression: redelivery
   under at-least-once processing must not act twice);
2. the decision unchanged when it takes no node (checkpoint, restart, resubmit, stop, notify);
3. a *refused* copy (``guard.refused`` true, rule ``node_cooldown``) when a node is still out
   from an earlier block that covers this one (when that block was the same job's, its
   replacement is already under way and nothing else is added);
4. for a flapping node (blocked again within ``flap_window_s`` after it came back): the action
   with ``block_scope`` ``cluster`` and guard rule ``flapping_node`` (not refused), plus a
   ``notify``;
5. a refused copy (rule ``job_blast_radius``) when the job would take more than
   ``max(max_nodes_per_job, floor(max_job_share x job nodes))`` distinct nodes per window;
6. a refused copy (rule ``cluster_blast_radius``) when cluster-scope blocks would exceed the
   cluster limit, plus one ``notify`` alert per window (rule ``cluster_blast_radius_alert``);
7. otherwise the decision unchanged.

A refusal never leaves a broken job alone: after a refused copy (3 with another job's block,
5, 6) comes the strongest job-wide action that removes no node, guard rule
``refused_fallback`` (not refused): ``restart_in_place``, or ``resubmit_job`` when a restart in
place already passed for an earlier attempt of the job and no later attempt has run since (it
did not bring the job back), plus a ``notify`` for a human. A later attempt's ``running`` event
clears that restart: a new refusal after it restarts in place again (brief D3, finding B). No
fallback action when a job-wide action already passed for the attempt, nor when the refused
decision takes a node from under a job that is not broken (``NOT_BROKEN_RULES``: a lemon node's
drain; brief D3, finding A): only the ``notify``. One fallback per refused cause (a refused
``replace_nodes`` and its ``drain_reboot_nodes`` companion get one).

A guarded decision's id is ``derived_id("decision", job_id, proposed_id, "guard", rule)``, a
fallback's ``derived_id("decision", job_id, proposed_id, "fallback", action)`` and an added
notify's ``derived_id("decision", job_id, "notify", rule, proposed_id)``, so replays reproduce
them. ``issued_at`` and ``expires_at`` are those of the proposed decision.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from schemas import Decision, Event, Guard, JobEvent, derived_id
from schemas.derived import Action
from streams.decide.guard_state import Block, ClusterState, NodeRecord
from streams.decide.rules import RULE_LEMON
from streams.decide.settings import GuardSettings
from streams.decide.state import need_iso

TAKING: frozenset[str] = frozenset({"replace_nodes", "drain_reboot_nodes"})
"""Actions that take nodes away from a job or the cluster: the ones the guards limit."""

RULE_COOLDOWN = "node_cooldown"
RULE_FLAPPING = "flapping_node"
RULE_JOB_LIMIT = "job_blast_radius"
RULE_CLUSTER_LIMIT = "cluster_blast_radius"
RULE_CLUSTER_ALERT = "cluster_blast_radius_alert"
RULE_FALLBACK = "refused_fallback"

JOB_WIDE: frozenset[str] = frozenset({"restart_in_place", "resubmit_job", "stop_job"})
NOT_BROKEN_RULES: frozenset[str] = frozenset({RULE_LEMON})
"""Policy rules that take a node from under a job that still works (the job is not broken): a
refusal of them gets only the ``notify``; a job-wide fallback would harm a healthy job."""


class GuardDetector:
    """Blast-radius, cooldown, flap and duplicate guards (see the module docstring)."""

    name = "decide.guards"

    def __init__(self, settings: GuardSettings | None = None) -> None:
        self.settings = settings or GuardSettings()

    def initial(self) -> ClusterState:
        """A fresh state for a cluster never seen before."""
        return ClusterState()

    def dump(self, state: ClusterState) -> dict[str, Any]:
        """JSON-ready data of ``state``."""
        return state.dump()

    def load(self, data: dict[str, Any]) -> ClusterState:
        """The state :meth:`dump` saved."""
        return ClusterState.load(data)

    def flush(self, state: ClusterState, now: datetime) -> tuple[ClusterState, list[Event]]:
        """Nothing is ever pending in the guards: always no output."""
        return state, []

    def step(self, state: ClusterState, event: Event) -> tuple[ClusterState, list[Event]]:
        """Feed one event of this cluster; returns the state and the final decisions."""
        if isinstance(event, JobEvent):
            self._on_job_event(state, event)
            return state, []
        if not isinstance(event, Decision) or event.guard is not None:
            return state, []
        self._prune(state, event.issued_at)
        if event.decision_id in state.seen:
            return state, []
        state.seen[event.decision_id] = event.issued_at.isoformat()
        if event.action not in TAKING:
            self._note_job_wide(state, event)
            return state, [event]
        return state, list(self._guard_taking(state, event))

    # -- placements ----------------------------------------------------------------------

    def _on_job_event(self, state: ClusterState, event: JobEvent) -> None:
        if event.kind in ("finished", "cancelled"):
            state.forget_job(event.job_id)
        restarted = state.restarts.get(event.job_id)
        if event.kind == "running" and restarted is not None and event.attempt > restarted:
            del state.restarts[event.job_id]  # the restart brought the job back: it did not fail
        if event.placement:
            state.job_sizes[event.job_id] = len({p.node_id for p in event.placement})
        for placed in event.placement:
            state.placed_nodes.add(placed.node_id)
            rec = state.nodes.get(placed.node_id)
            if rec is None or rec.returned_at is not None or event.event_time <= rec.blocked_at:
                continue
            if rec.scope == "cluster" or rec.job_id == event.job_id:
                rec.returned_at = event.event_time

    # -- node-taking decisions -----------------------------------------------------------

    def _guard_taking(self, state: ClusterState, d: Decision) -> list[Decision]:
        causes = ",".join(sorted(d.reason.cause_ids))
        cooling, own = self._cooling(state, d, causes)
        if cooling:
            refused = _guarded(d, RULE_COOLDOWN, True, cooling)
            return [refused] if own else [refused, *self._fallback(state, d, causes, cooling)]
        flapping = self._flapping(state, d)
        candidate = d.model_copy(update={"block_scope": "cluster"}) if flapping else d
        excess = self._job_excess(state, candidate)
        if excess:
            return [_guarded(candidate, RULE_JOB_LIMIT, True, excess),
                    *self._fallback(state, d, causes, excess)]
        excess = self._cluster_excess(state, candidate)
        if excess:
            return [*self._refuse_cluster(state, candidate, excess), *self._fallback(state, d, causes, excess)]
        self._record(state, candidate, causes)
        if not flapping:
            return [d]
        return [_guarded(candidate, RULE_FLAPPING, False, flapping),
                _notify(candidate, RULE_FLAPPING, flapping)]

    def _cooling(self, state: ClusterState, d: Decision, causes: str) -> tuple[str, bool]:
        """Why a node of ``d`` is still cooling ("" if none), and whether the block was ``d``'s job's."""
        cooldown = timedelta(seconds=self.settings.node_cooldown_s)
        for node in d.nodes:
            rec = state.nodes.get(node)
            if rec is None or rec.causes == causes or rec.returned_at is not None:
                continue
            covers = rec.scope == "cluster" or (rec.job_id == d.job_id and d.block_scope == "task")
            if covers and d.issued_at - rec.blocked_at < cooldown:
                return (f"{node} was blocked ({rec.scope}) at {rec.blocked_at.isoformat()} and has "
                        f"not come back; cooldown {self.settings.node_cooldown_s:g} s"), rec.job_id == d.job_id
        return "", False

    # -- job-wide actions and the fallback of a refusal ------------------------------------

    def _note_job_wide(self, state: ClusterState, d: Decision) -> None:
        if d.action not in JOB_WIDE:
            return
        state.job_wide[d.job_id] = max(state.job_wide.get(d.job_id, d.attempt), d.attempt)
        if d.action == "restart_in_place":
            state.restarts[d.job_id] = max(state.restarts.get(d.job_id, d.attempt), d.attempt)

    def _fallback(self, state: ClusterState, d: Decision, causes: str, why: str) -> list[Decision]:
        """The job-wide action that removes no node, plus a notify, for a refused node action."""
        if state.fallbacks.get(d.job_id) == causes:
            return []
        state.fallbacks[d.job_id] = causes
        detail = f"{d.action} {', '.join(d.nodes)} refused ({why})"
        out: list[Decision] = []
        if state.job_wide.get(d.job_id, -1) < d.attempt and d.policy_rule not in NOT_BROKEN_RULES:
            restarted = state.restarts.get(d.job_id)
            action: Action = "resubmit_job" if restarted is not None and restarted < d.attempt else "restart_in_place"
            out.append(_job_wide_fallback(d, action, detail))
            self._note_job_wide(state, out[0])
        return [*out, _notify(d, RULE_FALLBACK, f"{detail}: a human must look at {', '.join(d.nodes)}")]

    def _flapping(self, state: ClusterState, d: Decision) -> str:
        window = timedelta(seconds=self.settings.flap_window_s)
        for node in d.nodes:
            rec = state.nodes.get(node)
            if rec and rec.returned_at and d.issued_at - rec.returned_at <= window:
                return (f"{node} fails again {(d.issued_at - rec.returned_at).total_seconds():g} s "
                        f"after it came back: flapping, block it cluster-wide and tell a human")
        return ""

    def job_limit(self, state: ClusterState, job_id: str) -> int:
        """The number of distinct nodes ``job_id`` may take per window (scales with its size)."""
        cfg = self.settings
        return max(cfg.max_nodes_per_job, math.floor(cfg.max_job_share * state.job_sizes.get(job_id, 0)))

    def _job_excess(self, state: ClusterState, d: Decision) -> str:
        taken = {b.node for b in state.blocks if b.job_id == d.job_id}
        after = taken | set(d.nodes)
        limit = self.job_limit(state, d.job_id)
        if after == taken or len(after) <= limit:
            return ""
        return (f"job {d.job_id} would take {len(after)} nodes within "
                f"{self.settings.window_s:g} s (limit {limit}): not taking {', '.join(d.nodes)}")

    def cluster_limit(self, state: ClusterState) -> int:
        """The number of distinct nodes this cluster may block (scope cluster) per window."""
        cfg = self.settings
        size = cfg.cluster_size or len(state.placed_nodes)
        limit = cfg.max_nodes_per_cluster
        if size:
            limit = min(limit, math.floor(cfg.max_cluster_share * size))
        return max(limit, cfg.min_nodes_per_cluster)

    def _cluster_excess(self, state: ClusterState, d: Decision) -> str:
        if d.block_scope != "cluster":
            return ""
        taken = {b.node for b in state.blocks if b.scope == "cluster"}
        after = taken | set(d.nodes)
        limit = self.cluster_limit(state)
        if after == taken or len(after) <= limit:
            return ""
        return (f"cluster would block {len(after)} nodes within {self.settings.window_s:g} s "
                f"(limit {limit}): refusing {', '.join(d.nodes)}")

    def _refuse_cluster(self, state: ClusterState, d: Decision, detail: str) -> list[Decision]:
        out = [_guarded(d, RULE_CLUSTER_LIMIT, True, detail)]
        last = state.alerted_at
        if last is None or d.issued_at - last >= timedelta(seconds=self.settings.window_s):
            state.alerted_at = d.issued_at
            out.append(_notify(d, RULE_CLUSTER_ALERT, f"blast-radius limit reached: {detail}"))
        return out

    def _record(self, state: ClusterState, d: Decision, causes: str) -> None:
        for node in d.nodes:
            state.blocks.append(Block(d.issued_at, d.job_id, node, d.block_scope))
            state.nodes[node] = NodeRecord(d.issued_at, d.job_id, d.block_scope, causes)

    def _prune(self, state: ClusterState, now: datetime) -> None:
        cfg = self.settings
        window = now - timedelta(seconds=cfg.window_s)
        state.blocks = [b for b in state.blocks if b.at > window]
        memory = now - timedelta(seconds=cfg.memory_s)
        state.seen = {k: v for k, v in state.seen.items() if need_iso(v) >= memory}
        keep = timedelta(seconds=max(cfg.node_cooldown_s, cfg.flap_window_s))
        state.nodes = {k: r for k, r in state.nodes.items()
                       if now - max(r.blocked_at, r.returned_at or r.blocked_at) <= keep}


def _guarded(d: Decision, rule: str, refused: bool, detail: str) -> Decision:
    new_id = derived_id("decision", d.job_id, d.decision_id, "guard", rule)
    guard = Guard(refused=refused, rule=rule, detail=detail)
    return d.model_copy(update={"decision_id": new_id, "event_id": new_id, "guard": guard})


def _job_wide_fallback(d: Decision, action: Action, detail: str) -> Decision:
    new_id = derived_id("decision", d.job_id, d.decision_id, "fallback", action)
    guard = Guard(refused=False, rule=RULE_FALLBACK, detail=f"{detail}: {action} instead, removing no node")
    kind = "restart_failed" if action == "resubmit_job" else d.reason.kind
    reason = d.reason.model_copy(update={"kind": kind, "summary": f"{action} instead of {detail}"})
    return d.model_copy(update={"decision_id": new_id, "event_id": new_id, "action": action, "nodes": (),
                                "block_scope": "none", "guard": guard, "reason": reason})


def _notify(d: Decision, rule: str, detail: str) -> Decision:
    new_id = derived_id("decision", d.job_id, "notify", rule, d.decision_id)
    guard = Guard(refused=False, rule=rule, detail=detail)
    return d.model_copy(update={"decision_id": new_id, "event_id": new_id, "action": "notify",
                                "block_scope": "none", "guard": guard})
