"""The one allowed stand-in: a fake ``pynvml`` module, injected through the collector's constructor.

It is a real module object whose functions have nvidia-ml-py's names and argument lists,
whose constants are copied from nvidia-ml-py itself, and which raises nvidia-ml-py's own
``NVMLError`` (so ``NVMLError(NVML_ERROR_GPU_IS_LOST)`` is the same subclass real NVML gives).
Every call is recorded in ``module.calls`` so tests can check the sequence against the real
module's signatures (tests/unit/agent/test_nvml.py).
"""

from __future__ import annotations

import queue
import types
from dataclasses import dataclass, field
from typing import Any

import pynvml


@dataclass
class FakeGpu:
    index: int
    bus: int
    util: int = 50
    mem_used: int = 40 * 2**30
    temp: int = 60
    power_mw: int = 350_000
    sbe: int = 0
    dbe: int = 0
    sbe_aggregate: int = 3
    dbe_aggregate: int = 0
    crc: int = 0
    replay: int = 0
    throttle: int = 0
    remap: tuple[int, int, int, int] = (0, 0, 0, 0)
    links: int = 18
    gpm: bool = True
    sm_util_pct: float = 42.0
    lost: bool = False
    fail: dict[str, int] = field(default_factory=dict)
    """function name -> NVML error code that call raises."""


@dataclass(frozen=True)
class Handle:
    index: int


