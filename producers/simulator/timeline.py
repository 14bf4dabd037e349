"""The planned life of one simulated job, and what each rank is doing at any moment.

A :class:`JobTimeline` is computed once per job before any event is emitted (see
``builder.py``); every emitter then asks it questions by event time in milliseconds
since the start of the run: which phase, how many steps are done, what a rank is doing.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Literal

from producers.simulator.config import JobLayout
from producers.simulator.speed import SpeedModel
from producers.simulator.truth import Truth
from producers.simulator.variation import Variation

PhaseKind = Literal["init", "train", "checkpoint", "eval", "hang", "dead", "done"]
Role = Literal["off", "init", "train", "checkpoint", "eval", "hang_source", "hang_wait",
               "dead", "done", "ckpt_writer", "ckpt_barrier"]

EVAL_OP_MS = 500
"""During evaluation each rank completes one collective every EVAL_OP_MS."""

ACTIVE_ROLES = frozenset({"train", "checkpoint", "eval", "hang_source", "hang_wait",
                          "ckpt_writer", "ckpt_barrier"})
"""Roles in which a training process exists and reports stacks and collectives."""


@dataclass(frozen=True)
class Phase:
    """A half-open interval ``[start_ms, end_ms)`` of the job in one state."""

    kind: PhaseKind
    start_ms: int
    end_ms: int
    label: str = ""


@dataclass(frozen=True)
class Mark:
    """A point of the job's life that becomes lifecycle events and/or log lines."""

    ms: int
    kind: str
    step: int | None = None
    detail: str = ""
    rank: int | None = None
    xid: int | None = None


@dataclass(frozen=True)
class HangState:
    """An injected hang: who stopped (empty for uniform), when, and how it is shown."""

    onset_ms: int
    end_ms: int | None
    sources: frozenset[int]
    variant: int
    dead_node: int | None = None
    """Position (within the job) of a node that died: it reports nothing from the onset."""


@dataclass
class JobTimeline:
    """The whole planned life of one job (filled by the builder, then read-only)."""

    layout: JobLayout
    speed: SpeedModel
    init_ms: int
    run_ms: int
    end_ms: int
    phases: list[Phase] = field(default_factory=list)
    step_ends: list[int] = field(default_factory=list)
    step_lens: list[int] = field(default_factory=list)
    step_jits: list[float] = field(default_factory=list)
    spikes: dict[int, tuple[int, float]] = field(default_factory=dict)
    hang: HangState | None = None
    variation: Variation = Variation()
    writer: str = "all"
    """Who writes checkpoints: ``all`` ranks, or ``rank0`` while the others wait in a barrier."""
    marks: list[Mark] = field(default_factory=list)
    truths: list[Truth] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list)
    _evals: list[Phase] = field(default_factory=list)

    def freeze(self) -> None:
        """Index the phases; call once after the builder is done."""
        self.phases.sort(key=lambda p: p.start_ms)
        self._starts = [p.start_ms for p in self.phases]
        self._evals = [p for p in self.phases if p.kind == "eval"]
        self.marks.sort(key=lambda m: m.ms)

    def phase_at(self, ms: int) -> Phase | None:
        """The phase containing ``ms``, or None before initialisation."""
        i = bisect_right(self._starts, ms) - 1
        if i < 0 or ms >= self.phases[i].end_ms:
            return None
        return self.phases[i]

    def steps_done(self, ms: int) -> int:
        """Number of steps completed at or before ``ms``."""
        return bisect_right(self.step_ends, ms)

    def current_step(self, ms: int) -> tuple[int, int, int]:
        """(steps done, start ms, planned length ms) of the step in progress at ``ms``."""
        done = self.steps_done(ms)
        start = self.step_ends[done - 1] if done else self.run_ms
        phase = self.phase_at(ms)
        if phase is not None:
            start = max(start, phase.start_ms)
        length = self.step_lens[done] if done < len(self.step_lens) else int(self.speed.step_ms)
        return done, start, max(1, length)

    def eval_ops(self, ms: int) -> int:
        """Collectives completed by evaluation phases up to ``ms``."""
        if not self._evals:
            return 0
        return sum((min(ms, p.end_ms) - p.start_ms) // EVAL_OP_MS
                   for p in self._evals if p.start_ms <= ms)

    def overlap(self, start_ms: int, end_ms: int) -> dict[str, int]:
        """Milliseconds of ``[start_ms, end_ms)`` spent in each phase kind."""
        spent: dict[str, int] = {}
        i = max(0, bisect_right(self._starts, start_ms) - 1)
        for phase in self.phases[i:]:
            if phase.start_ms >= end_ms:
                break
            ms = min(end_ms, phase.end_ms) - max(start_ms, phase.start_ms)
            if ms > 0:
                spent[phase.kind] = spent.get(phase.kind, 0) + ms
        return spent

    def role(self, rank: int, ms: int) -> Role:
        """What rank ``rank`` is doing at ``ms``."""
        phase = self.phase_at(ms)
        if phase is None:
            return "off"
        if phase.kind == "hang":
            assert self.hang is not None
            if self.node_dead(rank // self.layout.gpus_per_node, ms):
                return "dead"
            return "hang_source" if rank in self.hang.sources else "hang_wait"
        if phase.kind == "checkpoint" and self.writer == "rank0":
            return "ckpt_writer" if rank == 0 else "ckpt_barrier"
        return phase.kind

    def node_dead(self, pos: int, ms: int) -> bool:
        """Whether the job's node at position ``pos`` is dead (silent) at ``ms``."""
        hang = self.hang
        return (hang is not None and hang.dead_node == pos and ms >= hang.onset_ms
                and (hang.end_ms is None or ms < hang.end_ms))
