"""Composition of pure detectors over one job: the job pipeline of the ``jobs`` stage.

``Stages`` runs several detectors over one key's events in order: each detector sees the
input event and then every output of the detectors before it (so the policy sees the hang
verdicts and slow-node outliers of the same job as they are made). ``JobPipeline`` puts an
event-time reorder buffer in front of the stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from schemas import Event, JobEvent
from streams.core.detector import Detector, JsonData, Output
from streams.core.reorder import ReorderBuffer, time_us


def _events(outputs: Sequence[Output]) -> list[Event]:
    """A job stage's outputs, which are all events: only routing stages forward."""
    events = [o for o in outputs if isinstance(o, Event)]
    if len(events) != len(outputs):
        raise TypeError("a detector inside a job pipeline emitted a Forward")
    return events


class Stages:
    """Detectors run in sequence on one key; later ones also see earlier ones' outputs."""

    def __init__(self, detectors: Sequence[Detector[Any]]) -> None:
        self.detectors = list(detectors)
        self._steps = [d.step for d in self.detectors]
        """The detectors' bound ``step`` methods, looked up once (this runs for every event)."""
        self._ticks = [getattr(d, "tick", None) for d in self.detectors]
        """The detectors' bound ``tick`` methods, None for those without one (looked up once)."""

    def initial(self) -> list[Any]:
        return [d.initial() for d in self.detectors]

    def step(self, states: list[Any], event: Event) -> list[Event]:
        """Feed ``event`` through every stage, mutating ``states``; returns all outputs."""
        outputs: list[Event] = []
        for i, step in enumerate(self._steps):
            state, out = step(states[i], event)
            produced = _events(out) if out else []
            for item in outputs:  # what the detectors before this one made (not its own outputs)
                state, out = step(state, item)
                if out:
                    produced.extend(_events(out))
            states[i] = state
            if produced:
                outputs.extend(produced)
        return outputs

    def flush(self, states: list[Any], now: datetime) -> list[Event]:
        """Flush every stage in order, feeding earlier flush outputs to later stages."""
        return self._in_order(states, now, [d.flush for d in self.detectors])

    def tick(self, states: list[Any], now: datetime) -> list[Event]:
        """The streaming shell's periodic call at stage clock ``now``: every detector that
        has a ``tick`` (one whose own clock must move on while its key is silent) is ticked,
        in order, later detectors also seeing what earlier ones emitted; ``flush`` stays the
        end of input."""
        return self._in_order(states, now, self._ticks)

    def _in_order(self, states: list[Any], now: datetime, calls: Sequence[Any]) -> list[Event]:
        """Call ``calls[i](state, now)`` (if not None) for each stage in order, after feeding it
        what the stages before it emitted in this pass."""
        outputs: list[Event] = []
        for i, (detector, call) in enumerate(zip(self.detectors, calls, strict=True)):
            produced: list[Event] = []
            for item in outputs:
                states[i], out = detector.step(states[i], item)
                produced.extend(_events(out))
            if call is not None:
                states[i], out = call(states[i], now)
                produced.extend(_events(out))
            outputs.extend(produced)
        return outputs

    def dump(self, states: list[Any]) -> list[JsonData]:
        return [d.dump(s) for d, s in zip(self.detectors, states, strict=True)]

    def load(self, data: list[JsonData]) -> list[Any]:
        return [d.load(s) for d, s in zip(self.detectors, data, strict=True)]


@dataclass
class JobState:
    """Everything one job's pipeline remembers."""

    buffer: ReorderBuffer = field(default_factory=ReorderBuffer)
    stages: list[Any] = field(default_factory=list)


class JobPipeline:
    """A Detector over all events of one job: reorder buffer, then the job's detectors.

    Besides the detectors' outputs it emits each ``job_event`` again as the buffer releases
    it (before what the detectors made of it): the topology sends those to the guards with
    the job's proposed decisions, so the guards see one job's lifecycle and decisions in
    event-time order (a node that comes back after its block, and only then fails again, is
    flapping; seen in arrival order it would look like a node still cooling down).
    """

    name = "jobs"

    def __init__(self, detectors: Sequence[Detector[Any]], lateness_s: float, max_skew_s: float = 60.0,
                 path_skew_s: float = 300.0, dead_node_s: float = 15.0, quiet_s: float = 10.0) -> None:
        self.stages = Stages(detectors)
        self._quiet_us = int(quiet_s * 1e6)
        """How long a job must have sent nothing (on the stage clock) before :meth:`tick` acts."""
        self.lateness = timedelta(seconds=lateness_s)
        self.max_skew = timedelta(seconds=max_skew_s)
        self.path_skew = timedelta(seconds=path_skew_s)
        self.dead_node = timedelta(seconds=dead_node_s)
        self._bounds_us = tuple(d // timedelta(microseconds=1)
                                for d in (self.lateness, self.max_skew, self.path_skew, self.dead_node))
        """(lateness, max skew, path skew, dead node) in µs, as the buffer's per-event push takes them."""

    def initial(self) -> JobState:
        return JobState(ReorderBuffer(), self.stages.initial())

    def step(self, state: JobState, event: Event) -> tuple[JobState, list[Event]]:
        outputs: list[Event] = []
        for ready in state.buffer.push_us(event, *self._bounds_us):
            self._process(state, ready, outputs)
        return state, outputs

    def _process(self, state: JobState, event: Event, outputs: list[Event]) -> None:
        """Run one released event through the stages, appending to ``outputs`` the event
        itself if it is a ``job_event``, then what the detectors made of it."""
        if isinstance(event, JobEvent):
            outputs.append(event)
        outputs.extend(self.stages.step(state.stages, event))

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        outputs: list[Event] = []
        for ready in state.buffer.drain():
            self._process(state, ready, outputs)
        outputs.extend(self.stages.flush(state.stages, now))
        return state, outputs

    def tick(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        """The streaming shell's periodic call at stage clock ``now``, for a job that has sent
        nothing for ``quiet_s`` of it: the events its buffer still holds (its last ones, which
        no newer event will release) are released in order, then the detectors are ticked
        (``Stages.tick``). A job whose events flow is left to them."""
        newest_us = state.buffer.max_seen_us
        if newest_us is None or time_us(now) - newest_us < self._quiet_us:
            return state, []
        outputs: list[Event] = []
        for ready in state.buffer.drain():
            self._process(state, ready, outputs)
        outputs.extend(self.stages.tick(state.stages, now))
        return state, outputs

    def dump(self, state: JobState) -> JsonData:
        return {"buffer": state.buffer.dump(), "stages": self.stages.dump(state.stages)}

    def load(self, data: JsonData) -> JobState:
        return JobState(ReorderBuffer.load(data["buffer"]), self.stages.load(data["stages"]))
