"""The vote: four probes, lifecycle context, K-of-4, one verdict per hang episode.

A vote is evaluated at ``window_end`` on the fixed event-time grid; it counts the probes
that are True and not explained by the job's lifecycle phase (explained probes are reported
as False: the phase accounts for them). ``hang`` is ``votes >= k``. The first hang vote of
an episode also yields a :class:`HangVerdict`; the episode stays open (no further verdicts)
until the job makes progress again or a new attempt begins.
"""

from __future__ import annotations

from statistics import median_low

from schemas import Event, HangSignals, HangVerdict, HangVote, derived_id
from streams.hang.context import explained, overrun
from streams.hang.localize import localize
from streams.hang.probes import Probe, run_probes
from streams.hang.settings import HangSettings
from streams.hang.state import JobState, from_us, seconds


def signals_of(probes: dict[str, Probe], masked: frozenset[str]) -> HangSignals:
    """The probes' values with the phase-explained ones turned to False (no data stays None)."""
    values = {n: (False if n in masked and p.value is not None else p.value) for n, p in probes.items()}
    return HangSignals(**values)


def estimate_onset(probes: dict[str, Probe], signals: HangSignals, floor: int | None) -> int:
    """The hang's estimated start: the in-flight-since of a stalled collective when that probe
    voted (the culprit collective's own timestamp), else the median onset of the voting probes."""
    voting = {n: p.onset_us for n, p in probes.items() if getattr(signals, n) is True}
    onsets = [t for t in voting.values() if t is not None]
    stalled = voting.get("collective_stalled")
    onset = stalled if stalled is not None else median_low(onsets)
    return max(onset, floor) if floor is not None else onset


def evaluate(state: JobState, now: int, s: HangSettings) -> list[Event]:
    """One evaluation at event time ``now``: a HangVote, plus a HangVerdict if a hang starts.

    Mutates ``state`` only to open a verdict episode. Requires ``state.job_id`` and
    ``state.cluster`` (the detector only calls it for placed, non-terminal jobs).
    """
    probes = run_probes(state, now, s, relaxed=overrun(state, now, s))
    signals = signals_of(probes, explained(state, now, s))
    votes = sum(1 for n in probes if getattr(signals, n) is True)
    vote = _vote(state, now, s, signals, votes)
    if not vote.hang or state.run.verdict_open:
        return [vote]
    return [vote, _verdict(state, now, s, probes, signals)]


def _vote(state: JobState, now: int, s: HangSettings, signals: HangSignals, votes: int) -> HangVote:
    job_id, end = str(state.job_id), from_us(now)
    vote_id = derived_id("hang_vote", job_id, state.attempt, end)
    return HangVote(
        event_id=vote_id,
        event_time=end,
        cluster=str(state.cluster),
        job_id=job_id,
        attempt=state.attempt,
        window_start=from_us(now - seconds(s.window_s)),
        window_end=end,
        signals=signals,
        votes=votes,
        hang=votes >= s.k,
    )


def _verdict(
    state: JobState, now: int, s: HangSettings, probes: dict[str, Probe], signals: HangSignals
) -> HangVerdict:
    """Build the episode's verdict and open the episode in ``state``."""
    job_id = str(state.job_id)
    onset = from_us(estimate_onset(probes, signals, state.run.floor_us))
    verdict_id = derived_id("hang_verdict", job_id, state.attempt, onset)
    source = localize(state, now, s)
    run = state.run
    run.verdict_open, run.verdict_us = True, now
    run.verdict_step = run.max_step if run.max_step is not None else -1
    return HangVerdict(
        event_id=verdict_id,
        event_time=from_us(now),
        cluster=str(state.cluster),
        verdict_id=verdict_id,
        job_id=job_id,
        attempt=state.attempt,
        onset_time=onset,
        detected_at=from_us(now),
        signals=signals,
        source_ranks=source.ranks,
        source_nodes=source.nodes,
        localization=source.findings,
        confidence=source.confidence,
    )
