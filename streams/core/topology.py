"""The shape of a declared topology, and the in-process runner that ``faultline replay`` uses.

A :class:`Topology` is a tuple of :class:`Stage` s: name, input topics, how an input is keyed
to the stage's state, the detector that owns that state, and the topics it may emit to. The
declaration itself lives in ``streams.topology``; both the Faust worker (``streams.app``) and
:class:`LocalRunner` are built from it, so they cannot disagree about an edge.

Output resolution is shared too (:func:`resolve`): a detector's output is published on the
registry topic of its kind with the registry key, unless the stage redirects that kind
(``redirect``) or the output is a :class:`~streams.core.detector.Forward` (explicit topic and
key). An output whose topic is not among the stage's declared ``outputs`` is a programming
error and raises: the declaration is the truth.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from schemas import Event, topic_for
from schemas.registry import BY_NAME
from streams.core.detector import Detector, Forward, Output

KeyFn = Callable[[str, Event, "str | None"], "str | None"]
"""(logical topic, event, message key) -> the stage's state key, or None to skip the event."""


@dataclass(frozen=True)
class Stage:
    """One stage of the pipeline: topics in, keyed state, a pure detector, topics out.

    ``redirect`` maps an output kind to (topic, field whose value is the key), e.g. the job
    pipeline's proposed decisions go to ``guards.feed`` keyed by ``cluster``. ``state_every_s``
    is the event-time interval at which the worker checkpoints a key's state when nothing
    changed (0: on every event). ``tick_s`` > 0 makes the worker flush the stage's states to
    its event-time watermark every ``tick_s`` seconds (bursts that fell quiet).
    ``end_flush_at_infinity``: at end of input, flush with the end of time (close everything)
    rather than with the last event time.
    """

    name: str
    inputs: tuple[str, ...]
    key: KeyFn
    detector: Detector[Any]
    outputs: tuple[str, ...]
    redirect: tuple[tuple[type[Event], str, str], ...] = ()
    state_every_s: float = 10.0
    tick_s: float = 0.0
    end_flush_at_infinity: bool = False

    def resolve(self, output: Output) -> tuple[str, str | None, Event]:
        """(topic, message key, event) of one output of this stage."""
        key: str | None
        if isinstance(output, Forward):
            topic, key, event = output.topic, output.key, output.event
        else:
            event = output
            target = next(((t, f) for kind, t, f in self.redirect if isinstance(event, kind)), None)
            if target is not None:
                topic, key = target[0], str(getattr(event, target[1]))
            else:
                spec = topic_for(event)
                topic, key = spec.name, spec.key_of(event)
        if topic not in self.outputs:
            raise ValueError(f"stage {self.name} emitted to {topic}, not among its outputs {self.outputs}")
        return topic, key, event


@dataclass(frozen=True)
class Topology:
    """Every stage of the pipeline, in the order replay flushes them at end of input."""

    stages: tuple[Stage, ...]

    def __post_init__(self) -> None:
        for stage in self.stages:
            unknown = [t for t in (*stage.inputs, *stage.outputs) if t not in BY_NAME]
            if unknown:
                raise ValueError(f"stage {stage.name}: topics {unknown} are not in the registry")

    def edges(self) -> set[tuple[str, str, str]]:
        """Every (input topic, stage, output topic) edge of the pipeline."""
        return {(i, s.name, o) for s in self.stages for i in s.inputs for o in s.outputs}

    def subscribers(self, topic: str) -> list[Stage]:
        """Stages reading ``topic``, in declaration order."""
        return [s for s in self.stages if topic in s.inputs]

    def stage(self, name: str) -> Stage:
        return next(s for s in self.stages if s.name == name)


END_OF_TIME = datetime.max.replace(tzinfo=UTC)
"""The flush time that closes everything: nothing more will arrive."""

Routed = tuple[str, "str | None", Event]
"""(topic, message key, event): one publication inside a :class:`LocalRunner`."""
_MISSING = object()


@dataclass
class LocalRunner:
    """The topology in one process: every topic is an in-memory queue, every stage a dict of states.

    ``feed`` publishes one input event on its registry topic and runs every stage it reaches,
    breadth first, until nothing is left to deliver; it returns the events published on
    public (non-internal) topics, in publication order. What the Faust worker does across
    processes, this does in one: same stages, same keys, same resolution of outputs.
    """

    topology: Topology
    states: dict[tuple[str, str], Any] = field(default_factory=dict)
    _subscribers: dict[str, list[Stage]] = field(default_factory=dict)
    _public: frozenset[str] = field(default=frozenset())

    def __post_init__(self) -> None:
        for stage in self.topology.stages:
            for topic in stage.inputs:
                self._subscribers.setdefault(topic, []).append(stage)
        self._public = frozenset(name for name, spec in BY_NAME.items() if not spec.internal)

    def feed(self, event: Event) -> list[Event]:
        """Publish an input event (on its registry topic, with its registry key) and run it through."""
        spec = topic_for(event)
        caused: list[Routed] = []
        self._run(spec.name, spec.key_of(event), event, caused)
        return self._deliver(caused) if caused else []

    def _deliver(self, queue: Iterable[Routed]) -> list[Event]:
        """Publish each routed event and what it causes, breadth first; returns the events
        published on public topics, in publication order."""
        pending = deque(queue)
        published: list[Event] = []
        while pending:
            topic, key, event = pending.popleft()
            if topic in self._public:
                published.append(event)
            self._run(topic, key, event, pending)
        return published

    def _run(self, topic: str, key: str | None, event: Event, caused: deque[Routed] | list[Routed]) -> None:
        """Step every stage subscribed to ``topic`` with ``event``; what they emit joins ``caused``."""
        for stage in self._subscribers.get(topic, ()):
            state_key = stage.key(topic, event, key)
            if state_key is None:
                continue
            slot = (stage.name, state_key)
            state = self.states.get(slot, _MISSING)
            if state is _MISSING:
                state = stage.detector.initial()
            self.states[slot], outputs = stage.detector.step(state, event)
            if outputs:
                caused.extend(stage.resolve(o) for o in outputs)

    def flush(self, now: datetime) -> list[Event]:
        """End of input at event time ``now``: flush every stage's keys in declaration order,
        delivering what each flush emits to the stages downstream before flushing them."""
        out: list[Event] = []
        for stage in self.topology.stages:
            at = END_OF_TIME if stage.end_flush_at_infinity else now
            for key in sorted(k for s, k in self.states if s == stage.name):
                self.states[(stage.name, key)], outputs = stage.detector.flush(self.states[(stage.name, key)], at)
                out.extend(self._deliver(stage.resolve(o) for o in outputs))
        return out


def run_all(topology: Topology, events: Sequence[Event]) -> list[Event]:
    """Every public event a topology publishes for ``events`` (inputs included), then its flush."""
    runner = LocalRunner(topology)
    out: list[Event] = []
    for event in events:
        out.extend(runner.feed(event))
    if events:
        out.extend(runner.flush(events[-1].event_time))
    return out
