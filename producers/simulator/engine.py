"""The simulation engine: plan every job, then stream events window by window.

``iter_events`` yields events in contract order, sorted by ``(event_time, event_id)``,
generating dense telemetry one window (``WINDOW_MS``) at a time, so memory stays bounded
by the sparse events and one window. Every random draw comes from ``random.Random``
streams derived from ``config.seed``: the same config and scenarios give the same events,
byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta

from producers.simulator import emitters, gpu, incidents, net
from producers.simulator.builder import build_timeline, job_scenarios, resolve_node
from producers.simulator.config import FleetConfig, layouts, node_id
from producers.simulator.emitters import NodeRef, Periodic, RankRef
from producers.simulator.factory import EventFactory, Item
from producers.simulator.scenarios import Scenario, Xid
from producers.simulator.timeline import JobTimeline
from producers.simulator.truth import Truth
from producers.simulator.validate import check_scenarios
from schemas import Event

WINDOW_MS = 1000


def _ms(seconds: float) -> int:
    return max(1, int(round(seconds * 1000)))


@dataclass
class _Dense:
    """State of one pass over the dense telemetry: ids, noise, schedules, counters."""

    factory: EventFactory
    rng: random.Random
    gpus: Periodic[NodeRef]
    nets: Periodic[NodeRef]
    stacks: Periodic[RankRef]
    colls: Periodic[RankRef]


class Simulation:
    """One prepared run: the plan and ground truth exist, events are produced on demand.

    Raises ``ValueError`` at construction for a scenario that does not fit the fleet.
    Every call of :meth:`events` starts a fresh pass and yields the same events.
    """

    def __init__(self, config: FleetConfig, scenarios: Sequence[Scenario] = ()) -> None:
        check_scenarios(config, scenarios)
        self.config, seed = config, config.seed
        self.layouts = layouts(config)
        self.timelines = [build_timeline(config, lay, job_scenarios(lay, scenarios),
                                         random.Random(f"{seed}/job/{lay.index}"))
                          for lay in self.layouts]
        self.factory = EventFactory(config.start_utc, config.cluster,
                                    random.Random(f"{seed}/ids"))
        self.truth: list[Truth] = [t for tl in self.timelines for t in tl.truths]
        self._scenarios = tuple(scenarios)
        self._sparse = self._sparse_items(scenarios)

    def _sparse_items(self, scenarios: Sequence[Scenario]) -> list[Item]:
        rng, f = random.Random(f"{self.config.seed}/sparse"), self.factory
        items: list[Item] = []
        for tl in self.timelines:
            items += incidents.job_items(f, self.config, tl, rng)
        for xid in incidents.scenario_xids(scenarios):
            lines, truth = incidents.xid_items(f, self.config, xid, self.layouts)
            items += lines
            if truth is not None:
                self.truth.append(truth)
        items += incidents.chatter(f, self.config, rng)
        self.truth.sort(key=lambda t: (t.onset, t.kind, t.job_id or "", t.node_ids))
        return sorted((it for it in items if not self._from_dead_node(it)), key=lambda it: (it[0], it[1]))

    def _from_dead_node(self, item: Item) -> bool:
        """Whether ``item`` comes from a node that is dead at its time (a dead node says nothing)."""
        node = getattr(item[2], "node_id", None)
        for tl in self.timelines:
            if node in tl.layout.node_ids and tl.node_dead(tl.layout.node_ids.index(node), item[0]):
                return True
        return False

    def _node_refs(self, scenarios: Sequence[Scenario]) -> list[NodeRef]:
        rng, gpn = random.Random(f"{self.config.seed}/nodes"), self.config.gpus_per_node
        owner: dict[str, tuple[JobTimeline, int]] = {
            n: (tl, pos) for tl in self.timelines for pos, n in enumerate(tl.layout.node_ids)}
        refs = []
        for index in range(self.config.nodes):
            nid = node_id(index)
            tl, pos = owner.get(nid, (None, 0))
            refs.append(NodeRef(nid, tl, pos, gpu.new_node(gpn, rng),
                                net.new_ports(self.config.ports_per_node, rng,
                                              self.config.variation.storage_port)))
        by_id = {r.node_id: r for r in refs}
        for s in sorted((s for s in scenarios if isinstance(s, Xid)), key=lambda s: s.at_s):
            by_id[resolve_node(s.node)].gpus.pending.append((_ms(s.at_s), s.gpu, s.xid))
        return refs

    def _dense(self) -> _Dense:
        c, seed = self.config, self.config.seed
        rng = random.Random(f"{seed}/offsets")
        nodes = self._node_refs(self._scenarios)
        ranks = [RankRef(tl, r) for tl in self.timelines for r in range(tl.layout.world_size)]
        factory = EventFactory(c.start_utc, c.cluster, random.Random(f"{seed}/ids/dense"))
        return _Dense(factory, random.Random(f"{seed}/telemetry"),
                      Periodic.of(_ms(c.sample_interval_s), nodes, rng),
                      Periodic.of(_ms(c.sample_interval_s), nodes, rng),
                      Periodic.of(_ms(c.stack_interval_s), ranks, rng),
                      Periodic.of(_ms(c.collective_interval_s), ranks, rng))

    def events(self) -> Iterator[Event]:
        """Every event of the run in ``(event_time, event_id)`` order, built lazily."""
        sparse_at, end = 0, self.config.duration_ms
        dense = self._dense()
        for a in range(0, end, WINDOW_MS):
            b = min(a + WINDOW_MS, end)
            batch = self._window(a, b, dense)
            while sparse_at < len(self._sparse) and self._sparse[sparse_at][0] < b:
                batch.append(self._sparse[sparse_at])
                sparse_at += 1
            batch.sort(key=lambda it: (it[0], it[1]))
            for item in batch:
                yield self._skewed(item[2])

    def _skewed(self, event: Event) -> Event:
        """``event`` with the skewed node's clock error applied (sent in true order)."""
        v = self.config.variation
        if v.skew_node is None or not v.skew_s or getattr(event, "node_id", None) != node_id(v.skew_node):
            return event
        return event.model_copy(update={"event_time": event.event_time + timedelta(seconds=v.skew_s)})

    def _window(self, a: int, b: int, d: _Dense) -> list[Item]:
        c, f, rng = self.config, d.factory, d.rng
        log_every = max(1, int(round(c.log_interval_s / c.step_time_s)))
        batch: list[Item] = []
        for tl in self.timelines:
            batch += emitters.steps(f, tl, a, b, c.progress_every_steps, log_every,
                                    c.total_iterations, rng)
        for ms, node in d.gpus.due(a, b):
            batch += emitters.gpu_sample(f, node, ms, rng)
        for ms, node in d.nets.due(a, b):
            batch += emitters.net_sample(f, node, ms, d.nets.interval_ms, rng)
        for ms, ref in d.stacks.due(a, b):
            batch += emitters.stack(f, ref, ms, rng)
        for ms, ref in d.colls.due(a, b):
            batch += emitters.collective(f, ref, ms)
        return batch


def iter_events(config: FleetConfig, scenarios: Sequence[Scenario] = ()) -> Iterator[Event]:
    """Stream the run's events in event-time order without building the whole list."""
    return Simulation(config, scenarios).events()

