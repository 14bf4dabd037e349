"""``faultline sql`` and chDB's one-process-per-path rule, with the engine in subprocesses.

The test process keeps its own chDB session path (see conftest), so every engine that opens
``tmp_path`` here lives in a child process, as it would in production.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from ch_sink_helpers import every_kind, produce, random_name

from schemas.settings import KafkaSettings
from sinks.clickhouse.settings import ClickHouseSettings

PYTHON = sys.executable
SQL = "import sys; from sinks.clickhouse import sql_main; sys.exit(sql_main(sys.argv[1:]))"


def faultline_sql(*args: str, timeout_s: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-c", SQL, *args], capture_output=True, text=True, timeout=timeout_s)


def _spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([PYTHON, "-c", textwrap.dedent(code), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(path: Path, proc: subprocess.Popen[str], timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "child died"
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.1)


HOLDER = """
    import sys, time
    from pathlib import Path
    from sinks.clickhouse import ClickHouseSettings, connect
    store = connect(ClickHouseSettings(dsn=sys.argv[1]))
    Path(sys.argv[2]).touch()
    time.sleep(60)
"""

SINK = """
    import json, signal, sys, threading
    from schemas.settings import KafkaSettings
    from sinks.clickhouse import ClickHouseSettings, ClickHouseSink
    kafka, ch, group = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    sink = ClickHouseSink(KafkaSettings(**kafka), ClickHouseSettings(**ch), group)
    print(json.dumps(sink.run(stop=stop).__dict__), flush=True)
"""


def test_second_process_on_a_held_path_is_told_who_holds_it(tmp_path: Path) -> None:
    dsn, ready = f"chdb://{tmp_path / 'ch'}", tmp_path / "ready"
    holder = _spawn(HOLDER, dsn, str(ready))
    try:
        _wait_for(ready, holder)
        started = time.monotonic()
        result = faultline_sql("SELECT 1", "--dsn", dsn, "--busy-wait", "0.5")
        assert result.returncode == 3, result.stderr
        assert f"held by another process (PID: {holder.pid})" in result.stderr
        assert time.monotonic() - started < 30
    finally:
        holder.kill()
        holder.wait(10)
    after = faultline_sql("SELECT 41 + 1 AS x", "--dsn", dsn, "--format", "json")
    assert after.returncode == 0, after.stderr
    assert json.loads(after.stdout) == {"columns": ["x"], "rows": [[42]]}


def test_sql_goes_through_the_running_sink_then_directly_once_it_stopped(
    tmp_path: Path, kafka: KafkaSettings
) -> None:
    ch = ClickHouseSettings(dsn=f"chdb://{tmp_path / 'ch'}", database=random_name("t_"), flush_interval_s=0.2)
    sink = _spawn(SINK, kafka.model_dump_json(), ch.model_dump_json(), random_name("g"))
    count = f"SELECT count() AS n FROM {ch.database}.decisions FINAL"
    try:
        _wait_for(ch.query_info_path, sink)
        assert oct(ch.query_info_path.stat().st_mode & 0o777) == "0o600"
        produce(kafka, every_kind(2))
        assert _poll_count(ch, count) == 2
        refused = faultline_sql(f"INSERT INTO {ch.database}.decisions (decision_id) VALUES ('x')",
                                "--dsn", ch.dsn, "--write")
        assert refused.returncode == 1 and "read-only" in refused.stderr
        table = faultline_sql(f"SELECT action, decisions FROM {ch.database}.decisions_per_action", "--dsn", ch.dsn)
        assert table.returncode == 0 and "replace_nodes  2" in table.stdout, table.stderr
    finally:
        sink.send_signal(signal.SIGTERM)
        out, err = sink.communicate(timeout=60)
    assert sink.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1])["inserted"] == 14
    assert not ch.query_info_path.exists()
    direct = faultline_sql(count, "--dsn", ch.dsn, "--format", "json")
    assert direct.returncode == 0 and json.loads(direct.stdout)["rows"] == [[2]], direct.stderr


def _poll_count(ch: ClickHouseSettings, sql: str, want: int = 2, timeout_s: float = 40) -> int:
    deadline, seen = time.monotonic() + timeout_s, -1
    while time.monotonic() < deadline:
        result = faultline_sql(sql, "--dsn", ch.dsn, "--format", "json")
        assert result.returncode == 0, result.stderr
        seen = int(json.loads(result.stdout)["rows"][0][0])
        if seen == want:
            return seen
        time.sleep(0.3)
    return seen


@pytest.mark.skipif(os.name != "posix", reason="flock semantics are POSIX")
def test_stale_server_file_falls_back_to_direct(tmp_path: Path) -> None:
    ch = ClickHouseSettings(dsn=f"chdb://{tmp_path / 'ch'}")
    stale = {"pid": 999_999_999, "host": "127.0.0.1", "port": 1, "token": "x", "path": str(ch.chdb_path)}
    ch.query_info_path.parent.mkdir(parents=True, exist_ok=True)
    ch.query_info_path.write_text(json.dumps(stale))
    result = faultline_sql("SELECT 'direct' AS route", "--dsn", ch.dsn, "--format", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["rows"] == [["direct"]]
