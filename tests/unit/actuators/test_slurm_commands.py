"""The Slurm command mapping (pure) and the scontrol output parser."""

from __future__ import annotations

import pytest
from actuator_decisions import decision

from sinks.actuators.base import tag
from sinks.actuators.errors import PermanentActuatorError
from sinks.actuators.slurm import SlurmSettings, parse_node_line, slurm_commands

CFG = SlurmSettings()


def test_replace_cluster_drains_with_tagged_reason_then_requeues() -> None:
    d = decision("replace_nodes", ("node001", "node002"), "cluster", job_id="17")
    drain, requeue = slurm_commands(d, CFG)
    assert drain[:4] == ["scontrol", "update", "NodeName=node001,node002", "State=DRAIN"]
    assert drain[4].startswith(f"Reason={tag(d)} single_node_fault")
    assert requeue == ["scontrol", "requeue", "17"]
    assert len(slurm_commands(d, SlurmSettings(requeue_on_replace=False))) == 1


def test_replace_task_excludes_nodes_from_the_held_job() -> None:
    cmds = slurm_commands(decision("replace_nodes", ("node003",), "task", job_id="17"), CFG)
    assert cmds == [["scontrol", "requeuehold", "17"],
                    ["scontrol", "update", "JobId=17", "ExcNodeList=node003"],
                    ["scontrol", "release", "17"]]


def test_other_actions() -> None:
    reboot = slurm_commands(decision("drain_reboot_nodes", ("node004",)), CFG)[0]
    assert reboot[:4] == ["scontrol", "reboot", "ASAP", "nextstate=RESUME"] and reboot[-1] == "node004"
    job = {"nodes": (), "scope": "none", "job_id": "17"}
    assert slurm_commands(decision("restart_in_place", **job), CFG) == [["scontrol", "requeue", "17"]]  # type: ignore[arg-type]
    assert slurm_commands(decision("resubmit_job", **job), CFG) == [["scontrol", "requeue", "17"]]  # type: ignore[arg-type]
    assert slurm_commands(decision("stop_job", **job), CFG) == [["scancel", "17"]]  # type: ignore[arg-type]
    assert slurm_commands(decision("checkpoint_now", **job), CFG) == [  # type: ignore[arg-type]
        ["scancel", "--signal=USR1", "--full", "17"]]
    assert slurm_commands(decision("notify", **job), CFG) == []  # type: ignore[arg-type]


def test_non_slurm_job_id_is_a_permanent_error() -> None:
    with pytest.raises(PermanentActuatorError, match="not a Slurm job id"):
        slurm_commands(decision("stop_job", (), "none", job_id="train-7"), CFG)


def test_parse_node_line_keeps_spaces_in_reason() -> None:
    line = ("NodeName=node001 Arch=x86_64 State=IDLE+DRAIN Partitions=debug "
            "Reason=faultline:abc single_node_fault: Xid 79 [root@2026-11-22T08:00:00] Comment=(null)")
    info = parse_node_line(line)
    assert info["State"] == "IDLE+DRAIN" and info["Partitions"] == "debug"
    assert info["Reason"] == "faultline:abc single_node_fault: Xid 79 [root@2026-11-22T08:00:00]"
