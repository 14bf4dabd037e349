"""Kafka security settings: secrets from the environment or files, masked everywhere, mapped to clients."""

from __future__ import annotations

import ssl
from pathlib import Path

import faust
import pytest
from pydantic import SecretStr, ValidationError

from schemas.settings import KafkaSettings, kafka_from, secret_from
from streams.app import _credentials, ssl_context

SECRET = "pw-3f9c1e7a-recognisable"
BASE = {"FAULTLINE_KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "FAULTLINE_KAFKA_SASL_MECHANISM": "SCRAM-SHA-512",
        "FAULTLINE_KAFKA_SASL_USERNAME": "svc"}


def test_password_from_a_file_drops_one_trailing_newline(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text(SECRET + "\n", encoding="utf-8")
    kafka = kafka_from({**BASE, "FAULTLINE_KAFKA_SASL_PASSWORD_FILE": str(tmp_path / "pw")})
    assert kafka.sasl_password == SecretStr(SECRET)
    assert kafka.confluent()["sasl.password"] == SECRET


def test_password_from_the_environment_and_both_sources_refused(tmp_path: Path) -> None:
    assert kafka_from({**BASE, "FAULTLINE_KAFKA_SASL_PASSWORD": SECRET}).sasl_password == SecretStr(SECRET)
    (tmp_path / "pw").write_text("other", encoding="utf-8")
    with pytest.raises(ValueError, match="not both") as err:
        kafka_from({**BASE, "FAULTLINE_KAFKA_SASL_PASSWORD": SECRET, "FAULTLINE_KAFKA_SASL_PASSWORD_FILE": str(tmp_path / "pw")})
    assert SECRET not in str(err.value)


def test_unreadable_secret_file_names_the_path_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="FAULTLINE_X_FILE=.*missing.*cannot read"):
        secret_from({"FAULTLINE_X_FILE": str(tmp_path / "missing")}, "FAULTLINE_X")
    assert secret_from({}, "FAULTLINE_X") is None


def test_secrets_never_appear_in_repr_str_dump_or_validation_errors() -> None:
    kafka = kafka_from({**BASE, "FAULTLINE_KAFKA_SASL_PASSWORD": SECRET, "FAULTLINE_KAFKA_SSL_KEY_PASSWORD": SECRET,
                        "FAULTLINE_KAFKA_SSL_CERT": "/c.pem", "FAULTLINE_KAFKA_SSL_KEY": "/k.pem"})
    for text in (repr(kafka), str(kafka), kafka.model_dump_json(), repr(_credentials(kafka.model_copy(
            update={"security_protocol": "SASL_PLAINTEXT"})))):
        assert SECRET not in text
    with pytest.raises(ValidationError) as err:  # plain str given, invalid combination: input must stay hidden
        KafkaSettings(security_protocol="SASL_SSL", sasl_password=SECRET)  # type: ignore[arg-type]  # coerced by pydantic
    assert "needs sasl_mechanism" in str(err.value) and SECRET not in str(err.value)


def test_inconsistent_settings_are_refused() -> None:
    with pytest.raises(ValidationError, match="needs sasl_mechanism"):
        kafka_from({"FAULTLINE_KAFKA_SECURITY_PROTOCOL": "SASL_SSL"})
    with pytest.raises(ValidationError, match="both ssl_certificate_location and ssl_key_location"):
        kafka_from({"FAULTLINE_KAFKA_SSL_CERT": "/c.pem"})


def test_confluent_config_for_mutual_tls_and_hostname_checking() -> None:
    kafka = kafka_from({"FAULTLINE_KAFKA_SECURITY_PROTOCOL": "SSL", "FAULTLINE_KAFKA_SSL_CA": "/ca.pem",
                        "FAULTLINE_KAFKA_SSL_CERT": "/c.pem", "FAULTLINE_KAFKA_SSL_KEY": "/k.pem",
                        "FAULTLINE_KAFKA_SSL_KEY_PASSWORD": SECRET, "FAULTLINE_KAFKA_SSL_CHECK_HOSTNAME": "false"})
    conf = kafka.confluent()
    assert conf["security.protocol"] == "SSL" and conf["ssl.ca.location"] == "/ca.pem"
    assert (conf["ssl.certificate.location"], conf["ssl.key.location"], conf["ssl.key.password"]) == (
        "/c.pem", "/k.pem", SECRET)
    assert conf["ssl.endpoint.identification.algorithm"] == "none"
    assert "sasl.mechanism" not in conf
    assert "ssl.endpoint.identification.algorithm" not in KafkaSettings().confluent()


def test_faust_credentials_follow_the_security_protocol() -> None:
    assert _credentials(KafkaSettings()) is None
    sasl = _credentials(kafka_from({**BASE, "FAULTLINE_KAFKA_SASL_PASSWORD": SECRET}))
    assert isinstance(sasl, faust.SASLCredentials)
    assert sasl.protocol.value == "SASL_SSL" and sasl.mechanism.value == "SCRAM-SHA-512"
    assert sasl.password == SECRET and isinstance(sasl.ssl_context, ssl.SSLContext)
    plain = _credentials(kafka_from({**BASE, "FAULTLINE_KAFKA_SECURITY_PROTOCOL": "SASL_PLAINTEXT"}))
    assert plain.protocol.value == "SASL_PLAINTEXT" and plain.ssl_context is None
    tls = _credentials(KafkaSettings(security_protocol="SSL"))
    assert isinstance(tls, faust.SSLCredentials) and tls.protocol.value == "SSL"


def test_ssl_context_verifies_the_broker_unless_told_not_to_check_the_name() -> None:
    checked = ssl_context(KafkaSettings(security_protocol="SSL"))
    assert checked.verify_mode == ssl.CERT_REQUIRED and checked.check_hostname
    unchecked = ssl_context(KafkaSettings(security_protocol="SSL", ssl_check_hostname=False))
    assert unchecked.verify_mode == ssl.CERT_REQUIRED and not unchecked.check_hostname
