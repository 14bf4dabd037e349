"""Plan the life of one job: lifecycle, steps, checkpoints, traps, hangs and crashes.

The plan is computed step by step on the simulated clock before any event is emitted:
at each step boundary a due trap (long checkpoint/eval) or periodic checkpoint pauses
training; a hang or a crash that falls inside the next step stops it at its exact time.
Randomness comes only from the ``rng`` passed in, so a plan is a pure function of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from producers.simulator import xids
from producers.simulator.config import FleetConfig, JobLayout
from producers.simulator.scenarios import Hang, Heterogeneity, LongCheckpoint, LongEval, Oom, Scenario, SlowNode, Xid
from producers.simulator.speed import build_speed
from producers.simulator.timeline import HangState, JobTimeline, Mark, Phase, PhaseKind
from producers.simulator.truth import Truth

SCHEDULE_MS = 3_000
INIT_MS = 15_000
START_MS = 5_000
FAIL_REPORT_MS = 5_000
"""Delays of the scheduler/launcher: submit->scheduled->initialized->running; crash->failed."""


@dataclass(frozen=True)
class _Stop:
    """A hang or a crash planned at ``at_ms``; ``rank`` is the crashing rank, if any."""

    at_ms: int
    scenario: Scenario | None
    rank: int | None = None


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def resolve_node(node: int | str) -> str:
    """A fleet node id from a 0-based index or an id (``Xid.node``)."""
    return node if isinstance(node, str) else f"node-{node + 1:04d}"


class _Builder:
    """Mutable state of one plan; use :func:`build_timeline`."""

    def __init__(self, config: FleetConfig, layout: JobLayout,
                 scenarios: Sequence[Scenario], rng: random.Random) -> None:
        self.c, self.layout, self.rng = config, layout, rng
        self.end = config.duration_ms
        speed = build_speed(scenarios, len(layout.node_ids), config.step_time_s * 1000, rng)
        submit = layout.index * 1000
        init = submit + SCHEDULE_MS + INIT_MS
        self.tl = JobTimeline(layout, speed, init, init + START_MS, self.end,
                              variation=config.variation, writer=config.variation.checkpoint_writer)
        self.pauses = sorted((s for s in scenarios if isinstance(s, (LongCheckpoint, LongEval))),
                             key=lambda s: s.at_s)
        self.stops = sorted(self._stops(scenarios), key=lambda s: s.at_ms)
        self.train_from: int | None = None
        self.done = False
        self.failed = False

    def _stops(self, scenarios: Sequence[Scenario]) -> list[_Stop]:
        stops: list[_Stop] = []
        for s in scenarios:
            if isinstance(s, Hang):
                stops.append(_Stop(_ms(s.at_s), s))
            elif isinstance(s, Oom):
                stops.append(_Stop(_ms(s.at_s), s, s.rank))
            elif isinstance(s, Xid) and self._fatal(s):
                pos = self.layout.node_ids.index(resolve_node(s.node))
                stops.append(_Stop(_ms(s.at_s), s, pos * self.layout.gpus_per_node + s.gpu))
        return stops

    @staticmethod
    def _fatal(xid: Xid) -> bool:
        return xids.info(xid.xid).fatal if xid.fatal is None else xid.fatal

    def build(self, scenarios: Sequence[Scenario]) -> JobTimeline:
        """Run the plan to the end of the run and return the frozen timeline."""
        self._lifecycle()
        t, next_ckpt = self.tl.run_ms, self.tl.run_ms + _ms(self.c.checkpoint_every_s)
        self.train_from = t
        while t < self.end and not self.done:
            t, next_ckpt = self._advance(t, next_ckpt)
        if not self.done:
            self.tl.marks.append(Mark(self.end - 1, "finished", len(self.tl.step_ends)))
        self._close_train(self.end)
        self._static_truths(scenarios)
        self.tl.freeze()
        return self.tl

    def _lifecycle(self) -> None:
        tl, submit = self.tl, self.layout.index * 1000
        tl.marks += [Mark(submit, "submitted"), Mark(submit + SCHEDULE_MS, "scheduled"),
                     Mark(tl.init_ms, "initialized"), Mark(tl.run_ms, "running", 0)]
        tl.phases.append(Phase("init", submit + SCHEDULE_MS, tl.run_ms))

    def _advance(self, t: int, next_ckpt: int) -> tuple[int, int]:
        if self.pauses and _ms(self.pauses[0].at_s) <= t:
            trap = self.pauses.pop(0)
            kind: PhaseKind = "eval" if isinstance(trap, LongEval) else "checkpoint"
            return self._pause(t, kind, _ms(trap.duration_s), trap), next_ckpt
        if t >= next_ckpt and self.c.variation.async_checkpoint:
            self._async_checkpoint(t)
            while next_ckpt <= t:
                next_ckpt += _ms(self.c.checkpoint_every_s)
            return self._step(t), next_ckpt
        if t >= next_ckpt:
            end = self._pause(t, "checkpoint", _ms(self.c.checkpoint_duration_s), None)
            while next_ckpt <= t:
                next_ckpt += _ms(self.c.checkpoint_every_s)
            return end, next_ckpt
        return self._step(t), next_ckpt

    def _async_checkpoint(self, t: int) -> None:
        """Hooks around a background write: training goes on (no phase, no pause)."""
        step, end = len(self.tl.step_ends), t + _ms(self.c.checkpoint_duration_s)
        self.tl.marks.append(Mark(t, "checkpoint_started", step, "async"))
        if end < self.end:
            self.tl.marks.append(Mark(end, "checkpoint_completed", step, "async"))

    def _draw(self, t: int) -> tuple[int, float]:
        speed = self.tl.speed
        jit = max(0.5, 1 + self.rng.gauss(0, speed.step_jitter))
        slowest = speed.max_factor(t)
        if speed.spike_prob and self.rng.random() < speed.spike_prob:
            node = self.rng.randrange(len(speed.node_factors))
            factor = self.rng.uniform(1.3, 2.0)
            self.tl.spikes[len(self.tl.step_ends)] = (node, factor)
            slowest = max(slowest, speed.compute_factor(node, t) * factor)
        comm = speed.comm_base_ms * (1 + self.rng.gauss(0, 0.02)) + speed.comm_extra_ms(t)
        return max(1, int(round(speed.compute_base_ms * slowest * jit + comm))), jit

    def _step(self, t: int) -> int:
        length, jit = self._draw(t)
        if self.stops and self.stops[0].at_ms < t + length:
            self._stop(self.stops.pop(0), t)
            return self.end
        if t + length >= self.end:
            self.tl.spikes.pop(len(self.tl.step_ends), None)
            return self.end
        self.tl.step_ends.append(t + length)
        self.tl.step_lens.append(length)
        self.tl.step_jits.append(jit)
        return t + length

    def _pause(self, t: int, kind: PhaseKind, duration: int, trap: Scenario | None) -> int:
        end = min(t + duration, self.end)
        kills = [s for s in self.stops if not isinstance(s.scenario, Hang) and s.at_ms < end]
        if kills:
            self.stops.remove(kills[0])
            end = max(t, kills[0].at_ms)
        self._close_train(t)
        self.tl.phases.append(Phase(kind, t, end, "periodic" if trap is None else "trap"))
        self._pause_marks(t, end, kind, trap is not None and not kills)
        if trap is not None:
            self._truth(trap, t, end, (), (), None, f"duration_s={(end - t) / 1000:g}")
        if kills:
            self._kill(kills[0], end)
            return self.end
        self.train_from = end
        return end

    def _pause_marks(self, t: int, end: int, kind: PhaseKind, trap: bool) -> None:
        step, label = len(self.tl.step_ends), "trap" if trap else "periodic"
        self.tl.marks.append(Mark(t, f"{kind}_started", step, label))
        if end < self.end:
            self.tl.marks.append(Mark(end, f"{kind}_completed", step, label))

    def _close_train(self, t: int) -> None:
        if self.train_from is not None and t > self.train_from:
            self.tl.phases.append(Phase("train", self.train_from, t))
        self.train_from = None

    def _stop(self, stop: _Stop, t: int) -> None:
        at = max(stop.at_ms, t)
        if isinstance(stop.scenario, Hang):
            self._hang(stop.scenario, at)
        else:
            self._kill(stop, at)

    def _hang(self, hang: Hang, onset: int) -> None:
        self._close_train(onset)
        until = min(onset + _ms(hang.duration_s), self.end) if hang.duration_s else self.end
        kill = next((s for s in self.stops if not isinstance(s.scenario, Hang)
                     and s.at_ms < until), None)
        end = max(onset, kill.at_ms) if kill else until
        sources = self._sources(hang)
        timed_out = kill is None and end < self.end
        self.tl.hang = HangState(onset, end if end < self.end else None, sources,
                                 self.rng.randrange(12), hang.dead_node)
        self.tl.phases.append(Phase("hang", onset, end))
        ranks = tuple(sorted(sources))
        nodes = tuple(sorted({self.layout.node_of(r) for r in ranks}))
        self._truth(hang, onset, end if end < self.end else None, nodes, ranks, None,
                    f"source={hang.source}")
        if kill is not None:
            self._kill(kill, end)
        elif timed_out:
            self._kill(_Stop(end, None), end)
        self.done = True

    def _sources(self, hang: Hang) -> frozenset[int]:
        if hang.ranks is not None:
            return frozenset(hang.ranks)
        if hang.dead_node is not None:
            return frozenset(self.layout.ranks_on(hang.dead_node))
        if hang.source == "uniform":
            return frozenset()
        gpn, world = self.layout.gpus_per_node, self.layout.world_size
        first = self.rng.randrange(world)
        if hang.source == "single" or world <= gpn:
            return frozenset({first})
        other = self.rng.choice([n for n in range(len(self.layout.node_ids))
                                 if n != first // gpn])
        return frozenset({first, other * gpn + self.rng.randrange(gpn)})

    def _kill(self, stop: _Stop, at: int) -> None:
        self._close_train(at)
        self.tl.phases.append(Phase("dead", at, self.end))
        scenario = stop.scenario
        cause = "oom" if isinstance(scenario, Oom) else "xid" if isinstance(scenario, Xid) \
            else "hang_timeout"
        xid = scenario.xid if isinstance(scenario, Xid) else None
        self.tl.marks.append(Mark(at, "crash", len(self.tl.step_ends), cause, stop.rank, xid))
        if at + FAIL_REPORT_MS < self.end:
            self.tl.marks.append(Mark(at + FAIL_REPORT_MS, "failed", len(self.tl.step_ends),
                                      cause, stop.rank, xid))
        if isinstance(scenario, Oom):
            node = self.layout.node_of(scenario.rank)
            self._truth(scenario, at, None, (node,), (scenario.rank,), "cuda_oom",
                        f"rank={scenario.rank}")
        self.failed = self.done = True

    def _static_truths(self, scenarios: Sequence[Scenario]) -> None:
        speed = self.tl.speed
        for s in scenarios:
            if isinstance(s, SlowNode) and _ms(s.at_s) < self.end:
                ranks = tuple(self.layout.ranks_on(s.node))
                self._truth(s, _ms(s.at_s), None, (self.layout.node_ids[s.node],), ranks,
                            None, f"cause={s.cause} slowdown={s.slowdown:g}")
            elif isinstance(s, Heterogeneity):
                factors = ",".join(f"{f:.4f}" for f in speed.node_factors)
                self._truth(s, self.tl.run_ms, None, (), (), None, f"node_factors={factors}")

    def _truth(self, scenario: Scenario, onset: int, end: int | None, nodes: tuple[str, ...],
               ranks: tuple[int, ...], category: str | None, detail: str) -> None:
        self.tl.truths.append(Truth(
            scenario.KIND, self.layout.job_id, nodes, ranks, self.c.at(onset),
            None if end is None else self.c.at(end), category, detail))


def job_scenarios(layout: JobLayout, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios that act on this job (by job index, or Xid by node)."""
    mine: list[Scenario] = []
    for s in scenarios:
        if isinstance(s, Xid):
            if resolve_node(s.node) in layout.node_ids:
                mine.append(s)
        elif s.job == layout.index:
            mine.append(s)
    return mine


def build_timeline(config: FleetConfig, layout: JobLayout, scenarios: Sequence[Scenario],
                   rng: random.Random) -> JobTimeline:
    """Plan job ``layout`` under ``scenarios`` (already filtered with :func:`job_scenarios`)."""
    return _Builder(config, layout, scenarios, rng).build(scenarios)
