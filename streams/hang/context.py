"""Lifecycle context: which phase a job is in, and which probes that phase explains.

A job that is checkpointing, initialising or restarting is legitimately silent and idle,
so the probes the phase explains (``HangSettings.phase_explains``) do not vote while the
phase lasts no longer than its budget: ``max(budget, overrun_factor x longest earlier
occurrence of that phase in this job)``. Past that, the phase explains nothing and the
probes measure from the last time the job was known to be training, so a checkpoint that
hangs is caught at the overrun. An overrun phase also relaxes the two probes that normally
demand the signature of a collective wait (see ``probes.run_probes``): a save stuck in
I/O freezes stacks in I/O frames and idles the GPUs without spinning them.
"""

from __future__ import annotations

from schemas import JobEvent
from streams.hang.settings import HangSettings
from streams.hang.state import AttemptState, JobState, seconds, to_us

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


def apply_job_event(state: JobState, event: JobEvent, settings: HangSettings) -> None:
    """Advance the lifecycle of ``state`` by one job_event (mutates ``state``).

    A higher ``attempt`` starts a fresh :class:`AttemptState` (evidence and verdict episode
    reset). Any event with a placement (``scheduled``, or a ``restarting`` onto new nodes)
    replaces it. Entering ``train`` moves the evidence floor to
    the event time: silence or frozen stacks accumulated during an explained phase do not
    count once the phase has ended.
    """
    now = to_us(event.event_time)
    if event.attempt > state.attempt:
        state.attempt = event.attempt
        state.run = AttemptState()
    if event.placement:  # required on scheduled; a restart onto new nodes may carry one too
        state.placement = {p.rank: p.node_id for p in event.placement}
    if event.kind in TERMINAL_KINDS:
        _enter(state, "terminal", now, settings)
    elif event.kind in PHASE_OF_KIND:
        _enter(state, PHASE_OF_KIND[event.kind], now, settings)


def _enter(state: JobState, phase: str, now: int, settings: HangSettings) -> None:
    """Switch phase; a repeated kind (a duplicate or nested checkpoint event) changes nothing."""
    if phase == state.phase:
        return
    _record(state, now, settings)
    if phase == "train":
        restart_floor(state.run, now)
    state.phase = phase
    state.phase_since_us = now


def _record(state: JobState, now: int, settings: HangSettings) -> None:
    """Append the duration of the phase being left to its history, if it is explained."""
    if state.phase not in EXPLAINED_PHASES or state.phase_since_us is None:
        return
    kept = state.history.setdefault(state.phase, [])
    kept.append((now - state.phase_since_us) / 1e6)
    del kept[: max(0, len(kept) - settings.phase_history)]


def restart_floor(run: AttemptState, now: int) -> None:
    """Start counting evidence afresh at ``now``: older silence and stack runs are explained."""
    run.floor_us = now
    for stack in run.stacks.values():
        stack.sig = ""
        stack.length = 0


def budget_s(state: JobState, settings: HangSettings) -> float:
    """How long the current explained phase may last before it stops explaining anything."""
    base = settings.checkpoint_budget_s if state.phase == "checkpoint" else settings.init_budget_s
    earlier = state.history.get(state.phase, [])
    longest = max(earlier, default=0.0)
    return max(base, settings.phase_overrun_factor * longest)


def overrun(state: JobState, now: int, settings: HangSettings) -> bool:
    """Whether an explained phase has lasted past its budget at event time ``now``."""
    if state.phase not in EXPLAINED_PHASES or state.phase_since_us is None:
        return False
    return now - state.phase_since_us > seconds(budget_s(state, settings))


def explained(state: JobState, now: int, settings: HangSettings) -> frozenset[str]:
    """The probe names the current phase explains at event time ``now`` (empty if none)."""
    if state.phase not in EXPLAINED_PHASES or state.phase_since_us is None:
        return frozenset()
    if overrun(state, now, settings):
        return frozenset()
    return frozenset(settings.phase_explains)


def votes_allowed(state: JobState) -> bool:
    """Whether the job is in a state where a hang vote makes sense (placed, not terminal)."""
    return bool(state.placement) and state.phase != "terminal" and state.job_id is not None
