"""Lifecycle context from evidence, with hooks as hints: which quiet phase explains the probes.

A job that checkpoints, evaluates or initialises is legitimately quiet. The phase is read
from what the ranks do, hooks being one hint among others:

- ``init``: from ``scheduled``/``restarting`` until ``running`` *or the first step
  progress* (a launcher that never sends ``running`` does not hide the job for long).
- ``checkpoint`` from a hook only while the job makes no progress since the hook: a
  checkpoint during which steps advance is asynchronous and never masks the training loop;
  nor does any later hooked save of that job (its saves run in the background: a hang that
  begins before the loop's next step report is not mistaken for a synchronous save).
- ``checkpoint`` from the stacks: the frozen majority sits in checkpoint I/O frames (an
  all-rank synchronous save), or the ranks that differ from the frozen waiters are all in
  I/O frames (a rank-0 writer while the others wait in a barrier), or, before any group
  has frozen, some ranks' latest stacks are in I/O frames and all the others' are one
  (``StackView.writing``).
- ``checkpoint``/``eval`` announced by the job's latest training line ("saving checkpoint",
  "evaluating ...").

A hooked or announced phase is contradicted (explains nothing) when the stacks show the
shape of a hang: a frozen waiter group that is not I/O and no I/O rank outside it.

A phase explains the probes of ``HangSettings.phase_explains`` for its budget:
``min(phase_budget_max_s, max(floor, phase_overrun_factor x the longest earlier quiet period
or phase of the job))``, the floor being ``checkpoint_budget_s`` or ``init_budget_s``; the
cap keeps every budget below the framework watchdog. The one exception is an announced
evaluation of a job whose only probe with data is log/step progress (``solo``): see
``HangSettings.solo_eval_budget_s``. Past the budget the phase explains
nothing and relaxes the probes that normally demand the signature of a collective wait
(see ``probes.run_probes``): a save stuck in I/O freezes stacks in I/O frames and idles the
GPUs without spinning them.
"""

from __future__ import annotations

from dataclasses import dataclass

from schemas import JobEvent
from streams.hang.ingest import restart_floor
from streams.hang.settings import HangSettings
from streams.hang.stackview import StackView
from streams.hang.state import AttemptState, JobState, last_activity_us, seconds, to_us

EXPLAINED_PHASES = ("init", "checkpoint")
TERMINAL_KINDS = ("failed", "finished", "cancelled", "submitted")
"""Kinds after which nothing runs (``submitted``: queued, not placed yet): no vote."""
PHASE_OF_KIND = {
    "scheduled": "init",
    "restarting": "init",
    "running": "train",
    "checkpoint_started": "checkpoint",
    "checkpoint_completed": "train",
}


@dataclass(frozen=True)
class PhaseView:
    """The quiet phase the evidence shows at one evaluation, where from, and since when."""

    kind: str
    since_us: int
    source: str


def apply_job_event(state: JobState, event: JobEvent, settings: HangSettings) -> None:
    """Advance the lifecycle of ``state`` by one job_event (mutates ``state``).

    A higher ``attempt`` starts a fresh :class:`AttemptState` (evidence and verdict episode
    reset). Any event with a placement (``scheduled``, or a ``restarting`` onto new nodes)
    replaces it. Entering ``train`` moves the evidence floor to the event time: silence or
    frozen stacks accumulated during an explained phase do not count once it has ended. A
    checkpoint hook records the step it began at (progress past it: asynchronous). Hooks are
    counted: a save that begins in the instant the previous one completes, its start reported
    first, keeps the job in its checkpoint until the last completion, which also ends a save
    the job's log announced.
    """
    now_us = to_us(event.event_time)
    if event.attempt > state.attempt:
        state.attempt = event.attempt
        state.run = AttemptState()
    if event.placement:  # required on scheduled; a restart onto new nodes may carry one too
        state.placement = {p.rank: p.node_id for p in event.placement}
    if event.kind == "checkpoint_started":
        state.announces_saves = True
        _hook_began(state, now_us)
    elif event.kind == "checkpoint_completed":
        if _hook_ended(state):
            return  # another save is still open: the job stays in its checkpoint
        _announced_save_over(state.run)
    if event.kind in TERMINAL_KINDS:
        _enter(state, "terminal", now_us, settings)
    elif event.kind in PHASE_OF_KIND:
        _enter(state, PHASE_OF_KIND[event.kind], now_us, settings)


def _hook_began(state: JobState, now_us: int) -> None:
    """A checkpoint hook opened: the step it began at (progress past it: asynchronous). A
    start at the very instant the open checkpoint began is the same hook delivered again."""
    run = state.run
    if state.phase != "checkpoint":
        run.hook_step, run.hook_depth = (run.max_step if run.max_step is not None else -1), 0
    elif now_us == state.phase_since_us:
        return
    run.hook_depth += 1


def _hook_ended(state: JobState) -> bool:
    """A checkpoint hook closed; whether another one is still open (its end not seen yet)."""
    run = state.run
    if state.phase != "checkpoint":
        return False
    run.hook_depth = max(0, run.hook_depth - 1)
    return run.hook_depth > 0


def _announced_save_over(run: AttemptState) -> None:
    """The last open checkpoint hook completed: a save the log announced is over too, even if
    its end line never comes (its writer died, or hung right after announcing it)."""
    run.save_hook_done = run.phase_line == "checkpoint"


def progress_seen(state: JobState, now_us: int, settings: HangSettings) -> None:
    """Step progress during ``init`` means the job trains (its launcher sent no ``running``)."""
    if state.phase == "init":
        _enter(state, "train", now_us, settings)


