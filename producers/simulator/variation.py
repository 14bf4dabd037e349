"""Variation knobs: how the simulated fleet's telemetry departs from the ideal.

Each knob reproduces a way real fleets differ from the simulator's default (issue 14):
nodes with NVML only (no DCGM profiling: ``sm_active`` null), no py-spy stacks, no NCCL
flight recorder, waiter stacks as real PyTorch/NCCL jobs show them (the collective call
returns at once; ranks block later in ``synchronize``, ``.item()``, ``Work.wait`` or a
barrier), asynchronous checkpoints, launchers that never send ``running``/checkpoint hooks,
rank-0-only checkpoint writers with the other ranks in a barrier, storage traffic on one
IB port, and one node whose clock is skewed. The default changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

WaiterFrames = Literal["named", "real"]
CheckpointWriter = Literal["all", "rank0"]


@dataclass(frozen=True)
class Variation:
    """Telemetry and behaviour knobs of a run (all default to the ideal fleet).

    ``sm_active``: DCGM profiling present (False: NVML only, ``sm_active`` null).
    ``node_metrics``: gpu/net samples of the job's nodes are emitted (False with no stacks and
    no flight recorder: the job reports logs and step progress only).
    ``gpu_metrics``: gpu samples of the job's nodes are emitted (False: the node agent reads
    RDMA counters only; net samples go on, so a job may vote from its compute rails alone).
    ``stacks`` / ``flight_recorder``: stack samples / collective_progress are emitted.
    ``waiter_frames``: ``real`` puts hang waiters in real PyTorch wait frames (see stacks.py).
    ``hooks``: lifecycle hooks beyond scheduling (False: no running/checkpoint events).
    ``announce``: the training log announces checkpoints and evaluations (False: the job saves
    and evaluates without a line saying so, as torch.distributed.checkpoint does by default).
    ``async_checkpoint``: periodic checkpoints are written in the background while training
    continues (the hooks still bracket the write); ``checkpoint_writer``: ``rank0`` makes
    rank 0 write alone while the others wait in a barrier. ``storage_port``: an extra IB
    port carries storage traffic that does not follow the training steps.
    ``skew_node`` (fleet node index) and ``skew_s``: that node's events carry a clock
    ``skew_s`` seconds off (emitted in true order; the reorder buffer must cope).
    """

    sm_active: bool = True
    node_metrics: bool = True
    gpu_metrics: bool = True
    stacks: bool = True
    flight_recorder: bool = True
    waiter_frames: WaiterFrames = "named"
    hooks: bool = True
    announce: bool = True
    async_checkpoint: bool = False
    checkpoint_writer: CheckpointWriter = "all"
    storage_port: bool = False
    skew_node: int | None = None
    skew_s: float = 0.0

    def __post_init__(self) -> None:
        if self.waiter_frames not in ("named", "real"):
            raise ValueError("waiter_frames must be 'named' or 'real'")
        if self.checkpoint_writer not in ("all", "rank0"):
            raise ValueError("checkpoint_writer must be 'all' or 'rank0'")
        if self.skew_node is not None and self.skew_node < 0:
            raise ValueError("skew_node must be a fleet node index >= 0")

    def describe(self) -> str:
        """The knobs that differ from the default, as ``k=v`` text (``ideal`` if none)."""
        default = Variation()
        changed = [f"{f.name}={getattr(self, f.name)}" for f in fields(self)
                   if getattr(self, f.name) != getattr(default, f.name)]
        return ",".join(changed) or "ideal"


def parse_variation(spec: str) -> Variation:
    """Build a Variation from ``"sm_active=false,stacks=false,skew_node=2,skew_s=3"``.

    Raises ``ValueError`` for an unknown knob or a bad value.
    """
    kinds = {f.name: str(f.type) for f in fields(Variation)}
    values: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in spec.split(","))):
        key, _, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if key not in kinds:
            raise ValueError(f"unknown variation {key!r}; known: {sorted(kinds)}")
        values[key] = _convert(kinds[key], text)
    return Variation(**values)  # type: ignore[arg-type]  # values checked per field above


def _convert(kind: str, text: str) -> object:
    if kind == "bool":
        if text.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise ValueError(f"not a boolean: {text!r}")
        return text.lower() in ("1", "true", "yes", "on")
    if kind == "int | None":
        return None if text.lower() in ("", "none", "null") else int(text)
    if kind == "float":
        return float(text)
    return text
