"""The short subset of the chaos suite (``make chaos`` runs it all): fuzzed input through the
worker, and kill -9 + restart of the ClickHouse sink checked against replay's ids in chDB."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from schemas.settings import KafkaSettings
from tests.chaos.__main__ import table
from tests.chaos.harness import stop_all
from tests.chaos.scenarios import Env, fuzz_run, sink_kill_direct

pytestmark = pytest.mark.integration


@pytest.fixture
def env(kafka: KafkaSettings, tmp_path: Path) -> Iterator[Env]:
    yield Env(kafka=kafka, workdir=tmp_path)
    stop_all()


def test_fuzzed_inputs_are_dead_lettered_and_the_worker_goes_on(env: Env) -> None:
    row = fuzz_run(env, count=500, decisions=False, name="fuzz-500")
    assert row.events_in == 500
    assert row.dead_letters >= int(row.notes[0].split()[0]) > 0, table([row])  # every rejected input, at least
    assert row.crashes == 0 and not row.failures, table([row])


def test_killed_sink_restarts_and_chdb_holds_each_replayed_id_once(env: Env) -> None:
    row = sink_kill_direct(env)
    assert row.replayed > 0 and row.streamed == row.replayed, table([row])
    assert row.crashes == 0 and not row.failures, table([row])
    assert row.recovery_s is not None, table([row])