def make_fake_nvml(gpus: int = 8) -> Any:
    """A fresh fake ``pynvml`` module with ``gpus`` GPUs on buses 0x18, 0x2a, ..."""
    mod: Any = types.ModuleType("fake_pynvml")
    for name in dir(pynvml):
        if name.startswith(("NVML_", "nvmlEventType")):
            setattr(mod, name, getattr(pynvml, name))
    mod.NVMLError = pynvml.NVMLError
    mod.c_nvmlGpmMetricsGet_t = pynvml.c_nvmlGpmMetricsGet_t
    mod.gpus = [FakeGpu(i, 0x18 + 0x12 * i) for i in range(gpus)]
    mod.calls = []
    mod.events = queue.Queue()
    mod.initialized = False

    def fn(name: str) -> Any:
        def register(impl: Any) -> Any:
            def call(*args: Any) -> Any:
                mod.calls.append(name)
                handle = next((a for a in args if isinstance(a, Handle)), None)
                if handle is not None:
                    gpu = mod.gpus[handle.index]
                    if gpu.lost:
                        raise pynvml.NVMLError(pynvml.NVML_ERROR_GPU_IS_LOST)
                    if name in gpu.fail:
                        raise pynvml.NVMLError(gpu.fail[name])
                return impl(*args)
            call.__name__ = name
            setattr(mod, name, call)
            return call
        return register

    def gpu(handle: Handle) -> FakeGpu:
        return mod.gpus[handle.index]

    @fn("nvmlInit")
    def _init() -> None:
        mod.initialized = True

    @fn("nvmlShutdown")
    def _shutdown() -> None:
        mod.initialized = False

    @fn("nvmlDeviceGetCount")
    def _count() -> int:
        return len(mod.gpus)

    @fn("nvmlDeviceGetHandleByIndex")
    def _handle(index: int) -> Handle:
        return Handle(index)

    @fn("nvmlDeviceGetPciInfo")
    def _pci(h: Handle) -> Any:
        return types.SimpleNamespace(domain=0, bus=gpu(h).bus, device=0)

    @fn("nvmlDeviceGetUtilizationRates")
    def _util(h: Handle) -> Any:
        return types.SimpleNamespace(gpu=gpu(h).util, memory=10)

    @fn("nvmlDeviceGetMemoryInfo")
    def _mem(h: Handle, version: Any = None) -> Any:
        return types.SimpleNamespace(total=80 * 2**30, used=gpu(h).mem_used, free=80 * 2**30 - gpu(h).mem_used)

    @fn("nvmlDeviceGetTemperature")
    def _temp(h: Handle, sensor: int) -> int:
        return gpu(h).temp

    @fn("nvmlDeviceGetPowerUsage")
    def _power(h: Handle) -> int:
        return gpu(h).power_mw

    @fn("nvmlDeviceGetClockInfo")
    def _clock(h: Handle, kind: int) -> int:
        return 1980 if kind == pynvml.NVML_CLOCK_SM else 2619

    @fn("nvmlDeviceGetCurrentClocksEventReasons")
    def _reasons(h: Handle) -> int:
        return gpu(h).throttle

    @fn("nvmlDeviceGetCurrentClocksThrottleReasons")
    def _reasons_old(h: Handle) -> int:
        return gpu(h).throttle

    @fn("nvmlDeviceGetTotalEccErrors")
    def _ecc(h: Handle, error_type: int, counter_type: int) -> int:
        g = gpu(h)
        corrected = error_type == pynvml.NVML_MEMORY_ERROR_TYPE_CORRECTED
        if counter_type == pynvml.NVML_VOLATILE_ECC:
            return g.sbe if corrected else g.dbe
        return g.sbe_aggregate if corrected else g.dbe_aggregate

    @fn("nvmlDeviceGetRemappedRows")
    def _remap(h: Handle) -> tuple[int, int, int, int]:
        return gpu(h).remap

    @fn("nvmlDeviceGetNvLinkState")
    def _link_state(h: Handle, link: int) -> int:
        if link >= gpu(h).links:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)
        return pynvml.NVML_FEATURE_ENABLED

    @fn("nvmlDeviceGetNvLinkErrorCounter")
    def _crc(h: Handle, link: int, counter: int) -> int:
        # all of a GPU's CRC errors are on link 0, FLIT counter
        return gpu(h).crc if link == 0 and counter == pynvml.NVML_NVLINK_ERROR_DL_CRC_FLIT else 0

    @fn("nvmlDeviceGetPcieReplayCounter")
    def _replay(h: Handle) -> int:
        return gpu(h).replay

    @fn("nvmlGpmQueryDeviceSupport")
    def _gpm_support(h: Handle) -> Any:
        return types.SimpleNamespace(version=1, isSupportedDevice=int(gpu(h).gpm))

    @fn("nvmlGpmSampleAlloc")
    def _gpm_alloc() -> Any:
        return pynvml.c_nvmlGpmSample_t()

    @fn("nvmlGpmSampleGet")
    def _gpm_get(h: Handle, sample: Any) -> Any:
        mod.gpm_last_gpu = h.index
        return sample

    @fn("nvmlGpmMetricsGet")
    def _gpm_metrics(request: Any) -> Any:
        for i in range(request.numMetrics):
            if request.metrics[i].metricId == pynvml.NVML_GPM_METRIC_SM_UTIL:
                request.metrics[i].value = mod.gpus[mod.gpm_last_gpu].sm_util_pct
                request.metrics[i].nvmlReturn = pynvml.NVML_SUCCESS
        return request

    @fn("nvmlEventSetCreate")
    def _set_create() -> Any:
        return object()

    @fn("nvmlDeviceRegisterEvents")
    def _register(h: Handle, event_types: int, event_set: Any) -> None:
        return None

    @fn("nvmlEventSetWait_v2")
    def _wait(event_set: Any, timeout_ms: int) -> Any:
        try:
            index, xid = mod.events.get(timeout=timeout_ms / 1000)
        except queue.Empty:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_TIMEOUT) from None
        return types.SimpleNamespace(device=Handle(index), eventType=pynvml.nvmlEventTypeXidCriticalError,
                                     eventData=xid, gpuInstanceId=0, computeInstanceId=0)

    @fn("nvmlEventSetFree")
    def _set_free(event_set: Any) -> None:
        return None

    def inject_xid(index: int, xid: int) -> None:
        mod.events.put((index, xid))

    mod.inject_xid = inject_xid
    return mod
