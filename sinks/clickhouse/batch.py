"""The sink's in-memory batch: consumed messages waiting for one flush, and their offsets.

Pure bookkeeping, no Kafka or ClickHouse import: a batch is due when it holds
``batch_size`` messages or ``max_bytes`` of message values, or its oldest message waited
``flush_interval_s``.
"""

from __future__ import annotations

import itertools
import operator
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from schemas import DeadLetter, Event
from schemas.mirror import Mirror


class Consumed(NamedTuple):
    """One consumed message and what it decoded to (a tuple: one is made per message).

    ``event`` is the decoded event or its msgspec mirror (``schemas.mirror``: same fields,
    same values). ``failed`` is True when ``event`` is the DeadLetter that ``decode`` made of
    this message (as opposed to a valid dead_letter event read from the deadletter topic).
    """

    topic: str
    partition: int
    offset: int
    key: str | None
    value: bytes
    event: Event | Mirror
    failed: bool = False


_TOPIC, _PARTITION, _OFFSET, _VALUE = (operator.itemgetter(Consumed._fields.index(name))
                                       for name in ("topic", "partition", "offset", "value"))


@dataclass
class Batch:
    """Messages consumed since the last flush; ``next_offsets`` is what a commit will store."""

    items: list[Consumed] = field(default_factory=list)
    next_offsets: dict[tuple[str, int], int] = field(default_factory=dict)
    started: float | None = None
    value_bytes: int = 0
    """Sum of the message values' lengths: what bounds the batch's memory."""

    def add(self, item: Consumed, now: float | None = None) -> None:
        """Append one message; the first one starts the batch's clock."""
        if self.started is None:
            self.started = time.monotonic() if now is None else now
        self.items.append(item)
        self.next_offsets[(item.topic, item.partition)] = item.offset + 1
        self.value_bytes += len(item.value)

    def add_all(self, items: list[Consumed], now: float | None = None) -> None:
        """Append ``items`` in order, as ``add`` of each would (per item: no Python code runs)."""
        if not items:
            return
        if self.started is None:
            self.started = time.monotonic() if now is None else now
        self.items.extend(items)
        places = zip(map(_TOPIC, items), map(_PARTITION, items), strict=True)
        ends = map(operator.add, map(_OFFSET, items), itertools.repeat(1))
        self.next_offsets.update(zip(places, ends, strict=False))  # the last item of a partition wins
        self.value_bytes += sum(map(len, map(_VALUE, items)))

    def due(self, batch_size: int, flush_interval_s: float, now: float | None = None,
            max_bytes: int | None = None) -> bool:
        """True when the batch holds ``batch_size`` messages or ``max_bytes`` of values (None: no
        byte bound), or its oldest message waited ``flush_interval_s``; never when empty."""
        if not self.items or self.started is None:
            return False
        if len(self.items) >= batch_size or (max_bytes is not None and self.value_bytes >= max_bytes):
            return True
        clock = time.monotonic() if now is None else now
        return clock - self.started >= flush_interval_s

    def events(self) -> list[Consumed]:
        """Messages that decoded into an event to insert."""
        return [item for item in self.items if not item.failed]

    def failures(self) -> list[DeadLetter]:
        """Dead letters made by ``decode`` for messages that did not decode or validate."""
        return [item.event for item in self.items if item.failed and isinstance(item.event, DeadLetter)]

    def clear(self) -> None:
        """Forget everything: called once the batch landed and its offsets were committed."""
        self.items.clear()
        self.next_offsets.clear()
        self.started = None
        self.value_bytes = 0

    def __len__(self) -> int:
        return len(self.items)
