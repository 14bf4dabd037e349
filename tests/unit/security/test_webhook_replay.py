"""Webhook signatures over timestamp and body: tolerance window, replay cache, legacy form."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta

from pydantic import SecretStr

from schemas import Decision, Reason, derived_id
from sinks.actuators.webhook import ReplayCache, WebhookActuator, WebhookSettings, sign, verify

KEY, BODY, TS = b"k3y", b'{"decision_id":"d1"}', 1_800_000_000
T0 = datetime(2026, 11, 22, 8, tzinfo=UTC)


def decision() -> Decision:
    did = derived_id("decision", "job-1", "checkpoint_now", T0)
    return Decision(event_id=did, event_time=T0, cluster="c1", decision_id=did, job_id="job-1", attempt=0,
                    issued_at=T0, action="checkpoint_now", nodes=(), block_scope="none",
                    reason=Reason(kind="explicit_fault", cause_ids=("f1",)), policy_rule="r",
                    expires_at=T0 + timedelta(minutes=15))


def test_signature_covers_timestamp_dot_body() -> None:
    expected = hmac.new(KEY, f"{TS}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert sign(BODY, KEY, TS) == "sha256=" + expected
    assert sign(BODY, KEY, TS) != sign(BODY, KEY, TS + 1) != sign(BODY, KEY)


def test_verify_accepts_within_tolerance_and_rejects_outside() -> None:
    header = sign(BODY, KEY, TS)
    assert verify(BODY, KEY, header, timestamp=str(TS), now_s=TS + 299.0)
    assert verify(BODY, KEY, header, timestamp=str(TS), now_s=TS - 299.0)
    assert not verify(BODY, KEY, header, timestamp=str(TS), now_s=TS + 301.0)
    assert not verify(BODY, KEY, header, timestamp=str(TS), now_s=TS + 31.0, tolerance_s=30)


def test_verify_rejects_a_moved_timestamp_a_changed_body_and_garbage() -> None:
    header = sign(BODY, KEY, TS)
    assert not verify(BODY, KEY, header, timestamp=str(TS + 1), now_s=TS)
    assert not verify(BODY + b" ", KEY, header, timestamp=str(TS), now_s=TS)
    assert not verify(BODY, b"other", header, timestamp=str(TS), now_s=TS)
    for bad in ("", "-5", "1.5", "abc", "١٢٣"):
        assert not verify(BODY, KEY, header, timestamp=bad, now_s=TS)
    assert not verify(BODY, KEY, None, timestamp=str(TS), now_s=TS)
    assert not verify(BODY, KEY, "sha256=é", timestamp=str(TS), now_s=TS)
    assert not verify(BODY, KEY, "sha256=é")
    assert not verify(BODY, KEY, header, timestamp="9" * 5000, now_s=TS)


def test_replay_cache_rejects_the_same_pair_twice_but_not_a_fresh_signature() -> None:
    seen = ReplayCache()
    header = sign(BODY, KEY, TS)
    assert verify(BODY, KEY, header, timestamp=str(TS), now_s=TS, seen=seen)
    assert not verify(BODY, KEY, header, timestamp=str(TS), now_s=TS + 1, seen=seen)
    assert verify(BODY, KEY, sign(BODY, KEY, TS + 2), timestamp=str(TS + 2), now_s=TS + 2, seen=seen)


def test_replay_cache_stays_bounded() -> None:
    seen = ReplayCache(tolerance_s=10, max_entries=3)
    for i in range(5):
        assert seen.first_time(TS + i, f"s{i}", TS + i)
    assert len(seen._seen) <= 3
    assert seen.first_time(TS + 100, "late", TS + 100) and len(seen._seen) == 1  # all older than 2 windows


def test_legacy_body_only_form_still_verifies() -> None:
    assert verify(BODY, KEY, sign(BODY, KEY))
    assert not verify(BODY, KEY, sign(BODY, KEY, TS))


def test_each_request_is_signed_with_the_clock_at_that_moment() -> None:
    now = [float(TS)]
    act = WebhookActuator(WebhookSettings(url="http://127.0.0.1:1/", secret=SecretStr("k3y")), clock=lambda: now[0])
    d = decision()
    first = act.request(d)
    now[0] += 7.9
    second = act.request(d)
    assert first.data == second.data
    assert (first.get_header("X-faultline-timestamp"), second.get_header("X-faultline-timestamp")) == (
        str(TS), str(TS + 7))
    for req in (first, second):
        ts = req.get_header("X-faultline-timestamp")
        assert isinstance(req.data, bytes)
        assert verify(req.data, KEY, req.get_header("X-faultline-signature"), timestamp=ts, now_s=TS + 8)
