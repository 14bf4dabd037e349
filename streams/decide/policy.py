"""The restart policy (pure): one job's events in, *proposed* decisions out.

:class:`PolicyDetector` implements :class:`streams.core.detector.Detector` with one
:class:`~streams.decide.state.JobState` per ``job_id``. The shell feeds it, in event-time
order, the job's ``JobEvent`` and ``StepProgress`` (to know whether and where it runs and
progresses) and the causes routed to the job: ``Fault`` (node-keyed faults whose ``job_id``
is null are routed by the shell to the job whose placement contains the node),
``HangVerdict`` and ``SlowNode``. It emits ``Decision`` events with ``guard=None``; the
guards (:mod:`streams.decide.guards`) decide what is finally published.

Contract:
- each fault/verdict/outlier id is acted on once (a fault burst arrives twice: at count 1 and
  again with its final count);
- ``checkpoint_now`` precedes any interrupting action while the job still progresses (a step
  within ``progress_window_s``) and is not already checkpointing;
- at most one job-wide action (restart_in_place, resubmit_job, stop_job) per attempt;
- after a ``restart_in_place`` the job must show a step of a newer attempt within
  ``restart_deadline_s`` (checked whenever an event or a flush advances event time), else
  ``resubmit_job`` with reason ``restart_failed``; a failure of the new attempt before any
  progress triggers it at once;
- decision ids are ``derived_id("decision", job_id, action, policy_rule, *sorted(cause_ids))``,
  ``issued_at`` is the event time of the event that caused the decision, ``expires_at`` is
  ``issued_at + decision_ttl_s``. Nothing here reads the wall clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from schemas import Decision, Event, Fault, HangVerdict, JobEvent, SlowNode, StepProgress, derived_id
from streams.decide import rules
from streams.decide.rules import Plan
from streams.decide.settings import PolicySettings
from streams.decide.state import JobState, RestartWatch, need_iso


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
        if not isinstance(event, (JobEvent, StepProgress, Fault, HangVerdict, SlowNode)):
            return state, []
        self._identify(state, event)
        out: list[Event] = list(self._check_deadline(state, event.event_time, event.cluster))
        if isinstance(event, JobEvent):
            out += self._on_job_event(state, event)
        elif isinstance(event, StepProgress):
            self._on_step(state, event)
        else:
            out += self._on_cause(state, event)
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
        state.stopped = False
        watch = state.restart
        if watch and watch.restarted_at and event.event_time >= watch.restarted_at:
            state.restart = None

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
        state.job_action_attempt = state.attempt
        plan = rules.plan_resubmit(watch.decision_id, watch.cause_ids, why)
        return [self._decision(state, plan, at, state.attempt, cluster)]

    # -- causes --------------------------------------------------------------------------

    def _on_cause(self, state: JobState, event: Fault | HangVerdict | SlowNode) -> list[Decision]:
        cause_id = _cause_id(event)
        if state.ended or state.job_id is None or cause_id in state.seen:
            return []
        self._remember(state, cause_id, event.event_time)
        attempt = _attempt_of(event, state)
        plans = self._plans(state, event, attempt)
        plans = self._once_per_attempt(state, plans, attempt)
        if not plans:
            return []
        plans = self._with_checkpoint(state, plans, event.event_time)
        decisions = [self._decision(state, p, event.event_time, attempt, event.cluster) for p in plans]
        self._start_watch(state, decisions, attempt)
        return decisions

    def _plans(self, state: JobState, event: Fault | HangVerdict | SlowNode, attempt: int) -> list[Plan]:
        if isinstance(event, Fault):
            return rules.plans_for_fault(state, event, attempt, self.settings)
        if isinstance(event, HangVerdict):
            return [] if attempt < state.attempt else rules.plans_for_hang(state, event, self.settings)
        return rules.plans_for_slow(state, event, attempt, self.settings)

    def _remember(self, state: JobState, cause_id: str, at: datetime) -> None:
        horizon = at - timedelta(seconds=self.settings.memory_s)
        state.seen = {k: v for k, v in state.seen.items() if need_iso(v) >= horizon}
        state.seen[cause_id] = at.isoformat()

    def _once_per_attempt(self, state: JobState, plans: list[Plan], attempt: int) -> list[Plan]:
        if not any(p.action in rules.JOB_WIDE for p in plans):
            return plans
        if attempt < state.attempt or state.job_action_attempt == attempt:
            return [p for p in plans if p.action not in rules.JOB_WIDE and p.rule != rules.RULE_JOB_REPEAT]
        state.job_action_attempt = attempt
        return plans

    def _with_checkpoint(self, state: JobState, plans: list[Plan], at: datetime) -> list[Plan]:
        trigger = next((p for p in plans if p.action not in rules.NON_INTERRUPTING), None)
        if trigger is None or not self._progressing(state, at):
            return plans
        state.checkpoint_requested_at = at
        return [rules.plan_checkpoint(trigger), *plans]

    def _progressing(self, state: JobState, at: datetime) -> bool:
        cfg = self.settings
        if state.stopped or state.last_step_at is None or state.checkpointing_since is not None:
            return False
        if at - state.last_step_at > timedelta(seconds=cfg.progress_window_s):
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


def _cause_id(event: Fault | HangVerdict | SlowNode) -> str:
    if isinstance(event, Fault):
        return event.fault_id
    return event.verdict_id if isinstance(event, HangVerdict) else event.outlier_id


def _attempt_of(event: Fault | HangVerdict | SlowNode, state: JobState) -> int:
    attempt = getattr(event, "attempt", None)
    return state.attempt if attempt is None else int(attempt)
