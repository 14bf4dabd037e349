"""Stack collector: real py-spy against a real Python process started by the test (needs ptrace)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from producers.agent.stacks import StackCollector, frames_of
from schemas.telemetry import StackSample

PY_SPY = str(Path(sys.executable).with_name("py-spy"))
PROGRAM = """# {marker}
import time
def inner():
    while True:
        time.sleep(0.05)
def outer():
    inner()
outer()
"""


@pytest.fixture
def marker() -> str:
    return f"train_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def training(marker: str) -> Iterator[tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]]]:
    """A 'rank' (RANK set) and a 'launcher' (same cmdline match, no rank), both real processes."""
    env = {**os.environ, "RANK": "3", "TORCHELASTIC_RUN_ID": "job-s"}
    env.pop("LOCAL_RANK", None)
    code = PROGRAM.format(marker=marker)
    rank = subprocess.Popen([sys.executable, "-c", code], env=env)
    launcher_env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK")}
    launcher = subprocess.Popen([sys.executable, "-c", code], env=launcher_env)
    try:
        yield rank, launcher
    finally:
        for proc in (rank, launcher):
            proc.kill()
            proc.wait()


def _collector(tmp_path: Path, marker: str) -> StackCollector:
    settings = AgentSettings(node_id="n1", state_dir=tmp_path, stack_match=(marker,), py_spy=PY_SPY,
                             stack_trigger_file=tmp_path / "dump-now")
    return StackCollector(settings, AgentMetrics())


def test_dumps_the_rank_process_outermost_frame_first(tmp_path: Path, marker: str,
                                                     training: tuple[subprocess.Popen[bytes], ...]) -> None:
    rank, launcher = training
    collector = _collector(tmp_path, marker)
    assert [p.pid for p in collector.training_processes()] == [rank.pid]  # the launcher has no rank
    samples: list[StackSample] = []
    deadline = time.monotonic() + 30
    # wait (bounded) until the interpreter is in its loop, not still importing
    while not any(f.startswith("inner ") for s in samples for f in s.frames) and time.monotonic() < deadline:
        samples = [e for e in collector.collect() if isinstance(e, StackSample)]
    (sample,) = samples
    assert (sample.pid, sample.rank, sample.job_id, sample.node_id) == (rank.pid, 3, "job-s", "n1")
    names = [frame.split(" ", 1)[0] for frame in sample.frames]
    assert names[:3] == ["<module>", "outer", "inner"]
    assert sample.frames[1] == "outer (<string>:7)"


def test_on_demand_by_request_or_trigger_file(tmp_path: Path, marker: str) -> None:
    collector = _collector(tmp_path, marker)
    assert not collector.wanted()
    collector.request()
    assert collector.wanted()
    collector.collect()
    assert not collector.wanted()
    (tmp_path / "dump-now").touch()
    assert collector.wanted()
    collector.collect()
    assert not collector.wanted() and not (tmp_path / "dump-now").exists()


def test_frames_of_picks_the_main_thread() -> None:
    dump: list[dict[str, Any]] = [
        {"os_thread_id": 11, "thread_name": "pin_memory", "frames": [{"name": "wait", "filename": "t.py", "line": 1}]},
        {"os_thread_id": 10, "thread_name": None, "frames": [
            {"name": "all_reduce", "filename": "dist.py", "line": 2}, {"name": "main", "filename": "train.py", "line": 9}]},
    ]
    assert frames_of(dump, 10) == ("main (train.py:9)", "all_reduce (dist.py:2)")
    assert frames_of([], 10) == ()
