"""Connection settings shared by every process: how to reach Kafka, and under which namespace.

Built once at the entry point (the ``faultline`` CLI reads flags and ``FAULTLINE_*``
environment variables there) and passed down; library code never reads the environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

from schemas.registry import DEFAULT_NAMESPACE, physical


class KafkaSettings(BaseModel):
    """Where the broker is and how to authenticate; ``namespace`` prefixes every topic name."""

    # hide_input_in_errors: a validation error must never echo a password given as plain str.
    model_config = ConfigDict(frozen=True, hide_input_in_errors=True)

    bootstrap_servers: str = "127.0.0.1:9092"
    namespace: str = DEFAULT_NAMESPACE
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] | None = None
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    ssl_ca_location: str | None = None
    ssl_certificate_location: str | None = Field(
        default=None, description="PEM client certificate for mutual TLS (with ssl_key_location).")
    ssl_key_location: str | None = Field(default=None, description="PEM private key of the client certificate.")
    ssl_key_password: SecretStr | None = None
    ssl_check_hostname: bool = Field(
        default=True, description="Verify that the broker certificate names the host dialled; turn off only "
        "for brokers reached by an address their certificate does not list.")
    client_id: str = Field(default="faultline", min_length=1)
    partitions: int = Field(
        default=6, ge=1,
        description="Partitions of every topic the pipeline creates (registry and changelog topics): "
        "the most workers that can share the work. Co-partitioned topics need the same count, so "
        "it is one value. Production: at least the number of workers you plan to run.",
    )
    replication_factor: int = Field(
        default=1, ge=1,
        description="Replication factor of every topic the pipeline creates. 1 suits the embedded "
        "single-node broker; production clusters want 3 (with min.insync.replicas=2).",
    )

    @model_validator(mode="after")
    def _consistent(self) -> KafkaSettings:
        if self.security_protocol.startswith("SASL_") and not (self.sasl_mechanism and self.sasl_username):
            raise ValueError(f"security_protocol {self.security_protocol} needs sasl_mechanism and sasl_username")
        if (self.ssl_certificate_location is None) != (self.ssl_key_location is None):
            raise ValueError("mutual TLS needs both ssl_certificate_location and ssl_key_location")
        return self

    def topic(self, name: str) -> str:
        """The physical name of registry topic ``name`` under this namespace."""
        return physical(name, self.namespace)

    def confluent(self, **extra: Any) -> dict[str, Any]:
        """A confluent-kafka (librdkafka) configuration dict, merged with ``extra``."""
        conf: dict[str, Any] = {
            "bootstrap.servers": self.bootstrap_servers,
            "security.protocol": self.security_protocol,
            "client.id": self.client_id,
        }
        if self.sasl_mechanism:
            conf["sasl.mechanism"] = self.sasl_mechanism
            conf["sasl.username"] = self.sasl_username or ""
            conf["sasl.password"] = self.sasl_password.get_secret_value() if self.sasl_password else ""
        if self.ssl_ca_location:
            conf["ssl.ca.location"] = self.ssl_ca_location
        if self.ssl_certificate_location and self.ssl_key_location:
            conf["ssl.certificate.location"] = self.ssl_certificate_location
            conf["ssl.key.location"] = self.ssl_key_location
        if self.ssl_key_password:
            conf["ssl.key.password"] = self.ssl_key_password.get_secret_value()
        if not self.ssl_check_hostname:
            conf["ssl.endpoint.identification.algorithm"] = "none"
        return {**conf, **extra}


def kafka_from(env: Mapping[str, str], *, bootstrap: str | None = None,
               namespace: str | None = None) -> KafkaSettings:
    """Kafka settings from explicit values, then ``FAULTLINE_*`` variables of ``env``, then defaults.

    Only entry points call this, with ``os.environ``; library code receives the result.
    A secret comes from ``FAULTLINE_<NAME>`` or from the file named by ``FAULTLINE_<NAME>_FILE``
    (a mounted Kubernetes/Docker secret), never both. Raises ValueError on an unreadable file or
    inconsistent settings; no message ever contains a secret's value.
    """
    values: dict[str, Any] = {
        "bootstrap_servers": bootstrap or env.get("FAULTLINE_KAFKA_BOOTSTRAP"),
        "namespace": namespace or env.get("FAULTLINE_NAMESPACE"),
        "security_protocol": env.get("FAULTLINE_KAFKA_SECURITY_PROTOCOL"),
        "sasl_mechanism": env.get("FAULTLINE_KAFKA_SASL_MECHANISM"),
        "sasl_username": env.get("FAULTLINE_KAFKA_SASL_USERNAME"),
        "sasl_password": secret_from(env, "FAULTLINE_KAFKA_SASL_PASSWORD"),
        "ssl_ca_location": env.get("FAULTLINE_KAFKA_SSL_CA"),
        "ssl_certificate_location": env.get("FAULTLINE_KAFKA_SSL_CERT"),
        "ssl_key_location": env.get("FAULTLINE_KAFKA_SSL_KEY"),
        "ssl_key_password": secret_from(env, "FAULTLINE_KAFKA_SSL_KEY_PASSWORD"),
        "ssl_check_hostname": env.get("FAULTLINE_KAFKA_SSL_CHECK_HOSTNAME"),
        "partitions": env.get("FAULTLINE_KAFKA_PARTITIONS"),
        "replication_factor": env.get("FAULTLINE_KAFKA_REPLICATION_FACTOR"),
    }
    return KafkaSettings(**{k: v for k, v in values.items() if v is not None})


def secret_from(env: Mapping[str, str], name: str) -> SecretStr | None:
    """The secret in ``env[name]``, else the content of the file ``env[name + "_FILE"]``, else None.

    One trailing newline of the file is dropped (``echo pw > file``). Raises ValueError when
    both are set or the file cannot be read; the message names the variable and path only.
    """
    value, path = env.get(name), env.get(f"{name}_FILE")
    if value is not None and path is not None:
        raise ValueError(f"set {name} or {name}_FILE, not both")
    if path is None:
        return None if value is None else SecretStr(value)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name}_FILE={path}: cannot read the secret file ({type(exc).__name__})") from None
    return SecretStr(text.removesuffix("\n").removesuffix("\r"))
