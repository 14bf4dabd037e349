"""Fixtures for the analytics integration tests: one real chDB path per test process.

chDB hosts one engine path per process at a time; every test here opens the store, does
its work and closes it, and isolates itself with a random database name.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def analytics_chdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The chDB path of this session's analytics tests."""
    return tmp_path_factory.mktemp("analytics") / "clickhouse"


@pytest.fixture
def dsn(analytics_chdb: Path) -> str:
    """A ``chdb:///`` DSN on the session path."""
    return f"chdb://{analytics_chdb}"


@pytest.fixture
def database() -> str:
    """A fresh database name, so tests sharing the path never see each other's rows."""
    return f"a_{uuid.uuid4().hex[:12]}"
