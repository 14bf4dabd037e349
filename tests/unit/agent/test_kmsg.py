"""Kernel log collector replaying recorded /dev/kmsg records (tests/data/agent/kmsg.txt).

The file holds records in the device's own format (header, message, continuation lines),
including an Xid 79 sequence, a caller field, a sequence gap (1887-1891 lost) and one
malformed line; the reader takes a path so a regular file or a FIFO stands in for the device.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from producers.agent.kmsg import KmsgCollector, parse_record
from producers.agent.metrics import AgentMetrics
from producers.agent.settings import AgentSettings
from schemas.telemetry import LogLine
from streams.classify.classifier import Classifier
from streams.classify.kb import load_kb

RECORDED = Path(__file__).parents[2] / "data" / "agent" / "kmsg.txt"
BOOT = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)
VALID_RECORDS = 10


def _collector(path: Path, state: Path, boot_id: str = "boot-a") -> tuple[KmsgCollector, AgentMetrics]:
    metrics = AgentMetrics()
    settings = AgentSettings(node_id="n1", state_dir=state, kmsg_path=path)
    return KmsgCollector(settings, metrics, boot_wall=BOOT, boot_id=boot_id), metrics


def _lines(events: Sequence[object]) -> list[LogLine]:
    assert all(isinstance(e, LogLine) for e in events)
    return [e for e in events if isinstance(e, LogLine)]


def test_parse_record_fields_caller_and_continuation_lines() -> None:
    record = parse_record("4,1884,812441300,-;NVRM: GPU 0000:3b:00.0: lost\n SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0")
    assert record is not None
    assert (record.facility, record.level, record.seq, record.ts_us) == (0, 4, 1884, 812441300)
    assert record.props == {"SUBSYSTEM": "pci", "DEVICE": "+pci:0000:3b:00.0"}
    with_caller = parse_record("3,1885,812441400,-,caller=T2231;msg; with a semicolon")
    assert with_caller is not None and with_caller.message == "msg; with a semicolon"
    user = parse_record("14,1882,1,-;systemd[1]: Started")
    assert user is not None and (user.facility, user.level) == (1, 6)
    assert parse_record("garbage without a header") is None


def test_replay_of_recorded_records(tmp_path: Path) -> None:
    collector, metrics = _collector(RECORDED, tmp_path)
    lines = _lines(collector.collect())
    notices = [line for line in lines if line.line.startswith("faultline-agent:")]
    records = [line for line in lines if not line.line.startswith("faultline-agent:")]
    assert len(records) == VALID_RECORDS
    xid = records[3]
    assert xid.line == "NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus."
    assert xid.source == "kernel" and xid.node_id == "n1" and xid.job_id is None
    assert xid.event_time == BOOT + timedelta(microseconds=812441234)
    assert records[2].source == "system"  # facility user (prio 14)
    found = Classifier(load_kb()).classify(xid.line, xid.source)
    assert found is not None and found.xid == 79
    assert len(notices) == 1 and "5 kernel log records lost (seq 1887..1891" in notices[0].line
    assert metrics.value("faultline_agent_kmsg_lost_records_total") == 5
    assert metrics.value("faultline_agent_source_errors_total", {"collector": "kmsg", "error": "malformed record"}) == 1


def test_restart_sends_nothing_twice_and_skips_nothing(tmp_path: Path) -> None:
    text = RECORDED.read_text()
    live = tmp_path / "kmsg"
    cut = text.index("4,1886")
    live.write_text(text[:cut])
    first, _ = _collector(live, tmp_path / "state")
    sent = _lines(first.collect())
    first.commit()
    first.close()
    live.write_text(text)  # the ring buffer as a restarted agent finds it: old and new records
    second, _ = _collector(live, tmp_path / "state")
    resent = _lines(second.collect())
    messages = [line.line for line in sent + resent if not line.line.startswith("faultline-agent:")]
    assert len(messages) == VALID_RECORDS == len(set(messages))
    assert resent[0].line.startswith("NVRM: GPU at PCI:0000:3b:00")


def test_uncommitted_records_are_sent_again_and_a_new_boot_starts_over(tmp_path: Path) -> None:
    first, _ = _collector(RECORDED, tmp_path)
    assert len(_lines(first.collect())) == VALID_RECORDS + 1
    first.close()  # no commit: the output never took them
    again, _ = _collector(RECORDED, tmp_path)
    assert len(_lines(again.collect())) == VALID_RECORDS + 1
    again.commit()
    same_boot, _ = _collector(RECORDED, tmp_path)
    assert _lines(same_boot.collect()) == []
    rebooted, _ = _collector(RECORDED, tmp_path, boot_id="boot-b")
    assert len(_lines(rebooted.collect())) == VALID_RECORDS + 1


def test_fifo_stands_in_for_the_device(tmp_path: Path) -> None:
    fifo = tmp_path / "kmsg.fifo"
    os.mkfifo(fifo)
    collector, _ = _collector(fifo, tmp_path / "state")
    assert collector.collect() == []  # opened without a writer: nothing yet, no blocking

    def write() -> None:
        with open(fifo, "w") as handle:
            for line in RECORDED.read_text().splitlines(keepends=True):
                handle.write(line)
                handle.flush()

    writer = threading.Thread(target=write)
    writer.start()
    got: list[LogLine] = []
    deadline = time.monotonic() + 20
    while len(got) < VALID_RECORDS + 1 and time.monotonic() < deadline:
        got += _lines(collector.collect())
        time.sleep(0.01)
    writer.join()
    got += _lines(collector.collect())
    collector.close()
    assert len([g for g in got if not g.line.startswith("faultline-agent:")]) == VALID_RECORDS


def test_journald_entries_and_command(tmp_path: Path) -> None:
    from producers.agent.journald import JournaldCollector, entry_to_line

    entry = {"MESSAGE": "NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.", "PRIORITY": "4",
             "SYSLOG_FACILITY": "0", "__REALTIME_TIMESTAMP": "1795430000123456", "__CURSOR": "s=abc;i=1"}
    line = entry_to_line(entry, "c", "n1")
    assert line is not None and line.source == "kernel" and line.line.startswith("NVRM: Xid")
    assert line.event_time == datetime.fromtimestamp(1795430000.123456, UTC)
    raw = entry_to_line({**entry, "MESSAGE": [104, 105, 255], "SYSLOG_FACILITY": "3"}, "c", "n1")
    assert raw is not None and raw.line == "hi\ufffd" and raw.source == "system"
    assert entry_to_line({"PRIORITY": "4"}, "c", "n1") is None
    collector = JournaldCollector(AgentSettings(node_id="n1", state_dir=tmp_path, host_root=Path("/host")),
                                  AgentMetrics())
    assert "--directory" in collector.command() and not any(a.startswith("--after-cursor") for a in collector.command())
    (tmp_path / "journal.cursor").write_text("s=abc;i=1")
    assert "--after-cursor=s=abc;i=1" in collector.command()
