"""End to end from a (fixture) node: agent + training hooks + `jobs emit` -> broker -> worker -> hang verdict.

No simulator. One node ``gpu017`` runs one rank of job ``JOB``:

- ``faultline jobs emit`` sends ``scheduled`` (rank 0 on gpu017) and ``running``;
- tests/e2e/train_loop.py, a real process, reports step progress and a checkpoint through
  the hooks' Kafka sink, prints a line per step into a torchrun ``--log-dir`` layout, then
  blocks forever in ``wait_for_peers()``;
- ``faultline agent --host-root`` reads the RDMA counters of the sysfs fixture (moved by the
  test while the job trains, frozen once it hangs), tails the training log and dumps the
  training process with py-spy (found through ``<host-root>/proc``).

No GPU here (``--no-gpu``: no NVML), no Flight Recorder (no torch): the hang vote has the
log/step silence and the frozen stacks to go on. The test waits for a ``hang_verdict`` of the
job; if none comes, the failure message lists the votes (which probe said what).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from schemas import HangVerdict, HangVote, JobEvent, LogLine, NetSample, StackSample, StepProgress, decode, parse_time
from schemas.registry import TELEMETRY_TOPICS
from schemas.settings import KafkaSettings
from tests.e2e.node_kit import REPO, RdmaTraffic, faultline, make_host_root, read_everything, stop

pytestmark = pytest.mark.e2e
NODE = "gpu017"
CLUSTER = "agent-e2e"
HANG_AT_STEP = 16
VERDICT_TIMEOUT_S = 300.0
"""Generous: worst case ~50 s of silence (log_silence_s 45 s) after ~10 s of training, on a
machine shared by many test runs (py-spy dumps and the worker's polls can lag)."""


def _env(kafka: KafkaSettings, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAULTLINE_", "RANK", "LOCAL_RANK", "SLURM_"))}
    env.update(FAULTLINE_KAFKA_BOOTSTRAP=kafka.bootstrap_servers, FAULTLINE_NAMESPACE=kafka.namespace, **extra)
    return env


def _emit(kafka: KafkaSettings, job: str, kind: str, *args: str, log: Path) -> None:
    proc = faultline("jobs", "emit", "--job-id", job, "--kind", kind, "--cluster", CLUSTER, *args,
                     log=log, env=_env(kafka))
    assert proc.wait(timeout=120) == 0, log.read_text()


def _agent(kafka: KafkaSettings, job: str, host_root: Path, log_dir: Path, tmp: Path) -> Any:
    return faultline(
        "agent", "--node-id", NODE, "--cluster", CLUSTER, "--host-root", str(host_root),
        "--state-dir", str(tmp / "agent-state"), "--no-gpu", "--no-xid", "--kmsg", "off",
        "--net-interval", "1", "--stack-interval", "2", "--poll-interval", "0.5",
        "--log-dir", str(log_dir), "--job-id", job, "--node-rank", "0", "--nproc-per-node", "1",
        "--stack-match", "train_loop.py", "--py-spy", str(Path(sys.executable).parent / "py-spy"),
        "--metrics-port", "0", "--bootstrap", kafka.bootstrap_servers, "--namespace", kafka.namespace,
        log=tmp / "agent.log", env=_env(kafka))


def _train(kafka: KafkaSettings, job: str, rank_dir: Path, hang_file: Path) -> Any:
    """The rank as torchrun starts it: RANK/LOCAL_RANK/TORCHELASTIC_RUN_ID set, stdout and
    stderr in ``<log-dir>/<run_id>/attempt_0/<local_rank>/``."""
    env = _env(kafka, RANK="0", LOCAL_RANK="0", TORCHELASTIC_RUN_ID=job, TORCHELASTIC_RESTART_COUNT="0",
               FAULTLINE_NODE_ID=NODE, FAULTLINE_CLUSTER=CLUSTER, PYTHONUNBUFFERED="1")
    script = REPO / "tests" / "e2e" / "train_loop.py"
    with open(rank_dir / "stdout.log", "ab") as out, open(rank_dir / "stderr.log", "ab") as err:
        return subprocess.Popen([sys.executable, str(script), "--hang-at-step", str(HANG_AT_STEP),
                                 "--hang-file", str(hang_file)], cwd=REPO, env=env, stdout=out, stderr=err)


def _verdict_of(job: str) -> Any:
    def found(messages: list[tuple[str | None, bytes]]) -> bool:
        return any(isinstance(e := decode(raw), HangVerdict) and e.job_id == job for _, raw in messages)
    return found


def _votes_summary(kafka: KafkaSettings, job: str) -> str:
    """Why no verdict: how often each combination of probe values was voted, and the last votes."""
    votes = [v for _, v in read_everything(kafka, ("hangs.votes",)) if isinstance(v, HangVote) and v.job_id == job]
    combos = Counter((v.signals.log_silent, v.signals.metrics_idle, v.signals.stacks_frozen,
                      v.signals.collective_stalled, v.votes, v.hang) for v in votes)
    last = [f"{v.window_end.isoformat()} {v.signals.model_dump()} votes={v.votes} hang={v.hang}" for v in votes[-8:]]
    return (f"{len(votes)} votes; (log_silent, metrics_idle, stacks_frozen, collective_stalled, votes, hang) "
            f"counts: {dict(combos)}\nlast votes:\n" + "\n".join(last))


def test_a_real_training_process_that_hangs_gets_a_verdict(kafka: KafkaSettings, worker: Any, consume: Any,
                                                            tmp_path: Path) -> None:
    job = f"agent-{uuid.uuid4().hex[:8]}"
    host_root = make_host_root(tmp_path / "host")
    log_dir = tmp_path / "torchrun-logs"
    log_dir.mkdir()
    # torchrun's own layout: <log-dir>/<run_id>_<mkdtemp suffix>/attempt_<N>/<local_rank>/
    rank_dir = Path(tempfile.mkdtemp(prefix=f"{job}_", dir=log_dir)) / "attempt_0" / "0"
    rank_dir.mkdir(parents=True)
    hang_file = tmp_path / "hung.json"
    _emit(kafka, job, "scheduled", "--nodes", NODE, "--tasks", "1", log=tmp_path / "emit.log")
    _emit(kafka, job, "running", log=tmp_path / "emit.log")
    traffic = RdmaTraffic(host_root, hang_file).start()
    agent = _agent(kafka, job, host_root, log_dir, tmp_path)
    train = _train(kafka, job, rank_dir, hang_file)
    try:
        verdicts = [v for _, raw in consume(kafka, "hangs.verdicts", stop_when=_verdict_of(job),
                                            timeout_s=VERDICT_TIMEOUT_S)
                    if isinstance(v := decode(raw), HangVerdict) and v.job_id == job]
        assert train.poll() is None, f"training exited {train.returncode}: {(rank_dir / 'stderr.log').read_text()}"
        assert hang_file.exists(), "the training loop never reached its hang"
        assert verdicts, (f"no hang_verdict for {job}\n{_votes_summary(kafka, job)}\n"
                          f"agent:\n{(tmp_path / 'agent.log').read_text()[-3000:]}\nworker:\n{worker.tail()}")
    finally:
        stop(train, timeout_s=10)
        agent_rc = stop(agent)
        traffic.stop()
    hung_at = parse_time(json.loads(hang_file.read_text())["time"])
    _check_verdict(verdicts, hung_at)
    _check_only_node_telemetry(kafka, job, traffic.ticks)
    assert agent_rc == 0, (tmp_path / "agent.log").read_text()[-3000:]
    assert worker.alive(), worker.tail()


def _check_verdict(verdicts: list[HangVerdict], hung_at: datetime) -> None:
    """One verdict, for the first attempt, dating the hang to when the loop blocked: the last
    step/log line came at most one step before it, and the frozen stacks begin after it."""
    assert len({v.verdict_id for v in verdicts}) == 1, verdicts
    verdict = verdicts[0]
    assert verdict.attempt == 0
    assert abs(verdict.onset_time - hung_at) <= timedelta(seconds=10), (verdict, hung_at)
    assert verdict.detected_at > hung_at, (verdict, hung_at)


def _check_only_node_telemetry(kafka: KafkaSettings, job: str, traffic_ticks: int) -> None:
    """Every telemetry and job event came from this node's agent, this job's hooks or `jobs emit`."""
    events = sorted(read_everything(kafka, TELEMETRY_TOPICS), key=lambda te: te[1].event_time)
    kinds = Counter(e.KIND for _, e in events)
    assert set(kinds) == {"net_sample", "log_line", "stack_sample", "step_progress", "job_event"}, kinds
    for topic, event in events:
        assert getattr(event, "node_id", None) in (NODE, None), (topic, event)
        assert getattr(event, "job_id", job) == job, (topic, event)
        assert event.cluster == CLUSTER, (topic, event)
    lifecycle = [e.kind for _, e in events if isinstance(e, JobEvent)]
    assert sorted(lifecycle) == ["checkpoint_completed", "checkpoint_started", "running", "scheduled"], lifecycle
    steps = sorted(e.step for _, e in events if isinstance(e, StepProgress))
    assert steps == list(range(HANG_AT_STEP)), steps
    lines = [e for _, e in events if isinstance(e, LogLine)]
    assert {(e.source, e.rank, e.attempt) for e in lines} == {("training", 0, 0)}, lines[:3]
    assert any(e.line == f"step {HANG_AT_STEP - 1} loss {2.0 / HANG_AT_STEP:.4f}" for e in lines)
    stacks = [e for _, e in events if isinstance(e, StackSample)]
    assert any("wait_for_peers" in frame for frame in stacks[-1].frames), stacks[-1].frames
    assert traffic_ticks > 0
    moved = [sum(p.tx_bytes_total for p in e.ports) for _, e in events if isinstance(e, NetSample)]
    assert moved[-1] > moved[0], "the agent never saw RDMA traffic"
