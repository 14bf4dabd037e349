"""Xid events straight from NVML, as kernel-format ``NVRM: Xid`` log lines.

A daemon thread registers every GPU for ``nvmlEventTypeXidCriticalError`` and blocks in
``nvmlEventSetWait_v2``; each event becomes the line the driver itself prints,
``NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, ...`` (NVML does not say
which process), with ``source="kernel"`` so the classifier reads it like a dmesg line. The
runner polls :meth:`XidWatcher.collect` to hand the queued lines on.

When the kernel log is also collected the same Xid arrives twice (dmesg and NVML): the
classifier folds repeats of one (node, GPU, Xid) inside its dedup window into one fault.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from producers.agent.base import Clock, new_event_id, utc_now
from producers.agent.metrics import AgentMetrics
from producers.agent.nvml import NvmlDevices, pci_address
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import LogLine

log = logging.getLogger(__name__)

WAIT_MS = 1000
"""How long one nvmlEventSetWait_v2 blocks: also the thread's reaction time to ``stop()``."""


def xid_line(pci: str, xid: int) -> str:
    """The kernel's NVRM text for an Xid that NVML reported without process details."""
    return f"NVRM: Xid (PCI:{pci}): {xid}, pid='<unknown>', name=<unknown>, reported by NVML event"


class XidWatcher:
    """The NVML event thread and the queue of lines it produced."""

    name = "xid"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, devices: NvmlDevices,
                 clock: Clock = utc_now) -> None:
        self.settings = settings
        self.interval_s = settings.tail_poll_s
        self.metrics = metrics
        self.devices = devices
        self.nvml = devices.nvml
        self.clock = clock
        self._queue: queue.SimpleQueue[LogLine] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    def collect(self) -> list[Event]:
        """The lines queued since the last call; starts (or restarts) the thread when it is not running.

        If the thread died on an NVML error, that error is raised here once so the runner
        counts it and backs off before the restart.
        """
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise RuntimeError(f"xid watcher stopped: {failure}") from failure
        if self._thread is None or not self._thread.is_alive():
            self.devices.open()
            event_set = self._register()
            self._thread = threading.Thread(target=self._run, args=(event_set,), name="xid-watcher", daemon=True)
            self._thread.start()
        out: list[Event] = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def _register(self) -> Any:
        nvml = self.nvml
        event_set = nvml.nvmlEventSetCreate()
        for gpu, handle in enumerate(self.devices.handles):
            try:
                nvml.nvmlDeviceRegisterEvents(handle, nvml.nvmlEventTypeXidCriticalError, event_set)
            except nvml.NVMLError as exc:
                # Not supported (or a lost GPU): the others are still watched.
                self.metrics.source_errors.labels("xid", f"register gpu {gpu}: {exc}").inc()
        return event_set

    def _run(self, event_set: Any) -> None:
        nvml = self.nvml
        try:
            while not self._stop.is_set():
                try:
                    data = nvml.nvmlEventSetWait_v2(event_set, WAIT_MS)
                except nvml.NVMLError as exc:
                    if getattr(exc, "value", None) == nvml.NVML_ERROR_TIMEOUT:
                        continue
                    raise
                self._on_event(data)
        except Exception as exc:  # noqa: BLE001 - handed to collect(), which reports it and backs off
            log.warning("xid watcher failed: %s", exc)
            self._failure = exc
        finally:
            try:
                nvml.nvmlEventSetFree(event_set)
            except nvml.NVMLError as exc:
                log.debug("nvmlEventSetFree: %s", exc)

    def _on_event(self, data: Any) -> None:
        nvml = self.nvml
        if not int(data.eventType) & nvml.nvmlEventTypeXidCriticalError:
            return
        xid = int(data.eventData)
        try:
            pci = pci_address(nvml.nvmlDeviceGetPciInfo(data.device))
        except nvml.NVMLError:
            pci = "0000:00:00"  # the GPU may already be gone; the Xid number still matters
        gpu = self.devices.index_of_pci(pci)
        if gpu is not None:
            self.devices.xid_last[gpu] = xid
        self._queue.put(LogLine(event_id=new_event_id(), event_time=self.clock(), cluster=self.settings.cluster,
                                node_id=self.settings.node_id, source="kernel", line=xid_line(pci, xid)))

    def stop(self) -> None:
        """Ask the thread to end (within one wait period) and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=WAIT_MS / 1000 * 3)
