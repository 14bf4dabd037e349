"""Helpers around the local Slurm test cluster: commands, node state, reset."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

SETUP = Path(__file__).resolve().parents[3] / "deploy" / "slurm" / "setup-local-slurm.sh"
NODES = ("node001", "node002", "node003", "node004")


def sh(*argv: str, check: bool = True) -> str:
    """Run a Slurm client command, return stdout."""
    done = subprocess.run(list(argv), capture_output=True, text=True, timeout=60, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def node_state(node: str) -> str:
    """The ``State=`` of ``node`` per ``scontrol show node``."""
    for token in sh("scontrol", "show", "node", "-o", node).split():
        if token.startswith("State="):
            return token.removeprefix("State=")
    raise AssertionError(f"no State= for {node}")


def wait_for(predicate: object, timeout_s: float = 20.0) -> bool:
    """Poll ``predicate()`` until true or ``timeout_s`` passes."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]  # a zero-argument callable
            return True
        time.sleep(0.3)
    return False


def reset_node(node: str) -> None:
    """Return ``node`` to service whatever state a test (or an interrupted run) left it in."""
    sh("scancel", f"--nodelist={node}", check=False)  # a job left running by an interrupted run
    assert wait_for(lambda: "ALLOCATED" not in node_state(node) and "COMPLETING" not in node_state(node)), \
        f"{node} still busy: {node_state(node)}"
    state = node_state(node)
    if "REBOOT" in state:
        sh("scontrol", "update", f"NodeName={node}", "State=DOWN", "Reason=test-reset")
    if state != "IDLE":
        sh("scontrol", "update", f"NodeName={node}", "State=RESUME", check=False)
    assert wait_for(lambda: node_state(node) == "IDLE"), f"{node} stuck in {node_state(node)}"
