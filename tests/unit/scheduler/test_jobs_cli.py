"""``faultline jobs emit`` (the prolog/epilog path) and the CLI's argument errors."""

from __future__ import annotations

from pathlib import Path

from producers.scheduler.cli import jobs_main
from producers.scheduler.lifecycle import job_event_id
from schemas import JobEvent, decode


def test_emit_scheduled_with_a_hostlist_placement(tmp_path: Path) -> None:
    out = tmp_path / "e.jsonl"
    code = jobs_main(["emit", "--job-id", "4242", "--kind", "scheduled", "--attempt", "1", "--nodes", "node[001-002]",
                      "--ranks-per-node", "2", "--time", "2026-11-23T10:00:00Z", "--cluster", "eos", "-o", str(out)],
                     env={})
    assert code == 0
    [event] = [decode(line) for line in out.read_bytes().splitlines()]
    assert isinstance(event, JobEvent)
    assert (event.kind, event.attempt, event.cluster) == ("scheduled", 1, "eos")
    assert [(p.rank, p.node_id) for p in event.placement] == [(0, "node001"), (1, "node001"), (2, "node002"),
                                                              (3, "node002")]
    assert event.event_id == job_event_id("eos", "4242", 1, "scheduled")  # the watcher's id for the same fact


def test_emit_rejects_what_the_contract_rejects(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    assert jobs_main(["emit", "--job-id", "1", "--kind", "scheduled", "-o", out], env={}) == 2  # no placement
    assert jobs_main(["emit", "--job-id", "1", "--kind", "exploded", "-o", out], env={}) == 2
    assert jobs_main(["emit", "--job-id", "1", "--kind", "failed", "--nodes", "n[1-", "-o", out], env={}) == 2
    assert jobs_main(["emit", "--job-id", "1", "--kind", "finished", "--time", "yesterday", "-o", out], env={}) == 2
    assert not Path(out).exists()


def test_slurm_once_with_a_missing_squeue_counts_a_failed_poll(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    code = jobs_main(["slurm", "--once", "--squeue", str(tmp_path / "no-squeue"), "-o", str(out)], env={})
    assert code == 0 and out.read_bytes() == b""


def test_kubernetes_without_a_usable_kubeconfig_is_a_configuration_error(tmp_path: Path) -> None:
    out = tmp_path / "k.jsonl"
    code = jobs_main(["kubernetes", "--selector", "app=train", "--kubeconfig", str(tmp_path / "missing"),
                      "-o", str(out)], env={})
    assert code == 2 and out.read_bytes() == b""
