"""Evaluate the hang detector on randomized simulated scenarios it was not tuned on.

    python -m tests.bench.hang_eval --scenarios 60 --seed 2 --healthy-hours 200

Scenario ``i`` of batch ``seed`` draws (from ``seed`` and ``i`` only) a condition, cycling
through them so every batch mixes them, and independently a telemetry profile and the
variation knobs of ``producers.simulator.Variation``:

- hangs: ``single`` / ``two`` sources, ``uniform`` freeze, ``dead_node`` (every source of one
  node stops), ``one_node`` (all ranks of a one-node job freeze alike), ``async_ckpt`` (a
  single-source hang during an asynchronous checkpoint);
- traps (no hang): ``checkpoint`` (a long synchronous save, 60-300 s), ``rank0_save`` (rank 0
  writes for 60-300 s while the others wait in a barrier), ``eval`` (120-900 s);
- profiles: ``full``, ``nvml_only`` (sm_active null), ``no_stacks``, ``no_fr`` (no flight
  recorder), ``nvml_logs`` (NVML metrics + logs, no stacks, no flight recorder),
  ``logs_only`` (logs + step progress);
- knobs: real waiter frames, no lifecycle hooks, asynchronous periodic checkpoints, rank-0
  checkpoint writer, storage traffic on an IB port, one node's clock skewed by up to 5 s, or
  (one run in five of jobs of 3+ nodes) by 30-120 s (tag ``skew_s>15``).

Figures: recall, exact source, latency p50/p95 from the true onset to the verdict's emission
(the wall time at which the job pipeline releases the event that triggers it: the
reorder buffer may hold events back, e.g. waiting for a dead node), false verdicts per condition, per profile and per knob, and a healthy
false-alarm bound from ``--healthy-hours`` job-hours of healthy small jobs with
heterogeneity, periodic (sync or async, all-rank or rank-0) checkpoints and evaluations.
This module may import the simulator; the detector it evaluates may not.

``--partial`` instruments every multi-node job (and healthy fleet) only partly: half its nodes
(at least one) lack stack samples, flight-recorder snapshots, DCGM's ``sm_active`` or all three
(``Strip``, its own random stream: the other draws stay as they were).

``--wide`` draws from a wider space the detector was not tuned on (its own random stream, so
the default batches stay as they were): two more profiles, ``rdma_logs`` (RDMA counters,
logs and steps: no GPU samples, stacks or flight recorder) and ``mixed`` (each availability
knob drawn on its own), and the fleet's cadences: step time 0.5-2 s, a log line every 5-20 s,
GPU/RDMA samples and stacks and flight-recorder snapshots every 5 or 10 s.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from typing import Any

from producers.simulator import FleetConfig, Variation, simulate
from producers.simulator import scenarios as sc
from producers.simulator.config import node_id
from schemas import CollectiveProgress, Event, GpuSample, HangVerdict, JobEvent, NetSample, StackSample
from streams.core.reorder import ReorderBuffer
from streams.hang.detector import HangDetector
from streams.hang.settings import HangSettings
from streams.hang.state import JobState
from streams.settings import DetectionSettings

HANG_KINDS = ("single", "two", "uniform", "dead_node", "one_node", "async_ckpt")
TRAP_KINDS = ("checkpoint", "rank0_save", "eval")
KINDS = HANG_KINDS + TRAP_KINDS
WIDE_KINDS = KINDS + ("node_stall",)
"""The wide batches add ``node_stall``: every rank of one node stops (its host, data loader or
NIC) while its node agent keeps reporting and the other nodes wait in a collective."""
PROFILES = ("full", "nvml_only", "no_stacks", "no_fr", "nvml_logs", "logs_only")
WIDE_PROFILES = PROFILES + ("rdma_logs", "mixed")
BIG_SKEW_SHARE = 0.2
"""Share of multi-node runs (3+ nodes) with one node's clock 30-120 s off."""
SILENT_SHARE = 0.25
"""Share of healthy fleets whose jobs never announce a save or an evaluation in their log."""
GPUS_PER_NODE = 8
"""Every evaluated job has 8 GPUs (ranks) per node."""
START_S = 23.0
"""When a simulated job starts training (scheduled 3 s + init 15 s + start 5 s)."""


