"""The scheduler: collectors fail alone with backoff; commit only after the output took the events.

Also the whole ``faultline agent --once --output FILE`` command against the fixture host root.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from producers.agent.metrics import AgentMetrics
from producers.agent.output import JsonLinesOutput
from producers.agent.runner import Runner
from schemas import Event, decode
from schemas.telemetry import LogLine

REPO = Path(__file__).parents[3]
FIXTURE = REPO / "tests" / "data" / "agent"


class Counting:
    """A collector that emits one line per round, or raises while ``broken``."""

    def __init__(self, name: str, interval_s: float = 5.0) -> None:
        self.name = name
        self.interval_s = interval_s
        self.broken = False
        self.rounds = 0
        self.commits = 0

    def collect(self) -> list[Event]:
        self.rounds += 1
        if self.broken:
            raise OSError("device went away")
        return [LogLine(event_id=f"{self.name}-{self.rounds}", event_time=datetime(2026, 11, 23, tzinfo=UTC),
                        cluster="c", node_id="n", source="system", line=f"{self.name} {self.rounds}")]

    def commit(self) -> None:
        self.commits += 1


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_failing_collector_backs_off_alone_and_recovers() -> None:
    good, bad = Counting("good"), Counting("bad")
    bad.broken = True
    out = io.BytesIO()
    metrics = AgentMetrics()
    clock = Clock()
    runner = Runner([good, bad], JsonLinesOutput(out, metrics), metrics, backoff_initial_s=1, backoff_max_s=8,
                    monotonic=clock)
    delays = []
    for _ in range(5):
        clock.now = runner.due["bad"]
        runner.round(bad)
        delays.append(runner.due["bad"] - clock.now)
    assert delays == [1, 2, 4, 8, 8]
    assert runner.round(good) and good.commits == 1 and bad.commits == 0
    assert metrics.value("faultline_agent_collector_errors_total", {"collector": "bad"}) == 5
    bad.broken = False
    assert runner.round(bad) and runner.due["bad"] == clock.now + bad.interval_s
    lines = [decode(raw) for raw in out.getvalue().splitlines()]
    assert [e.line for e in lines if isinstance(e, LogLine)] == ["good 1", "bad 6"]


def test_events_are_not_committed_when_the_output_fails() -> None:
    collector = Counting("c")
    out = io.BytesIO()
    out.close()  # writing raises ValueError
    metrics = AgentMetrics()
    runner = Runner([collector], JsonLinesOutput(out, metrics), metrics)
    assert runner.run_once() == 1
    assert collector.commits == 0


def test_agent_once_writes_v1_events(tmp_path: Path) -> None:
    target = tmp_path / "events.jsonl"
    cmd = [sys.executable, "-m", "producers.agent.cli", "--once", "--output", str(target), "--node-id", "n9",
           "--cluster", "c9", "--host-root", str(FIXTURE / "sysfs"), "--kmsg-path", str(FIXTURE / "kmsg.txt"),
           "--state-dir", str(tmp_path / "state"), "--no-gpu", "--no-stacks", "--metrics-port", "0"]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    events = [decode(line) for line in target.read_bytes().splitlines()]
    kinds = [json.loads(line)["schema"] for line in target.read_bytes().splitlines()]
    assert kinds.count("net_sample/v1") == 1 and kinds.count("log_line/v1") == 11
    assert all(getattr(e, "node_id", None) == "n9" and e.cluster == "c9" for e in events)
    # the kmsg position was committed: a second run sends no kernel line again
    again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stderr
    kinds = [json.loads(line)["schema"] for line in target.read_bytes().splitlines()]
    assert kinds.count("net_sample/v1") == 2 and kinds.count("log_line/v1") == 11


def test_daemon_serves_metrics_dumps_on_sigusr1_and_stops_on_sigterm(tmp_path: Path) -> None:
    import signal
    import time
    import urllib.request

    from deploy.local_kafka import free_port

    target, port = tmp_path / "events.jsonl", free_port()
    cmd = [sys.executable, "-m", "producers.agent.cli", "--output", str(target), "--node-id", "n9",
           "--host-root", str(FIXTURE / "sysfs"), "--kmsg-path", str(FIXTURE / "kmsg.txt"),
           "--state-dir", str(tmp_path / "state"), "--no-gpu", "--metrics-port", str(port),
           "--stack-match", "no-such-process-anywhere", "--stack-interval", "3600"]
    proc = subprocess.Popen(cmd, cwd=REPO, stderr=subprocess.PIPE, text=True)
    try:
        page = ""
        deadline = time.monotonic() + 60
        while 'faultline_agent_collector_rounds_total{collector="stacks"} 1.0' not in page:
            assert time.monotonic() < deadline and proc.poll() is None, "agent did not come up"
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
            except OSError:
                time.sleep(0.1)
        proc.send_signal(signal.SIGUSR1)  # an on-demand stack round, long before the 1 h interval
        while 'faultline_agent_collector_rounds_total{collector="stacks"} 2.0' not in page:
            assert time.monotonic() < deadline, "SIGUSR1 did not trigger a stack round"
            time.sleep(0.05)
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    kinds = [json.loads(line)["schema"] for line in target.read_bytes().splitlines()]
    assert kinds.count("log_line/v1") == 11 and "net_sample/v1" in kinds
    assert json.loads((tmp_path / "state" / "kmsg.json").read_text())["seq"] == 1894
