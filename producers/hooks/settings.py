"""Who is reporting: the job, attempt, rank and node a training process's hooks speak for.

Built once by the training script (usually with :func:`settings_from_env` over
``os.environ``) and passed to :func:`producers.hooks.init`; hook code never reads the
environment itself.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

JOB_ID_VARS = ("FAULTLINE_JOB_ID", "SLURM_JOB_ID", "TORCHELASTIC_RUN_ID")
NODE_VARS = ("FAULTLINE_NODE_ID", "SLURMD_NODENAME")
RANK_VARS = ("FAULTLINE_RANK", "RANK", "SLURM_PROCID")
ATTEMPT_VARS = ("FAULTLINE_ATTEMPT", "SLURM_RESTART_COUNT", "TORCHELASTIC_RESTART_COUNT")


class HookSettings(BaseModel):
    """The identity stamped on every event a training process emits, and the hooks' limits.

    ``queue_size`` bounds the events waiting for the background sender: when it is full a
    new event is dropped and counted, so the training loop never waits on the network.
    ``checkpoint_all_ranks=False`` makes only rank 0 emit checkpoint and running job_events
    (a checkpoint is one job-wide fact, not one per rank).
    """

    model_config = ConfigDict(frozen=True)

    job_id: str = Field(min_length=1)
    node_id: str = Field(min_length=1)
    rank: int = Field(default=0, ge=0)
    attempt: int = Field(default=0, ge=0)
    cluster: str = Field(default="default", min_length=1)
    queue_size: int = Field(default=10_000, ge=1)
    checkpoint_all_ranks: bool = False
    fr_poll_s: float = Field(default=10.0, gt=0)


def _first(env: Mapping[str, str], names: tuple[str, ...]) -> str | None:
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return value
    return None


def settings_from_env(env: Mapping[str, str], **overrides: object) -> HookSettings:
    """Hook settings from ``env`` (pass ``os.environ``), then ``overrides`` win.

    job id: ``FAULTLINE_JOB_ID``, ``SLURM_JOB_ID``, ``TORCHELASTIC_RUN_ID``;
    node: ``FAULTLINE_NODE_ID``, ``SLURMD_NODENAME``, else the host name;
    rank: ``FAULTLINE_RANK``, ``RANK`` (torchrun), ``SLURM_PROCID``, else 0;
    attempt: ``FAULTLINE_ATTEMPT``, ``SLURM_RESTART_COUNT`` (the same count the Slurm
    watcher reports), ``TORCHELASTIC_RESTART_COUNT``, else 0;
    cluster: ``FAULTLINE_CLUSTER``, ``SLURM_CLUSTER_NAME``, else ``default``.
    Raises pydantic's ValidationError when no job id is found and none is given.
    """
    values: dict[str, object] = {
        "job_id": _first(env, JOB_ID_VARS),
        "node_id": _first(env, NODE_VARS) or socket.gethostname().split(".")[0],
        "rank": _first(env, RANK_VARS),
        "attempt": _first(env, ATTEMPT_VARS),
        "cluster": _first(env, ("FAULTLINE_CLUSTER", "SLURM_CLUSTER_NAME")),
    }
    values.update(overrides)
    return HookSettings.model_validate({k: v for k, v in values.items() if v is not None})
