"""Event-time alignment of one agent's input partitions: the order a backlog is read in.

A Faust agent reads several topic-partitions, and the fetcher hands their records over in
whatever order its fetches complete. Live, that hardly matters: every partition is read
seconds after it was written. Draining a backlog, it does: one topic can be read minutes of
event time ahead of another (a fetch of stack samples before the collectives of the same
minutes), one partition ahead of another (the nodes of one partition ahead of the job's other
nodes), or ahead of what an upstream stage re-keys for the agent (the node samples of
``jobs.feed``, the placements of ``placements.feed``). A job's reorder buffer then takes live
sources for dead ones, and the route stage attributes samples before their placement is
known: the answers would depend on the processing rate.

The rule is Kafka Streams' choice of the next record of a task, refined with partition time:
of the records buffered per input partition, process the one with the smallest event time,
unless a partition that has nothing buffered is more than ``slack_s`` of event time behind it
(it ran dry at its last record's time, and may still deliver records of the meantime). Such a
partition holds the head back for ``idle_s`` of wall time since it ran dry (Kafka Streams'
``max.task.idle.ms``), after which it counts as idle until it delivers again. A partition
that has delivered nothing yet holds back every head, from the first record the agent reads,
for ``first_read_s``. At most ``max_held`` records wait; beyond that the earliest
head is processed whatever may be missing (bounded memory, degraded alignment).

Two kinds of knowledge make the wait independent of wall time where they exist (KIP-695 made
Kafka Streams wait the same way). A partition that is known to have more records (the
broker's high watermark, or what this process itself wrote to it, is past the next offset to
read, or past the committed offset for one that delivered nothing yet: a ``Supply`` answers) is waited for, as is one whose topic an upstream stage of the same
process writes while that stage's own input still holds records more than ``slack_s`` behind
the head (its ``frontier_us``: it may still write earlier records). Both waits are bounded by
``stall_s`` of wall time, for a supply that never comes (a high watermark counting offsets
that will not be read). What another process writes is known only once it is on the broker:
for it the ``idle_s`` rule is all there is.

The slack is what the job pipeline's reorder buffer absorbs anyway (a source is dead only
60 s behind its path), so partitions need only be kept within it, not in strict order. It
also makes the rule free live: read at real time or faster, the head passes a dry partition's
time plus ``slack_s`` only after ``idle_s`` of wall time (``slack_s`` / pace >= ``idle_s``), when
the partition is already idle. Only a backlog, read much faster than real time, waits.

Only the order in which records are *processed* changes: records of one partition keep their
order, nothing is dropped, and what a detector makes of them is still decided by its own
event-time rules.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

Item = TypeVar("Item")
TopicPartition = tuple[str, int]

DEFAULT_IDLE_S = 3.0
"""Wall seconds a partition that ran dry may hold back later records: several fetch rounds
(Kafka Streams' ``max.task.idle.ms`` defaults to 0; a backlog needs more)."""
DEFAULT_SLACK_S = 30.0
"""Event seconds a dry partition may lag the next record before it holds it back: half the
reorder buffer's 60 s, and 10x the wall-clock wait, so that a stream read at up to 10x real
time never waits."""
FIRST_READ_S = 1.0
"""Wall seconds a partition that has delivered nothing yet is waited for, from the agent's
first record on: the first fetch rounds of a (re)started worker."""
DEFAULT_STALL_S = 30.0
"""Wall seconds a partition known to have more records (or an upstream stage known to be
behind) may hold back later records before the aligner stops believing it."""
LOOK_TTL_S = 0.005
"""Wall seconds a look at what a partition is known to deliver (a high watermark) is reused:
a stage asks on every record, a fetch response changes the answer a few times a second."""
DEFAULT_MAX_HELD = 20_000
"""Records waiting in an agent's aligner at most (a few tens of MB of decoded events)."""
NOT_STARTED = float("inf")
"""``dry_since`` of a partition assigned before the agent read anything: a worker recovers
its tables after the assignment, and the wait must not run out before reading has begun."""
NEVER = -(2**63)
"""Event time (µs) a partition that delivered nothing yet has reached."""
ALWAYS = 2**63
"""The frontier of a stage with nothing known left to process."""


class Supply(Protocol):
    """What is known about records not yet read (the consumer's high watermarks, what this
    process wrote)."""

    def pending(self, where: TopicPartition, next_offset: int | None) -> bool:
        """Whether partition ``where`` is known to hold a record at or after ``next_offset``
        (None: the partition's committed offset, where reading it starts)."""
        ...


@dataclass
class _Partition(Generic[Item]):
    """One input partition: its buffered records, the event time it reached, since when it is dry."""

    topic: str
    queue: deque[tuple[int, int, Item]] = field(default_factory=deque)
    reached_us: int = NEVER
    dry_since_s: float = NOT_STARTED
    next_offset: int | None = None
    """The offset after the last record read (None: nothing read yet)."""
    awaited_since_s: float | None = None
    """Since when (wall) the partition has been waited for as known to deliver (None: not)."""
    known: bool = False
    known_at_s: float = float("-inf")
    """Whether it was known to deliver at the last look, and when (wall) that look was."""


@dataclass
class InputAligner(Generic[Item]):
    """Buffered records of one agent's input partitions, released in event-time order.

    ``add`` buffers a record (its event time in µs, the wall time now); ``pop`` returns the
    next record to process, or None while the earliest one may still be preceded by a record
    of a dry partition. ``assign`` registers the agent's partitions; ``clear`` forgets every
    buffered record, for a rebalance, after which Faust reads from the committed offsets."""

    idle_s: float = DEFAULT_IDLE_S
    slack_s: float = DEFAULT_SLACK_S
    first_read_s: float = FIRST_READ_S
    max_held: int = DEFAULT_MAX_HELD
    stall_s: float = DEFAULT_STALL_S
    supply: Supply | None = None
    upstream: dict[str, list[InputAligner[Any]]] = field(default_factory=dict)
    """Per input topic, the aligners of the stages of this process that write it."""
    held: int = 0
    _processing_us: int | None = None
    _own_frontier: tuple[float, int] | None = None
    """(when, value) of the last look at this stage's own part of its frontier; None: stale."""
    _blocked: tuple[float, float] | None = None
    """(when, until) of the last ``pop`` that found the head held back; None: changed since."""
    _partitions: dict[TopicPartition, _Partition[Item]] = field(default_factory=dict)
    _arrivals: int = 0
    _started: bool = False

    def assign(self, partitions: set[TopicPartition], now_s: float) -> None:
        """Make ``partitions`` this agent's: new ones have delivered nothing yet, others go."""
        for gone in set(self._partitions) - partitions:
            self.held -= len(self._partitions.pop(gone).queue)
        for new in partitions - set(self._partitions):
            self._partitions[new] = _Partition(new[0], dry_since_s=self._first_wait(new[0], now_s))
        self._own_frontier = self._blocked = None

    def clear(self) -> None:
        """Forget every buffered record (they will be read again from the committed offsets)."""
        for partition in self._partitions.values():
            partition.queue.clear()
            partition.next_offset = partition.awaited_since_s = None
            partition.known_at_s = float("-inf")
        self.held = 0
        self._own_frontier = self._blocked = None

    def add(self, where: TopicPartition, time_us: int, item: Item, now_s: float, offset: int | None = None) -> bool:
        """Buffer ``item`` read from partition ``where`` at ``offset`` (registered now if it was not).

        Returns whether what ``pop`` returns may have changed: the partition had nothing buffered
        (it was dry, and may have been what held the head back, or the record may be the new
        head) or the aligner is now full. A record queued behind others of its partition changes
        neither the head nor the dry partitions, so a waiting processor need not look again."""
        if not self._started:
            self.start(now_s)
        partition = self._partition(where)
        was_dry = not partition.queue
        self._arrivals += 1
        partition.queue.append((time_us, self._arrivals, item))
        partition.reached_us = max(partition.reached_us, time_us)
        partition.awaited_since_s = None
        partition.known_at_s = float("-inf")
        if offset is not None:
            partition.next_offset = offset + 1
        self.held += 1
        self._own_frontier = self._blocked = None
        return was_dry or self.held >= self.max_held

    def skip(self, where: TopicPartition, offset: int) -> None:
        """Record ``offset`` of ``where`` read and not buffered (a dead letter)."""
        partition = self._partition(where)
        partition.next_offset, partition.known_at_s = offset + 1, float("-inf")
        self._own_frontier = self._blocked = None

    def done(self) -> None:
        """The record ``pop`` returned last is processed (its outputs are sent)."""
        self._processing_us = None
        self._own_frontier = self._blocked = None

    def frontier_us(self, now_s: float, seen: frozenset[int] = frozenset()) -> int:
        """The earliest event time this stage is known to have yet to process: a held or
        in-flight record, a partition known to hold more records (from the time it reached),
        or the frontier of an upstream stage of this process; ``ALWAYS`` if none."""
        if id(self) in seen:
            return ALWAYS
        seen |= {id(self)}
        if self._own_frontier is None or now_s - self._own_frontier[0] >= LOOK_TTL_S:
            self._own_frontier = (now_s, self._own_frontier_us(now_s))
        earliest = self._own_frontier[1]
        for writers in self.upstream.values():
            for writer in writers:
                earliest = min(earliest, writer.frontier_us(now_s, seen))
        return earliest

    def _own_frontier_us(self, now_s: float) -> int:
        """The earliest of this stage's held and in-flight records and of the times its
        partitions known to deliver more have reached."""
        earliest = ALWAYS if self._processing_us is None else self._processing_us
        for where, partition in self._partitions.items():
            if partition.queue:
                earliest = min(earliest, partition.queue[0][0])
            elif self._known_to_deliver(where, partition, now_s):
                earliest = min(earliest, partition.reached_us)
        return earliest

    def crowded(self, where: TopicPartition) -> bool:
        """Whether partition ``where`` holds its share of ``max_held`` (half of it, split evenly
        between the assigned partitions) or more: reading it further only fills the aligner."""
        partition = self._partitions.get(where)
        return partition is not None and len(partition.queue) >= self._share()

    def thinned(self, where: TopicPartition) -> bool:
        """Whether partition ``where`` holds half its share or less (a crowded one is read again)."""
        partition = self._partitions.get(where)
        return partition is None or len(partition.queue) <= self._share() // 2

    def _share(self) -> int:
        return max(2, self.max_held // (2 * max(1, len(self._partitions))))

    def _partition(self, where: TopicPartition) -> _Partition[Item]:
        if where not in self._partitions:
            self._partitions[where] = _Partition(where[0])
        return self._partitions[where]

    def _known_to_deliver(self, where: TopicPartition, partition: _Partition[Item], now_s: float) -> bool:
        """Whether the supply knows of more records of ``partition`` (a look reused for ``LOOK_TTL_S``)."""
        if now_s - partition.known_at_s >= LOOK_TTL_S:
            partition.known_at_s = now_s
            partition.known = self.supply is not None and self.supply.pending(where, partition.next_offset)
        return partition.known

    def start(self, now_s: float) -> None:
        """The agent's first record is read now: the wait for partitions yet to deliver starts."""
        self._started, self._blocked = True, None
        for partition in self._partitions.values():
            if not partition.queue and partition.reached_us == NEVER:
                partition.dry_since_s = self._first_wait(partition.topic, now_s)

    def pop(self, now_s: float) -> Item | None:
        """The earliest buffered record, unless a dry partition may still deliver an earlier
        one (and fewer than ``max_held`` records wait); None otherwise."""
        head = self._head()
        if head is None:
            return None
        until = self._blocked_until(head, now_s)
        if until > now_s and self.held < self.max_held:
            self._blocked = (now_s, until)
            return None
        queue = head.queue
        time_us, _, item = queue.popleft()
        self._processing_us, self._own_frontier, self._blocked = time_us, None, None
        if not queue:
            head.dry_since_s = now_s
        self.held -= 1
        return item

    def next_due_s(self, now_s: float) -> float | None:
        """The wall time at which the earliest record stops waiting (None: nothing waits)."""
        if self._blocked is not None and self._blocked[0] == now_s:
            return self._blocked[1]  # what ``pop`` found just now, nothing changed since
        head = self._head()
        if head is None:
            return None
        due = self._blocked_until(head, now_s)
        return due if due > now_s else None

    def _head(self) -> _Partition[Item] | None:
        best: _Partition[Item] | None = None
        for partition in self._partitions.values():
            if partition.queue and (best is None or partition.queue[0][:2] < best.queue[0][:2]):
                best = partition
        return best

    def _blocked_until(self, head: _Partition[Item], now_s: float) -> float:
        """Until when (wall) a dry partition more than the slack behind the head may deliver:
        ``stall_s`` from the first look if it is known to, ``idle_s`` from running dry if not."""
        behind_us = head.queue[0][0] - int(self.slack_s * 1_000_000)
        until = float("-inf")
        frontiers: dict[str, int] = {}  # per topic, its writers' frontier here: once per look
        for where, partition in self._partitions.items():
            if partition.queue or partition.reached_us >= behind_us:
                continue
            if (self._known_to_deliver(where, partition, now_s)
                    or self._writers_frontier_us(partition.topic, now_s, frontiers) < behind_us):
                if partition.awaited_since_s is None:
                    partition.awaited_since_s = now_s
                waited = partition.awaited_since_s + self.stall_s
            else:
                partition.awaited_since_s = None
                waited = partition.dry_since_s + self.idle_s
            until = max(until, waited)
        return until

    def _writers_frontier_us(self, topic: str, now_s: float, memo: dict[str, int]) -> int:
        """The earliest event time a stage of this process that writes ``topic`` may still
        write (``ALWAYS`` if none of its stages is behind, or none writes it)."""
        if topic not in memo:
            memo[topic] = min((writer.frontier_us(now_s) for writer in self.upstream.get(topic, ())), default=ALWAYS)
        return memo[topic]

    def _first_wait(self, topic: str, now_s: float) -> float:
        """``dry_since_s`` of a partition that delivered nothing yet, as of the agent's first read."""
        if not self._started:
            return NOT_STARTED
        return now_s + self.first_read_s - self.idle_s


@dataclass
class FetchGate:
    """Which input partitions the worker stops fetching for a while: per-partition flow control.

    Draining a backlog, most partitions are read far ahead of a dry one the head waits for (a
    re-keyed topic this worker writes, read a fetch round after it is written). Their records
    pile up in the aligner; once it is full the reading loop stops, the agent's Faust buffer
    fills, and Faust's fetch loop, shared by every agent, blocks on it: the dry partition is
    starved, and the aligner releases records whatever may be missing (order lost). So a
    partition ``crowded`` in every aligner that reads it is paused (its records stay on the
    broker) and resumed once ``thinned`` in one of them, well before it runs dry; what is
    read next is then the starved input. Only fetching changes, never the order the aligners
    release records in. A partition that another agent reads and processes promptly is never
    paused (that agent would be starved instead)."""

    readers: dict[str, list[InputAligner[Any]]] = field(default_factory=dict)
    """Per physical input topic, the aligners of the agents that read it."""
    paused: set[TopicPartition] = field(default_factory=set)

    def read(self, where: TopicPartition) -> bool:
        """A record of ``where`` was just added to its aligners: whether to pause the partition now."""
        readers = self.readers.get(where[0])
        if not readers or where in self.paused or not all(reader.crowded(where) for reader in readers):
            return False
        self.paused.add(where)
        return True

    def released(self, where: TopicPartition, aligner: InputAligner[Any]) -> bool:
        """``aligner`` released a record of ``where``: whether to resume the partition now."""
        if where not in self.paused or not aligner.thinned(where):
            return False
        self.paused.discard(where)
        return True

    def clear(self) -> set[TopicPartition]:
        """Forget every pause (a rebalance): returns the partitions to resume."""
        paused, self.paused = self.paused, set()
        return paused
