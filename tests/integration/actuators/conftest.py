"""A real Kafka broker, isolated per test by a random topic namespace."""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from schemas.settings import KafkaSettings


@pytest.fixture
def kafka(kafka_bootstrap: str) -> KafkaSettings:
    """Settings under a fresh namespace with ``decisions``, ``actuations`` and ``deadletter``
    on the session's real broker (tests/conftest.py)."""
    settings = KafkaSettings(namespace=f"t{uuid.uuid4().hex[:10]}.", bootstrap_servers=kafka_bootstrap)
    admin = AdminClient(settings.confluent())
    topics = [NewTopic(settings.topic("decisions"), 3, 1), NewTopic(settings.topic("actuations"), 1, 1),
              NewTopic(settings.topic("deadletter"), 1, 1)]
    for future in admin.create_topics(topics).values():
        future.result(30)
    return settings
