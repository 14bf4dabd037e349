"""RDMA port collector: one ``net_sample`` per round from ``/sys/class/infiniband``.

Layout read (the kernel's documented sysfs ABI, Documentation/ABI/stable/sysfs-class-infiniband):

    <dev>/ports/<port>/state            "4: ACTIVE"
    <dev>/ports/<port>/phys_state       "5: LinkUp"
    <dev>/ports/<port>/rate             "400 Gb/sec (4X NDR)"
    <dev>/ports/<port>/link_layer       "InfiniBand" | "Ethernet" (RoCE)
    <dev>/ports/<port>/counters/        port_xmit_data, port_rcv_data (units of 4 bytes),
                                        symbol_error, link_downed, port_rcv_errors, ...
    <dev>/ports/<port>/hw_counters/     driver counters; EFA has only these (tx_bytes, rx_bytes)

A counter file that cannot be read (EINVAL, EACCES, a directory, ...) is skipped from then
on: it is counted once in ``faultline_agent_source_errors{collector="net"}`` and reads as 0.
"""

from __future__ import annotations

import os
from pathlib import Path

from prometheus_client import Gauge

from producers.agent.base import Clock, new_event_id, utc_now
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas import Event
from schemas.telemetry import NetPort, NetSample

WORD_BYTES = 4
"""``port_xmit_data``/``port_rcv_data`` count 32-bit words (IBTA PortCounters)."""


class NetCollector:
    """Reads every RDMA port of the node once per ``net_interval_s``."""

    name = "net"

    def __init__(self, settings: AgentSettings, metrics: AgentMetrics, clock: Clock = utc_now) -> None:
        self.settings = settings
        self.interval_s = settings.net_interval_s
        self.metrics = metrics
        self.clock = clock
        self.root = settings.host("/sys/class/infiniband")
        self.unreadable: set[Path] = set()
        self._rate = Gauge("faultline_agent_net_port_rate_gbps", "Negotiated RDMA port rate",
                           ["device", "port", "link_layer", "phys_state"], registry=metrics.registry)

    def collect(self) -> list[Event]:
        """One ``net_sample`` of every port found (none found: an empty sample is still sent)."""
        at = self.clock()
        ports = [self._port(dev, port) for dev, port in self._ports()]
        return [NetSample(event_id=new_event_id(), event_time=at, cluster=self.settings.cluster,
                          node_id=self.settings.node_id, ports=tuple(ports))]

    def _ports(self) -> list[tuple[str, Path]]:
        if not self.root.is_dir():
            return []
        found: list[tuple[str, Path]] = []
        for dev in sorted(os.listdir(self.root)):
            ports_dir = self.root / dev / "ports"
            if ports_dir.is_dir():
                found.extend((dev, ports_dir / p) for p in sorted(os.listdir(ports_dir), key=_port_number))
        return found

    def _port(self, device: str, path: Path) -> NetPort:
        counters, hw = path / "counters", path / "hw_counters"
        if (counters / "port_xmit_data").exists():
            tx = self._counter(counters / "port_xmit_data") * WORD_BYTES
            rx = self._counter(counters / "port_rcv_data") * WORD_BYTES
        else:
            tx, rx = self._counter(hw / "tx_bytes"), self._counter(hw / "rx_bytes")
        state = _enum_text(self._text(path / "state"))
        layer, phys = self._text(path / "link_layer") or "unknown", _enum_text(self._text(path / "phys_state"))
        self._rate.labels(device, path.name, layer, phys).set(_rate_gbps(self._text(path / "rate")))
        return NetPort(
            device=device, port=_port_number(path.name), state=state or "UNKNOWN",
            tx_bytes_total=tx, rx_bytes_total=rx,
            symbol_errors_total=self._counter(counters / "symbol_error"),
            link_downed_total=self._counter(counters / "link_downed"),
            rcv_errors_total=self._counter(counters / "port_rcv_errors"),
        )

    def _text(self, path: Path) -> str:
        if path in self.unreadable:
            return ""
        try:
            # os-level read: sysfs attributes are tiny, and io.open's layers cost more than the read
            fd = os.open(path, os.O_RDONLY)
            try:
                return os.read(fd, 4096).decode("ascii", errors="replace").strip()
            finally:
                os.close(fd)
        except FileNotFoundError:
            return ""
        except OSError as exc:
            self._give_up(path, exc)
            return ""

    def _counter(self, path: Path) -> int:
        text = self._text(path)
        try:
            return max(int(text), 0) if text else 0
        except ValueError as exc:
            self._give_up(path, exc)
            return 0

    def _give_up(self, path: Path, exc: Exception) -> None:
        """Remember an unreadable file so it is not retried every round; counted once."""
        self.unreadable.add(path)
        self.metrics.source_errors.labels("net", f"{path.name}: {type(exc).__name__}").inc()


def _port_number(name: str) -> int:
    return int(name) if name.isdigit() else 0


def _enum_text(value: str) -> str:
    """``"4: ACTIVE"`` -> ``"ACTIVE"`` (sysfs prints the numeric code first)."""
    return value.split(":", 1)[1].strip() if ":" in value else value


def _rate_gbps(value: str) -> float:
    head = value.split(" ", 1)[0]
    try:
        return float(head)
    except ValueError:
        return 0.0
