"""Rates from cumulative ``*_total`` counters, with resets handled.

A counter that goes down was reset (reboot, driver reload, port re-enumerated): following the
Prometheus convention, the increase across a reset is the new value itself (the counter
restarted from zero). A sample whose event time does not advance gives no rate.

Only *compute rails* say anything about the job's collectives: a node's ports that carried at
least ``rail_share`` of its busiest port's bytes since the attempt began (rails of a ring move
about the same volume; storage and management NICs far less). The weakest of them is the
node's RDMA rate; the weakest port of all would be a quiet storage NIC.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from schemas import NetSample

Totals = dict[str, tuple[int, int]]
"""``device:port`` -> (tx + rx bytes, symbol + receive + link-down errors)."""


def counter_delta(previous: int, current: int) -> int:
    """The increase of a cumulative counter between two readings (reset-aware, never negative)."""
    return current - previous if current >= previous else current


def port_totals(sample: NetSample) -> Totals:
    """Byte and error totals of every port of a sample (a DOWN port keeps its, frozen, totals)."""
    return {
        f"{p.device}:{p.port}": (
            p.tx_bytes_total + p.rx_bytes_total,
            p.symbol_errors_total + p.rcv_errors_total + p.link_downed_total,
        )
        for p in sample.ports
    }


def byte_deltas(previous: Mapping[str, tuple[int, int]], current: Totals) -> dict[str, int]:
    """Bytes moved by each port present in both readings (resets handled)."""
    return {k: counter_delta(previous[k][0], v[0]) for k, v in current.items() if k in previous}


def rails(volumes: Mapping[str, float], share: float) -> list[str]:
    """Ports that carried at least ``share`` of the busiest port's bytes (none if no bytes)."""
    top = max(volumes.values(), default=0.0)
    return [k for k, v in volumes.items() if top > 0 and v >= share * top]


def error_rate(previous: Mapping[str, tuple[int, int]], current: Totals, dt: float) -> float:
    """Port errors per second over the ports present in both readings (resets handled)."""
    deltas = [counter_delta(previous[k][1], v[1]) for k, v in current.items() if k in previous]
    return sum(deltas) / dt


@dataclass(frozen=True)
class NetRates:
    """One node's rates between two net samples (``rail_bps`` None before any traffic)."""

    rail_bps: float | None
    errors_per_s: float


@dataclass
class NetCounters:
    """The last counter reading of each node (node -> (event time, port totals)) and the
    bytes each port moved since the attempt began (node -> port -> bytes)."""

    last: dict[str, tuple[float, Totals]] = field(default_factory=dict)
    volumes: dict[str, dict[str, float]] = field(default_factory=dict)

    def rate(self, sample: NetSample, rail_share: float, count: bool = True) -> NetRates | None:
        """The node's rates since its previous sample, or None for the first sample, a
        non-advancing event time or no port in common. Remembers the new reading unless it is
        older than the one it has; adds the bytes to the ports' volumes when ``count`` (steady
        training: checkpoint bursts must not make a storage port look like a rail)."""
        now = sample.event_time.timestamp()
        totals = port_totals(sample)
        prev = self.last.get(sample.node_id)
        if prev is not None and now <= prev[0]:
            return None
        self.last[sample.node_id] = (now, totals)
        if prev is None or not set(prev[1]) & set(totals):
            return None
        dt = now - prev[0]
        deltas = byte_deltas(prev[1], totals)
        volumes = self.volumes.setdefault(sample.node_id, {})
        if count:
            for port, moved in deltas.items():
                volumes[port] = volumes.get(port, 0.0) + moved
        chosen = [deltas[p] for p in rails(volumes, rail_share) if p in deltas]
        weakest = min(chosen) / dt if chosen else None
        return NetRates(weakest, error_rate(prev[1], totals, dt))

    def dump(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "last": {n: [t, {k: list(v) for k, v in p.items()}] for n, (t, p) in self.last.items()},
            "volumes": {n: dict(v) for n, v in self.volumes.items()},
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> NetCounters:
        """Inverse of :meth:`dump`."""
        last = data.get("last", {})
        return cls(
            {n: (float(t), {k: (int(v[0]), int(v[1])) for k, v in p.items()})
             for n, (t, p) in last.items()},
            {n: {k: float(b) for k, b in v.items()} for n, v in data.get("volumes", {}).items()},
        )
