"""The Slurm actuator: decisions -> ``scontrol``/``scancel`` commands on a real cluster.

Mapping (``job_id`` is the Slurm job id; every reason carries the decision's tag):

| action | commands |
|---|---|
| ``replace_nodes``, scope ``cluster`` | ``scontrol update NodeName=N State=DRAIN Reason=...``, then ``scontrol requeue J`` |
| ``replace_nodes``, scope ``task`` | ``scontrol requeuehold J``, ``scontrol update JobId=J ExcNodeList=N``, ``scontrol release J`` |
| ``drain_reboot_nodes`` | ``scontrol reboot ASAP nextstate=RESUME Reason=... N`` (drain, reboot when idle, resume) |
| ``restart_in_place``, ``resubmit_job`` | ``scontrol requeue J`` (Slurm has no in-place restart: the launcher, e.g. torchrun, restarts in place; Slurm can only requeue) |
| ``stop_job`` | ``scancel J`` |
| ``checkpoint_now`` | ``scancel --signal=USR1 --full J`` (the training script traps the signal and checkpoints) |
| ``notify`` | nothing (left to the webhook actuator) |

All commands go through :class:`~sinks.actuators.commands.CommandRunner` (timeout, errors
classified retryable/permanent). Node state changes are idempotent; ``recover`` reads
``scontrol show node`` and finds the tag in the node's reason.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from schemas import Actuation, Decision
from sinks.actuators.base import actuation, describe, tag
from sinks.actuators.commands import CommandRunner
from sinks.actuators.errors import PermanentActuatorError

_JOB_ACTIONS = frozenset({"restart_in_place", "resubmit_job", "stop_job", "checkpoint_now"})


class SlurmSettings(BaseModel):
    """How to reach Slurm (the client programs on PATH by default) and what to send."""

    model_config = ConfigDict(frozen=True)

    scontrol: str = "scontrol"
    """The scontrol program (a path, or a name on PATH)."""
    scancel: str = "scancel"
    """The scancel program."""
    timeout_s: float = Field(default=30.0, gt=0)
    """Per-command timeout; slurmctld answers in well under a second when healthy."""
    checkpoint_signal: str = "USR1"
    """Signal sent for ``checkpoint_now`` (the usual convention of Slurm training scripts)."""
    requeue_on_replace: bool = True
    """Requeue the job after draining its bad nodes (``replace_nodes`` scope ``cluster``) so
    Slurm reschedules it elsewhere; False: drain only (the launcher handles the job)."""


def _reason(decision: Decision) -> str:
    text = re.sub(r"\s+", " ", f"{tag(decision)} {decision.policy_rule}: {decision.reason.summary}")
    return text[:120]


def _job(decision: Decision) -> str:
    if not re.fullmatch(r"\d+(_\d+)?", decision.job_id):
        raise PermanentActuatorError(f"job_id {decision.job_id!r} is not a Slurm job id")
    return decision.job_id


def _nodes(decision: Decision) -> str:
    if not decision.nodes:
        raise PermanentActuatorError(f"{decision.action} without nodes: {decision.decision_id}")
    return ",".join(decision.nodes)


def slurm_commands(decision: Decision, cfg: SlurmSettings) -> list[list[str]]:
    """The commands that carry out ``decision``, in order (pure; see the module table)."""
    sc, action = cfg.scontrol, decision.action
    if action == "replace_nodes" and decision.block_scope == "task":
        job, nodes = _job(decision), _nodes(decision)
        return [[sc, "requeuehold", job], [sc, "update", f"JobId={job}", f"ExcNodeList={nodes}"],
                [sc, "release", job]]
    if action == "replace_nodes":
        drain = [sc, "update", f"NodeName={_nodes(decision)}", "State=DRAIN", f"Reason={_reason(decision)}"]
        return [drain, [sc, "requeue", _job(decision)]] if cfg.requeue_on_replace else [drain]
    if action == "drain_reboot_nodes":
        return [[sc, "reboot", "ASAP", "nextstate=RESUME", f"Reason={_reason(decision)}", _nodes(decision)]]
    if action in ("restart_in_place", "resubmit_job"):
        return [[sc, "requeue", _job(decision)]]
    if action == "stop_job":
        return [[cfg.scancel, _job(decision)]]
    if action == "checkpoint_now":
        return [[cfg.scancel, f"--signal={cfg.checkpoint_signal}", "--full", _job(decision)]]
    return []


class SlurmActuator:
    """Carries out decisions with scontrol/scancel (see the module docstring)."""

    name = "slurm"

    def __init__(self, settings: SlurmSettings | None = None, runner: CommandRunner | None = None) -> None:
        self.settings = settings or SlurmSettings()
        self.runner = runner or CommandRunner(self.settings.timeout_s)

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """Run the decision's commands in order; a failing command raises (earlier ones ran)."""
        commands = slurm_commands(decision, self.settings)
        for i, argv in enumerate(commands):
            try:
                self.runner.run(argv)
            except PermanentActuatorError as exc:
                raise PermanentActuatorError(f"after {i} of {len(commands)} commands: {exc}") from exc
        detail = f"{describe(decision)}: ran {len(commands)} command(s)" if commands else \
            f"{decision.action}: nothing to do in Slurm"
        return actuation(decision, self.name, "applied", detail, now)

    def recover(self, decision: Decision) -> bool:
        """True when every node of a node action carries the decision's tag in its reason."""
        if decision.action in _JOB_ACTIONS or not decision.nodes or decision.block_scope == "task":
            return False
        return all(tag(decision) in self.node_info(n).get("Reason", "") for n in decision.nodes)

    def node_info(self, node: str) -> dict[str, str]:
        """``scontrol show node -o`` of ``node`` as a dict (``State``, ``Reason``, ...)."""
        out = self.runner.run([self.settings.scontrol, "show", "node", "-o", node])
        return parse_node_line(out)

    def resume_nodes(self, nodes: list[str]) -> None:
        """Return repaired ``nodes`` to service (``State=RESUME``): the repair flow's step."""
        self.runner.run([self.settings.scontrol, "update", f"NodeName={','.join(nodes)}", "State=RESUME"])


def parse_node_line(line: str) -> dict[str, str]:
    """Parse one ``scontrol show node -o`` line; values may contain spaces (``Reason``)."""
    pairs = re.findall(r"(?:^|\s)([A-Za-z][\w/.:-]*)=(.*?)(?=\s+[A-Za-z][\w/.:-]*=|\s*$)", line.strip())
    return dict(pairs)
