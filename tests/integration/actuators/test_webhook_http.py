"""The webhook actuator against a real local HTTP server that verifies the HMAC signature."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pydantic import SecretStr

from schemas import Decision, Reason, decode, derived_id
from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError
from sinks.actuators.webhook import WebhookActuator, WebhookSettings, verify

SECRET = "hook-secret-for-tests"
pytestmark = pytest.mark.integration


class Receiver(ThreadingHTTPServer):
    """Records every request; answers from a script of status codes (then 200)."""

    def __init__(self, statuses: list[int]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.statuses = statuses
        self.received: list[tuple[bytes, str | None, bool]] = []


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802  # http.server's naming
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        signature = self.headers.get("X-Faultline-Signature")
        valid = verify(body, SECRET.encode(), signature, timestamp=self.headers.get("X-Faultline-Timestamp"))
        self.server.received.append((body, self.headers.get("X-Faultline-Decision-Id"), valid))
        status = self.server.statuses.pop(0) if self.server.statuses else 200
        self.send_response(status if valid else 401)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002  # quiet server
        return


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver([])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def actuator(server: Receiver, secret: str = SECRET, attempts: int = 4) -> WebhookActuator:
    host, port = server.server_address[:2]
    return WebhookActuator(WebhookSettings(url=f"http://{host!s}:{port}/decisions", secret=SecretStr(secret),
                                           max_attempts=attempts, backoff_s=0.05, timeout_s=2))


def decision() -> Decision:
    now = datetime.now(UTC)
    did = derived_id("decision", "job-1", "replace_nodes", "webhook-it", now)
    return Decision(event_id=did, event_time=now, cluster="c1", decision_id=did, job_id="job-1", attempt=0,
                    issued_at=now, action="replace_nodes", nodes=("node007",), block_scope="cluster",
                    reason=Reason(kind="explicit_fault", cause_ids=("f1",)), policy_rule="single_node_fault",
                    expires_at=now + timedelta(minutes=15))


def test_signed_post_verified_by_the_receiver(receiver: Receiver) -> None:
    d = decision()
    result = actuator(receiver).apply(d, datetime.now(UTC))
    assert result.status == "applied" and "HTTP 200 after 1 attempt" in result.detail
    [(body, decision_id, valid)] = receiver.received
    assert valid and decision_id == d.decision_id
    sent = decode(body)
    assert isinstance(sent, Decision) and sent.decision_id == d.decision_id and sent.nodes == ("node007",)


def test_retry_after_a_500_sends_the_same_signed_body(receiver: Receiver) -> None:
    receiver.statuses = [500, 503]
    result = actuator(receiver).apply(decision(), datetime.now(UTC))
    assert "after 3 attempt(s)" in result.detail
    assert len(receiver.received) == 3 and all(valid for _, _, valid in receiver.received)
    assert len({body for body, _, _ in receiver.received}) == 1


def test_wrong_secret_is_rejected_by_the_receiver_as_permanent(receiver: Receiver) -> None:
    with pytest.raises(PermanentActuatorError, match="HTTP 401"):
        actuator(receiver, secret="wrong").apply(decision(), datetime.now(UTC))
    assert [valid for _, _, valid in receiver.received] == [False]


def test_persistent_5xx_gives_up_as_retryable(receiver: Receiver) -> None:
    receiver.statuses = [502] * 10
    with pytest.raises(RetryableActuatorError, match="HTTP 502"):
        actuator(receiver, attempts=3).apply(decision(), datetime.now(UTC))
    assert len(receiver.received) == 3


def test_connection_refused_is_retryable() -> None:
    server = Receiver([])
    host, port = server.server_address[:2]
    server.server_close()
    act = WebhookActuator(WebhookSettings(url=f"http://{host!s}:{port}/", secret=SecretStr(SECRET),
                                          max_attempts=2, backoff_s=0.01))
    with pytest.raises(RetryableActuatorError):
        act.apply(decision(), datetime.now(UTC))
