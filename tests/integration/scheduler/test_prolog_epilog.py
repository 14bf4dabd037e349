"""deploy/slurm/prolog.sh and epilog.sh, run as slurmctld would run them, for real Slurm jobs."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from slurm_cluster import sh

from producers.scheduler.lifecycle import job_event_id
from schemas import JobEvent, decode

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("slurm_cluster")]

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def name() -> Iterator[str]:
    unique = f"fl-pe-{uuid.uuid4().hex[:8]}"
    yield unique
    sh("scancel", "-n", unique, check=False)


def faultline_bin(tmp_path: Path) -> Path:
    """A `faultline` stand-in that runs `faultline jobs ...` through jobs_main (not yet registered)."""
    path = tmp_path / "faultline"
    path.write_text(f"#!/bin/sh\ncd {REPO} && exec {sys.executable} -c "
                    "'import sys; from producers.scheduler.cli import jobs_main; sys.exit(jobs_main(sys.argv[2:]))' "
                    '"$@"\n')
    path.chmod(0o755)
    return path


def run_script(script: str, job: str, tmp_path: Path, out: Path, **extra: str) -> None:
    env = {"PATH": os.environ["PATH"], "SLURM_JOB_ID": job, "SLURM_RESTART_COUNT": "0",
           "SLURM_CLUSTER_NAME": "faultline", "FAULTLINE_ENV_FILE": str(tmp_path / "no-env-file"),
           "FAULTLINE_BIN": str(faultline_bin(tmp_path)), "FAULTLINE_JOBS_OUTPUT": str(out), **extra}
    done = subprocess.run(["bash", str(REPO / "deploy" / "slurm" / script)], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def state(job: str) -> str:
    return sh("squeue", "-h", "-t", "all", "-j", job, "-o", "%T", check=False).strip()


def wait_state(job: str, wanted: str, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and state(job) != wanted:
        time.sleep(0.5)
    assert state(job) == wanted


def events(out: Path) -> list[JobEvent]:
    decoded = [decode(line) for line in out.read_bytes().splitlines()]
    assert all(isinstance(e, JobEvent) for e in decoded)
    return decoded  # type: ignore[return-value]  # checked above


def test_prolog_then_epilog_of_a_cancelled_job(name: str, tmp_path: Path) -> None:
    job = sh("sbatch", "--parsable", "-J", name, "-N", "2", "-o", "/dev/null", "--wrap", "sleep 300").strip()
    wait_state(job, "RUNNING")
    out = tmp_path / "jobs.jsonl"
    nodes = sh("squeue", "-h", "-j", job, "-o", "%N").strip()
    run_script("prolog.sh", job, tmp_path, out, SLURM_JOB_NODELIST=nodes, FAULTLINE_RANKS_PER_NODE="2")
    sh("scancel", job)
    wait_state(job, "CANCELLED")
    run_script("epilog.sh", job, tmp_path, out, SLURM_JOB_EXIT_CODE="0", SLURM_JOB_EXIT_CODE2="0:15")
    got = events(out)
    assert [(e.kind, e.attempt) for e in got] == [("submitted", 0), ("scheduled", 0), ("running", 0),
                                                  ("cancelled", 0)]
    assert [e.event_id for e in got] == [job_event_id("faultline", job, 0, e.kind) for e in got]
    assert [p.node_id for p in got[1].placement] == [n for n in sh("scontrol", "show", "hostnames", nodes).split()
                                                     for _ in range(2)]
    assert got[3].detail is not None and "CANCELLED" in got[3].detail


def test_epilog_of_a_completed_job_without_running_from_the_prolog(name: str, tmp_path: Path) -> None:
    job = sh("sbatch", "--parsable", "-J", name, "-o", "/dev/null", "--wrap", "true").strip()
    wait_state(job, "COMPLETED")
    out = tmp_path / "jobs.jsonl"
    run_script("prolog.sh", job, tmp_path, out, SLURM_JOB_NODELIST="node001", FAULTLINE_EMIT_RUNNING="0",
               SLURM_RESTART_COUNT="2")
    run_script("epilog.sh", job, tmp_path, out, SLURM_JOB_EXIT_CODE="0", SLURM_RESTART_COUNT="2")
    assert [(e.kind, e.attempt) for e in events(out)] == [("scheduled", 2), ("finished", 2)]
