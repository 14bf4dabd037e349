"""Learned pauses: a job's own unannounced quiet periods, recognised by their shape.

A job that sends no checkpoint hook, prints no "saving checkpoint" line and reports no stacks
still pauses the same way every time it saves: rank 0 writes (its GPU idle, behind in the
collectives) while the other ranks wait in a barrier. From the outside that is exactly the
shape of a hang on rank 0, and a verdict would replace the healthy writer's node. The job's
history tells them apart: a quiet period that localised to the same ranks before and ended
with the job training again is the job's own pause. It is explained like a checkpoint (the
same budget: at least ``checkpoint_budget_s``, ``phase_overrun_factor`` x the job's longest
earlier quiet period, capped below the watchdog); past it, it is a hang like any other.

Before the job has paused once, rank 0 alone gets the same benefit of the doubt when no stacks
report (stacks would show its I/O frames or its hang): rank 0 is where frameworks save
(``if rank == 0: torch.save(...)`` followed by a barrier is the canonical pattern), so a quiet
period that localises to rank 0 alone is its save until the budget says otherwise. So is one
that localises nowhere while rank 0's node is left out for its clock (``skew.py``), unless
rank 0's own GPU samples show it spinning in a collective's wait (``gpu.waiting_in_collective``:
a writer's GPU idles while it serialises and writes; a uniform hang spins every GPU).

A job that announces its saves (a ``checkpoint_started`` hook, a "saving checkpoint" line)
announces every one: once it has, an unannounced quiet period gets no writer's benefit of the
doubt (learned pause shapes still apply). A hooked save does, even in a job whose saves
usually run in the background (whose hooks therefore mask nothing): a job may save
synchronously now and then (a final or a full save beside its asynchronous ones).

A hang whose culprit is the job's usual writer is therefore reported at that budget rather
than within a minute: the price of never convicting the writer for its own saves.
"""

from __future__ import annotations

from streams.hang.localize import Source
from streams.hang.settings import HangSettings
from streams.hang.state import JobState, last_activity_us, seconds


def shape_key(ranks: tuple[int, ...]) -> str:
    """The pause table's key for a set of ranks (``"0"``, ``"0,8"``)."""
    return ",".join(str(r) for r in sorted(ranks))


def quiet_since_us(state: JobState, now_us: int, s: HangSettings) -> int | None:
    """When the job's current quiet period began, if it has lasted half the log-silence window
    (the length from which a quiet period enters the job's history), else None."""
    last = last_activity_us(state)
    if last is None or now_us - last < seconds(s.log_silence_s) // 2:
        return None
    return last


def observe(state: JobState, source: Source) -> None:
    """Remember the first ranks the current quiet period localised to (mutates ``state``).
    Called only while no hook, announcement or stack shape explains the quiet period: a
    hooked save of rank 0 must not teach that rank 0 pausing unannounced is a save."""
    if source.ranks and state.run.quiet_ranks is None:
        state.run.quiet_ranks = source.ranks


def learn_pause(state: JobState, ranks: tuple[int, ...], duration_s: float) -> None:
    """A quiet period shaped by ``ranks`` ended with progress: keep its longest duration."""
    key = shape_key(ranks)
    state.pauses[key] = max(duration_s, state.pauses.get(key, 0.0))


WRITER_RANKS = (0,)
"""The ranks frameworks save from when only one rank writes."""


def is_pause(state: JobState, source: Source, stacks_report: bool, hidden: frozenset[int] = frozenset()) -> bool:
    """Whether ``source`` names the ranks an earlier pause of the job localised to, or (with no
    stacks to tell, in a job that has never announced a save) the canonical writer alone, or
    names no rank while the writer is among the
    ``hidden`` ranks (on a node left out for its clock, ``skew.py``: what it does cannot be
    compared with the others, so the quiet period may be its save). A quiet period whose
    localisation turns inconclusive (no rank named: a collective snapshot or a sample that
    blurs the shape) keeps the explanation its first localisation earned; a localisation
    naming other ranks is new evidence and does not. A save hooked right now counts as
    announced even in a job whose earlier saves ran in the background (``context._asynchronous``
    then keeps the hook from masking the loop): the writer alone idle while the others wait is
    that save's shape, not a reason to replace the writer's node."""
    doubt = not stacks_report and (not state.announces_saves or state.phase == "checkpoint")
    if not source.ranks:
        first = state.run.quiet_ranks
        return doubt and set(WRITER_RANKS) <= hidden or first is not None and _pause_shaped(state, first, doubt)
    return _pause_shaped(state, source.ranks, doubt)


def _pause_shaped(state: JobState, ranks: tuple[int, ...], doubt: bool) -> bool:
    return shape_key(ranks) in state.pauses or (doubt and ranks == WRITER_RANKS)
