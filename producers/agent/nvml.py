"""GPU collector: one ``gpu_sample`` per round from NVML (nvidia-ml-py's ``pynvml``).

The NVML module is a constructor parameter (default: ``import pynvml``) so tests inject a
stand-in module with the same names; the call sequence is the same either way.

Per-GPU failures never fail the round: ``NVML_ERROR_NOT_SUPPORTED`` leaves the field at its
neutral value (and the call is not repeated on that GPU), ``NVML_ERROR_GPU_IS_LOST`` drops
the GPU from the sample and emits one ``NVML_ERROR_GPU_IS_LOST`` notice line per loss (the
classifier maps it to ``gpu_fallen_off_bus``), any other NVML error is counted in
``faultline_agent_source_errors{collector="gpu"}`` and leaves the field neutral; the ones
that say the GPU is unwell (RESET_REQUIRED, UNKNOWN, CORRUPTED_INFOROM, IRQ_ISSUE) are also
sent once per GPU and error as a notice line. Only ``nvmlInit`` failing fails a round.

Fields without a v1 ``gpu_sample`` slot (SM/memory clocks, aggregate ECC, remapped rows)
are exported as ``faultline_agent_gpu_info`` gauges, and a newly pending or failed row
remapping is also sent as a notice line.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from prometheus_client import Gauge

from producers.agent.base import Clock, new_event_id, notice, utc_now
from producers.agent.dcgm import DcgmScraper
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import GpuSample, GpuStats


class GpuLost(Exception):
    """NVML answered NVML_ERROR_GPU_IS_LOST for this GPU."""


def load_nvml() -> ModuleType:
    """The real nvidia-ml-py module."""
    return importlib.import_module("pynvml")


def pci_address(info: Any) -> str:
    """The kernel's short PCI form ``0000:3b:00`` of an ``nvmlPciInfo_t``."""
    return f"{int(info.domain):04x}:{int(info.bus):02x}:{int(info.device):02x}"


@dataclass
class NvmlDevices:
    """NVML initialised once, shared by the GPU collector and the Xid watcher.

    ``open()`` is idempotent and thread-safe; if ``nvmlInit`` fails it raises and the next
    call tries again (the runner's backoff paces it).
    """

    nvml: ModuleType
    handles: list[Any] = field(default_factory=list)
    pci: list[str] = field(default_factory=list)
    opened: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    xid_last: dict[int, int] = field(default_factory=dict)
    """Last Xid per GPU index, written by the Xid watcher, read into ``gpu_sample.xid_last``."""

    def open(self) -> None:
        with self.lock:
            if self.opened:
                return
            self.nvml.nvmlInit()
            count = int(self.nvml.nvmlDeviceGetCount())
            self.handles = [self.nvml.nvmlDeviceGetHandleByIndex(i) for i in range(count)]
            self.pci = [pci_address(self.nvml.nvmlDeviceGetPciInfo(h)) for h in self.handles]
            self.opened = True

    def index_of_pci(self, pci: str) -> int | None:
        return self.pci.index(pci) if pci in self.pci else None

    def close(self) -> None:
        with self.lock:
            if self.opened:
                self.opened = False
                self.nvml.nvmlShutdown()


