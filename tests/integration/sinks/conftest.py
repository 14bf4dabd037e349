"""Fixtures for the ClickHouse sink's integration tests: real chDB, real Kafka.

chDB hosts one engine path per process, so in-process tests share one session path and
isolate themselves with random database names; tests that need their own path (locking,
``faultline sql`` against a sink) run the engine in subprocesses. Kafka tests use a random
topic namespace and group; the broker is the session's (tests/conftest.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from ch_sink_helpers import FAST_RETRY, PARTITIONS, random_name
from confluent_kafka.admin import AdminClient, NewTopic

from schemas.registry import DERIVED_TOPICS
from schemas.settings import KafkaSettings
from sinks.clickhouse.settings import ClickHouseSettings


@pytest.fixture(scope="session")
def chdb_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one chDB path this test process may open."""
    return tmp_path_factory.mktemp("chdb") / "clickhouse"


@pytest.fixture
def ch(chdb_path: Path) -> ClickHouseSettings:
    return ClickHouseSettings(
        dsn=f"chdb://{chdb_path}", database=random_name("t_"), batch_size=50,
        flush_interval_s=0.3, retry=FAST_RETRY, query_server=False,
    )


@pytest.fixture(scope="session")
def broker(kafka_bootstrap: str) -> str:
    """The session's real broker (tests/conftest.py)."""
    return kafka_bootstrap


@pytest.fixture
def kafka(broker: str) -> Iterator[KafkaSettings]:
    """Settings with a random namespace whose derived topics exist (2 partitions each)."""
    settings = KafkaSettings(bootstrap_servers=broker, namespace=f"t{uuid.uuid4().hex[:10]}.")
    admin = AdminClient({"bootstrap.servers": broker})
    names = [settings.topic(t) for t in DERIVED_TOPICS]
    futures = admin.create_topics([NewTopic(n, num_partitions=PARTITIONS, replication_factor=1) for n in names])
    for future in futures.values():
        future.result(timeout=30)
    yield settings
    admin.delete_topics(names)


