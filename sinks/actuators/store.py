"""The applied set: which decision ids an actuator has applied, surviving crashes (SQLite).

Exactly-once argument. For each decision the runner

1. ``begin(id)``: inserts the row in state ``applying`` and commits (``synchronous=FULL``,
   so the row is on disk) *before* touching the target;
2. calls the actuator; every effect carries the decision's tag (``base.tag``);
3. ``finish(id, actuation)``: stores the outcome in state ``done`` and commits;
4. publishes the actuation event, flushes the producer, then ``mark_published(id)``;
5. commits the Kafka offset.

A crash before 1 leaves no row: the decision is redelivered (offset not committed) and
applied normally. A crash between 1 and 3 leaves ``applying``: on redelivery the runner asks
``actuator.recover(decision)`` whether the tagged effect is on the target and applies only if
it is not, so the effect lands once. A crash between 3 and 4 leaves ``done`` unpublished: the
stored actuation is published again, identical (same deterministic event id). After 4 every
redelivery is reported as ``duplicate`` and never re-applied. The store is local to one
actuator instance: run one runner per store file (the consumer group spreads partitions;
give each member its own file only if partitions never move, else share the file on one host).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from schemas import Actuation
from sinks.actuators.errors import PermanentActuatorError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS applied (
    actuator    TEXT NOT NULL,
    decision_id TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('applying', 'done')),
    actuation   TEXT,
    published   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (actuator, decision_id)
)
"""


@dataclass(frozen=True)
class Entry:
    """One row of the applied set."""

    state: str
    actuation: Actuation | None
    published: bool


class AppliedStore:
    """A crash-safe set of applied decision ids for one actuator, in a SQLite file."""

    def __init__(self, path: str | Path, actuator: str) -> None:
        self.actuator = actuator
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as exc:
            raise PermanentActuatorError(f"cannot open applied-set store {path}: {exc}") from exc

    def get(self, decision_id: str) -> Entry | None:
        """The row of ``decision_id``, or None if it was never begun."""
        row = self._db.execute(
            "SELECT state, actuation, published FROM applied WHERE actuator=? AND decision_id=?",
            (self.actuator, decision_id)).fetchone()
        if row is None:
            return None
        act = Actuation.model_validate_json(row[1]) if row[1] else None
        return Entry(state=row[0], actuation=act, published=bool(row[2]))

    def begin(self, decision_id: str) -> None:
        """Durably record that applying ``decision_id`` starts now (idempotent)."""
        self._db.execute(
            "INSERT OR IGNORE INTO applied (actuator, decision_id, state) VALUES (?, ?, 'applying')",
            (self.actuator, decision_id))

    def finish(self, decision_id: str, result: Actuation) -> None:
        """Durably record the outcome of ``decision_id`` (begun or not: refusals skip ``begin``)."""
        self._db.execute(
            "INSERT INTO applied (actuator, decision_id, state, actuation) VALUES (?, ?, 'done', ?) "
            "ON CONFLICT (actuator, decision_id) DO UPDATE SET state='done', actuation=excluded.actuation",
            (self.actuator, decision_id, result.model_dump_json(by_alias=True)))

    def mark_published(self, decision_id: str) -> None:
        """Record that the actuation event of ``decision_id`` reached the broker."""
        self._db.execute("UPDATE applied SET published=1 WHERE actuator=? AND decision_id=?",
                         (self.actuator, decision_id))

    def count(self, state: str = "done") -> int:
        """How many decisions are in ``state``."""
        row = self._db.execute("SELECT count(*) FROM applied WHERE actuator=? AND state=?",
                               (self.actuator, state)).fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the file; the store must not be used afterwards."""
        self._db.close()
