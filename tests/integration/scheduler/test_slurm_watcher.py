"""The Slurm watcher against a real slurmctld: submit, run, fail, finish, requeue, cancel."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from slurm_cluster import sh

from producers.hooks.sinks import ListSink
from producers.scheduler.cli import jobs_main
from producers.scheduler.lifecycle import LifecycleTracker
from producers.scheduler.slurm import JobFilter, squeue_jobs
from producers.scheduler.watch import SlurmWatcher
from schemas import JobEvent, decode

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("slurm_cluster")]


@pytest.fixture
def name() -> Iterator[str]:
    """A job name unique to the test; its jobs are cancelled afterwards."""
    unique = f"fl-sched-{uuid.uuid4().hex[:8]}"
    yield unique
    sh("scancel", "-n", unique, check=False)


def submit(name: str, script: str, nodes: int = 1) -> str:
    return sh("sbatch", "--parsable", "-J", name, "-N", str(nodes), "--ntasks-per-node=1", "-o", "/dev/null",
              "--wrap", script).strip()


def of(sink: ListSink, job: str) -> list[JobEvent]:
    return [e for e in sink.events if isinstance(e, JobEvent) and e.job_id == job]


def kinds(sink: ListSink, job: str) -> list[tuple[str, int]]:
    return [(e.kind, e.attempt) for e in of(sink, job)]


_NUDGED: set[str] = set()


def nudged(job: str) -> bool:
    """Shorten a requeued job's 2-minute BeginTime once it is PENDING again (an update made while
    it is still COMPLETING is ignored). Always True, so it can lead a condition.

    The new start is 2 s ahead, not ``now``: slurmd refuses a credential issued in the same
    second its previous one was revoked ("Job credential revoked"), and the job would fail.
    """
    if job not in _NUDGED and sh("squeue", "-h", "-t", "all", "-j", job, "-o", "%T", check=False).strip() == "PENDING":
        sh("scontrol", "update", f"JobId={job}", "StartTime=now+2", check=False)
        _NUDGED.add(job)  # once: every later update would push the start 2 s further
    return True


def poll_until(watcher: SlurmWatcher, done: Callable[[], bool], timeout_s: float = 150.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        watcher.poll_once()
        if done():
            return
        time.sleep(0.5)
    raise AssertionError(f"condition not reached in {timeout_s} s; events: "
                         f"{[(e.job_id, e.kind, e.attempt) for e in watcher.sink.events]}")  # type: ignore[attr-defined]


def test_lifecycle_of_real_jobs_including_a_requeue(name: str) -> None:
    sink = ListSink()
    watcher = SlurmWatcher(LifecycleTracker("faultline"), sink, squeue_jobs, JobFilter(names=frozenset({name})))
    long_job = submit(name, "sleep 300", nodes=2)
    bad_job, good_job = submit(name, "exit 3"), submit(name, "true")
    poll_until(watcher, lambda: ("running", 0) in kinds(sink, long_job)
               and ("failed", 0) in kinds(sink, bad_job) and ("finished", 0) in kinds(sink, good_job))
    assert kinds(sink, bad_job)[-1] == ("failed", 0) and kinds(sink, good_job)[-1] == ("finished", 0)
    failed = [e for e in of(sink, bad_job) if e.kind == "failed"][0]
    assert failed.detail is not None and "FAILED" in failed.detail

    scheduled = [e for e in of(sink, long_job) if e.kind == "scheduled"][0]
    nodes = sh("squeue", "-h", "-j", long_job, "-o", "%N").strip()
    assert [p.node_id for p in scheduled.placement] == sh("scontrol", "show", "hostnames", nodes).split()
    assert [p.rank for p in scheduled.placement] == [0, 1]

    sh("scontrol", "requeue", long_job)
    poll_until(watcher, lambda: ("restarting", 1) in kinds(sink, long_job))
    poll_until(watcher, lambda: nudged(long_job) and ("running", 1) in kinds(sink, long_job))
    sh("scancel", long_job)
    poll_until(watcher, lambda: ("cancelled", 1) in kinds(sink, long_job))
    assert kinds(sink, long_job) == [("submitted", 0), ("scheduled", 0), ("running", 0), ("restarting", 1),
                                     ("scheduled", 1), ("running", 1), ("cancelled", 1)]
    assert watcher.stats.bad_records == 0 and watcher.stats.poll_errors == 0


def test_the_cli_polls_once_to_json_lines(name: str, tmp_path: Path) -> None:
    job = submit(name, "true")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "COMPLETED" not in sh("squeue", "-h", "-t", "all", "-j", job, "-o", "%T"):
        time.sleep(0.5)
    out = tmp_path / "jobs.jsonl"
    assert jobs_main(["slurm", "--once", "--name", name, "--cluster", "faultline", "-o", str(out)], env={}) == 0
    events = [decode(line) for line in out.read_bytes().splitlines()]
    assert [(e.job_id, e.kind) for e in events] == [  # type: ignore[attr-defined]
        (job, "submitted"), (job, "scheduled"), (job, "running"), (job, "finished")]
