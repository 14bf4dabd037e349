"""GPU telemetry of one node (DCGM-like), from what each GPU's rank is doing.

Per-GPU counters (ECC, NVLink CRC, PCIe replay) are cumulative and only grow; an Xid
effect (DBE, row remap, NVLink error, fallen off the bus) is applied once its time has
come and ``xid_last`` then stays set, as DCGM reports it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

GIB = 1 << 30

# role -> (util range, sm_active range, power range W, temp offset C, memory GiB)
_PROFILES: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float],
                           float, float]] = {
    "off": ((0, 0), (0, 0), (62, 78), 0, 0.5),
    "init": ((5, 30), (0.02, 0.1), (120, 200), 6, 18),
    "train": ((95, 100), (0.6, 0.8), (600, 700), 24, 74),
    "checkpoint": ((0, 5), (0, 0.05), (110, 160), 12, 74),
    "eval": ((40, 70), (0.3, 0.5), (350, 450), 17, 60),
    "hang_source": ((0, 2), (0, 0.01), (90, 120), 8, 74),
    "hang_wait": ((99, 100), (0.02, 0.08), (200, 260), 12, 74),
    "ckpt_writer": ((0, 5), (0, 0.05), (110, 160), 12, 74),
    "ckpt_barrier": ((99, 100), (0.02, 0.08), (200, 260), 12, 74),
}
THERMAL_THROTTLE = (0x40, 0x20 | 0x40, 0x40)
"""HW thermal slowdown (0x40), with SW thermal slowdown (0x20) at times."""


@dataclass
class GpuState:
    """Persistent state of one GPU across samples."""

    temp_base: float
    sbe: int
    pcie: int
    dbe: int = 0
    nvlink: int = 0
    xid_last: int | None = None
    lost: bool = False

    def apply_xid(self, xid: int) -> None:
        """Record Xid ``xid`` and its effect on the counters."""
        self.xid_last = xid
        if xid in (48, 94, 95):
            self.dbe += 1
        elif xid == 92:
            self.sbe += 120
        elif xid in (63, 64):
            self.sbe += 5
        elif xid == 74:
            self.nvlink += 64
        elif xid == 79:
            self.lost = True


@dataclass
class NodeGpus:
    """All GPUs of one node plus the Xid effects still to come ``(ms, gpu, xid)``."""

    gpus: list[GpuState]
    pending: list[tuple[int, int, int]] = field(default_factory=list)

    def advance(self, ms: int) -> None:
        """Apply every pending Xid effect with a time at or before ``ms``."""
        while self.pending and self.pending[0][0] <= ms:
            _, gpu, xid = self.pending.pop(0)
            self.gpus[gpu].apply_xid(xid)


def new_node(gpus: int, rng: random.Random) -> NodeGpus:
    """Fresh GPU state for a node of ``gpus`` GPUs."""
    return NodeGpus([GpuState(rng.uniform(36, 46), rng.randrange(0, 4), rng.randrange(0, 3))
                     for _ in range(gpus)])


def _lost(index: int, state: GpuState) -> dict[str, Any]:
    return {"index": index, "util_pct": 0.0, "sm_active": None, "mem_used_bytes": 0,
            "temp_c": 0.0, "power_w": 0.0, "ecc_sbe_total": state.sbe,
            "ecc_dbe_total": state.dbe, "xid_last": state.xid_last,
            "nvlink_crc_errors_total": state.nvlink, "pcie_replay_total": state.pcie,
            "throttle_reasons": 0}


def gpu_stats(index: int, role: str, thermal: bool, state: GpuState,
              rng: random.Random, sm_active: bool = True) -> dict[str, Any]:
    """One GPU's fields of a gpu_sample for a GPU whose rank is in ``role``.

    ``thermal``: the GPU is thermally throttled (hotter, lower power, throttle bits set).
    ``sm_active`` False: NVML only (no DCGM profiling), the field is null.
    """
    if state.lost:
        return _lost(index, state)
    util, sm, power, temp, mem = _PROFILES.get(role, _PROFILES["off"])
    if rng.random() < 0.0005:
        state.sbe += 1
    watts = rng.uniform(*power) * (0.75 if thermal else 1.0)
    celsius = state.temp_base + temp + rng.gauss(0, 0.8) + (22.0 if thermal else 0.0)
    return {"index": index, "util_pct": round(rng.uniform(*util), 1),
            "sm_active": round(rng.uniform(*sm), 3) if sm_active else None,
            "mem_used_bytes": int(mem * GIB) + rng.randrange(0, 1 << 26),
            "temp_c": round(celsius, 1), "power_w": round(watts, 1),
            "ecc_sbe_total": state.sbe, "ecc_dbe_total": state.dbe, "xid_last": state.xid_last,
            "nvlink_crc_errors_total": state.nvlink, "pcie_replay_total": state.pcie,
            "throttle_reasons": rng.choice(THERMAL_THROTTLE) if thermal else 0}
