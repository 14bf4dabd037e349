"""Training log tailer on a torchrun --log-dir layout: attempts, ranks, rotation, truncation, restart."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from producers.agent.tail import LogTailer
from schemas.telemetry import LogLine


def _tailer(tmp_path: Path, **extra: Any) -> LogTailer:
    settings = AgentSettings(node_id="n3", state_dir=tmp_path / "state", log_dirs=(tmp_path / "logs",), **extra)
    return LogTailer(settings, AgentMetrics())


def _log(tmp_path: Path, attempt: int, local_rank: int, stream: str = "stdout", run: str = "run42") -> Path:
    path = tmp_path / "logs" / run / f"attempt_{attempt}" / str(local_rank) / f"{stream}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()
    return path


def _append(path: Path, text: str) -> None:
    with open(path, "a") as handle:
        handle.write(text)


def _texts(events: Sequence[object]) -> list[str]:
    return [e.line for e in events if isinstance(e, LogLine)]


def test_layout_gives_attempt_global_rank_job_and_nccl_source(tmp_path: Path) -> None:
    out = _log(tmp_path, attempt=2, local_rank=5)
    err = _log(tmp_path, attempt=2, local_rank=5, stream="stderr")
    tailer = _tailer(tmp_path, job_id="job-7", node_rank=3, nproc_per_node=8)
    _append(out, "step 100 loss 2.31\npartial")
    _append(err, "n3:2231:2290 [5] NCCL WARN Call to ibv_poll_cq failed\n")
    events = [e for e in tailer.collect() if isinstance(e, LogLine)]
    assert sorted(e.line for e in events) == ["n3:2231:2290 [5] NCCL WARN Call to ibv_poll_cq failed",
                                              "step 100 loss 2.31"]
    assert {(e.job_id, e.rank, e.attempt, e.node_id) for e in events} == {("job-7", 29, 2, "n3")}
    assert {e.line[:4]: e.source for e in events} == {"step": "training", "n3:2": "nccl"}
    _append(out, " line\n")
    assert _texts(tailer.collect()) == ["partial line"]


def test_without_node_rank_the_rank_is_unknown_and_the_run_id_is_the_job(tmp_path: Path) -> None:
    path = _log(tmp_path, attempt=0, local_rank=1, run="rdzv-abc")
    tailer = _tailer(tmp_path)
    _append(path, "hello\n")
    (line,) = [e for e in tailer.collect() if isinstance(e, LogLine)]
    assert (line.job_id, line.rank, line.attempt) == ("rdzv-abc", None, 0)


def test_rotation_reads_the_old_file_to_its_end_then_the_new_one(tmp_path: Path) -> None:
    path = _log(tmp_path, 0, 0)
    tailer = _tailer(tmp_path)
    _append(path, "a\n")
    assert _texts(tailer.collect()) == ["a"]
    _append(path, "b\n")
    os.rename(path, path.with_suffix(".log.1"))
    path.write_text("c\n")
    assert _texts(tailer.collect()) == ["b", "c"]


def test_truncation_restarts_at_zero(tmp_path: Path) -> None:
    path = _log(tmp_path, 0, 0)
    tailer = _tailer(tmp_path)
    _append(path, "one\ntwo\n")
    assert _texts(tailer.collect()) == ["one", "two"]
    path.write_text("x\n")  # same inode, shorter than the offset
    assert _texts(tailer.collect()) == ["x"]


def test_restart_continues_from_the_committed_offset(tmp_path: Path) -> None:
    path = _log(tmp_path, 1, 0)
    first = _tailer(tmp_path)
    _append(path, "one\n")
    assert _texts(first.collect()) == ["one"]
    first.commit()
    first.close()
    _append(path, "two\n")
    second = _tailer(tmp_path)
    assert _texts(second.collect()) == ["two"]


def test_new_attempt_directory_is_picked_up(tmp_path: Path) -> None:
    tailer = _tailer(tmp_path)
    assert tailer.collect() == []
    path = _log(tmp_path, 1, 0)
    _append(path, "restarted\n")
    (line,) = [e for e in tailer.collect() if isinstance(e, LogLine)]
    assert line.attempt == 1


def test_idle_files_are_closed_and_reopened_at_their_position(tmp_path: Path) -> None:
    path = _log(tmp_path, 0, 0)
    settings = AgentSettings(node_id="n3", state_dir=tmp_path / "state", log_dirs=(tmp_path / "logs",))
    tailer = LogTailer(settings, AgentMetrics(), idle_close_s=0.0)
    _append(path, "one\n")
    assert _texts(tailer.collect()) == ["one"]
    assert _texts(tailer.collect()) == []  # nothing new: the file is closed
    assert tailer.tails[path].handle is None
    assert _texts(tailer.collect()) == []  # still closed, not reopened while unchanged
    _append(path, "two\n")
    assert _texts(tailer.collect()) == ["two"]


def test_the_job_id_of_a_torchrun_log_dir_is_its_run_id_without_the_mkdtemp_suffix() -> None:
    from producers.agent.tail import run_id

    assert run_id("4242_k3j2x9ab") == "4242"
    assert run_id("my_job_ab_cd_ef") == "my_job"
    assert run_id("4242") == "4242"