def _enter(state: JobState, phase: str, now_us: int, settings: HangSettings) -> None:
    """Switch phase; a repeated kind (a duplicate or nested checkpoint event) changes nothing."""
    if phase == state.phase:
        return
    if _asynchronous(state):  # a background save paused nothing: no history, no fresh floor
        state.saves_in_background = True
    else:
        _record(state, now_us, settings)
        if phase == "train":
            restart_floor(state.run, now_us)
    state.phase = phase
    state.phase_since_us = now_us


def _asynchronous(state: JobState) -> bool:
    """Whether the hooked checkpoint being left saw the job make progress (written in the
    background): leaving it must not restart the evidence floor, or a hang that began during
    the write would be forgiven when the writer thread reports completion. A job whose hooked
    saves have run in the background before saves that way every time (``saves_in_background``):
    a hang that begins before its loop reports a step past the hook is not a synchronous save."""
    return state.phase == "checkpoint" and state.run.hook_step is not None \
        and (state.saves_in_background or _past_hook(state.run))


def _past_hook(run: AttemptState) -> bool:
    """Whether the job reported a step past the one the open checkpoint hook began at."""
    return run.hook_step is not None and (run.max_step if run.max_step is not None else -1) > run.hook_step


def _record(state: JobState, now_us: int, settings: HangSettings) -> None:
    """Append the duration of the phase being left to its history, if it is explained."""
    if state.phase not in EXPLAINED_PHASES or state.phase_since_us is None:
        return
    kept = state.history.setdefault(state.phase, [])
    kept.append((now_us - state.phase_since_us) / 1e6)
    del kept[: max(0, len(kept) - settings.phase_history)]


def budget_s(state: JobState, kind: str, settings: HangSettings, solo: bool = False, seen: bool = False,
             silent: bool = False) -> float:
    """How long a quiet phase of ``kind`` may last before it stops explaining anything.

    ``solo`` (log/step progress is the only probe with data): an evaluation gets
    ``solo_eval_budget_s`` or ``phase_overrun_factor`` x the job's longest earlier
    evaluation, uncapped (see ``HangSettings.solo_eval_budget_s``). ``seen``: a save the
    stacks show (its ranks in I/O frames) may last up to ``phase_budget_max_s`` whatever the
    job's history (``HangSettings.seen_save_budget_s``). ``silent``: a node of the job has
    fallen silent; a job with history gets at most ``silent_phase_factor`` x its longest
    earlier phase (``HangSettings.silent_phase_factor``)."""
    earlier = state.history.get(kind, []) + state.history.get("quiet", [])
    longest = max(earlier, default=0.0)
    if solo and kind == "eval":
        return max(settings.solo_eval_budget_s, settings.phase_overrun_factor * longest)
    floor = settings.init_budget_s if kind == "init" else settings.checkpoint_budget_s
    if seen and kind == "checkpoint":
        floor = max(floor, settings.seen_save_budget_s)
    budget = min(settings.phase_budget_max_s, max(floor, settings.phase_overrun_factor * longest))
    if silent and longest > 0:
        return min(budget, settings.silent_phase_factor * longest)
    return budget


def _hang_shaped(view: StackView | None) -> bool:
    """Stacks show waiters frozen outside I/O with no writer among the ranks that differ."""
    return view is not None and bool(view.group) and not view.group_io and not view.others_io


def _quiet_since(state: JobState, now_us: int) -> int:
    last = last_activity_us(state)
    return now_us if last is None else min(last, now_us)


def _saving_since(state: JobState, now_us: int, view: StackView) -> int:
    """When a save the stacks show began: when its ranks froze in that shape, or the job's last
    log line or step if later. A quiet stretch before the freeze (an unannounced evaluation,
    whose ranks' stacks kept moving) is not part of the save and uses none of its budget."""
    return max(_quiet_since(state, now_us), view.frozen_since() or 0)


def current_phase(state: JobState, now_us: int, view: StackView | None) -> PhaseView | None:
    """The quiet phase the evidence shows at ``now_us`` (see the module docstring), or None."""
    run = state.run
    if state.phase == "init" and state.phase_since_us is not None:
        return PhaseView("init", state.phase_since_us, "hook")
    if view is not None and (view.group and (view.group_io or view.others_io) or view.writing):
        return PhaseView("checkpoint", _saving_since(state, now_us, view), "stacks")
    if _hang_shaped(view):
        return None
    if state.phase == "checkpoint" and state.phase_since_us is not None and not _asynchronous(state):
        return PhaseView("checkpoint", state.phase_since_us, "hook")
    if run.phase_line is not None and not run.save_hook_done:
        return PhaseView(run.phase_line, _quiet_since(state, now_us), "log")
    return None


def overrun(state: JobState, phase: PhaseView | None, now_us: int, settings: HangSettings,
            solo: bool = False, silent: bool = False) -> bool:
    """Whether ``phase`` has lasted past its budget at event time ``now_us`` (``solo``,
    ``silent``: see :func:`budget_s`)."""
    if phase is None:
        return False
    seen = phase.source == "stacks"
    return now_us - phase.since_us > seconds(budget_s(state, phase.kind, settings, solo, seen, silent))


def explained(state: JobState, phase: PhaseView | None, now_us: int, settings: HangSettings,
              solo: bool = False, silent: bool = False) -> frozenset[str]:
    """The probe names ``phase`` explains at event time ``now_us`` (empty if none or overrun)."""
    if phase is None or overrun(state, phase, now_us, settings, solo, silent):
        return frozenset()
    return frozenset(settings.phase_explains)


def votes_allowed(state: JobState) -> bool:
    """Whether the job is in a state where a hang vote makes sense (placed, not terminal)."""
    return bool(state.placement) and state.phase != "terminal" and state.job_id is not None
