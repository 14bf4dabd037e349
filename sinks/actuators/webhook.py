"""The webhook actuator: POST each decision as JSON, signed with HMAC-SHA256.

Request: ``POST <url>`` with the decision's wire JSON (``schemas.codec.encode``) as the body
and headers ``Content-Type: application/json``, ``X-Faultline-Decision-Id: <decision_id>``
and ``X-Faultline-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes with the shared
secret>``. Receivers verify the signature with :func:`verify` (constant-time) and deduplicate
on the decision id: a decision interrupted by a crash mid-POST is sent again.

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
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from schemas import Actuation, Decision, encode
from sinks.actuators.base import actuation
from sinks.actuators.errors import PermanentActuatorError, RetryableActuatorError

SIGNATURE_HEADER = "X-Faultline-Signature"
DECISION_HEADER = "X-Faultline-Decision-Id"


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


def sign(body: bytes, secret: bytes) -> str:
    """The ``X-Faultline-Signature`` value of ``body``: ``sha256=<hex digest>``."""
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify(body: bytes, secret: bytes, header: str | None) -> bool:
    """True when ``header`` is the signature of ``body`` under ``secret`` (constant time)."""
    return header is not None and hmac.compare_digest(sign(body, secret), header)


def _retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


class WebhookActuator:
    """POSTs decisions to a URL (see the module docstring)."""

    name = "webhook"

    def __init__(self, settings: WebhookSettings) -> None:
        self.settings = settings

    def request(self, decision: Decision) -> urllib.request.Request:
        """The signed request for ``decision`` (pure: builds, does not send)."""
        body = encode(decision)
        secret = self.settings.secret.get_secret_value().encode("utf-8")
        headers = {"Content-Type": "application/json", DECISION_HEADER: decision.decision_id,
                   SIGNATURE_HEADER: sign(body, secret)}
        return urllib.request.Request(self.settings.url, data=body, headers=headers, method="POST")

    def apply(self, decision: Decision, now: datetime) -> Actuation:
        """POST ``decision`` with retries; ``applied`` with the HTTP status on a 2xx."""
        req = self.request(decision)
        cfg = self.settings
        for attempt in range(1, cfg.max_attempts + 1):
            try:
                status = self._send(req)
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
