"""The runner's per-decision logic and the crash-safe applied set (SQLite, no Kafka)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from actuator_decisions import NOW, decision, later

from schemas import Actuation, Decision, Guard
from schemas.settings import KafkaSettings
from sinks.actuators.base import actuation
from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError
from sinks.actuators.runner import ActuatorRunner
from sinks.actuators.store import AppliedStore


class Recording:
    """A pure-logic actuator that records applies; ``landed`` answers ``recover``."""

    name = "recording"

    def __init__(self, failures: list[Exception] | None = None, landed: bool = False) -> None:
        self.applied: list[str] = []
        self.failures = failures or []
        self.landed = landed

    def apply(self, d: Decision, now: datetime) -> Actuation:
        if self.failures:
            raise self.failures.pop(0)
        self.applied.append(d.decision_id)
        return actuation(d, self.name, "applied", "ok", now)

    def recover(self, d: Decision) -> bool:
        return self.landed


def runner(tmp_path: Path, act: Recording, at: float = 10) -> ActuatorRunner:
    return ActuatorRunner(KafkaSettings(), act, "g", tmp_path / "applied.sqlite",
                          backoff_s=0.0, clock=lambda: later(at))


def test_applies_once_then_reports_duplicates(tmp_path: Path) -> None:
    act, d = Recording(), decision()
    r = runner(tmp_path, act)
    first, new = r.handle(d)
    assert first.status == "applied" and new
    r.store.mark_published(d.decision_id)
    dup, new2 = r.handle(d, salt="0:7")
    assert dup.status == "duplicate" and not new2 and act.applied == [d.decision_id]
    assert dup.event_id != first.event_id


def test_applied_set_survives_reopening_the_file(tmp_path: Path) -> None:
    act, d = Recording(), decision()
    r = runner(tmp_path, act)
    r.handle(d)
    r.store.mark_published(d.decision_id)
    r.close()
    again = runner(tmp_path, act)
    assert again.handle(d)[0].status == "duplicate" and act.applied == [d.decision_id]


def test_done_but_unpublished_actuation_is_republished_identically(tmp_path: Path) -> None:
    act, d = Recording(), decision()
    r = runner(tmp_path, act)
    first, _ = r.handle(d)
    replay, new = runner(tmp_path, act, at=99).handle(d)
    assert new and replay == first and act.applied == [d.decision_id]


def test_expired_and_guard_refused_decisions_are_never_applied(tmp_path: Path) -> None:
    act = Recording()
    r = runner(tmp_path, act, at=1000)
    expired, _ = r.handle(decision(ttl_s=900, cause="a"))
    assert expired.status == "refused" and expired.detail == "expired"
    refused, _ = r.handle(decision(guard=Guard(refused=True, rule="cluster_blast_radius"), cause="b"))
    assert refused.status == "refused" and "cluster_blast_radius" in refused.detail
    assert act.applied == []


def test_crash_mid_apply_recovers_without_reapplying_a_landed_effect(tmp_path: Path) -> None:
    d = decision()
    AppliedStore(tmp_path / "applied.sqlite", "recording").begin(d.decision_id)  # crashed here
    landed = Recording(landed=True)
    result, _ = runner(tmp_path, landed).handle(d)
    assert result.status == "applied" and "recovered" in result.detail and landed.applied == []


def test_crash_mid_apply_applies_when_the_effect_did_not_land(tmp_path: Path) -> None:
    d = decision()
    AppliedStore(tmp_path / "applied.sqlite", "recording").begin(d.decision_id)
    act = Recording(landed=False)
    assert runner(tmp_path, act).handle(d)[0].status == "applied" and act.applied == [d.decision_id]


def test_retryable_errors_are_retried_then_fail(tmp_path: Path) -> None:
    act = Recording(failures=[RetryableActuatorError("busy")])
    assert runner(tmp_path, act).handle(decision(cause="a"))[0].status == "applied"
    act = Recording(failures=[RetryableActuatorError("busy")] * 3)
    failed, _ = runner(tmp_path, act).handle(decision(cause="b"))
    assert failed.status == "failed" and "gave up after 3" in failed.detail


def test_permanent_error_fails_at_once(tmp_path: Path) -> None:
    act = Recording(failures=[PermanentActuatorError("no such node"), RetryableActuatorError("x")])
    failed, _ = runner(tmp_path, act).handle(decision())
    assert failed.status == "failed" and failed.detail == "no such node" and len(act.failures) == 1


def test_actuation_ids_are_deterministic(tmp_path: Path) -> None:
    d = decision()
    a = actuation(d, "x", "applied", "one", NOW)
    b = actuation(d, "x", "applied", "two", later(5))
    assert a.event_id == b.event_id and a.decision_id == d.decision_id