class GpuCollector:
    """Reads every GPU of the node once per ``gpu_interval_s`` into a ``gpu_sample``."""

    name = "gpu"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, devices: NvmlDevices,
                 dcgm: DcgmScraper | None = None, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.interval_s = settings.gpu_interval_s
        self.metrics = metrics
        self.devices = devices
        self.nvml = devices.nvml
        self.dcgm = dcgm
        self.clock = clock
        self._unsupported: set[tuple[int, str]] = set()
        self._lost: set[int] = set()
        self._links: dict[int, list[int]] = {}
        self._gpm: dict[int, list[Any]] = {}
        self._gpm_prev: dict[int, Any] = {}
        self._remap_seen: dict[int, tuple[int, int, int]] = {}
        self._gauges: dict[tuple[str, str], Any] = {}
        # Errors that say the GPU itself is unwell: each is also sent once per GPU as a notice line.
        nvml = self.nvml
        self._serious_codes = {nvml.NVML_ERROR_RESET_REQUIRED, nvml.NVML_ERROR_UNKNOWN,
                               nvml.NVML_ERROR_CORRUPTED_INFOROM, nvml.NVML_ERROR_IRQ_ISSUE}
        self._serious_seen: set[tuple[int, int]] = set()
        self._serious_new: list[str] = []
        self._info = Gauge("faultline_agent_gpu_info", "NVML readings without a gpu_sample field",
                           ["gpu", "field"], registry=metrics.registry)

    # -- NVML calls -------------------------------------------------------------------
    def _call(self, gpu: int, fn: str, *args: Any, default: Any = None) -> Any:
        """``nvml.<fn>(*args)``; NOT_SUPPORTED -> ``default`` (remembered), GPU_IS_LOST -> GpuLost."""
        if (gpu, fn) in self._unsupported:
            return default
        try:
            return getattr(self.nvml, fn)(*args)
        except self.nvml.NVMLError as exc:
            code = getattr(exc, "value", None)
            if code == self.nvml.NVML_ERROR_GPU_IS_LOST:
                raise GpuLost(str(exc)) from exc
            if code in (self.nvml.NVML_ERROR_NOT_SUPPORTED, self.nvml.NVML_ERROR_FUNCTION_NOT_FOUND):
                self._unsupported.add((gpu, fn))
            else:
                self.metrics.source_errors.labels("gpu", f"{fn}:{exc}").inc()
                if isinstance(code, int) and code in self._serious_codes and (gpu, code) not in self._serious_seen:
                    self._serious_seen.add((gpu, code))
                    self._serious_new.append(f"NVML error on GPU {gpu} (PCI:{self.devices.pci[gpu]}): {fn}: {exc}")
            return default

    def _nvlink_crc(self, gpu: int, handle: Any) -> int:
        nvml = self.nvml
        if gpu not in self._links:
            # Discover once which links exist: the others answer NOT_SUPPORTED/INVALID_ARGUMENT.
            self._links[gpu] = [link for link in range(nvml.NVML_NVLINK_MAX_LINKS)
                                if self._probe_link(handle, link)]
        total = 0
        for link in self._links[gpu]:
            for counter in (nvml.NVML_NVLINK_ERROR_DL_CRC_FLIT, nvml.NVML_NVLINK_ERROR_DL_CRC_DATA):
                total += int(self._call(gpu, "nvmlDeviceGetNvLinkErrorCounter", handle, link, counter, default=0))
        return total

    def _probe_link(self, handle: Any, link: int) -> bool:
        try:
            return bool(self.nvml.nvmlDeviceGetNvLinkState(handle, link) == self.nvml.NVML_FEATURE_ENABLED)
        except self.nvml.NVMLError as exc:
            if getattr(exc, "value", None) == self.nvml.NVML_ERROR_GPU_IS_LOST:
                raise GpuLost(str(exc)) from exc
            return False

    def _sm_active(self, gpu: int, handle: Any, dcgm: dict[int, float]) -> float | None:
        """GPM SM utilisation between this and the previous round (Hopper+), else DCGM, else None."""
        nvml = self.nvml
        if gpu not in self._gpm:
            support = self._call(gpu, "nvmlGpmQueryDeviceSupport", handle)
            self._gpm[gpu] = ([nvml.nvmlGpmSampleAlloc(), nvml.nvmlGpmSampleAlloc()]
                              if support is not None and support.isSupportedDevice else [])
        samples = self._gpm[gpu]
        if not samples:
            return dcgm.get(gpu)
        prev = self._gpm_prev.get(gpu)
        current = samples[1] if prev is samples[0] else samples[0]
        if self._call(gpu, "nvmlGpmSampleGet", handle, current) is None:
            return dcgm.get(gpu)
        self._gpm_prev[gpu] = current
        if prev is None:
            return dcgm.get(gpu)
        request = nvml.c_nvmlGpmMetricsGet_t()
        request.version = nvml.NVML_GPM_METRICS_GET_VERSION
        request.numMetrics = 1
        request.sample1 = prev
        request.sample2 = current
        request.metrics[0].metricId = nvml.NVML_GPM_METRIC_SM_UTIL
        if self._call(gpu, "nvmlGpmMetricsGet", request) is None or request.metrics[0].nvmlReturn != nvml.NVML_SUCCESS:
            return dcgm.get(gpu)
        return min(max(float(request.metrics[0].value) / 100.0, 0.0), 1.0)

    def _throttle(self, gpu: int, handle: Any) -> int:
        value = self._call(gpu, "nvmlDeviceGetCurrentClocksEventReasons", handle)
        if value is None:
            value = self._call(gpu, "nvmlDeviceGetCurrentClocksThrottleReasons", handle, default=0)
        return int(value)

    def _read(self, gpu: int, handle: Any, dcgm: dict[int, float]) -> GpuStats:
        nvml, call = self.nvml, self._call
        util = call(gpu, "nvmlDeviceGetUtilizationRates", handle)
        memory = call(gpu, "nvmlDeviceGetMemoryInfo", handle)
        ecc = (nvml.NVML_MEMORY_ERROR_TYPE_CORRECTED, nvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED)
        # Volatile counters reset at driver load: the contract's "cumulative since boot".
        sbe, dbe = (int(call(gpu, "nvmlDeviceGetTotalEccErrors", handle, kind, nvml.NVML_VOLATILE_ECC, default=0))
                    for kind in ecc)
        return GpuStats(
            index=gpu,
            util_pct=float(util.gpu) if util is not None else 0.0,
            sm_active=self._sm_active(gpu, handle, dcgm),
            mem_used_bytes=int(memory.used) if memory is not None else 0,
            temp_c=float(call(gpu, "nvmlDeviceGetTemperature", handle, nvml.NVML_TEMPERATURE_GPU, default=0)),
            power_w=float(call(gpu, "nvmlDeviceGetPowerUsage", handle, default=0)) / 1000.0,
            ecc_sbe_total=sbe, ecc_dbe_total=dbe,
            xid_last=self.devices.xid_last.get(gpu),
            nvlink_crc_errors_total=self._nvlink_crc(gpu, handle),
            pcie_replay_total=int(call(gpu, "nvmlDeviceGetPcieReplayCounter", handle, default=0)),
            throttle_reasons=self._throttle(gpu, handle),
        )

    def _extras(self, gpu: int, handle: Any) -> list[Event]:
        """Clocks, aggregate ECC and row remapping: gauges, plus a notice when remapping turns bad."""
        nvml, call, label = self.nvml, self._call, str(gpu)
        readings = {
            "sm_clock_mhz": call(gpu, "nvmlDeviceGetClockInfo", handle, nvml.NVML_CLOCK_SM),
            "mem_clock_mhz": call(gpu, "nvmlDeviceGetClockInfo", handle, nvml.NVML_CLOCK_MEM),
            "ecc_sbe_aggregate_total": call(gpu, "nvmlDeviceGetTotalEccErrors", handle,
                                            nvml.NVML_MEMORY_ERROR_TYPE_CORRECTED, nvml.NVML_AGGREGATE_ECC),
            "ecc_dbe_aggregate_total": call(gpu, "nvmlDeviceGetTotalEccErrors", handle,
                                            nvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED, nvml.NVML_AGGREGATE_ECC),
        }
        remap = call(gpu, "nvmlDeviceGetRemappedRows", handle)
        if remap is not None:
            readings.update(zip(("remapped_rows_correctable", "remapped_rows_uncorrectable", "remap_pending",
                                 "remap_failure"), remap, strict=True))
        for name, value in readings.items():
            if value is not None:
                key = (label, name)
                if key not in self._gauges:  # labels() costs a lock and a lookup: keep the children
                    self._gauges[key] = self._info.labels(label, name)
                self._gauges[key].set(float(value))
        return self._remap_notice(gpu, remap)

    def _remap_notice(self, gpu: int, remap: tuple[int, int, int, int] | None) -> list[Event]:
        if remap is None:
            return []
        _, unc, pending, failure = (int(v) for v in remap)
        before = self._remap_seen.get(gpu, (unc, 0, 0))
        self._remap_seen[gpu] = (unc, pending, failure)
        if (pending and not before[1]) or (failure and not before[2]) or unc > before[0]:
            text = (f"NVML row remapping on GPU {gpu} (PCI:{self.devices.pci[gpu]}): uncorrectable rows {unc}, "
                    f"pending {bool(pending)}, failure {bool(failure)}")
            return [notice(self.settings.cluster, self.settings.node_id, text, at=self.clock())]
        return []

    # -- the round --------------------------------------------------------------------
    def collect(self) -> list[Event]:
        """One ``gpu_sample`` of every GPU that answers, plus notices of lost GPUs."""
        self.devices.open()
        dcgm = self.dcgm.sm_active() if self.dcgm is not None else {}
        at = self.clock()
        stats: list[GpuStats] = []
        out: list[Event] = []
        for gpu, handle in enumerate(self.devices.handles):
            try:
                stats.append(self._read(gpu, handle, dcgm))
                out.extend(self._extras(gpu, handle))
                self._lost.discard(gpu)
            except GpuLost as exc:
                out.extend(self._on_lost(gpu, str(exc)))
        sample = GpuSample(event_id=new_event_id(), event_time=at, cluster=self.settings.cluster,
                           node_id=self.settings.node_id, gpus=tuple(stats))
        out.extend(notice(self.settings.cluster, self.settings.node_id, text, at=at) for text in self._serious_new)
        self._serious_new = []
        return [sample, *out]

    def close(self) -> None:
        """Shut NVML down (after the Xid watcher stopped)."""
        try:
            self.devices.close()
        except self.nvml.NVMLError as exc:
            self.metrics.source_errors.labels("gpu", f"nvmlShutdown:{exc}").inc()

    def _on_lost(self, gpu: int, error: str) -> list[Event]:
        self.metrics.source_errors.labels("gpu", "NVML_ERROR_GPU_IS_LOST").inc()
        if gpu in self._lost:
            return []
        self._lost.add(gpu)
        text = f"NVML_ERROR_GPU_IS_LOST: GPU {gpu} (PCI:{self.devices.pci[gpu]}) is lost ({error})"
        return [notice(self.settings.cluster, self.settings.node_id, text, at=self.clock())]
