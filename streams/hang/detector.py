"""``HangDetector``: the Detector-protocol shell around the pure hang core, one state per job.

Key: ``job_id``. The shell feeds every event of the job in event-time order: log lines
(training/NCCL), stack samples, collective snapshots, job events (``scheduled`` carries the
placement rank -> node), step progress, and the gpu/net samples of the job's nodes. Votes
are evaluated on a fixed grid of ``eval_every_s`` of event time, driven by the events
themselves: an event at time ``t`` first evaluates every grid point ``<= t`` not yet
evaluated (with the state as of before the event), then is folded into the state. A job whose
every source has fallen silent is evaluated by the streaming shell's periodic :meth:`tick`
instead (nothing else would: a hang of a job that reports only logs and steps stops them all). The time
of an event of a node whose clock is off the job's (``skew.py``) is corrected by its offset
first (and a flush's time by the lead such nodes gave the stream's clock): one node's clock
must not drive the job's votes. A job
with no placement yet, or in a terminal phase, is not voted on. A verdict's ``detected_at``
is the grid point whose vote passed; its ``event_time`` is the emission: the event time of
the event (or flush) that made the detector evaluate that grid point, or the end of the grid
point's interval if that came later (a silent stretch evaluated after the fact).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from schemas import (
    CollectiveProgress,
    Event,
    GpuSample,
    JobEvent,
    LogLine,
    NetSample,
    StackSample,
    StepProgress,
)
from streams.core.dispatch import KindTable
from streams.hang import ingest
from streams.hang.context import apply_job_event, progress_seen, votes_allowed
from streams.hang.settings import HangSettings
from streams.hang.skew import job_time_us, note_arrival
from streams.hang.state import JobState, JsonData, dump_state, load_state, seconds, to_us
from streams.hang.vote import evaluate


class HangDetector:
    """Hang vote + verdict + localisation per job (``Detector[JobState]``).

    Outputs: one ``HangVote`` per evaluation (id from job, attempt, window_end) and one
    ``HangVerdict`` per hang episode (id from job, attempt, onset).
    """

    name = "hang"

    def __init__(self, settings: HangSettings | None = None) -> None:
        self.settings = settings or HangSettings()
        self._every_us = seconds(self.settings.eval_every_s)
        self._quiet_us = seconds(self.settings.quiet_tick_s)

    def initial(self) -> JobState:
        """A fresh state for a job never seen before."""
        return JobState()

    def step(self, state: JobState, event: Event) -> tuple[JobState, list[Event]]:
        """Evaluate a due grid point, then fold ``event`` in; unknown kinds change nothing."""
        fold = _FOLD[type(event)]
        if fold is None:
            return state, []
        if state.job_id is None or state.cluster is None:
            self._identify(state, event)
        now_us = to_us(event.event_time)
        node = getattr(event, "node_id", None)
        note_arrival(state, node, now_us, self.settings)
        job_us = job_time_us(state, node, now_us)
        due = state.next_eval_us is None or job_us >= state.next_eval_us  # else _tick does nothing
        outputs = self._tick(state, job_us) if due else []
        fold(state, event, now_us, self.settings)
        if state.last_us is None or job_us > state.last_us:
            state.last_us = job_us
        return state, outputs

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """Evaluate every grid point ``<= now`` not yet done (idempotent per ``now``); ``now``,
        the stream's clock, is first put on the job's clock (:meth:`_job_clock_us`)."""
        return state, self._tick(state, self._job_clock_us(state, to_us(now)))

    def tick(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """The streaming shell's periodic call with its stage clock ``now``: a job none of whose
        sources has sent anything for ``quiet_tick_s`` (a hang of a job that reports only logs
        and steps stops them all) is evaluated on every grid point that lies a whole
        ``eval_every_s`` behind ``now``. Those evaluations are the ones the job's next event
        would make (see :meth:`_tick`): what the verdict says does not depend on which came first."""
        now_us = self._job_clock_us(state, to_us(now))
        if state.last_us is None or now_us - state.last_us < self._quiet_us:
            return state, []
        return state, self._tick(state, now_us - self._every_us, now_us)

    def dump(self, state: JobState) -> JsonData:
        """JSON-ready data of ``state``."""
        return dump_state(state)

    def load(self, data: JsonData) -> JobState:
        """The state :meth:`dump` saved."""
        return load_state(data)

    def _identify(self, state: JobState, event: Event) -> None:
        job_id = getattr(event, "job_id", None)
        if state.job_id is None and isinstance(job_id, str):
            state.job_id = job_id
        if state.cluster is None:
            state.cluster = event.cluster

    @staticmethod
    def _job_clock_us(state: JobState, stream_us: int) -> int:
        """The stream's clock ``stream_us`` on the job's clock: less the lead the skewed nodes'
        clocks (and those put aside as ahead, ``skew.note_arrival``) gave the newest event (the
        stream's clock follows the newest event times, and a node that runs ahead sends the
        newest). O(nodes), once per flush."""
        skew_us, ahead = state.run.skew_us, state.run.ahead
        seen = state.run.node_seen_us
        if not (skew_us or ahead) or not seen:
            return stream_us
        raw_us = max(seen.values())
        corrected_us = max((t - skew_us.get(node, 0) for node, t in seen.items() if node not in ahead),
                           default=raw_us)
        return stream_us - max(0, raw_us - corrected_us)

    def _tick(self, state: JobState, upto_us: int, now_us: int | None = None) -> list[Event]:
        """Evaluate, in order, every grid point ``<= upto_us`` not yet evaluated, at event time
        ``now_us`` (default ``upto_us``). A grid point evaluated a whole interval late (a silent
        stretch: nothing arrived to evaluate it on time) is emitted at its interval's end, not
        at ``now_us``: the same verdict whether the job's next event or the shell's periodic
        :meth:`tick` found it."""
        every = self._every_us
        now_us = upto_us if now_us is None else now_us
        if state.next_eval_us is None:
            state.next_eval_us = -(-upto_us // every) * every
            return []
        outputs: list[Event] = []
        while state.next_eval_us <= upto_us:
            grid = state.next_eval_us
            state.next_eval_us = grid + every
            if votes_allowed(state):
                ingest.prune_stale(state, grid, self.settings)
                outputs.extend(evaluate(state, grid, self.settings, emit_us=min(now_us, grid + every)))
        return outputs


def _on_job_event(state: JobState, event: JobEvent, now_us: int, settings: HangSettings) -> None:
    apply_job_event(state, event, settings)


def _on_step(state: JobState, event: StepProgress, now_us: int, settings: HangSettings) -> None:
    ingest.on_step(state, event, now_us, settings)
    progress_seen(state, now_us, settings)


Fold = Callable[[JobState, Any, int, HangSettings], None]
_FOLD: KindTable[Fold | None] = KindTable([
    (JobEvent, _on_job_event), (LogLine, ingest.on_log), (StepProgress, _on_step), (StackSample, ingest.on_stack),
    (CollectiveProgress, ingest.on_collective), (GpuSample, ingest.on_gpu), (NetSample, ingest.on_net),
], None)
"""How each consumed kind is folded into the state (None: ignored)."""
