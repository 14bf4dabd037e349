"""Rates from cumulative ``*_total`` counters, with resets handled.

A counter that goes down was reset (reboot, driver reload, port re-enumerated): following the
Prometheus convention, the increase across a reset is the new value itself (the counter
restarted from zero). A sample whose event time does not advance gives no rate.
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


def weakest_port_rate(previous: Mapping[str, tuple[int, int]], current: Totals, dt: float) -> float:
    """Bytes/s of the slowest port present in both readings (resets handled)."""
    deltas = [counter_delta(previous[k][0], v[0]) for k, v in current.items() if k in previous]
    return min(deltas) / dt


def error_rate(previous: Mapping[str, tuple[int, int]], current: Totals, dt: float) -> float:
    """Port errors per second over the ports present in both readings (resets handled)."""
    deltas = [counter_delta(previous[k][1], v[1]) for k, v in current.items() if k in previous]
    return sum(deltas) / dt


@dataclass(frozen=True)
class NetRates:
    """One node's rates between two net samples."""

    weakest_bps: float
    errors_per_s: float


@dataclass
class NetCounters:
    """The last counter reading of each node: node -> (event time, port totals)."""

    last: dict[str, tuple[float, Totals]] = field(default_factory=dict)

    def rate(self, sample: NetSample) -> NetRates | None:
        """The node's rates since its previous sample, or None for the first sample, a
        non-advancing event time or no port in common. Remembers the new reading unless it is
        older than the one it has."""
        now = sample.event_time.timestamp()
        totals = port_totals(sample)
        prev = self.last.get(sample.node_id)
        if prev is not None and now <= prev[0]:
            return None
        self.last[sample.node_id] = (now, totals)
        if prev is None or not set(prev[1]) & set(totals):
            return None
        dt = now - prev[0]
        return NetRates(weakest_port_rate(prev[1], totals, dt), error_rate(prev[1], totals, dt))

    def dump(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {n: [t, {k: list(v) for k, v in p.items()}] for n, (t, p) in self.last.items()}

    @classmethod
    def load(cls, data: dict[str, Any]) -> NetCounters:
        """Inverse of :meth:`dump`."""
        return cls({
            n: (float(t), {k: (int(v[0]), int(v[1])) for k, v in p.items()})
            for n, (t, p) in data.items()
        })
