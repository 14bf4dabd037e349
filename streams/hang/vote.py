"""The vote: the probes that have data, lifecycle context, an adaptive quorum, one verdict
per hang episode.

A vote is evaluated at ``window_end`` on the fixed event-time grid; it counts the probes
that are True and not explained by the job's phase (explained probes are reported as False:
the phase accounts for them). The quorum adapts to how many probes have data (``quorum``):
``max(k, strict majority)`` with two or more, the single probe alone otherwise (over its
longer solo window). The first hang vote of an episode also yields a :class:`HangVerdict`;
the episode stays open (no further verdicts) until the job makes progress again or a new
attempt begins.

A quiet period shaped like one of the job's own earlier pauses (the same ranks behind, and the
job trained again afterwards), or localised to rank 0 alone with no stacks to tell a save from
a hang, is explained like a checkpoint (``pauses.py``).

Nodes whose clocks are off the job's (``skew.py``) are left out of the probes and the
localisation and named in the verdict with their offsets.

Times: ``detected_at`` is the grid point at which the evidence was complete (the vote
passed); the verdict's ``event_time`` is its emission, the event time of the event that
made the detector evaluate that grid point. Latency is measured from the true onset to
the emission.

Latency by availability profile (defaults, 5 s samples, 10 s log cadence), onset to
emission: all four probes ~35-40 s (three of four agree after the 30 s stall/idle windows
and six frozen samples); NVML-only metrics + logs (no stacks, no flight recorder: two
probes, both needed) ~50-55 s (log silence: 45 s or 3 median gaps); RDMA counters + logs
(no GPU samples: the compute rails vote alone for the metrics probe) ~55-70 s, log silence
taking the solo window (flat rails cannot tell a save from a hang: twice the job's longest
earlier unannounced quiet period, at least ``solo_silence_s``);
logs + step progress only ~50-55 s (``solo_silence_s``), and inside an announced
evaluation not before ``solo_eval_budget_s`` (30 min): from logs alone a long evaluation
and a hang look the same until one of them ends, so that profile waits rather than
convicting healthy jobs (the framework's own 600 s watchdog fails a job hung in a
collective first).
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median_low

from schemas import Event, HangSignals, HangVerdict, HangVote, derived_id
from streams.hang.context import PhaseView, current_phase, explained, overrun
from streams.hang.gpu import waiting_in_collective
from streams.hang.localize import Source, localize
from streams.hang.pauses import WRITER_RANKS, is_pause, observe, quiet_since_us
from streams.hang.probes import Probe, gpus_computing, run_probes, solo_progress
from streams.hang.settings import HangSettings
from streams.hang.silence import silent_nodes, silent_ranks
from streams.hang.skew import estimate, skew_finding
from streams.hang.stackview import stack_view
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


def quorum(available: int, s: HangSettings) -> int:
    """Probes that must vote when ``available`` probes have data (see the module docstring)."""
    if available <= 1:
        return 1
    return max(s.k, available // 2 + 1)


def evaluate(state: JobState, now_us: int, s: HangSettings, emit_us: int | None = None) -> list[Event]:
    """One evaluation at grid point ``now_us``: a HangVote, plus a HangVerdict if a hang starts.

    ``emit_us`` is the event time of the event that triggered the evaluation (default
    ``now_us``). Mutates ``state`` to open a verdict episode, to add the nodes' clock-offset
    estimates (``skew.py``), to note the ranks a quiet period localises to (``pauses.py``) and
    the time the GPUs were last seen computing (``last_work_us``: no silence outweighs work).
    Requires ``state.job_id`` and ``state.cluster`` (the detector only calls it for placed,
    non-terminal jobs).
    """
    estimate(state, now_us, s)
    skewed = {node: offset_us / 1e6 for node, offset_us in state.run.skew_us.items()}
    off_clock = frozenset(skewed) | state.run.ahead  # ahead: clock not known yet
    off_clock_ranks = silent_ranks(state, off_clock)
    silent = silent_nodes(state, now_us, s, off_clock)
    excluded = silent_ranks(state, silent) | off_clock_ranks
    view = stack_view(state, now_us, s, excluded)
    quiet_us = quiet_since_us(state, now_us, s)
    source = localize(state, now_us, s, off_clock) if quiet_us is not None else None
    phase = current_phase(state, now_us, view if view.reporting else None)
    if source is not None and phase is None:  # a hooked or announced phase teaches no pause shape
        observe(state, source)
    if phase is None and source is not None and quiet_us is not None and \
            is_pause(state, source, bool(view.reporting), _maybe_saving(state, source, off_clock_ranks, s)):
        phase = PhaseView("checkpoint", quiet_us, "history")
    probes = run_probes(state, now_us, s, False, excluded, view)
    solo, node_silent = solo_progress(probes), bool(silent)
    if overrun(state, phase, now_us, s, solo, node_silent):  # relaxed changes values, never which probes have data
        probes = run_probes(state, now_us, s, True, excluded, view)
    working = gpus_computing(state, now_us, s, excluded)
    if working:
        state.run.last_work_us = now_us
    signals = signals_of(probes, frozenset(probes) if working else explained(state, phase, now_us, s, solo, node_silent))
    available = sum(1 for p in probes.values() if p.value is not None)
    votes = sum(1 for n in probes if getattr(signals, n) is True)
    vote = _vote(state, now_us, s, signals, votes, votes >= 1 and votes >= quorum(available, s))
    if not vote.hang or state.run.verdict_open:
        return [vote]
    source = source or localize(state, now_us, s, off_clock)
    if skewed:
        source = replace(source, findings=(*source.findings, skew_finding(skewed)))
    return [vote, _verdict(state, now_us, max(now_us, emit_us or now_us), s, probes, signals, source)]


WRITERS = frozenset(WRITER_RANKS)


def _maybe_saving(state: JobState, source: Source, off_clock: frozenset[int], s: HangSettings) -> frozenset[int]:
    """The writer ranks on nodes left out for their clocks that may be saving
    (``pauses.is_pause``, read only when ``source`` names no rank and the job has node
    telemetry, else nothing localises): those whose own GPU samples show no collective's wait
    (a writer idles)."""
    if source.ranks or not (state.run.gpu or state.run.net):
        return frozenset()
    return frozenset(r for r in off_clock & WRITERS if not waiting_in_collective(state, r, s))


def _vote(state: JobState, now_us: int, s: HangSettings, signals: HangSignals, votes: int,
          hang: bool) -> HangVote:
    job_id, end = str(state.job_id), from_us(now_us)
    vote_id = derived_id("hang_vote", job_id, state.attempt, end)
    return HangVote(
        event_id=vote_id,
        event_time=end,
        cluster=str(state.cluster),
        job_id=job_id,
        attempt=state.attempt,
        window_start=from_us(now_us - seconds(s.window_s)),
        window_end=end,
        signals=signals,
        votes=votes,
        hang=hang,
    )


def _verdict(
    state: JobState, now_us: int, emit_us: int, s: HangSettings, probes: dict[str, Probe], signals: HangSignals,
    source: Source,
) -> HangVerdict:
    """Build the episode's verdict (``source``: the localisation at ``now_us``) and open the
    episode in ``state``."""
    job_id = str(state.job_id)
    onset_us = estimate_onset(probes, signals, state.run.floor_us)
    if source.silent_since_us is not None:  # a dead node: its silence began the hang
        onset_us = min(onset_us, source.silent_since_us)
    onset = from_us(onset_us)
    verdict_id = derived_id("hang_verdict", job_id, state.attempt, onset)
    run = state.run
    run.verdict_open, run.verdict_us = True, now_us
    run.verdict_step = run.max_step if run.max_step is not None else -1
    return HangVerdict(
        event_id=verdict_id,
        event_time=from_us(emit_us),
        cluster=str(state.cluster),
        verdict_id=verdict_id,
        job_id=job_id,
        attempt=state.attempt,
        onset_time=onset,
        detected_at=from_us(now_us),
        signals=signals,
        source_ranks=source.ranks,
        source_nodes=source.nodes,
        localization=source.findings,
        confidence=source.confidence,
    )
