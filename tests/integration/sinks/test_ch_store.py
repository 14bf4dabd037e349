"""Store against real chDB: migrations, idempotent inserts, error classes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from ch_sink_helpers import T0, every_kind

from schemas import Decision, Fault, Reason
from sinks.clickhouse.errors import PermanentError, RetryableError
from sinks.clickhouse.settings import ClickHouseSettings
from sinks.clickhouse.store import Store, busy_holder, connect


@pytest.fixture
def store(ch: ClickHouseSettings) -> Iterator[Store]:
    opened = connect(ch)
    opened.migrate()
    yield opened
    opened.command(f"DROP DATABASE IF EXISTS `{ch.database}`")
    opened.close()


def _fault(count: int, last_seen_s: int | None = None) -> Fault:
    last = T0 + timedelta(seconds=last_seen_s) if last_seen_s is not None else None
    return Fault(event_id="burst", event_time=T0, cluster="c1", fault_id="burst", node_id="n7",
                 category="nvlink", family="gpu", level="error", blame="node", rule_id="nvl",
                 evidence="NVLink error", first_seen=T0, count=count, last_seen=last)


def _count(store: Store, table: str, final: bool = True) -> int:
    _, rows = store.query(f"SELECT count() FROM `{store.database}`.`{table}`{' FINAL' if final else ''}")
    return int(rows[0][0])


def test_migrate_twice_is_a_noop(ch: ClickHouseSettings) -> None:
    store = connect(ch)
    try:
        from sinks.clickhouse.ddl import MIGRATIONS

        assert store.migrate() == len(MIGRATIONS)
        assert store.migrate() == 0
        assert store.applied_versions() == {m.version for m in MIGRATIONS}
        _, rows = store.query(f"SELECT name FROM system.tables WHERE database = '{ch.database}'")
        names = {r[0] for r in rows}
        assert {"faults", "decisions", "dead_letters", "schema_migrations", "node_faults"} <= names
        _, ledger = store.query(f"SELECT count() FROM `{ch.database}`.schema_migrations")
        assert ledger[0][0] == len(MIGRATIONS)
    finally:
        store.command(f"DROP DATABASE `{ch.database}`")
        store.close()


def test_every_kind_lands_in_its_table(store: Store) -> None:
    events = every_kind(2)
    assert store.insert(events) == len(events)
    for table in ("faults", "hang_votes", "hang_verdicts", "slow_nodes", "decisions", "actuations", "ett_intervals"):
        assert _count(store, table) == 2, table
    _, rows = store.query(f"SELECT kind, seconds FROM `{store.database}`.ett_by_job")
    assert rows == [("detection", 84.0)]


def test_duplicate_inserts_collapse_under_final(store: Store) -> None:
    decision = Decision(event_id="d", event_time=T0, cluster="c", decision_id="d", job_id="j", attempt=0,
                        issued_at=T0, action="checkpoint_now", reason=Reason(kind="hang"), policy_rule="p")
    store.insert([decision])
    store.insert([decision, decision])
    assert _count(store, "decisions", final=False) >= 2  # one part per insert; merges are lazy
    assert _count(store, "decisions") == 1
    _, rows = store.query(f"SELECT action, decisions FROM `{store.database}`.decisions_per_action")
    assert rows == [("checkpoint_now", 1)]


def test_fault_burst_keeps_the_highest_count_whatever_the_order(store: Store) -> None:
    store.insert([_fault(5, last_seen_s=9)])
    store.insert([_fault(1)])
    store.command(f"OPTIMIZE TABLE `{store.database}`.faults FINAL")
    _, rows = store.query(f"SELECT count, last_seen FROM `{store.database}`.faults")
    assert len(rows) == 1 and rows[0][0] == 5
    assert rows[0][1].replace(tzinfo=None) == (T0 + timedelta(seconds=9)).replace(tzinfo=None)
    _, nodes = store.query(f"SELECT node_id, occurrences FROM `{store.database}`.node_faults")
    assert nodes == [("n7", 5)]


def test_bad_data_is_permanent(store: Store) -> None:
    with pytest.raises(PermanentError, match="rank"):
        store.insert([_fault(1).model_copy(update={"rank": 2**70})])
    with pytest.raises(PermanentError, match="SYNTAX_ERROR"):
        store.query("SELEC 1")
    assert _count(store, "faults") == 0


def test_readonly_session_refuses_writes(ch: ClickHouseSettings, store: Store) -> None:
    readonly = connect(ch, readonly=True)
    try:
        with pytest.raises(PermanentError, match="READONLY|readonly"):
            readonly.insert([_fault(1)])
        assert readonly.query("SELECT 1")[1] == [(1,)]
    finally:
        readonly.close()


def test_unreachable_server_is_retryable() -> None:
    settings = ClickHouseSettings(dsn="http://default:@127.0.0.1:1/x", connect_timeout_s=1)
    with pytest.raises(RetryableError):
        connect(settings)


def test_free_path_has_no_holder(tmp_path: Path) -> None:
    assert busy_holder(tmp_path) is None


def test_a_database_from_before_the_fault_extension_gains_its_columns(ch: ClickHouseSettings) -> None:
    """Migration 2 adds fault.gpu_pci/action to a faults table made without them, and is a
    no-op where migration 1 already made them."""
    from sinks.clickhouse import ddl

    store = connect(ch)
    try:
        store.migrate()  # migration 2 ran on a table that already had the columns
        db = ch.effective_database
        store.command(f"ALTER TABLE {db}.faults DROP COLUMN gpu_pci, DROP COLUMN action")
        for statement in ddl.MIGRATIONS[1].render(db):
            store.command(statement)
        _, rows = store.query(f"SELECT name FROM system.columns WHERE database = '{db}' "
                              "AND table = 'faults' AND name IN ('gpu_pci', 'action')")
        assert sorted(r[0] for r in rows) == ["action", "gpu_pci"]
    finally:
        store.close()
