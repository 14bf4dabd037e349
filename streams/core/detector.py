"""The shape every detector has: ``(state, event) -> (state, outputs)`` with no I/O.

A detector owns the state of one key (a job, a node, a message key: the detector says which
in its docstring). The shell (a Faust agent, or ``faultline replay``) looks the state up by
key, calls :meth:`Detector.step` with events of that key in event-time order, stores the
returned state and publishes the outputs. ``step`` may mutate and return the state it was
given; it must not read the wall clock, the environment or any file.

State must survive a restart: :meth:`dump` turns it into JSON-ready data (stored in a
changelog-backed Faust table) and :meth:`load` rebuilds it. ``load(dump(s))`` must behave
exactly like ``s``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from schemas import Event

S = TypeVar("S")
JsonData = dict[str, Any]


@dataclass(frozen=True)
class Forward:
    """An output that re-keys ``event`` onto another topic of the topology.

    Routing stages emit it (e.g. a GPU sample forwarded to the job whose placement holds its
    node, under ``key`` = that job). ``topic`` is a registry topic name; the shell publishes
    the event there with ``key`` instead of the registry's key fields.
    """

    topic: str
    key: str
    event: Event


Output = Event | Forward
"""What a detector emits: a derived event (published on its registry topic) or a Forward."""


class Detector(Protocol, Generic[S]):
    """A pure, per-key, event-time detector."""

    name: str

    def initial(self) -> S:
        """A fresh state for a key never seen before."""
        ...

    def step(self, state: S, event: Event) -> tuple[S, Sequence[Output]]:
        """Feed one event of this key; returns the new state and the derived events it causes.

        Events the detector does not consume are ignored (returned state unchanged, no output).
        """
        ...

    def flush(self, state: S, now: datetime) -> tuple[S, Sequence[Output]]:
        """Close whatever is open as of event time ``now`` (end of a replay or a watermark).

        Called by replay at the end of its input and by the streaming shell when the
        partition's event-time watermark passes; it must be idempotent for the same ``now``.
        """
        ...

    def dump(self, state: S) -> JsonData:
        """JSON-ready data from which :meth:`load` rebuilds ``state``."""
        ...

    def load(self, data: JsonData) -> S:
        """The state that :meth:`dump` saved."""
        ...
