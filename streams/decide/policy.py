"""The restart policy (pure): one job's events in, *proposed* decisions out.

:class:`PolicyDetector` implements :class:`streams.core.detector.Detector` with one
:class:`~streams.decide.state.JobState` per ``job_id``. It runs last but one in the per-job
pipeline (hang -> slow -> incident -> policy -> ett) and reads, in event-time order, the job's
``JobEvent`` and ``StepProgress`` (whether, where and how fast it runs), the ``Fault`` events
routed to the job (remembered only, to read incidents), the ``Incident`` events of the incident
stage, ``HangVerdict`` and ``SlowNode``. It emits ``Decision`` events with ``guard=None``; the
guards (:mod:`streams.decide.guards`) decide what is finally published.

Contract:
- faults never drive a decision themselves: incidents do, through their root cause only
  (cascade faults never); an incident re-issued with the same root and nodes causes nothing, a
  new root cause is acted on, new nodes of the root's tier make it not single-point;
- each verdict/outlier id is acted on once;
- ``checkpoint_now`` precedes an interrupting action only while the job progresses (a step
  within ``max(progress_window_s, progress_steps x median step time)``) and was not asked within
  ``checkpoint_repeat_s``, and never for a hang, a lost GPU or an attempt whose ranks already
  died (a checkpoint could not be honoured), nor before ``stop_job``. A checkpoint the job is
  already writing does not replace it: the fault may have come after that save's state was
  taken, so the job is asked to save again once it completes (its summary says so);
- at most one job-wide action (restart_in_place, resubmit_job, stop_job) per attempt, none
  for an attempt older than the current one;
- after a ``restart_in_place`` the job must show a step of a newer attempt within
  ``restart_deadline_s`` (checked whenever an event or a flush advances event time), else
  ``resubmit_job`` with reason ``restart_failed``; a failure of the new attempt before any
  progress, or a new cause that would restart it in place again, triggers it at once;
- decision ids are ``derived_id("decision", job_id, action, policy_rule, *sorted(cause_ids))``,
  ``issued_at`` is the event time of the event that caused the decision, ``expires_at`` is
  ``issued_at + decision_ttl_s``. Nothing here reads the wall clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from statistics import median
from typing import Any

from schemas import (
    Decision,
    Event,
    Fault,
    HangVerdict,
    Incident,
    JobEvent,
    NetSample,
    SlowNode,
    StepProgress,
    derived_id,
)
from streams.core.dispatch import kinds
from streams.decide import rules, severity
from streams.decide.rules import Plan
from streams.decide.settings import PolicySettings
from streams.decide.state import Acted, FaultInfo, JobState, RestartWatch, need_iso

_STEP_SAMPLES = 64
"""Step times kept for the median step time (a rolling sample across ranks)."""

_CONSUMED = kinds(JobEvent, StepProgress, Fault, Incident, HangVerdict, SlowNode)
"""The kinds the policy reads; every other event of the job is ignored."""


def _note_ports(state: JobState, sample: NetSample) -> None:
    """Remember when one of the node's ports went down: it left ACTIVE or its link_downed
    counter rose since the previous sample (a port that was never ACTIVE, an unused or
    unplugged one, is no event). The network rows of the policy read it (``rules.ports_down``)."""
    for port in sample.ports:
        key = f"{sample.node_id}/{port.device}/{port.port}"
        before = state.ports.get(key)
        active = int(port.state == "ACTIVE")
        state.ports[key] = [port.link_downed_total, active]
        if before is not None and (port.link_downed_total > before[0] or (before[1] and not active)):
            state.ports_down[sample.node_id] = sample.event_time.isoformat()


class PolicyDetector:
    """The multi-level restart policy of TAXONOMY.md for one job (see the module docstring)."""

    name = "decide.policy"

    def __init__(self, settings: PolicySettings | None = None) -> None:
        self.settings = settings or PolicySettings()

    def initial(self) -> JobState:
        """A fresh state for a job never seen before."""
        return JobState()

    def dump(self, state: JobState) -> dict[str, Any]:
        """JSON-ready data of ``state``."""
        return state.dump()

    def load(self, data: dict[str, Any]) -> JobState:
        """The state :meth:`dump` saved."""
        return JobState.load(data)

    def step(self, state: JobState, event: Event) -> tuple[JobState, list[Event]]:
        """Feed one event of this job; returns the state and the proposed decisions it causes."""
        if isinstance(event, NetSample):
            _note_ports(state, event)  # evidence only: no decision, no deadline check
            return state, []
        if not _CONSUMED[type(event)]:
            return state, []
        self._identify(state, event)
        out: list[Event] = list(self._check_deadline(state, event.event_time, event.cluster))
        if isinstance(event, JobEvent):
            out += self._on_job_event(state, event)
        elif isinstance(event, StepProgress):
            self._on_step(state, event)
        elif isinstance(event, Fault):
            self._remember_fault(state, event)
        elif isinstance(event, Incident):
            out += self._on_incident(state, event)
        elif isinstance(event, HangVerdict | SlowNode):
            out += self._on_signal(state, event)
        return state, out

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """Evaluate the restart deadline as of event time ``now``; idempotent for one ``now``."""
        return state, list(self._check_deadline(state, now, state.cluster or "unknown"))

    # -- bookkeeping ---------------------------------------------------------------------

    def _identify(self, state: JobState, event: Event) -> None:
        job_id = getattr(event, "job_id", None)
        if state.job_id is None and job_id:
            state.job_id = job_id
        state.cluster = state.cluster or event.cluster

    def _on_step(self, state: JobState, event: StepProgress) -> None:
        if state.last_step_at is None or event.event_time >= state.last_step_at:
            state.last_step_at, state.last_step = event.event_time, event.step
        state.step_times_ms = [*state.step_times_ms[-(_STEP_SAMPLES - 1):], event.step_time_ms]
        state.stopped = False
        watch = state.restart
        if watch and watch.restarted_at and event.event_time >= watch.restarted_at:
            state.restart = None

    def _remember_fault(self, state: JobState, fault: Fault) -> None:
        known = state.faults.get(fault.fault_id)
        if known is not None:  # the same burst published again: only its count grew
            known.count = max(known.count, fault.count)
            return
        state.faults[fault.fault_id] = FaultInfo(
            fault.category, fault.level, fault.blame, fault.node_id, severity.action_of(fault),
            severity.tier_of(fault), fault.xid, fault.first_seen, fault.family, fault.count)
        horizon = fault.event_time - timedelta(seconds=self.settings.fault_memory_s)
        old = [k for k, f in state.faults.items() if f.first_seen < horizon]
        old += list(state.faults)[: max(0, len(state.faults) - len(old) - self.settings.max_faults)]
        for key in old:
            state.faults.pop(key, None)

    def _on_job_event(self, state: JobState, event: JobEvent) -> list[Decision]:
        state.attempt = max(state.attempt, event.attempt)
        if event.placement:
            state.nodes = sorted({p.node_id for p in event.placement})
        if event.kind == "checkpoint_started":
            state.checkpointing_since = event.event_time
        elif event.kind == "checkpoint_completed":
            state.checkpointing_since = None
        elif event.kind in ("finished", "cancelled"):
            state.ended, state.restart = True, None
        elif event.kind == "failed":
            state.stopped = True
        elif event.kind == "running":
            state.stopped = False
        return self._watch_job_event(state, event)

    def _watch_job_event(self, state: JobState, event: JobEvent) -> list[Decision]:
        watch = state.restart
        if watch is None or event.attempt <= watch.attempt:
            return []
        if watch.restarted_at is None:
            watch.restarted_at = event.event_time
        if event.kind != "failed":
            return []
        why = f"attempt {event.attempt} failed before making progress"
        return self._resubmit(state, watch, event.event_time, event.cluster, why)

    # -- restart deadline ----------------------------------------------------------------

    def _check_deadline(self, state: JobState, now: datetime, cluster: str) -> list[Decision]:
        watch = state.restart
        if watch is None or now <= watch.deadline:
            return []
        why = f"no step of a newer attempt within {self.settings.restart_deadline_s:g} s"
        return self._resubmit(state, watch, now, cluster, why)

    def _resubmit(self, state: JobState, watch: RestartWatch, at: datetime, cluster: str,
                  why: str) -> list[Decision]:
        state.restart = None
        if state.ended or state.job_action_attempt == state.attempt > watch.attempt:
            return []
        state.job_action_attempt = state.attempt
        plan = rules.plan_resubmit(watch.decision_id, watch.cause_ids, why)
        return [self._decision(state, plan, at, state.attempt, cluster)]

    # -- causes --------------------------------------------------------------------------

    def _on_incident(self, state: JobState, incident: Incident) -> list[Decision]:
        if state.ended or state.job_id is None or incident.root_cause is None:
            return []
        prev = state.incidents.get(incident.incident_id)
        if prev and prev.root == incident.root_cause and set(incident.nodes) <= set(prev.nodes):
            return self._recount(state, incident)
        grown = prev is not None and prev.root == incident.root_cause
        self._remember_incident(state, incident)
        root = rules.root_info(state, incident)
        plans = rules.plans_for_incident(state, incident, root, grown, self.settings)
        can_checkpoint = not severity.loses_gpu(root.category, root.xid) and not self._died(state, incident)
        return self._emit(state, plans, incident.attempt, incident.event_time, incident.cluster, can_checkpoint)

    def _recount(self, state: JobState, incident: Incident) -> list[Decision]:
        """An incident re-issued unchanged but for its ``last_seen``: a corrected/contained root
        cause's burst grew, so its errors are counted again against its nodes (lemon nodes)."""
        root = rules.root_info(state, incident)
        if root.tier not in (severity.TIER_NOTE, severity.TIER_CONTAINED):
            return []
        plans = rules.minor_plans(state, incident, root, self.settings)
        return self._emit(state, plans, incident.attempt, incident.event_time, incident.cluster, False)

    def _remember_incident(self, state: JobState, incident: Incident) -> None:
        at = incident.event_time
        state.incidents[incident.incident_id] = Acted(incident.root_cause or "", list(incident.nodes),
                                                      incident.attempt, at)
        horizon = at - timedelta(seconds=self.settings.memory_s)
        state.incidents = {k: v for k, v in state.incidents.items() if v.at >= horizon}

    def _died(self, state: JobState, incident: Incident) -> bool:
        """True when a member of the incident says a rank's process is already gone."""
        members = [incident.root_cause or "", *incident.cascade]
        return any((f := state.faults.get(m)) and f.category in severity.DEATH_CATEGORIES for m in members)

    def _on_signal(self, state: JobState, event: HangVerdict | SlowNode) -> list[Decision]:
        cause_id = event.verdict_id if isinstance(event, HangVerdict) else event.outlier_id
        if state.ended or state.job_id is None or cause_id in state.seen:
            return []
        self._remember(state, cause_id, event.event_time)
        attempt = state.attempt if event.attempt is None else int(event.attempt)
        if attempt < state.attempt or state.job_action_attempt == attempt:
            return []  # an older attempt, or the job is already being restarted
        if isinstance(event, HangVerdict):
            if attempt in state.acted_nodes.values():
                return []  # a node of this attempt is already being replaced: the hang is its symptom
            plans = rules.plans_for_hang(state, event, self.settings)
            return self._emit(state, plans, attempt, event.event_time, event.cluster, False)
        plans = rules.plans_for_slow(state, event, attempt, self.settings)
        return self._emit(state, plans, attempt, event.event_time, event.cluster, True)

    def _emit(self, state: JobState, plans: list[Plan], attempt: int, at: datetime, cluster: str,
              can_checkpoint: bool) -> list[Decision]:
        plans = self._escalate(state, plans, attempt)
        plans = self._once_per_attempt(state, plans, attempt)
        if not plans:
            return []
        if can_checkpoint:
            plans = self._with_checkpoint(state, plans, at)
        decisions = [self._decision(state, p, at, attempt, cluster) for p in plans]
        self._start_watch(state, decisions, attempt)
        return decisions

    def _remember(self, state: JobState, cause_id: str, at: datetime) -> None:
        horizon = at - timedelta(seconds=self.settings.memory_s)
        state.seen = {k: v for k, v in state.seen.items() if need_iso(v) >= horizon}
        state.seen[cause_id] = at.isoformat()

    def _escalate(self, state: JobState, plans: list[Plan], attempt: int) -> list[Plan]:
        """A restart in place proposed again after one that brought no progress -> resubmit."""
        watch = state.restart
        if watch is None or watch.restarted_at is None or attempt <= watch.attempt:
            return plans
        if not any(p.action == "restart_in_place" for p in plans):
            return plans
        state.restart = None
        causes = [c for p in plans for c in p.reason.cause_ids]
        why = f"attempt {attempt} needs a restart again before making progress"
        resubmit = rules.plan_resubmit(watch.decision_id, [*watch.cause_ids, *causes], why)
        return [resubmit if p.action == "restart_in_place" else p for p in plans]

    def _once_per_attempt(self, state: JobState, plans: list[Plan], attempt: int) -> list[Plan]:
        if not any(p.action in rules.JOB_WIDE for p in plans):
            return plans
        if attempt < state.attempt or state.job_action_attempt == attempt:
            return [p for p in plans if p.action not in rules.JOB_WIDE and p.rule not in _JOB_WIDE_RULES]
        state.job_action_attempt = attempt
        return plans

    def _with_checkpoint(self, state: JobState, plans: list[Plan], at: datetime) -> list[Plan]:
        trigger = next((p for p in plans if p.action not in rules.NON_INTERRUPTING), None)
        if trigger is None or trigger.action == "stop_job" or trigger.rule == rules.RULE_LEMON:
            return plans
        if not self._progressing(state, at):
            return plans
        state.checkpoint_requested_at = at
        return [rules.plan_checkpoint(trigger, state.checkpointing_since), *plans]

    def progress_window_s(self, state: JobState) -> float:
        """How old the last step may be for the job to count as progressing (see settings)."""
        cfg = self.settings
        typical_s = median(state.step_times_ms) / 1000.0 if state.step_times_ms else 0.0
        return max(cfg.progress_window_s, cfg.progress_steps * typical_s)

    def _progressing(self, state: JobState, at: datetime) -> bool:
        cfg = self.settings
        if state.stopped or state.last_step_at is None:
            return False
        if at - state.last_step_at > timedelta(seconds=self.progress_window_s(state)):
            return False
        asked = state.checkpoint_requested_at
        return asked is None or at - asked >= timedelta(seconds=cfg.checkpoint_repeat_s)

    def _start_watch(self, state: JobState, decisions: list[Decision], attempt: int) -> None:
        for d in decisions:
            if d.action == "restart_in_place":
                deadline = d.issued_at + timedelta(seconds=self.settings.restart_deadline_s)
                state.restart = RestartWatch(d.decision_id, attempt, d.issued_at, deadline,
                                             list(d.reason.cause_ids))

    def _decision(self, state: JobState, plan: Plan, at: datetime, attempt: int,
                  cluster: str) -> Decision:
        job_id = state.job_id or ""
        decision_id = derived_id("decision", job_id, plan.action, plan.rule,
                                 *sorted(plan.reason.cause_ids))
        return Decision(
            event_id=decision_id, event_time=at, cluster=cluster, decision_id=decision_id,
            job_id=job_id, attempt=attempt, issued_at=at, action=plan.action, nodes=plan.nodes,
            block_scope=plan.block_scope, reason=plan.reason, policy_rule=plan.rule,
            expires_at=at + timedelta(seconds=self.settings.decision_ttl_s),
        )


_JOB_WIDE_RULES = frozenset({rules.RULE_JOB_REPEAT, rules.RULE_FABRIC, rules.RULE_RESTART_FAILED})
"""Rules whose companion ``notify`` goes with the job-wide action it accompanies."""
