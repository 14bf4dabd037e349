"""How a rank's GPU samples read: computing, spinning in a collective's wait, or idle.

Shared by the probes and the localiser; pure functions of the job state (no I/O).
"""

from __future__ import annotations

from streams.hang.settings import HangSettings
from streams.hang.state import GpuPoint, JobState, seconds


def gpu_kind(point: GpuPoint, peak_w: float | None, s: HangSettings) -> str:
    """``spin`` (busy GPU not computing: waiting in a collective), ``idle``, ``compute`` or
    ``unknown`` (busy, NVML only, and no peak power known to compare with)."""
    _, util, sm, power = point
    if util <= s.util_idle_pct:
        return "idle"
    if util < s.util_busy_pct:
        return "compute"
    if sm is not None:
        return "spin" if sm <= s.sm_idle_max else "compute"
    if peak_w is None or peak_w <= 0:
        return "unknown"
    return "spin" if power <= s.spin_power_fraction * peak_w else "compute"


def waiting_in_collective(state: JobState, rank: int, s: HangSettings) -> bool:
    """Whether ``rank``'s GPU spun (busy, not computing: a collective's wait) through its own
    last ``idle_window_s`` of samples, measured on its node's clock alone (so it holds for a
    node whose clock is off the job's). A rank writing a checkpoint leaves its GPU idle while
    it serialises and writes; one spinning that long is inside a collective, not saving."""
    points = state.run.gpu.get(rank)
    if not points:
        return False
    peak_w, newest_us = state.run.power_peak_w.get(rank), points[-1][0]
    for point in reversed(points):
        if gpu_kind(point, peak_w, s) != "spin":
            return False
        if newest_us - point[0] >= seconds(s.idle_window_s):
            return True
    return False
