"""RDMA collector over the sysfs fixture (tests/data/agent/sysfs: the kernel's documented layout)."""

from __future__ import annotations

import shutil
from pathlib import Path

from producers.agent.metrics import AgentMetrics
from producers.agent.rdma import NetCollector
from producers.agent.settings import AgentSettings
from schemas.telemetry import NetPort, NetSample

FIXTURE = Path(__file__).parents[2] / "data" / "agent" / "sysfs"
IB = FIXTURE / "sys" / "class" / "infiniband"


def _collect(root: Path, rounds: int = 1) -> tuple[dict[str, NetPort], NetCollector, AgentMetrics]:
    metrics = AgentMetrics()
    collector = NetCollector(AgentSettings(node_id="n1", host_root=root), metrics)
    sample = None
    for _ in range(rounds):
        (sample,) = collector.collect()
    assert isinstance(sample, NetSample) and sample.node_id == "n1"
    return {p.device: p for p in sample.ports}, collector, metrics


def _counter(dev: str, name: str, kind: str = "counters") -> int:
    return int((IB / dev / "ports" / "1" / kind / name).read_text())


def test_ib_port_counters_and_word_units() -> None:
    ports, _, _ = _collect(FIXTURE)
    assert sorted(ports) == ["efa_0", "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]
    ib = ports["mlx5_0"]
    assert ib.state == "ACTIVE" and ib.port == 1
    assert ib.tx_bytes_total == 4 * _counter("mlx5_0", "port_xmit_data")
    assert ib.rx_bytes_total == 4 * _counter("mlx5_0", "port_rcv_data")
    assert (ib.symbol_errors_total, ib.link_downed_total, ib.rcv_errors_total) == (
        _counter("mlx5_0", "symbol_error"), _counter("mlx5_0", "link_downed"), _counter("mlx5_0", "port_rcv_errors"))


def test_down_port_roce_and_efa() -> None:
    ports, _, metrics = _collect(FIXTURE)
    assert ports["mlx5_1"].state == "DOWN" and ports["mlx5_1"].link_downed_total == _counter("mlx5_1", "link_downed")
    assert ports["mlx5_2"].state == "ACTIVE" and ports["mlx5_2"].tx_bytes_total == 4 * _counter("mlx5_2", "port_xmit_data")
    efa = ports["efa_0"]
    assert efa.tx_bytes_total == _counter("efa_0", "tx_bytes", "hw_counters")  # EFA counts bytes, not words
    assert efa.rx_bytes_total == _counter("efa_0", "rx_bytes", "hw_counters")
    labels = {"device": "mlx5_2", "port": "1", "link_layer": "Ethernet", "phys_state": "LinkUp"}
    assert metrics.value("faultline_agent_net_port_rate_gbps", labels) == 200


def test_unreadable_counter_is_skipped_once_and_remembered() -> None:
    ports, collector, metrics = _collect(FIXTURE, rounds=3)
    bad = IB / "mlx5_3" / "ports" / "1" / "counters" / "port_rcv_errors"
    assert bad.is_dir()  # a directory where a counter file should be: reading it fails with EISDIR
    assert collector.unreadable == {bad}
    assert ports["mlx5_3"].rcv_errors_total == 0
    assert ports["mlx5_3"].tx_bytes_total == 4 * _counter("mlx5_3", "port_xmit_data")
    assert metrics.value("faultline_agent_source_errors_total",
                         {"collector": "net", "error": "port_rcv_errors: IsADirectoryError"}) == 1


def test_counters_are_reread_every_round(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "host")
    metrics = AgentMetrics()
    collector = NetCollector(AgentSettings(node_id="n1", host_root=tmp_path / "host"), metrics)
    collector.collect()
    counter = tmp_path / "host/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error"
    counter.write_text("99\n")
    (sample,) = collector.collect()
    assert isinstance(sample, NetSample)
    assert {p.device: p for p in sample.ports}["mlx5_0"].symbol_errors_total == 99


def test_no_infiniband_class_gives_an_empty_sample(tmp_path: Path) -> None:
    ports, _, _ = _collect(tmp_path)
    assert ports == {}
