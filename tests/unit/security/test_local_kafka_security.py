"""The local broker's optional SASL_SSL listener: properties and SCRAM users; PLAINTEXT unchanged by default."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from deploy.local_kafka import BrokerSecurity, LauncherError, LocalKafka, LocalKafkaSettings, _scram_args

PLAINTEXT_ONLY = [  # the listener lines of the default broker, as before the secure mode existed
    "listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{ctl}",
    "advertised.listeners=PLAINTEXT://127.0.0.1:{port}",
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
]


def _props(broker: LocalKafka) -> list[str]:
    return broker._properties().read_text(encoding="utf-8").splitlines()


def test_default_broker_has_only_the_plaintext_listener(tmp_path: Path) -> None:
    broker = LocalKafka(LocalKafkaSettings(port=19092, controller_port=19093, data_dir=tmp_path))
    lines = _props(broker)
    for line in PLAINTEXT_ONLY:
        assert line.format(port=19092, ctl=19093) in lines
    assert not any("sasl" in line.lower() or "ssl." in line for line in lines)
    assert broker.sasl_port is None and _scram_args(None) == []
    with pytest.raises(LauncherError, match="no SASL_SSL listener"):
        _ = broker.sasl_bootstrap


def test_secure_broker_adds_a_sasl_ssl_listener_with_scram_and_optional_mutual_tls(tmp_path: Path) -> None:
    security = BrokerSecurity(sasl_port=19094, keystore_location=tmp_path / "b.p12",
                              keystore_password=SecretStr("ks-pass"), truststore_location=tmp_path / "ca.pem",
                              scram_users={"svc": SecretStr("pw1")})
    broker = LocalKafka(LocalKafkaSettings(port=19092, controller_port=19093, data_dir=tmp_path, security=security))
    lines = _props(broker)
    assert broker.sasl_bootstrap == "127.0.0.1:19094"
    assert "listeners=PLAINTEXT://127.0.0.1:19092,SASL_SSL://127.0.0.1:19094,CONTROLLER://127.0.0.1:19093" in lines
    assert "advertised.listeners=PLAINTEXT://127.0.0.1:19092,SASL_SSL://127.0.0.1:19094" in lines
    assert "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL" in lines
    assert {"inter.broker.listener.name=PLAINTEXT", "sasl.enabled.mechanisms=SCRAM-SHA-512",
            f"listener.name.sasl_ssl.ssl.keystore.location={tmp_path / 'b.p12'}",
            "listener.name.sasl_ssl.ssl.client.auth=required"} <= set(lines)
    assert (tmp_path / "server.properties").stat().st_mode & 0o077 == 0
    assert _scram_args(security) == ["--add-scram", "SCRAM-SHA-512=[name=svc,password=pw1]"]


def test_scram_credentials_that_the_format_syntax_cannot_carry_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="must not contain") as err:
        BrokerSecurity(keystore_location=tmp_path, keystore_password=SecretStr("x"),
                       scram_users={"svc": SecretStr("a,b=c")})
    assert "a,b=c" not in str(err.value)
