"""Connection settings shared by every process: how to reach Kafka, and under which namespace.

Built once at the entry point (the ``faultline`` CLI reads flags and ``FAULTLINE_*``
environment variables there) and passed down; library code never reads the environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from schemas.registry import DEFAULT_NAMESPACE, physical


class KafkaSettings(BaseModel):
    """Where the broker is and how to authenticate; ``namespace`` prefixes every topic name."""

    model_config = ConfigDict(frozen=True)

    bootstrap_servers: str = "127.0.0.1:9092"
    namespace: str = DEFAULT_NAMESPACE
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] | None = None
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    ssl_ca_location: str | None = None
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
        return {**conf, **extra}


def kafka_from(env: Mapping[str, str], *, bootstrap: str | None = None,
               namespace: str | None = None) -> KafkaSettings:
    """Kafka settings from explicit values, then ``FAULTLINE_*`` variables of ``env``, then defaults.

    Only entry points call this, with ``os.environ``; library code receives the result.
    """
    values: dict[str, Any] = {
        "bootstrap_servers": bootstrap or env.get("FAULTLINE_KAFKA_BOOTSTRAP"),
        "namespace": namespace or env.get("FAULTLINE_NAMESPACE"),
        "security_protocol": env.get("FAULTLINE_KAFKA_SECURITY_PROTOCOL"),
        "sasl_mechanism": env.get("FAULTLINE_KAFKA_SASL_MECHANISM"),
        "sasl_username": env.get("FAULTLINE_KAFKA_SASL_USERNAME"),
        "sasl_password": env.get("FAULTLINE_KAFKA_SASL_PASSWORD"),
        "ssl_ca_location": env.get("FAULTLINE_KAFKA_SSL_CA"),
        "partitions": env.get("FAULTLINE_KAFKA_PARTITIONS"),
        "replication_factor": env.get("FAULTLINE_KAFKA_REPLICATION_FACTOR"),
    }
    return KafkaSettings(**{k: v for k, v in values.items() if v is not None})
