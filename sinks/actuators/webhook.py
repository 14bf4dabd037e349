"""The webhook actuator: POST each decision as JSON, signed with HMAC-SHA256 over a timestamp and the body.

Request: ``POST <url>`` with the decision's wire JSON (``schemas.codec.encode``) as the body
and headers ``Content-Type: application/json``, ``X-Faultline-Decision-Id: <decision_id>``,
``X-Faultline-Timestamp: <unix seconds when sent>`` and ``X-Faultline-Signature:
sha256=<hex HMAC-SHA256 with the shared secret of "<timestamp>." followed by the exact body
bytes>``. Receivers call :func:`verify` with the timestamp header: it checks the signature in
constant time, rejects a timestamp outside ``tolerance_s`` of their clock (a captured request
cannot be replayed later) and, given a :class:`ReplayCache`, the same (timestamp, signature)
seen twice (nor replayed within the window). They still deduplicate on the decision id: a
decision interrupted by a crash mid-POST is sent again, with a fresh timestamp and signature.

Compatibility: ``sign(body, secret)`` and ``verify(body, secret, header)`` without a timestamp
keep the original body-only scheme (no replay protection) for receivers not yet migrated;
what this actuator sends always includes the timestamp.

Any 2xx is success. Connection errors, timeouts, 429 and 5xx are retried with exponential
backoff (``backoff_s * 2**n`` capped at ``backoff_max_s``) up to ``max_attempts``; then the
error is retryable for the runner. Other 4xx are permanent.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from schemas import Actuation, Decision, encode
from sinks.actuators.base import actuation
from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError

SIGNATURE_HEADER = "X-Faultline-Signature"
DECISION_HEADER = "X-Faultline-Decision-Id"
TIMESTAMP_HEADER = "X-Faultline-Timestamp"
DEFAULT_TOLERANCE_S = 300
WallClock = Callable[[], float]


class WebhookSettings(BaseModel):
    """Where to POST, the shared secret and the retry policy."""

    model_config = ConfigDict(frozen=True)

    url: str = Field(min_length=1)
    """The receiver's URL (http or https)."""
    secret: SecretStr
    """Shared HMAC key; read from a file or the environment at the entry point only."""
    timeout_s: float = Field(default=5.0, gt=0)
    """Per-request timeout."""
    max_attempts: int = Field(default=5, ge=1)
    """Attempts per decision before giving up (retryable): 5 spans ~7.5 s with the defaults."""
    backoff_s: float = Field(default=0.5, ge=0)
    """First retry delay; doubles each retry."""
    backoff_max_s: float = Field(default=10.0, ge=0)
    """Upper bound of one retry delay."""


def sign(body: bytes, secret: bytes, timestamp_s: int | None = None) -> str:
    """The ``X-Faultline-Signature`` value: ``sha256=<hex HMAC>`` of ``"<timestamp_s>." + body``.

    Without ``timestamp_s``: the legacy body-only signature (kept for old receivers)."""
    message = body if timestamp_s is None else f"{timestamp_s}.".encode("ascii") + body
    return "sha256=" + hmac.new(secret, message, hashlib.sha256).hexdigest()


class ReplayCache:
    """The (timestamp, signature) pairs a receiver accepted within the tolerance window.

    Bounded: older entries (and, past ``max_entries``, the oldest) are forgotten; the timestamp
    check already rejects anything older than the window, so forgetting is safe."""

    def __init__(self, tolerance_s: int = DEFAULT_TOLERANCE_S, max_entries: int = 100_000) -> None:
        self.tolerance_s, self.max_entries = tolerance_s, max_entries
        self._seen: OrderedDict[tuple[int, str], None] = OrderedDict()

    def first_time(self, timestamp_s: int, signature: str, now_s: float) -> bool:
        """True (and remembered) the first time the pair is offered; False for a replay."""
        while self._seen and (next(iter(self._seen))[0] < now_s - 2 * self.tolerance_s
                              or len(self._seen) >= self.max_entries):
            self._seen.popitem(last=False)
        key = (timestamp_s, signature)
        if key in self._seen:
            return False
        self._seen[key] = None
        return True


