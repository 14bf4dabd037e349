"""HMAC-SHA256 signing of webhook bodies and the signed request."""

from __future__ import annotations

import hashlib
import hmac

from actuator_decisions import decision
from pydantic import SecretStr

from schemas import decode, encode
from sinks.actuators.webhook import WebhookActuator, WebhookSettings, sign, verify


def test_signature_is_hex_hmac_sha256_of_the_body() -> None:
    body, key = b'{"a":1}', b"s3cret"
    assert sign(body, key) == "sha256=" + hmac.new(key, body, hashlib.sha256).hexdigest()
    assert verify(body, key, sign(body, key))
    assert not verify(body + b" ", key, sign(body, key))
    assert not verify(body, b"other", sign(body, key))
    assert not verify(body, key, None)


def test_request_carries_the_decision_json_and_its_signature() -> None:
    d = decision()
    act = WebhookActuator(WebhookSettings(url="http://127.0.0.1:1/hook", secret=SecretStr("k")), clock=lambda: 1700.5)
    req = act.request(d)
    body = req.data
    assert isinstance(body, bytes) and body == encode(d)
    assert decode(body) == d
    assert req.get_method() == "POST"
    assert req.get_header("X-faultline-timestamp") == "1700"
    assert req.get_header("X-faultline-signature") == sign(body, b"k", 1700)
    assert req.get_header("X-faultline-decision-id") == d.decision_id
    assert req.get_header("Content-type") == "application/json"
