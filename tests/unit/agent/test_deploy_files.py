"""The agent's deployment files agree with its settings and with what the collectors read."""

from __future__ import annotations

import configparser
from pathlib import Path
from typing import Any

import yaml

from producers.agent.cli import _parser, settings_from
from producers.agent.settings import AgentSettings

DEPLOY = Path(__file__).parents[3] / "deploy" / "agent"


def _daemonset() -> tuple[dict[str, Any], dict[str, Any]]:
    docs = {d["kind"]: d for d in yaml.safe_load_all((DEPLOY / "daemonset.yaml").read_text())}
    return docs["ConfigMap"], docs["DaemonSet"]


def test_configmap_is_valid_agent_settings(tmp_path: Path) -> None:
    config, _ = _daemonset()
    path = tmp_path / "agent.yaml"
    path.write_text(config["data"]["agent.yaml"])
    settings = settings_from(_parser().parse_args(["--config", str(path), "--node-id", "gpu-17"]))
    assert isinstance(settings, AgentSettings)
    assert settings.node_id == "gpu-17" and str(settings.host_root) == "/host"
    assert settings.kmsg_file == Path("/host/dev/kmsg")


def test_daemonset_mounts_and_privileges_match_the_collectors() -> None:
    _, daemonset = _daemonset()
    pod = daemonset["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    assert {"/host/sys", "/host/proc", "/host/dev/kmsg", "/host/var/log/torchrun", "/var/lib/faultline-agent"} <= mounts
    assert pod["hostPID"] is True
    assert {"SYS_PTRACE", "SYSLOG"} <= set(container["securityContext"]["capabilities"]["add"])
    assert container["resources"]["limits"]["memory"] and container["resources"]["limits"]["cpu"]


def test_systemd_unit_runs_the_agent_command() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string((DEPLOY / "faultline-agent.service").read_text())
    exec_start = unit["Service"]["ExecStart"]
    argv = exec_start.replace("\\\n", " ").split()
    assert argv[1] == "agent"
    args = _parser().parse_args(argv[2:])  # every flag in the unit is one the agent knows
    assert args.state_dir == Path("/var/lib/faultline-agent")
    assert "CAP_SYS_PTRACE" in unit["Service"]["AmbientCapabilities"]
