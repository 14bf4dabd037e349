"""``faultline classify`` and ``faultline kb check`` entry points."""

from __future__ import annotations

import io
import json

from streams.classify.cli import classify_main, kb_check_main


def test_classify_writes_one_json_object_per_line() -> None:
    stdin = io.StringIO("RuntimeError: CUDA error: out of memory\nstep 10 loss 2.1\n")
    stdout = io.StringIO()
    assert classify_main(stdin, stdout) == 0
    records = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [r["category"] for r in records] == ["cuda_oom", None]
    assert records[0]["rule_id"] == "cuda.oom" and records[0]["blame"] == "job"
    assert set(records[1]) == {"line", "category", "family", "level", "blame", "xid", "rule_id"}
    assert records[1]["line"] == "step 10 loss 2.1"


def test_classify_reports_xid_number() -> None:
    stdout = io.StringIO()
    classify_main(io.StringIO("NVRM: Xid (PCI:0000:18:00): 48, pid=1, DBE\n"), stdout, source="kernel")
    record = json.loads(stdout.getvalue())
    assert (record["xid"], record["category"], record["level"]) == (48, "gpu_memory_ecc", "fault")


def test_kb_check_passes_on_the_packaged_kb() -> None:
    stdout = io.StringIO()
    assert kb_check_main(stdout) == 0
    assert "kb check: ok" in stdout.getvalue()
