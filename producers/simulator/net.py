"""RDMA port counters of one node (sysfs ``/sys/class/infiniband/*/ports/*/counters``).

Byte counters are cumulative; between two samples each port moves the bytes of the time
its job spent in each phase (full rate while training, a trickle while evaluating or
checkpointing, nothing while hung, dead or idle). A NIC-degraded node has one slow port
that also accumulates symbol and receive errors.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

PORT_RATE_BPS = 1.6e9
"""Bytes per second per port while training at nominal speed."""

PHASE_RATE = {"train": 1.0, "eval": 0.05, "checkpoint": 0.01, "init": 0.002}
"""Share of the training rate moved in each phase; phases not listed move nothing."""

STORAGE_RATE_BPS = 3.0e8
"""Storage traffic (data loading, checkpoint writes over GPUDirect Storage) on the storage
port: it keeps flowing whatever the job's collectives do, even while the job hangs."""
STORAGE_PHASE_RATE = {"checkpoint": 4.0}
"""Storage traffic multiplier per phase: checkpoint writes burst on the storage port."""

DEGRADED_PORT = 1
DEGRADED_SHARE = 0.3


@dataclass
class PortState:
    """Cumulative counters of one port; ``storage``: carries storage, not collectives."""

    device: str
    tx: int
    rx: int
    storage: bool = False
    symbol: int = 0
    downed: int = 0
    rcv: int = 0

    def wire(self) -> dict[str, Any]:
        """The port's fields of a net_sample."""
        return {"device": self.device, "port": 1, "state": "ACTIVE",
                "tx_bytes_total": self.tx, "rx_bytes_total": self.rx,
                "symbol_errors_total": self.symbol, "link_downed_total": self.downed,
                "rcv_errors_total": self.rcv}


def new_ports(count: int, rng: random.Random, storage: bool = False) -> list[PortState]:
    """Ports ``mlx5_0``.. with counters as left by earlier uptime; ``storage`` adds one more
    port (the last) that carries storage traffic only."""
    ports = [PortState(f"mlx5_{i}", rng.randrange(10**12, 10**13), rng.randrange(10**12, 10**13))
             for i in range(count)]
    if storage:
        ports.append(PortState(f"mlx5_{count}", rng.randrange(10**12, 10**13),
                               rng.randrange(10**12, 10**13), storage=True))
    return ports


def storage_seconds(spent: dict[str, int], wall_s: float) -> float:
    """Seconds of nominal storage traffic in an interval of ``wall_s`` with ``spent`` ms per phase:
    steady everywhere (data loading, background writes), bursting during checkpoints."""
    burst = sum((STORAGE_PHASE_RATE.get(kind, 1.0) - 1.0) * ms for kind, ms in spent.items()) / 1000.0
    return max(0.0, wall_s + burst)


def active_seconds(spent: dict[str, int]) -> float:
    """Seconds at full training rate equivalent to ``spent`` (ms per phase kind)."""
    return sum(PHASE_RATE.get(kind, 0.0) * ms for kind, ms in spent.items()) / 1000.0


def advance(ports: list[PortState], seconds: float, throughput: float, degraded: bool,
            rng: random.Random, storage_s: float = 0.0) -> None:
    """Move ``seconds`` of full-rate traffic (scaled by ``throughput``) through the compute
    ports and ``storage_s`` seconds of storage traffic through the storage port."""
    for i, port in enumerate(ports):
        if port.storage:
            volume = STORAGE_RATE_BPS * storage_s
            port.tx += int(volume * rng.uniform(0.5, 1.5))
            port.rx += int(volume * rng.uniform(0.5, 1.5))
            continue
        share = DEGRADED_SHARE if degraded and i == DEGRADED_PORT else 1.0
        if seconds > 0:
            volume = PORT_RATE_BPS * seconds * throughput * share
            port.tx += int(volume * rng.uniform(0.97, 1.03))
            port.rx += int(volume * rng.uniform(0.97, 1.03))
        if degraded and i == DEGRADED_PORT:
            port.symbol += rng.randint(3, 40)
            port.rcv += rng.randint(0, 2)
