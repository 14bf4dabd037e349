"""Fixtures for the ClickHouse sink's unit tests."""

from __future__ import annotations

from typing import Any

import pytest
from ch_factories import decision, fault, verdict


@pytest.fixture
def make() -> Any:
    """The factories, for tests that prefer a fixture over importing the conftest."""

    class Factories:
        fault = staticmethod(fault)
        decision = staticmethod(decision)
        verdict = staticmethod(verdict)

    return Factories