def verify(body: bytes, secret: bytes, header: str | None, *, timestamp: str | None = None,
           now_s: float | None = None, tolerance_s: int = DEFAULT_TOLERANCE_S,
           seen: ReplayCache | None = None) -> bool:
    """True when ``header`` signs ``body`` under ``secret`` (constant-time comparison).

    With ``timestamp`` (the ``X-Faultline-Timestamp`` header) the signature must cover
    ``"<timestamp>." + body``, the timestamp must be within ``tolerance_s`` of ``now_s``
    (default: this machine's clock) and, with ``seen``, the pair must not have been accepted
    before. Without it: the legacy body-only check, which gives no replay protection.
    False, never an exception, for any malformed input."""
    if header is None:
        return False
    if timestamp is None:
        return _same(sign(body, secret), header)
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12):
        return False
    ts = int(timestamp)
    now = time.time() if now_s is None else now_s
    if abs(now - ts) > tolerance_s or not _same(sign(body, secret, ts), header):
        return False
    return seen is None or seen.first_time(ts, header, now)


def _same(expected: str, given: str) -> bool:
    # As bytes: compare_digest raises on non-ASCII str, and a header is attacker-controlled.
    return hmac.compare_digest(expected.encode("ascii"), given.encode("utf-8", "surrogateescape"))


def _retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


class WebhookActuator:
    """POSTs decisions to a URL (see the module docstring)."""

    name = "webhook"

    def __init__(self, settings: WebhookSettings, clock: WallClock = time.time) -> None:
        """``clock``: unix seconds for the timestamp header (the wall clock: it is checked
        against the receiver's clock, not against event time)."""
        self.settings = settings
        self.clock = clock

    def request(self, decision: Decision, timestamp_s: int | None = None) -> urllib.request.Request:
        """The signed request for ``decision`` at ``timestamp_s`` (default: now); builds, does not send."""
        body = encode(decision)
        ts = int(self.clock()) if timestamp_s is None else timestamp_s
        secret = self.settings.secret.get_secret_value().encode("utf-8")
        headers = {"Content-Type": "application/json", DECISION_HEADER: decision.decision_id,
                   TIMESTAMP_HEADER: str(ts), SIGNATURE_HEADER: sign(body, secret, ts)}
        return urllib.request.Request(self.settings.url, data=body, headers=headers, method="POST")

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """POST ``decision`` with retries; ``applied`` with the HTTP status on a 2xx.

        Every attempt is signed afresh: a retry is a new request, not a replay of the last."""
        cfg = self.settings
        for attempt in range(1, cfg.max_attempts + 1):
            try:
                status = self._send(self.request(decision))
                return actuation(decision, self.name, "applied",
                                 f"POST {cfg.url}: HTTP {status} after {attempt} attempt(s)", now)
            except RetryableActuatorError:
                if attempt == cfg.max_attempts:
                    raise
                time.sleep(min(cfg.backoff_s * 2 ** (attempt - 1), cfg.backoff_max_s))
        raise AssertionError("unreachable: the loop returns or raises")

    def recover(self, decision: Decision) -> bool:
        """Always False: the receiver deduplicates on the decision id, so resending is safe."""
        return False

    def _send(self, req: urllib.request.Request) -> int:
        try:
            with urllib.request.urlopen(req, timeout=self.settings.timeout_s) as resp:
                return int(resp.status)
        except urllib.error.HTTPError as exc:
            message = f"POST {req.full_url}: HTTP {exc.code} {exc.reason}"
            if _retryable_status(exc.code):
                raise RetryableActuatorError(message) from exc
            raise PermanentActuatorError(message) from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise RetryableActuatorError(f"POST {req.full_url}: {exc}") from exc
