"""Fault and trap scenarios the simulator can inject, as plain frozen data.

Every time (``at_s``) is seconds after the start of the run. ``job`` is a job index
(0-based), ``node`` in :class:`SlowNode` is a node position within that job, ``node`` in
:class:`Xid` is a fleet node index (0-based, ``0`` is ``node-0001``) or a node id.
Each scenario adds one :class:`~producers.simulator.truth.Truth` of kind ``KIND`` when its
effect actually happens (an OOM in a job that is already dead adds nothing).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args

HangSource = Literal["single", "two", "uniform"]
SlowCause = Literal["thermal", "nic"]


@dataclass(frozen=True)
class Hang:
    """From ``at_s`` the source rank(s) stop; everyone else waits in a collective.

    ``source``: ``single`` (one rank), ``two`` (two ranks on two nodes) or ``uniform`` (no
    source, everyone freezes). ``ranks`` overrides the seeded choice of source ranks.
    ``duration_s`` None: hung until the end; else the NCCL watchdog fires and the job fails.
    ``dead_node`` (a node position within the job): that node dies at ``at_s`` (every one of
    its sources stops: node agent, stacks, flight recorder, logs) and its ranks are the
    source; the other ranks wait for it in a collective.
    """

    KIND: ClassVar[str] = "hang"
    job: int
    at_s: float
    source: HangSource = "single"
    duration_s: float | None = None
    ranks: tuple[int, ...] | None = None
    dead_node: int | None = None

    def __post_init__(self) -> None:
        if self.dead_node is not None and self.dead_node < 0:
            raise ValueError("Hang dead_node must be a node position >= 0")
        if self.source not in get_args(HangSource):
            raise ValueError(f"Hang source must be one of {get_args(HangSource)}")


@dataclass(frozen=True)
class SlowNode:
    """From ``at_s`` the job's node ``node`` is ``slowdown`` times slower (thermal or NIC)."""

    KIND: ClassVar[str] = "slow_node"
    job: int
    node: int
    at_s: float
    slowdown: float = 1.25
    cause: SlowCause = "thermal"

    def __post_init__(self) -> None:
        if self.cause not in get_args(SlowCause) or self.slowdown <= 0:
            raise ValueError(f"SlowNode needs cause in {get_args(SlowCause)} and slowdown > 0")


@dataclass(frozen=True)
class Xid:
    """``repeats`` NVRM Xid lines for GPU ``gpu`` of fleet node ``node`` from ``at_s``.

    ``fatal`` None uses the catalog default (e.g. 79, 48, 95 kill the job on that node).
    """

    KIND: ClassVar[str] = "xid"
    node: int | str
    gpu: int
    xid: int
    at_s: float
    repeats: int = 1
    interval_s: float = 0.5
    fatal: bool | None = None


@dataclass(frozen=True)
class Oom:
    """Rank ``rank`` of job ``job`` runs out of GPU memory at ``at_s``; the job fails."""

    KIND: ClassVar[str] = "oom"
    job: int
    rank: int
    at_s: float


@dataclass(frozen=True)
class LongCheckpoint:
    """A long synchronous checkpoint (a trap, not a hang) from the first step end >= at_s."""

    KIND: ClassVar[str] = "trap_checkpoint"
    job: int
    at_s: float
    duration_s: float


@dataclass(frozen=True)
class LongEval:
    """A long evaluation phase (a trap, not a hang) from the first step end >= at_s."""

    KIND: ClassVar[str] = "trap_eval"
    job: int
    at_s: float
    duration_s: float


@dataclass(frozen=True)
class Heterogeneity:
    """Stable per-node speed factors within +-``spread``, per-step jitter and rare spikes."""

    KIND: ClassVar[str] = "noise"
    job: int
    spread: float = 0.05
    spike_prob: float = 0.005


Scenario = Hang | SlowNode | Xid | Oom | LongCheckpoint | LongEval | Heterogeneity

BY_NAME: dict[str, type[Any]] = {
    "hang": Hang, "slow_node": SlowNode, "slownode": SlowNode, "slow": SlowNode, "xid": Xid,
    "oom": Oom, "long_checkpoint": LongCheckpoint, "checkpoint": LongCheckpoint,
    "long_eval": LongEval, "eval": LongEval, "heterogeneity": Heterogeneity,
    "noise": Heterogeneity,
}


def _int_or_str(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def _optional(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    return lambda text: None if text.lower() in ("none", "null", "") else convert(text)


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("/") if p)


def _bool(text: str) -> bool:
    return text.lower() in ("1", "true", "yes", "on")


_CONVERTERS: dict[str, Callable[[str], Any]] = {
    "int": int, "float": float, "int | str": _int_or_str,
    "float | None": _optional(float), "bool | None": _optional(_bool),
    "tuple[int, ...] | None": _optional(_ints), "int | None": _optional(int),
}
"""Parsers of ``key=value`` text by the field's annotation (a string: PEP 563)."""


def parse(spec: str) -> Scenario:
    """Build a scenario from ``"hang:job=0,at_s=600,source=single"``.

    Tuple fields take ``/``-separated ints (``ranks=3/17``). Raises ``ValueError`` for an
    unknown scenario name or field, or a value of the wrong type.
    """
    name, _, rest = spec.partition(":")
    cls = BY_NAME.get(name.strip().lower())
    if cls is None:
        raise ValueError(f"unknown scenario {name!r}; known: {sorted(set(BY_NAME))}")
    types = {f.name: f.type for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, _, value = item.partition("=")
        if key not in types:
            raise ValueError(f"{cls.__name__} has no field {key!r}; fields: {sorted(types)}")
        kwargs[key] = _CONVERTERS.get(str(types[key]), str)(value.strip())
    scenario: Scenario = cls(**kwargs)
    return scenario


SCENARIO_TYPES: tuple[type[Any], ...] = get_args(Scenario)
