"""``ActuatorRunner``: consume ``decisions``, apply each id at most once, publish ``actuations``.

Per message (confluent-kafka, manual commits, side effects before the offset):
decode -> :meth:`ActuatorRunner.handle` (store + actuator, see ``store.py`` for the
exactly-once argument) -> produce the Actuation keyed by ``decision_id`` -> flush the
producer -> mark published -> commit the offset synchronously. Undecodable messages go to
``deadletter`` and are committed. Wall-clock time is right here (and only here): an actuator
acts now, so ``expires_at`` is compared with the clock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, KafkaError, Message, Producer

from schemas import Actuation, DeadLetter, Decision, decode, encode
from schemas.codec import dead_letter
from schemas.settings import KafkaSettings
from sinks.actuators.base import Actuator, actuation, is_expired
from sinks.actuators.errors import ActuatorError, PermanentActuatorError, RetryableActuatorError
from sinks.actuators.store import AppliedStore

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class ActuatorRunner:
    """Runs one actuator against the ``decisions`` topic (see the module docstring)."""

    def __init__(self, kafka: KafkaSettings, actuator: Actuator, group_id: str,
                 store_path: str | Path, *, max_attempts: int = 3, backoff_s: float = 1.0,
                 poll_s: float = 0.5, session_timeout_ms: int = 10_000, clock: Clock = _utc_now) -> None:
        """``max_attempts``/``backoff_s``: retries of a retryable actuator error (exponential);
        ``session_timeout_ms``: how soon the group notices a crashed member and hands its
        partitions to another (10 s; the broker's minimum is usually 6 s)."""
        self.kafka, self.actuator, self.group_id = kafka, actuator, group_id
        self.store = AppliedStore(store_path, actuator.name)
        self.max_attempts, self.backoff_s, self.poll_s, self.clock = max_attempts, backoff_s, poll_s, clock
        self.session_timeout_ms = session_timeout_ms
        self._assigned_at: float | None = None

    # -- the per-decision logic (no Kafka) -----------------------------------------------

    def handle(self, decision: Decision, salt: str = "") -> tuple[Actuation, bool]:
        """Decide and perform what ``decision`` needs; returns (actuation, is_new_outcome).

        ``is_new_outcome`` is False for a ``duplicate`` report (nothing stored). Never applies
        an id twice, an expired decision or one a guard refused.
        """
        entry = self.store.get(decision.decision_id)
        if entry is not None and entry.state == "done" and entry.actuation is not None:
            if not entry.published:
                return entry.actuation, True
            dup = actuation(decision, self.actuator.name, "duplicate",
                            f"already {entry.actuation.status} at {entry.actuation.applied_at.isoformat()}",
                            self.clock(), salt=salt or "dup")
            return dup, False
        result = self._outcome(decision, interrupted=entry is not None)
        self.store.finish(decision.decision_id, result)
        return result, True

    def _outcome(self, decision: Decision, interrupted: bool) -> Actuation:
        name, now = self.actuator.name, self.clock()
        if interrupted and self._recovered(decision):
            return actuation(decision, name, "applied", "recovered after a crash: effect already on the target", now)
        if decision.guard is not None and decision.guard.refused:
            detail = f"refused by guard {decision.guard.rule}: {decision.guard.detail}"
            return actuation(decision, name, "refused", detail, now)
        if is_expired(decision, now):
            return actuation(decision, name, "refused", "expired", now)
        self.store.begin(decision.decision_id)
        return self._apply_with_retries(decision)

    def _recovered(self, decision: Decision) -> bool:
        try:
            return self.actuator.recover(decision)
        except ActuatorError as exc:
            log.warning("recover(%s) failed, applying again: %s", decision.decision_id, exc)
            return False

    def _apply_with_retries(self, decision: Decision) -> Actuation:
        for attempt in range(1, self.max_attempts + 1):
            try:
                return self.actuator.apply(decision, self.clock())
            except RetryableActuatorError as exc:
                if attempt == self.max_attempts:
                    return self._failed(decision, f"gave up after {attempt} attempts: {exc}")
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            except PermanentActuatorError as exc:
                return self._failed(decision, str(exc))
        raise AssertionError("unreachable: the loop returns")

    def _failed(self, decision: Decision, detail: str) -> Actuation:
        log.error("decision %s failed: %s", decision.decision_id, detail)
        return actuation(decision, self.actuator.name, "failed", detail, self.clock())

    # -- the Kafka loop ------------------------------------------------------------------

    def run(self, stop: threading.Event | None = None, idle_exit_s: float | None = None) -> int:
        """Consume until ``stop`` is set or, once partitions are assigned, no message came for
        ``idle_exit_s`` seconds.

        Returns the number of messages processed. Raises PermanentActuatorError on a fatal
        consumer error; offsets are committed only after the actuation is on the broker.
        """
        consumer = Consumer(self.kafka.confluent(**{
            "group.id": self.group_id, "enable.auto.commit": False,
            "enable.auto.offset.store": False, "auto.offset.reset": "earliest",
            "session.timeout.ms": self.session_timeout_ms}))
        producer = Producer(self.kafka.confluent(**{"enable.idempotence": True, "linger.ms": 5}))
        self._assigned_at = None
        consumer.subscribe([self.kafka.topic("decisions")], on_assign=self._on_assign)
        try:
            return self._loop(consumer, producer, stop, idle_exit_s)
        finally:
            consumer.close()
            producer.flush(10)

    def _loop(self, consumer: Consumer, producer: Producer, stop: threading.Event | None,
              idle_exit_s: float | None) -> int:
        processed, last = 0, 0.0
        while stop is None or not stop.is_set():
            msg = consumer.poll(self.poll_s)
            if msg is None:
                if self._idle(idle_exit_s, last):
                    break
                continue
            if msg.error():
                self._consumer_error(msg)
                continue
            self._process(msg, producer)
            consumer.commit(message=msg, asynchronous=False)
            processed, last = processed + 1, time.monotonic()
        return processed

    def _on_assign(self, _consumer: Consumer, _partitions: list[Any]) -> None:
        self._assigned_at = time.monotonic()

    def _idle(self, idle_exit_s: float | None, last_message: float) -> bool:
        if idle_exit_s is None or self._assigned_at is None:
            return False
        return time.monotonic() - max(last_message, self._assigned_at) > idle_exit_s

    def _consumer_error(self, msg: Message) -> None:
        err = msg.error()
        if err is None:
            return
        if err.code() == KafkaError._PARTITION_EOF or err.retriable():
            return
        if err.fatal():
            raise PermanentActuatorError(f"consumer error: {err}")
        log.warning("consumer error: %s", err)

    def _process(self, msg: Message, producer: Producer) -> None:
        raw = msg.value() or b""
        where: dict[str, Any] = {"source_topic": msg.topic() or "", "partition": msg.partition() or 0,
                                 "offset": msg.offset() or 0}
        event = decode(raw, **where)
        if isinstance(event, DeadLetter) or not isinstance(event, Decision):
            letter = event if isinstance(event, DeadLetter) else dead_letter(
                raw, stage="process", error=f"not a decision: {event.schema_}", **where)
            self._publish(producer, "deadletter", letter.source_topic, encode(letter))
            return
        result, new = self.handle(event, salt=f"{where['partition']}:{where['offset']}")
        log.info("decision %s %s: %s", event.decision_id, result.status, result.detail)
        self._publish(producer, "actuations", result.decision_id, encode(result))
        if new:
            self.store.mark_published(event.decision_id)

    def _publish(self, producer: Producer, topic: str, key: str, value: bytes) -> None:
        errors: list[str] = []

        def on_delivery(err: Any, _msg: Any) -> None:
            if err is not None:
                errors.append(str(err))

        producer.produce(self.kafka.topic(topic), key=key.encode("utf-8"), value=value, on_delivery=on_delivery)
        if producer.flush(30) != 0 or errors:
            raise RetryableActuatorError(f"could not publish to {topic}: {errors or 'flush timed out'}")

    def close(self) -> None:
        """Close the applied-set store."""
        self.store.close()
