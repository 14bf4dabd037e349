"""Composition of pure detectors: the per-job pipeline and the whole replay chain.

``Stages`` runs several detectors over one key's events in order: each detector sees the
input event and then every output of the detectors before it (so the policy sees the hang
verdicts and slow-node outliers of the same job as they are made). ``JobPipeline`` puts an
event-time reorder buffer in front of the stages. ``Chain`` wires every stage the way the
Faust topology does (``streams.app``), in one process, for ``faultline replay``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from schemas import Decision, Event, JobEvent
from streams.core.detector import Detector, JsonData
from streams.core.reorder import ReorderBuffer
from streams.core.routing import Placements, classify_key, job_of

END_OF_INPUT = datetime.max.replace(tzinfo=UTC)
"""The flush time that closes every open burst: nothing more will arrive."""


class Stages:
    """Detectors run in sequence on one key; later ones also see earlier ones' outputs."""

    def __init__(self, detectors: Sequence[Detector[Any]]) -> None:
        self.detectors = list(detectors)

    def initial(self) -> list[Any]:
        return [d.initial() for d in self.detectors]

    def step(self, states: list[Any], event: Event) -> list[Event]:
        """Feed ``event`` through every stage, mutating ``states``; returns all outputs."""
        outputs: list[Event] = []
        for i, detector in enumerate(self.detectors):
            produced: list[Event] = []
            for item in (event, *outputs):
                states[i], out = detector.step(states[i], item)
                produced.extend(out)
            outputs.extend(produced)
        return outputs

    def flush(self, states: list[Any], now: datetime) -> list[Event]:
        """Flush every stage in order, feeding earlier flush outputs to later stages."""
        outputs: list[Event] = []
        for i, detector in enumerate(self.detectors):
            produced: list[Event] = []
            for item in outputs:
                states[i], out = detector.step(states[i], item)
                produced.extend(out)
            states[i], out = detector.flush(states[i], now)
            outputs.extend(produced + out)
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
    """A Detector over all events of one job: reorder buffer, then hang, slow and policy stages."""

    name = "jobs"

    def __init__(self, detectors: Sequence[Detector[Any]], lateness_s: float, max_skew_s: float = 60.0) -> None:
        self.stages = Stages(detectors)
        self.lateness = timedelta(seconds=lateness_s)
        self.max_skew = timedelta(seconds=max_skew_s)

    def initial(self) -> JobState:
        return JobState(ReorderBuffer(), self.stages.initial())

    def step(self, state: JobState, event: Event) -> tuple[JobState, list[Event]]:
        outputs: list[Event] = []
        for ready in state.buffer.push(event, self.lateness, self.max_skew):
            outputs.extend(self.stages.step(state.stages, ready))
        return state, outputs

    def flush(self, state: JobState, now: datetime) -> tuple[JobState, list[Event]]:
        outputs: list[Event] = []
        for ready in state.buffer.drain():
            outputs.extend(self.stages.step(state.stages, ready))
        outputs.extend(self.stages.flush(state.stages, now))
        return state, outputs

    def dump(self, state: JobState) -> JsonData:
        return {"buffer": state.buffer.dump(), "stages": self.stages.dump(state.stages)}

    def load(self, data: JsonData) -> JobState:
        return JobState(ReorderBuffer.load(data["buffer"]), self.stages.load(data["stages"]))


@dataclass
class Chain:
    """The whole detection chain in one process: what ``faultline replay`` runs.

    ``feed`` takes input events in event-time order and returns the public derived events
    they cause (faults, votes, verdicts, outliers, guarded decisions); per-job policy
    proposals stay internal, exactly as in the Faust topology.
    """

    classify: Detector[Any]
    jobs: JobPipeline
    guards: Detector[Any]
    placements: Placements = field(default_factory=Placements)
    states: dict[tuple[str, str], Any] = field(default_factory=dict)

    def _state(self, stage: str, key: str, detector: Detector[Any] | JobPipeline) -> Any:
        if (stage, key) not in self.states:
            self.states[(stage, key)] = detector.initial()
        return self.states[(stage, key)]

    def feed(self, event: Event) -> list[Event]:
        """Process one input event through every stage it reaches."""
        if isinstance(event, JobEvent):
            self.placements.observe(event)
        out: list[Event] = []
        key = classify_key(event)
        if key is not None:
            state = self._state("classify", key, self.classify)
            self.states[("classify", key)], faults = self.classify.step(state, event)
            out.extend(faults)
        for item in (event, *out):
            out.extend(self._to_job(item))
        return self._guard(out)

    def _to_job(self, event: Event) -> list[Event]:
        job = job_of(event, self.placements)
        if job is None:
            return []
        state = self._state("jobs", job, self.jobs)
        self.states[("jobs", job)], outputs = self.jobs.step(state, event)
        return outputs

    def _guard(self, events: Iterable[Event]) -> list[Event]:
        out: list[Event] = []
        for event in events:
            if not isinstance(event, Decision):
                out.append(event)
                continue
            state = self._state("guards", event.cluster, self.guards)
            self.states[("guards", event.cluster)], decided = self.guards.step(state, event)
            out.extend(decided)
        return out

    def flush(self, now: datetime) -> list[Event]:
        """End of input at event time ``now``: close every open burst (with its final count),
        drain reorder buffers, then flush the job and guard stages as of ``now``."""
        out: list[Event] = []
        for key in self._keys("classify"):
            for fault in self._flush_one("classify", key, self.classify, END_OF_INPUT):
                out.extend([fault, *self._to_job(fault)])
        for key in self._keys("jobs"):
            out.extend(self._flush_one("jobs", key, self.jobs, now))
        out = self._guard(out)
        for key in self._keys("guards"):
            out.extend(self._flush_one("guards", key, self.guards, now))
        return out

    def _keys(self, stage: str) -> list[str]:
        return sorted(key for st, key in self.states if st == stage)

    def _flush_one(self, stage: str, key: str, detector: Detector[Any] | JobPipeline,
                   now: datetime) -> list[Event]:
        self.states[(stage, key)], produced = detector.flush(self.states[(stage, key)], now)
        return produced
