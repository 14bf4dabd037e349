"""GPU collector and Xid watcher against the fake pynvml module (the boundary stand-in)."""

from __future__ import annotations

import inspect
import time
from pathlib import Path
from typing import Any

import pynvml
import pytest

from producers.agent.dcgm import parse_sm_active
from producers.agent.metrics import AgentMetrics
from producers.agent.nvml import GpuCollector, NvmlDevices
from producers.agent.settings import AgentSettings
from producers.agent.xid import XidWatcher
from schemas.telemetry import GpuSample, LogLine
from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb
from tests.unit.agent.fake_nvml import make_fake_nvml


@pytest.fixture
def settings(tmp_path: Path) -> AgentSettings:
    return AgentSettings(node_id="n1", cluster="c1", state_dir=tmp_path)


def _collector(settings: AgentSettings, nvml: Any) -> tuple[GpuCollector, AgentMetrics]:
    metrics = AgentMetrics()
    return GpuCollector(settings, metrics, NvmlDevices(nvml)), metrics


def _sample(events: list[Any]) -> GpuSample:
    samples = [e for e in events if isinstance(e, GpuSample)]
    assert len(samples) == 1
    return samples[0]


def test_reads_every_field_of_eight_gpus(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(8)
    nvml.gpus[5].dbe, nvml.gpus[5].crc, nvml.gpus[5].replay, nvml.gpus[5].throttle = 2, 17, 4, 0x8
    collector, _ = _collector(settings, nvml)
    first = _sample(collector.collect())
    assert [g.index for g in first.gpus] == list(range(8))
    g5 = first.gpus[5]
    assert (g5.ecc_dbe_total, g5.nvlink_crc_errors_total, g5.pcie_replay_total, g5.throttle_reasons) == (2, 17, 4, 8)
    assert g5.power_w == pytest.approx(nvml.gpus[5].power_mw / 1000)
    assert g5.mem_used_bytes == nvml.gpus[5].mem_used and g5.util_pct == nvml.gpus[5].util
    assert g5.sm_active is None  # GPM needs two samples
    second = _sample(collector.collect())
    assert second.gpus[0].sm_active == pytest.approx(nvml.gpus[0].sm_util_pct / 100)
    assert second.node_id == "n1" and second.cluster == "c1"


def test_every_call_matches_the_real_nvidia_ml_py_signature(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(2)
    recorded: list[tuple[str, int]] = []
    for name in [n for n in dir(nvml) if n.startswith("nvml") and callable(getattr(nvml, n))]:
        fake = getattr(nvml, name)

        def spy(*args: Any, _fake: Any = fake, _name: str = name) -> Any:
            recorded.append((_name, len(args)))
            return _fake(*args)
        setattr(nvml, name, spy)
    collector, _ = _collector(settings, nvml)
    collector.collect()
    collector.collect()
    assert {"nvmlInit", "nvmlDeviceGetTotalEccErrors", "nvmlGpmMetricsGet"} <= {n for n, _ in recorded}
    for name, nargs in set(recorded):
        real = getattr(pynvml, name)
        inspect.signature(real).bind(*([None] * nargs))  # raises TypeError on an arity mismatch


def test_lost_gpu_is_reported_once_and_dropped_from_the_sample(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(4)
    collector, metrics = _collector(settings, nvml)
    collector.collect()
    nvml.gpus[2].lost = True
    events = collector.collect()
    assert [g.index for g in _sample(events).gpus] == [0, 1, 3]
    notices = [e for e in events if isinstance(e, LogLine)]
    assert len(notices) == 1 and "NVML_ERROR_GPU_IS_LOST" in notices[0].line and "PCI:0000:3c:00" in notices[0].line
    found = Classifier(load_kb()).classify(notices[0].line, notices[0].source)
    assert found is not None and found.category == "gpu_fallen_off_bus"
    assert [e for e in collector.collect() if isinstance(e, LogLine)] == []
    labels = {"collector": "gpu", "error": "NVML_ERROR_GPU_IS_LOST"}
    assert metrics.value("faultline_agent_source_errors_total", labels) == 2
    nvml.gpus[2].lost = False
    assert len(_sample(collector.collect()).gpus) == 4


def test_unsupported_calls_are_not_repeated_and_other_errors_are_counted(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(2)
    nvml.gpus[0].fail["nvmlDeviceGetPcieReplayCounter"] = pynvml.NVML_ERROR_NOT_SUPPORTED
    nvml.gpus[1].fail["nvmlDeviceGetTemperature"] = pynvml.NVML_ERROR_UNKNOWN
    nvml.gpus[1].gpm = False
    collector, metrics = _collector(settings, nvml)
    sample = _sample(collector.collect())
    calls_before = nvml.calls.count("nvmlDeviceGetPcieReplayCounter")
    sample = _sample(collector.collect())
    assert nvml.calls.count("nvmlDeviceGetPcieReplayCounter") == calls_before + 1  # only GPU 1 asked again
    assert sample.gpus[0].pcie_replay_total == 0 and sample.gpus[1].temp_c == 0
    assert sample.gpus[1].sm_active is None
    errors = metrics.registry.get_sample_value(
        "faultline_agent_source_errors_total",
        {"collector": "gpu", "error": f"nvmlDeviceGetTemperature:{pynvml.NVMLError(pynvml.NVML_ERROR_UNKNOWN)}"})
    assert errors == 2
    nvml.gpus[1].fail["nvmlDeviceGetTemperature"] = pynvml.NVML_ERROR_RESET_REQUIRED
    lines = [e for e in collector.collect() if isinstance(e, LogLine)]
    assert len(lines) == 1 and "GPU 1 (PCI:0000:2a:00): nvmlDeviceGetTemperature: GPU requires restart" in lines[0].line
    assert [e for e in collector.collect() if isinstance(e, LogLine)] == []  # once per GPU and error


def test_row_remapping_failure_becomes_a_notice(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(1)
    collector, metrics = _collector(settings, nvml)
    collector.collect()
    nvml.gpus[0].remap = (0, 3, 1, 0)
    lines = [e for e in collector.collect() if isinstance(e, LogLine)]
    assert len(lines) == 1 and "uncorrectable rows 3" in lines[0].line and "pending True" in lines[0].line
    assert metrics.value("faultline_agent_gpu_info", {"gpu": "0", "field": "ecc_sbe_aggregate_total"}) == 3


def test_xid_events_become_kernel_lines_the_classifier_reads(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(4)
    devices = NvmlDevices(nvml)
    watcher = XidWatcher(settings, AgentMetrics(), devices)
    gpus = GpuCollector(settings, AgentMetrics(), devices)
    try:
        assert watcher.collect() == []
        nvml.inject_xid(1, 79)
        lines: list[Any] = []
        deadline = time.monotonic() + 10
        while not lines and time.monotonic() < deadline:
            lines = watcher.collect()
            time.sleep(0.02)
    finally:
        watcher.stop()
    assert len(lines) == 1 and isinstance(lines[0], LogLine)
    assert lines[0].source == "kernel"
    assert lines[0].line.startswith("NVRM: Xid (PCI:0000:2a:00): 79, pid='<unknown>'")
    found = Classifier(load_kb()).classify(lines[0].line, "kernel")
    assert found is not None and found.xid == 79 and found.category == "gpu_fallen_off_bus"
    assert _sample(gpus.collect()).gpus[1].xid_last == 79
    assert "nvmlEventSetFree" in nvml.calls


def test_a_failed_nvml_init_fails_the_round(settings: AgentSettings) -> None:
    nvml = make_fake_nvml(1)

    def broken() -> None:
        raise pynvml.NVMLError(pynvml.NVML_ERROR_LIBRARY_NOT_FOUND)
    nvml.nvmlInit = broken
    collector, _ = _collector(settings, nvml)
    with pytest.raises(pynvml.NVMLError):
        collector.collect()


def test_dcgm_exporter_page_is_parsed() -> None:
    page = (
        "# HELP DCGM_FI_PROF_SM_ACTIVE Ratio of cycles an SM has at least 1 warp assigned.\n"
        "# TYPE DCGM_FI_PROF_SM_ACTIVE gauge\n"
        'DCGM_FI_PROF_SM_ACTIVE{gpu="0",UUID="GPU-1",Hostname="n1"} 0.731\n'
        'DCGM_FI_PROF_SM_ACTIVE{gpu="1",UUID="GPU-2",Hostname="n1"} 0.05\n'
        "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
        'DCGM_FI_DEV_GPU_UTIL{gpu="0"} 99\n'
    )
    assert parse_sm_active(page) == {0: pytest.approx(0.731), 1: pytest.approx(0.05)}
