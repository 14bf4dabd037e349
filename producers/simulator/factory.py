"""Build contract events with seeded ids on the simulated clock.

Event ids are UUID4-formatted strings drawn from the factory's own ``random.Random``, so
the same seed and the same order of calls give byte-identical events.

Speed: pydantic validation costs more than all the simulation logic for the three dense,
flat kinds (collective_progress, stack_sample, step_progress, ~90 % of all events), so
:meth:`EventFactory.trusted` builds those without re-validating fields the simulator
computed itself. The unit tests re-validate every kind through the wire codec.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from schemas import Event

_VARIANT = {d: "89ab"[int(d, 16) & 3] for d in "0123456789abcdef"}
"""Maps a random hex digit to a valid RFC 4122 variant digit."""

Item = tuple[int, str, Event]
"""(event time in ms since the start of the run, event_id, event): sorts in contract order."""


class EventFactory:
    """Creates events of one run; ``ms`` is always milliseconds since the run's start."""

    def __init__(self, start: datetime, cluster: str, rng: random.Random) -> None:
        self._start, self._cluster, self._rng = start, cluster, rng
        self._last_ms, self._last_time = 0, start

    def new_id(self) -> str:
        """A fresh UUID4-formatted id from the seeded generator."""
        h = f"{self._rng.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_VARIANT[h[16]]}{h[17:20]}-{h[20:]}"

    def time(self, ms: int) -> datetime:
        """The aware UTC event time ``ms`` after the start (the last one is cached)."""
        if ms != self._last_ms:
            self._last_ms, self._last_time = ms, self._start + timedelta(milliseconds=ms)
        return self._last_time

    def make(self, cls: type[Event], ms: int, **fields: Any) -> Item:
        """A validated event of ``cls`` at ``ms`` with a fresh id; raises on invalid fields."""
        event_id = self.new_id()
        event = cls(event_id=event_id, event_time=self.time(ms), cluster=self._cluster,
                    **fields)
        return (ms, event_id, event)

    def trusted(self, cls: type[Event], ms: int, **fields: Any) -> Item:
        """Like :meth:`make`, without validation: only for flat kinds whose field values
        already have their final types (tuples, aware UTC datetimes, ints, floats, str).
        """
        event_id = self.new_id()
        values = {"schema_": cls.schema_name(), "event_id": event_id,
                  "event_time": self.time(ms), "cluster": self._cluster, **fields}
        event = cls.__new__(cls)
        # pydantic's own model_construct does this too, but is as slow as validation.
        object.__setattr__(event, "__dict__", values)
        object.__setattr__(event, "__pydantic_fields_set__", set(values))
        object.__setattr__(event, "__pydantic_extra__", None)
        object.__setattr__(event, "__pydantic_private__", None)
        return (ms, event_id, event)