STRIPS = ("stacks", "fr", "sm", "all3")
"""What a partially instrumented node lacks (``--partial``): stack samples, flight-recorder
snapshots, DCGM's ``sm_active`` (NVML only), or all three."""


@dataclass(frozen=True)
class Strip:
    """Per-node partial instrumentation: ``nodes`` lack what ``what`` names (``STRIPS``)."""

    nodes: frozenset[str]
    what: str

    def apply(self, events: Iterable[Event]) -> list[Event]:
        """``events`` as the partially instrumented job sends them."""
        out: list[Event] = []
        for e in events:
            node = getattr(e, "node_id", None)
            if node not in self.nodes:
                out.append(e)
            elif isinstance(e, StackSample) and self.what in ("stacks", "all3"):
                continue
            elif isinstance(e, CollectiveProgress) and self.what in ("fr", "all3"):
                continue
            elif isinstance(e, GpuSample) and self.what in ("sm", "all3"):
                out.append(e.model_copy(update={"gpus": tuple(g.model_copy(update={"sm_active": None})
                                                              for g in e.gpus)}))
            else:
                out.append(e)
        return out


def draw_strip(rng: random.Random, nodes: int) -> Strip:
    """Half the nodes (at least one) lack one kind of telemetry."""
    chosen = rng.sample(range(nodes), max(1, nodes // 2))
    return Strip(frozenset(node_id(k) for k in chosen), rng.choice(STRIPS))


@dataclass(frozen=True)
class Case:
    """One randomized scenario run: the fleet, what is injected, its condition and profile."""

    kind: str
    profile: str
    config: FleetConfig
    scenarios: tuple[Any, ...]
    strip: Strip | None = None

    @property
    def tags(self) -> tuple[str, ...]:
        """The knobs and cadences this run departs from the default with (per-knob figures)."""
        return knob_tags(self.config) + ((f"partial={self.strip.what}",) if self.strip else ())


def knob_tags(config: FleetConfig) -> tuple[str, ...]:
    """``knob`` or ``knob=value`` for every variation knob and cadence off its default."""
    v, default, ideal = config.variation, Variation(), FleetConfig(nodes=1)
    tags = [f.name if isinstance(getattr(v, f.name), bool) else f"{f.name}={getattr(v, f.name)}"
            for f in fields(v) if getattr(v, f.name) != getattr(default, f.name) and f.name != "skew_node"]
    tags = [("skew_s>15" if abs(v.skew_s) > 15 else "skew_s") if t.startswith("skew_s") else t for t in tags]
    tags += [f"{name}={getattr(config, name):g}" for name in CADENCES
             if getattr(config, name) != getattr(ideal, name)]
    return tuple(tags)


CADENCES = ("step_time_s", "log_interval_s", "sample_interval_s", "stack_interval_s", "collective_interval_s")


def profile_knobs(profile: str) -> dict[str, bool]:
    """The Variation fields of a telemetry availability profile."""
    return {
        "full": {},
        "nvml_only": {"sm_active": False},
        "no_stacks": {"stacks": False},
        "no_fr": {"flight_recorder": False},
        "nvml_logs": {"sm_active": False, "stacks": False, "flight_recorder": False},
        "logs_only": {"node_metrics": False, "stacks": False, "flight_recorder": False},
        "rdma_logs": {"gpu_metrics": False, "stacks": False, "flight_recorder": False},
    }[profile]


def mixed_knobs(rng: random.Random) -> dict[str, bool]:
    """Each availability knob drawn on its own (a fleet of mixed agents)."""
    knobs = {name: rng.random() < 0.6 for name in ("sm_active", "stacks", "flight_recorder", "gpu_metrics")}
    if not (knobs["stacks"] or knobs["flight_recorder"] or knobs["gpu_metrics"]):
        knobs["node_metrics"] = rng.random() < 0.5  # RDMA only, or logs and steps only
    return knobs


def draw_variation(rng: random.Random, profile: str, nodes: int, kind: str,
                   knobs: dict[str, bool] | None = None) -> Variation:
    """Random knobs for one run (``kind`` forces the ones its condition needs; ``knobs``:
    the availability knobs, default those of ``profile``)."""
    skew = rng.random() < 0.3
    return Variation(
        **(profile_knobs(profile) if knobs is None else knobs),
        waiter_frames="real" if rng.random() < 0.5 else "named",
        hooks=rng.random() < 0.5,
        async_checkpoint=kind == "async_ckpt" or (kind != "checkpoint" and rng.random() < 0.3),
        checkpoint_writer="rank0" if kind == "rank0_save" or (kind != "checkpoint" and rng.random() < 0.3)
        else "all",
        storage_port=rng.random() < 0.5,
        skew_node=rng.randrange(nodes) if skew else None,
        skew_s=rng.uniform(-5.0, 5.0) if skew else 0.0,
    )


def draw_case(seed: int, index: int) -> Case:
    """Scenario ``index`` of the batch ``seed`` (deterministic)."""
    rng = random.Random(f"hang-eval/v2/{seed}/{index}")
    kind = KINDS[index % len(KINDS)]
    profile = rng.choice(PROFILES)
    duration = rng.choice([1800.0, 2400.0])
    nodes = 1 if kind == "one_node" else rng.choice([2, 4] if kind in ("two", "dead_node") else [1, 2, 4])
    every = rng.choice([300.0, 600.0])
    ckpt_s = rng.uniform(20.0, 60.0) if kind != "async_ckpt" else rng.uniform(60.0, 180.0)
    config = FleetConfig(nodes=nodes, gpus_per_node=GPUS_PER_NODE, jobs=1, duration_s=duration,
                         seed=rng.randrange(1_000_000), cluster="eval", checkpoint_every_s=every,
                         checkpoint_duration_s=ckpt_s, variation=_big_skew(seed, index, nodes,
                                                                           draw_variation(rng, profile, nodes, kind)))
    at_s = rng.uniform(240.0, duration - 700.0)
    noise = sc.Heterogeneity(job=0, spread=rng.uniform(0.0, 0.1))
    return Case(kind, profile, config, (noise, _injected(kind, rng, at_s, every, ckpt_s, nodes)))


def _big_skew(seed: int, index: int, nodes: int, variation: Variation) -> Variation:
    """One run in five of a multi-node job gets one node whose clock is 30-120 s off (its own
    random stream: the other draws stay as they were)."""
    rng = random.Random(f"hang-eval/big-skew/{seed}/{index}")
    if nodes < 3 or rng.random() >= BIG_SKEW_SHARE:
        return variation
    return replace(variation, skew_node=rng.randrange(nodes), skew_s=rng.choice([-1, 1]) * rng.uniform(30.0, 120.0))


def draw_wide_case(seed: int, index: int) -> Case:
    """Scenario ``index`` of the wide batch ``seed``: as :func:`draw_case` plus the wider
    profiles and random cadences (see the module docstring; deterministic)."""
    rng = random.Random(f"hang-eval/wide/{seed}/{index}")
    kind = WIDE_KINDS[index % len(WIDE_KINDS)]
    profile = rng.choice(WIDE_PROFILES)
    knobs = mixed_knobs(rng) if profile == "mixed" else profile_knobs(profile)
    duration = rng.choice([1800.0, 2400.0])
    nodes = 1 if kind == "one_node" else rng.choice([2, 4] if kind in ("two", "dead_node", "node_stall")
                                                    else [1, 2, 4])
    every = rng.choice([300.0, 600.0])
    ckpt_s = rng.uniform(20.0, 60.0) if kind != "async_ckpt" else rng.uniform(60.0, 180.0)
    config = FleetConfig(nodes=nodes, gpus_per_node=GPUS_PER_NODE, jobs=1, duration_s=duration,
                         seed=rng.randrange(1_000_000), cluster="eval", checkpoint_every_s=every,
                         checkpoint_duration_s=ckpt_s, **draw_cadences(rng),
                         variation=draw_variation(rng, profile, nodes, kind, knobs))
    at_s = rng.uniform(240.0, duration - 700.0)
    noise = sc.Heterogeneity(job=0, spread=rng.uniform(0.0, 0.1))
    return Case(kind, profile, config, (noise, _injected(kind, rng, at_s, every, ckpt_s, nodes)))


def draw_cadences(rng: random.Random) -> dict[str, Any]:
    """Random fleet cadences (FleetConfig fields) for the wide batches."""
    return {"step_time_s": rng.choice([0.5, 1.0, 2.0]), "log_interval_s": rng.choice([5.0, 10.0, 20.0]),
            "sample_interval_s": rng.choice([5.0, 10.0]), "stack_interval_s": rng.choice([5.0, 10.0]),
            "collective_interval_s": rng.choice([5.0, 10.0])}


def _injected(kind: str, rng: random.Random, at_s: float, every: float, ckpt_s: float, nodes: int) -> Any:
    if kind in ("single", "two", "uniform"):
        return sc.Hang(job=0, at_s=at_s, source=kind)  # type: ignore[arg-type]  # kind is a HangSource here
    if kind == "one_node":
        return sc.Hang(job=0, at_s=at_s, source="uniform")
    if kind == "dead_node":
        return sc.Hang(job=0, at_s=at_s, dead_node=rng.randrange(nodes))
    if kind == "node_stall":
        node = rng.randrange(nodes)
        return sc.Hang(job=0, at_s=at_s, ranks=tuple(range(node * GPUS_PER_NODE, (node + 1) * GPUS_PER_NODE)))
    if kind == "async_ckpt":  # inside a background write: k-th checkpoint start + part of it
        k = max(1, int((at_s - START_S) // every))
        return sc.Hang(job=0, at_s=START_S + k * every + rng.uniform(2.0, ckpt_s - 2.0), source="single")
    if kind in ("checkpoint", "rank0_save"):
        return sc.LongCheckpoint(job=0, at_s=at_s, duration_s=rng.uniform(60.0, 300.0))
    return sc.LongEval(job=0, at_s=at_s, duration_s=rng.uniform(120.0, 900.0))


def route(events: Iterable[Event]) -> dict[str, list[Event]]:
    """Group events by job like the streaming shell: node samples go to the job placed there."""
    node_job: dict[str, str] = {}
    by_job: dict[str, list[Event]] = {}
    for event in events:
        if isinstance(event, JobEvent) and event.kind == "scheduled":
            node_job.update({p.node_id: event.job_id for p in event.placement})
        if isinstance(event, (GpuSample, NetSample)):
            job = node_job.get(event.node_id)
        else:
            job = getattr(event, "job_id", None)
        if isinstance(job, str):
            by_job.setdefault(job, []).append(event)
    return by_job


def released(events: Iterable[Event], true_time: Callable[[Event], datetime] | None = None
             ) -> Iterator[tuple[Event, datetime]]:
    """``events`` in the order the job pipeline's reorder buffer releases them (default settings),
    each with the wall time at which it is released: the true time of the event whose arrival
    released it (events arrive in true order; ``true_time`` undoes a skewed clock, default the
    event time). The final drain happens at the last arrival."""
    d = DetectionSettings()
    lateness, max_skew, path_skew, dead_node = (timedelta(seconds=x) for x in (
        d.lateness_s, d.max_skew_s, d.path_skew_s, d.dead_node_s))
    buffer = ReorderBuffer()
    wall: datetime | None = None
    for event in events:
        arrived = true_time(event) if true_time else event.event_time
        wall = arrived if wall is None else max(wall, arrived)
        for out in buffer.push(event, lateness, max_skew, path_skew, dead_node):
            yield out, wall
    for out in buffer.drain():
        yield out, wall or out.event_time


def detect(events: Sequence[Event], settings: HangSettings, until: datetime | None = None,
           tick_s: float | None = None) -> list[HangVerdict]:
    """The verdicts of :func:`detect_emitted`."""
    return [v for v, _ in detect_emitted(events, settings, until, tick_s)]


def detect_emitted(events: Sequence[Event], settings: HangSettings, until: datetime | None = None,
                   tick_s: float | None = None, true_time: Callable[[Event], datetime] | None = None
                   ) -> list[tuple[HangVerdict, datetime]]:
    """One job's verdicts from a fresh detector, each with the wall time of its emission.

    Events pass through the job pipeline's reorder buffer first (:func:`released`): a node
    whose clock is off sends its events in true order with shifted times, and the buffer holds
    an ahead node's events back while it passes those of a node far behind on as late. A
    verdict is emitted when the event that made the detector evaluate is released, which may be
    long after its event time (the buffer waits for a silent node): that release's wall time is
    the emission. Like the streaming shell (the jobs stage's timer, ``HangDetector.tick``), the
    detector is also ticked as the stage clock advances (every ``tick_s`` of event time, default
    ``eval_every_s``, up to ``until``, default the last event), at the clock less the lateness:
    a job that has gone completely silent is evaluated; such an evaluation is emitted when the
    clock gets there (a job alone in the stream: its clock stands still once it falls silent and
    moves on at wall pace, so the clock is the wall time) or with the next release, if earlier.
    The clock never runs ahead of the wall time, and the detector is ticked only once the job
    has sent nothing for ``quiet_tick_s`` (``JobPipeline.tick``): the worker's stage clock is
    the newest event time it processed, so an event of a node whose clock runs ahead is folded
    in, and the job counted as active, before the clock reaches that event's time.
    """
    detector = HangDetector(settings)
    state: JobState = detector.initial()
    out: list[tuple[HangVerdict, datetime]] = []
    if not events:
        return []
    timed = list(released(events, true_time))
    tick = timedelta(seconds=tick_s or settings.eval_every_s)
    end = until or max(e.event_time for e, _ in timed[-50:])
    clock = timed[0][0].event_time

    def keep(emitted: Sequence[Event], wall: datetime) -> None:
        out.extend((e, wall) for e in emitted if isinstance(e, HangVerdict))

    lateness = timedelta(seconds=DetectionSettings().lateness_s)
    quiet = timedelta(seconds=settings.quiet_tick_s)
    last_wall, newest = timed[-1][1], max(e.event_time for e, _ in timed)
    seen: datetime | None = None  # the newest event time processed (the job pipeline's ``max_seen``)

    def tick_at(now: datetime, wall: datetime) -> None:
        nonlocal state
        if seen is None or now - lateness - seen >= quiet:  # JobPipeline.tick: only a job gone quiet
            state, emitted = detector.tick(state, now - lateness)
            keep(emitted, wall)

    for event, wall in timed:
        while clock + tick < min(event.event_time, wall):  # idle until it arrives: the clock at wall pace
            clock += tick
            tick_at(clock, min(wall, clock))
        state, emitted = detector.step(state, event)
        keep(emitted, wall)
        seen = event.event_time if seen is None else max(seen, event.event_time)
    while clock < end:
        clock = min(end, clock + tick)
        tick_at(clock, last_wall + max(timedelta(0), clock - newest))  # the clock at wall pace past the input
    return out


def true_time_of(variation: Variation) -> Callable[[Event], datetime]:
    """The true time of an event of a fleet simulated with ``variation`` (its skewed node's
    events carry ``skew_s`` seconds of clock error)."""
    skewed = node_id(variation.skew_node) if variation.skew_node is not None and variation.skew_s else None
    shift = timedelta(seconds=variation.skew_s)

    def true_time(event: Event) -> datetime:
        return event.event_time - shift if skewed and getattr(event, "node_id", None) == skewed else event.event_time

    return true_time


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` (0-100) of ``values``; None when empty."""
    if not values:
        return None
    ranked = sorted(values)
    return ranked[max(0, math.ceil(q / 100 * len(ranked)) - 1)]


@dataclass
class Cell:
    """Counters of one condition or profile."""

    runs: int = 0
    hangs: int = 0
    detected: int = 0
    exact: int = 0
    false_verdicts: int = 0
    latencies: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """The cell as a JSON-ready dict."""
        return {"runs": self.runs, "hangs": self.hangs, "detected": self.detected, "exact": self.exact,
                "false_verdicts": self.false_verdicts, "latency_p50_s": percentile(self.latencies, 50),
                "latency_p95_s": percentile(self.latencies, 95)}


@dataclass
class Tally:
    """Counters of a batch: overall, per condition and per profile; misses for the report."""

    total: Cell = field(default_factory=Cell)
    by_kind: dict[str, Cell] = field(default_factory=dict)
    by_profile: dict[str, Cell] = field(default_factory=dict)
    by_knob: dict[str, Cell] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)

    def cells(self, case: Case) -> list[Cell]:
        """The cells a case counts in."""
        return [self.total, self.by_kind.setdefault(case.kind, Cell()),
                self.by_profile.setdefault(case.profile, Cell())] + \
            [self.by_knob.setdefault(tag, Cell()) for tag in case.tags]


def score_case(index: int, case: Case, tally: Tally, settings: HangSettings) -> None:
    """Simulate ``case``, run the detector, and add its outcome to ``tally``."""
    run = simulate(case.config, list(case.scenarios))
    end = case.config.at(case.config.duration_ms)
    events = case.strip.apply(run.events) if case.strip else run.events
    emitted = detect_emitted(route(events).get("job-0000", []), settings, until=end,
                             true_time=true_time_of(case.config.variation))
    verdicts = [v for v, _ in emitted]
    truth = next((t for t in run.truth if t.kind == "hang"), None)
    label = f"#{index} {case.kind}/{case.profile} [{case.config.variation.describe()}]"
    for cell in tally.cells(case):
        cell.runs += 1
    if case.kind in TRAP_KINDS or truth is None:
        for cell in tally.cells(case):
            cell.false_verdicts += len(verdicts)
        if verdicts:
            tally.misses.append(f"{label}: {len(verdicts)} verdict(s) on a trap")
        return
    assert truth is not None
    early = [v for v in verdicts if v.event_time < truth.onset]
    hit, hit_wall = next(((v, w) for v, w in emitted if v.event_time >= truth.onset), (None, None))
    latency = None if hit_wall is None else (hit_wall - truth.onset).total_seconds()
    exact = hit is not None and tuple(sorted(hit.source_nodes)) == tuple(sorted(truth.node_ids))
    for cell in tally.cells(case):
        cell.hangs += 1
        cell.false_verdicts += len(early)
        if latency is not None:
            cell.detected += 1
            cell.latencies.append(latency)
            cell.exact += exact
    if hit is None or early or not exact:
        named = None if hit is None else list(hit.source_nodes)
        tally.misses.append(f"{label}: latency={latency} named={named} truth={list(truth.node_ids)} "
                            f"early={len(early)}")


def healthy_false_verdicts(seed: int, hours: float, settings: HangSettings, wide: bool = False,
                           by_profile: dict[str, list[float]] | None = None, partial: bool = False
                           ) -> tuple[float, int, list[str]]:
    """Job-hours simulated and verdicts issued on healthy fleets of small jobs.

    Each fleet (2 h, 4 jobs of 2 nodes x 2 GPUs) draws a profile and knobs; every job gets
    heterogeneity, periodic checkpoints and a few evaluations of 2-15 min; one job in four a
    long synchronous save of 1-5 min. A fleet in four (its own random stream, so the other draws
    stay as they were) saves and evaluates without announcing it in its log (profile
    ``<profile>+silent``). ``wide``: profiles and cadences as ``--wide`` draws them.
    ``by_profile`` (if given) receives ``[job-hours, verdicts]`` per profile. ``partial``: half
    the fleet's nodes lack one kind of telemetry (``Strip``).
    """
    done, verdicts, notes, i = 0.0, 0, [], 0
    while done < hours:
        rng = random.Random(f"hang-eval/{'wide-healthy' if wide else 'healthy'}/{seed}/{i}")
        profile = rng.choice(WIDE_PROFILES if wide else PROFILES)
        knobs = mixed_knobs(rng) if profile == "mixed" else None
        cadences: dict[str, Any] = draw_cadences(rng) if wide else {}
        variation = draw_variation(rng, profile, 8, "healthy", knobs)
        if random.Random(f"hang-eval/silent/{seed}/{i}").random() < SILENT_SHARE:
            variation, profile = replace(variation, announce=False), f"{profile}+silent"
        config = FleetConfig(nodes=8, gpus_per_node=2, jobs=4, duration_s=7200.0, seed=rng.randrange(10**6),
                             cluster="healthy", checkpoint_every_s=rng.choice([300.0, 600.0]),
                             checkpoint_duration_s=rng.uniform(10.0, 60.0), **cadences, variation=variation)
        scenarios: list[Any] = []
        for j in range(config.jobs):
            scenarios.append(sc.Heterogeneity(job=j, spread=rng.uniform(0.0, 0.1)))
            scenarios += [sc.LongEval(job=j, at_s=t, duration_s=rng.uniform(120.0, 900.0))
                          for t in (rng.uniform(600, 2400), rng.uniform(3600, 5400))]
            if j == 0:
                scenarios.append(sc.LongCheckpoint(job=j, at_s=rng.uniform(2400, 3400),
                                                   duration_s=rng.uniform(60.0, 300.0)))
        tally = (by_profile if by_profile is not None else {}).setdefault(profile, [0.0, 0])
        tally[0] += config.jobs * config.duration_s / 3600.0
        sent = simulate(config, scenarios).events
        if partial:
            sent = draw_strip(random.Random(f"hang-eval/partial-healthy/{seed}/{i}"), config.nodes).apply(sent)
        for job, events in sorted(route(sent).items()):
            found = detect(events, settings, until=config.at(config.duration_ms))
            verdicts += len(found)
            tally[1] += len(found)
            if found:
                notes.append(f"healthy fleet {i} {job} {profile} [{config.variation.describe()}]: "
                             f"{len(found)} verdict(s) at {[v.event_time.isoformat() for v in found]}")
        done += config.jobs * config.duration_s / 3600.0
        i += 1
    return done, verdicts, notes


def evaluate(n: int = 45, seed: int = 1, healthy_hours: float = 200.0,
             settings: HangSettings | None = None, wide: bool = False, partial: bool = False) -> dict[str, Any]:
    """Run ``n`` randomized scenarios and the healthy fleets; the figures as a dict
    (``wide``: the wider draws of the module docstring; ``partial``: every multi-node job
    partially instrumented, see ``Strip``)."""
    settings = settings or HangSettings()
    tally = Tally()
    for i in range(n):
        case = draw_wide_case(seed, i) if wide else draw_case(seed, i)
        if partial and case.config.nodes > 1:
            case = replace(case, strip=draw_strip(random.Random(f"hang-eval/partial/{seed}/{i}"), case.config.nodes))
        score_case(i, case, tally, settings)
    healthy: dict[str, list[float]] = {}
    hours, false, notes = healthy_false_verdicts(seed, healthy_hours, settings, wide, healthy, partial) \
        if healthy_hours > 0 else (0.0, 0, [])
    t = tally.total
    return {
        "scenarios": n, "seed": seed, "hangs": t.hangs, "detected": t.detected,
        "recall": t.detected / t.hangs if t.hangs else None,
        "exact_source_rate": t.exact / t.detected if t.detected else None,
        "exact_source_rate_node_telemetry": _exact_with_node_telemetry(tally),
        "latency_p50_s": percentile(t.latencies, 50), "latency_p95_s": percentile(t.latencies, 95),
        "latency_max_s": max(t.latencies, default=None),
        "false_verdicts": t.false_verdicts,
        "by_condition": {k: tally.by_kind[k].figures() for k in WIDE_KINDS if k in tally.by_kind},
        "by_profile": {p: tally.by_profile[p].figures() for p in WIDE_PROFILES if p in tally.by_profile},
        "by_knob": {k: tally.by_knob[k].figures() for k in sorted(tally.by_knob)},
        "healthy_job_hours": hours, "healthy_false_verdicts": false,
        "healthy_by_profile": {p: {"job_hours": h[0], "false_verdicts": int(h[1])}
                               for p, h in sorted(healthy.items())},
        "false_verdicts_per_1000_job_hours": 1000.0 * false / hours if hours else None,
        "misses": tally.misses + notes,
    }


def _exact_with_node_telemetry(tally: Tally) -> float | None:
    """Exact source among the hangs of jobs with any node-level telemetry (every profile but
    ``logs_only``: logs and step progress alone stop alike on every rank and name no node)."""
    cells = [c for p, c in tally.by_profile.items() if p != "logs_only"]
    detected = sum(c.detected for c in cells)
    return sum(c.exact for c in cells) / detected if detected else None


def _print(result: dict[str, Any]) -> None:
    for key, value in result.items():
        if isinstance(value, dict):
            print(key)
            for name, cell in value.items():
                print(f"  {name:12s} " + " ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                                 for k, v in cell.items()))
        elif isinstance(value, list):
            print(f"{key} ({len(value)})")
            for line in value:
                print(f"  {line}")
        else:
            print(f"{key:34s} {value:.3f}" if isinstance(value, float) else f"{key:34s} {value}")


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; prints the figures (text, or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench.hang_eval", description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", type=int, default=45)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--healthy-hours", type=float, default=200.0, help="healthy job-hours (0: skip)")
    parser.add_argument("--wide", action="store_true", help="wider profiles and cadences (module docstring)")
    parser.add_argument("--partial", action="store_true",
                        help="partially instrumented jobs: half the nodes lack stacks, flight recorder or sm_active")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = evaluate(args.scenarios, args.seed, args.healthy_hours, wide=args.wide, partial=args.partial)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
