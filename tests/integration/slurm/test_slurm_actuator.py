"""The Slurm actuator against a real slurmctld + slurmd: node and job states really change."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from slurm_cluster import node_state, sh, wait_for

from schemas import Decision, Reason, derived_id
from sinks.actuators.base import tag
from sinks.actuators.errors import PermanentActuatorError
from sinks.actuators.slurm import SlurmActuator, SlurmSettings

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("clean_nodes")]


def decision(action: str, nodes: tuple[str, ...] = (), scope: str = "none", job_id: str = "1") -> Decision:
    now = datetime.now(UTC)
    did = derived_id("decision", job_id, action, "it", now)
    return Decision(event_id=did, event_time=now, cluster="local", decision_id=did, job_id=job_id, attempt=0,
                    issued_at=now, action=action, nodes=nodes, block_scope=scope,  # type: ignore[arg-type]  # literal from str
                    reason=Reason(kind="explicit_fault", category="gpu_fallen_off_bus", cause_ids=("f",),
                                  summary="Xid 79: GPU has fallen off the bus"),
                    policy_rule="single_node_fault", expires_at=now + timedelta(minutes=15))


@pytest.fixture
def job_on() -> Iterator[object]:
    """Submit ``sleep`` jobs pinned to a node; cancels them afterwards."""
    jobs: list[str] = []

    def submit(node: str, script: str = "sleep 300") -> str:
        job = sh("sbatch", "--parsable", "-w", node, "-o", "/dev/null", "--wrap", script).strip()
        jobs.append(job)
        assert wait_for(lambda: job_state(job) == "RUNNING"), f"job {job} did not start: {job_state(job)}"
        return job

    yield submit
    for job in jobs:
        sh("scancel", job, check=False)


def job_state(job: str) -> str:
    return sh("squeue", "-h", "-j", job, "-o", "%T", check=False).strip() or "GONE"


def job_field(job: str, field: str) -> str:
    for token in sh("scontrol", "show", "job", "-o", job).split():
        if token.startswith(f"{field}="):
            return token.split("=", 1)[1]
    return ""


def test_replace_nodes_drains_the_node_and_requeues_the_job(job_on) -> None:  # type: ignore[no-untyped-def]
    job = job_on("node002")
    act = SlurmActuator()
    d = decision("replace_nodes", ("node002",), "cluster", job_id=job)
    result = act.apply(d, datetime.now(UTC))
    assert result.status == "applied" and result.decision_id == d.decision_id
    assert "DRAIN" in node_state("node002")
    assert tag(d) in act.node_info("node002")["Reason"]
    assert "node002" in sh("sinfo", "-h", "-N", "-t", "drain,drng,drained", "-o", "%N")
    assert job_field(job, "Restarts") == "1"
    assert act.recover(d) is True
    act.resume_nodes(["node002"])
    assert wait_for(lambda: node_state("node002") == "IDLE")
    assert act.recover(d) is False


def test_drain_only_then_resume() -> None:
    act = SlurmActuator(SlurmSettings(requeue_on_replace=False))
    act.apply(decision("replace_nodes", ("node001",), "cluster", job_id="not-a-slurm-job"), datetime.now(UTC))
    assert node_state("node001") in ("IDLE+DRAIN", "DRAIN", "DRAINED")
    sinfo = sh("sinfo", "-h", "-N", "-n", "node001", "-o", "%t").strip()
    assert sinfo.startswith("drain"), sinfo
    act.resume_nodes(["node001"])
    assert wait_for(lambda: node_state("node001") == "IDLE")


def test_drain_reboot_issues_a_reboot_with_the_tagged_reason() -> None:
    act = SlurmActuator()
    d = decision("drain_reboot_nodes", ("node004",), "cluster")
    act.apply(d, datetime.now(UTC))
    state = node_state("node004")
    assert "REBOOT" in state and "DRAIN" in state, state
    assert tag(d) in act.node_info("node004")["Reason"]


def test_stop_job_cancels_a_real_job(job_on) -> None:  # type: ignore[no-untyped-def]
    job = job_on("node003")
    SlurmActuator().apply(decision("stop_job", job_id=job), datetime.now(UTC))
    assert wait_for(lambda: job_field(job, "JobState") == "CANCELLED")


def test_checkpoint_now_signals_the_running_job(job_on, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    marker = tmp_path / "checkpoint-requested"
    script = f"trap 'touch {marker}' USR1; while true; do sleep 0.2; done"
    job = job_on("node003", script)
    time.sleep(1.0)  # let the batch shell install its trap
    SlurmActuator().apply(decision("checkpoint_now", job_id=job), datetime.now(UTC))
    assert wait_for(marker.exists, 15), "the job never received SIGUSR1"
    assert job_state(job) == "RUNNING"


def test_unknown_node_is_a_permanent_error_naming_the_command() -> None:
    with pytest.raises(PermanentActuatorError, match="scontrol update NodeName=node999"):
        SlurmActuator(SlurmSettings(requeue_on_replace=False)).apply(
            decision("replace_nodes", ("node999",), "cluster"), datetime.now(UTC))
