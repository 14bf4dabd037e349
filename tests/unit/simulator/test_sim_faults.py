"""Explicit faults: Xid kernel lines, fatal Xids killing the job, CUDA OOM."""

from __future__ import annotations

import re

import pytest
from sim_kit import at, of, sc, small

from producers.simulator import xids
from schemas import GpuSample, JobEvent, LogLine, StackSample

NVRM = re.compile(r"^NVRM: Xid \(PCI:0000:[0-9a-f]{2}:00\): (\d+), ")
CATEGORIES = {79: "gpu_fallen_off_bus", 48: "gpu_memory_ecc", 63: "gpu_memory_ecc",
              64: "gpu_memory_ecc", 92: "gpu_memory_ecc", 94: "gpu_memory_ecc",
              95: "gpu_memory_ecc", 74: "gpu_nvlink", 13: "gpu_graphics_engine_fault",
              31: "gpu_graphics_engine_fault", 43: "gpu_graphics_engine_fault",
              69: "gpu_graphics_engine_fault", 119: "gpu_gsp_timeout", 120: "gpu_gsp_error",
              154: "gpu_reset_required", 45: "gpu_xid_other"}


@pytest.mark.parametrize("xid", sorted(CATEGORIES))
def test_xid_line_format_and_category(xid: int) -> None:
    line = xids.line(xid, 2, 1234)
    match = NVRM.match(line)
    assert match and int(match.group(1)) == xid
    assert xids.info(xid).category == CATEGORIES[xid]
    assert "PCI:0000:3a:00" in line


def test_xid_79_text_matches_the_driver() -> None:
    assert xids.line(79, 2, 1234) == \
        "NVRM: Xid (PCI:0000:3a:00): 79, pid=1234, name=python, GPU has fallen off the bus."


def test_repeated_non_fatal_xid_on_idle_gpu_does_not_kill_the_job() -> None:
    run = small(sc.Xid(node=1, gpu=4, xid=63, at_s=200, repeats=3, interval_s=0.5))
    lines = of(run, LogLine, lambda e: e.source == "kernel" and "Xid" in e.line)
    assert [e.event_time for e in lines] == [at(run, 200), at(run, 200.5), at(run, 201)]
    assert all(e.node_id == "node-0002" and e.job_id is None for e in lines)
    assert of(run, JobEvent)[-1].kind == "finished"
    later = of(run, GpuSample, lambda e: e.node_id == "node-0002" and e.event_time > at(run, 202))
    assert later[0].gpus[4].xid_last == 63 and later[0].gpus[3].xid_last is None
    (truth,) = run.truth
    assert (truth.kind, truth.category, truth.node_ids, truth.ranks) == \
        ("xid", "gpu_memory_ecc", ("node-0002",), (12,))


def test_fatal_xid_kills_the_job_with_a_cuda_error() -> None:
    run = small(sc.Xid(node=2, gpu=1, xid=79, at_s=500))
    cuda = of(run, LogLine, lambda e: e.source == "training" and "CUDA error" in e.line)
    assert len(cuda) == 1 and cuda[0].rank == 17 and cuda[0].event_time > at(run, 500)
    failed = of(run, JobEvent, lambda e: e.kind == "failed")
    assert len(failed) == 1 and "79" in (failed[0].detail or "")
    assert of(run, StackSample, lambda e: e.event_time > at(run, 500.1)) == []
    dead = of(run, GpuSample, lambda e: e.node_id == "node-0003" and e.event_time > at(run, 505))
    assert dead[0].gpus[1].util_pct == 0 and dead[0].gpus[1].xid_last == 79
    assert dead[0].gpus[0].util_pct < 1


def test_xid_on_a_node_without_job_has_no_pid_and_no_job() -> None:
    run = small(sc.Xid(node=4, gpu=0, xid=48, at_s=100), nodes=5, nodes_per_job=4)
    (line,) = of(run, LogLine, lambda e: "Xid" in e.line)
    assert line.node_id == "node-0005" and "pid='<unknown>'" in line.line
    (truth,) = run.truth
    assert (truth.category, truth.job_id, truth.ranks) == ("gpu_memory_ecc", None, ())
    assert of(run, JobEvent)[-1].kind == "finished"


def test_oom_line_then_job_failed() -> None:
    run = small(sc.Oom(job=0, rank=11, at_s=450))
    (oom,) = of(run, LogLine, lambda e: "OutOfMemoryError" in e.line)
    assert oom.line.startswith("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                               "2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which")
    assert oom.rank == 11 and oom.node_id == "node-0002" and oom.job_id == "job-0000"
    failed = of(run, JobEvent, lambda e: e.kind == "failed")
    assert len(failed) == 1 and failed[0].event_time > oom.event_time
    (truth,) = run.truth
    assert (truth.kind, truth.category, truth.ranks) == ("oom", "cuda_oom", (11,))


def test_scenarios_after_the_end_of_the_run_leave_no_truth() -> None:
    run = small(sc.Xid(node=0, gpu=0, xid=79, at_s=5000), sc.Oom(job=0, rank=1, at_s=5000),
                sc.Hang(job=0, at_s=5000))
    assert run.truth == []
    assert of(run, JobEvent)[-1].kind == "finished"
