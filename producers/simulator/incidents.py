"""Sparse events of a run: job lifecycle, start-up/checkpoint/eval/crash log lines, NVRM
Xid lines and benign kernel/system chatter.

They are few (tens per job plus a few per rank at start-up), so they are built up front
and merged into the time-ordered stream by the engine; dense telemetry is built lazily.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from producers.simulator import texts, xids
from producers.simulator.builder import resolve_node
from producers.simulator.collectives import PER_STEP
from producers.simulator.config import FleetConfig, JobLayout
from producers.simulator.factory import EventFactory, Item
from producers.simulator.scenarios import Scenario, Xid
from producers.simulator.timeline import JobTimeline, Mark
from producers.simulator.truth import Truth
from schemas import JobEvent, LogLine

LIFECYCLE = {"submitted", "scheduled", "initialized", "running", "failed", "finished"}
MAX_WATCHDOG_LINES = 64
PAUSE_LOG_DELAY_MS = 40
"""Checkpoint/eval lines follow the iteration line of the step they start after."""


def _job_event(f: EventFactory, tl: JobTimeline, mark: Mark, kind: str,
               detail: str | None = None) -> Item:
    placement = ([{"rank": r, "node_id": tl.layout.node_of(r)}
                  for r in range(tl.layout.world_size)] if kind == "scheduled" else [])
    return f.make(JobEvent, mark.ms, job_id=tl.layout.job_id, attempt=0, kind=kind,
                  placement=placement, step=mark.step, detail=detail)


def _log(f: EventFactory, tl: JobTimeline, ms: int, rank: int | None, line: str,
         source: str = "training", node: str | None = None) -> Item:
    node_id = node if rank is None else tl.layout.node_of(rank)
    return f.make(LogLine, ms, node_id=node_id, job_id=tl.layout.job_id, rank=rank,
                  source=source, line=line)


def _failure_detail(tl: JobTimeline, mark: Mark) -> str:
    if mark.detail == "oom":
        return f"rank {mark.rank} exited with code 1: CUDA out of memory"
    if mark.detail == "xid":
        return f"rank {mark.rank} exited with code 1: CUDA error after Xid {mark.xid}"
    return "NCCL watchdog timeout: collective operation timed out"


HOOK_KINDS = frozenset({"running", "checkpoint_started", "checkpoint_completed"})
"""Lifecycle events that come from training hooks a launcher may not have (``hooks=False``)."""


def _lifecycle(f: EventFactory, tl: JobTimeline, mark: Mark) -> list[Item]:
    detail = _failure_detail(tl, mark) if mark.kind == "failed" else None
    items = [] if mark.kind in HOOK_KINDS and not tl.variation.hooks else \
        [_job_event(f, tl, mark, mark.kind, detail)]
    if mark.kind == "initialized":
        lines = texts.init_lines(tl.layout.world_size, tl.layout.gpus_per_node)
        items += [_log(f, tl, mark.ms + 50 * i, 0, line) for i, line in enumerate(lines)]
    return items


def _pause(f: EventFactory, tl: JobTimeline, mark: Mark, rng: random.Random) -> list[Item]:
    step, job, tp = mark.step or 0, tl.layout.job_id, tl.layout.gpus_per_node
    announced = tl.variation.announce
    if not announced and mark.kind.startswith("eval"):
        return []
    if mark.kind == "eval_started":
        return [_log(f, tl, mark.ms + PAUSE_LOG_DELAY_MS, 0, texts.eval_start(step, 100))]
    if mark.kind == "eval_completed":
        noise = rng.gauss(0, 0.01)
        return [_log(f, tl, mark.ms + PAUSE_LOG_DELAY_MS, 0, texts.eval_done(step, noise))]
    kind = mark.kind
    line = texts.checkpoint_saving(step, job) if kind.endswith("started") else \
        texts.checkpoint_saved(step, job, tp)
    hook = [f.make(JobEvent, mark.ms + PAUSE_LOG_DELAY_MS - 5, job_id=job, attempt=0, kind=kind,
                   step=step, detail=mark.detail)] if tl.variation.hooks else []
    return hook + ([_log(f, tl, mark.ms + PAUSE_LOG_DELAY_MS, 0, line)] if announced else [])


def _crash(f: EventFactory, config: FleetConfig, tl: JobTimeline, mark: Mark) -> list[Item]:
    lay = tl.layout
    if mark.detail == "hang_timeout":
        return _watchdog(f, config, tl, mark)
    assert mark.rank is not None
    local = mark.rank % lay.gpus_per_node
    if mark.detail == "oom":
        line = texts.oom(local, lay.pid(mark.rank), 0.42)
    else:
        line = texts.cuda_error(xids.info(mark.xid or 0).cuda_error)
    return [_log(f, tl, mark.ms + 20, mark.rank, line),
            _log(f, tl, mark.ms + 1500, None, texts.elastic_failure(local, lay.pid(mark.rank)),
                 node=lay.node_of(mark.rank))]


def _watchdog(f: EventFactory, config: FleetConfig, tl: JobTimeline, mark: Mark) -> list[Item]:
    assert tl.hang is not None
    lay, onset = tl.layout, tl.hang.onset_ms
    seq = tl.steps_done(onset) * PER_STEP["dp"] + tl.eval_ops(onset) + 1
    waiting = [r for r in range(0, lay.world_size, lay.gpus_per_node)
               if r not in tl.hang.sources][:MAX_WATCHDOG_LINES]
    items = [_log(f, tl, mark.ms + i, r,
                  texts.watchdog(f.time(mark.ms + i), r, lay.pid(r), seq, mark.ms - onset))
             for i, r in enumerate(waiting)]
    items.append(_log(f, tl, mark.ms + 1500, None, texts.elastic_failure(0, lay.pid(0)),
                      node=lay.node_ids[0]))
    return items


def _mark_items(f: EventFactory, config: FleetConfig, tl: JobTimeline, mark: Mark,
                rng: random.Random) -> list[Item]:
    if mark.kind in LIFECYCLE:
        return _lifecycle(f, tl, mark)
    if mark.kind == "crash":
        return _crash(f, config, tl, mark)
    return _pause(f, tl, mark, rng)


def _nccl_init(f: EventFactory, tl: JobTimeline, rng: random.Random) -> list[Item]:
    lay, items = tl.layout, []
    comm = rng.getrandbits(44)
    for rank in range(lay.world_size):
        local, host = rank % lay.gpus_per_node, lay.node_of(rank)
        ms = tl.init_ms - 9000 + rng.randrange(0, 8000)
        for i, line in enumerate(texts.nccl_init(host, lay.pid(rank), local, rank,
                                                 lay.world_size, comm + rank * 0x1000)):
            items.append(_log(f, tl, ms + i, rank, line, source="nccl"))
    return items


def job_items(f: EventFactory, config: FleetConfig, tl: JobTimeline,
              rng: random.Random) -> list[Item]:
    """Every sparse event of one job (lifecycle, start-up, pauses, crash)."""
    items = _nccl_init(f, tl, rng)
    for mark in tl.marks:
        items += _mark_items(f, config, tl, mark, rng)
    return [i for i in items if 0 <= i[0] < config.duration_ms]


def _owner(node: str, jobs: Sequence[JobLayout]) -> JobLayout | None:
    return next((lay for lay in jobs if node in lay.node_ids), None)


def xid_items(f: EventFactory, config: FleetConfig, scenario: Xid,
              jobs: Sequence[JobLayout]) -> tuple[list[Item], Truth | None]:
    """The NVRM lines of one Xid scenario and its ground truth (None if after the run)."""
    node, entry = resolve_node(scenario.node), xids.info(scenario.xid)
    owner = _owner(node, jobs)
    rank = None if owner is None else \
        owner.node_ids.index(node) * owner.gpus_per_node + scenario.gpu
    pid = None if owner is None or rank is None else owner.pid(rank)
    at = int(round(scenario.at_s * 1000))
    items = [f.make(LogLine, at + int(k * scenario.interval_s * 1000), node_id=node,
                    job_id=None, rank=None, source="kernel",
                    line=xids.line(scenario.xid, scenario.gpu, pid))
             for k in range(max(1, scenario.repeats))]
    fatal = entry.fatal if scenario.fatal is None else scenario.fatal
    truth = Truth("xid", None if owner is None else owner.job_id, (node,),
                  () if rank is None else (rank,), config.at(at), None, entry.category,
                  f"xid={scenario.xid} gpu={scenario.gpu} fatal={fatal}")
    if at >= config.duration_ms:
        return [], None
    return [i for i in items if i[0] < config.duration_ms], truth


def chatter(f: EventFactory, config: FleetConfig, rng: random.Random,
            mean_interval_s: float = 400.0) -> list[Item]:
    """Benign kernel and system lines on every node, about one per ``mean_interval_s``."""
    items: list[Item] = []
    for index in range(config.nodes):
        node, t = f"node-{index + 1:04d}", rng.expovariate(1.0 / mean_interval_s)
        while t < config.duration_s:
            kernel = rng.random() < 0.5
            line = rng.choice(texts.BENIGN_KERNEL if kernel else texts.BENIGN_SYSTEM)
            items.append(f.make(LogLine, int(t * 1000), node_id=node, job_id=None, rank=None,
                                source="kernel" if kernel else "system", line=line))
            t += rng.expovariate(1.0 / mean_interval_s)
    return items


def scenario_xids(scenarios: Sequence[Scenario]) -> list[Xid]:
    """The Xid scenarios among ``scenarios``."""
    return [s for s in scenarios if isinstance(s, Xid)]
