"""Every Kafka client of the pipeline over SASL_SSL (TLS + SCRAM-SHA-512) against a real broker.

The broker is ``deploy.local_kafka`` with its optional SASL_SSL listener, a throwaway CA and
a SCRAM user created at format time. The CLIs get their settings from ``FAULTLINE_*``
variables (the password from a file, as a mounted secret would be); every line they print
or log is searched for the password, on success and on a failed login.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from tls_material import TlsMaterial, make_tls_material

from deploy.local_kafka import BrokerSecurity, LocalKafka, LocalKafkaSettings
from producers.kafka import EventProducer
from schemas import Actuation, Decision, Fault, LogLine, Reason, decode, derived_id, encode
from schemas.settings import kafka_from

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[3]
USER = "faultline-svc"
PASSWORD = f"pw{uuid.uuid4().hex}"  # recognisable: found in no output unless leaked
T0 = datetime(2026, 11, 22, 8, tzinfo=UTC)
XID79 = "NVRM: Xid (PCI:0000:3b:00): 79, pid=2231, name=python, GPU has fallen off the bus."


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalKafka, TlsMaterial]]:
    """A broker with a SASL_SSL listener and one SCRAM-SHA-512 user, for this module."""
    root = tmp_path_factory.mktemp("secure-kafka")
    tls = make_tls_material(root / "tls")
    security = BrokerSecurity(keystore_location=tls.keystore, keystore_password=SecretStr(tls.keystore_password),
                              scram_users={USER: SecretStr(PASSWORD)})
    settings = LocalKafkaSettings(port=0, data_dir=root / "data", security=security, heap="512m")
    with LocalKafka(settings, progress=lambda _: None) as broker:
        yield broker, tls


def client_env(broker: LocalKafka, tls: TlsMaterial, namespace: str, **secret: str) -> dict[str, str]:
    """The process environment of a CLI talking SASL_SSL to ``broker``; ``secret``: the password variable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAULTLINE_")}
    return {**env, "FAULTLINE_KAFKA_BOOTSTRAP": broker.sasl_bootstrap, "FAULTLINE_NAMESPACE": namespace,
            "FAULTLINE_KAFKA_SECURITY_PROTOCOL": "SASL_SSL", "FAULTLINE_KAFKA_SASL_MECHANISM": "SCRAM-SHA-512",
            "FAULTLINE_KAFKA_SASL_USERNAME": USER, "FAULTLINE_KAFKA_SSL_CA": str(tls.ca_cert), **secret}


class Cli:
    """A ``faultline`` subprocess whose stdout and stderr go to one log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log_path = log
        self._log = open(log, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "streams.cli", *args], cwd=REPO, env=env,
                                     stdout=self._log, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, needle: str, timeout_s: float) -> bool:
        """True once ``needle`` (case-insensitive) is in the output; False if the process ends first or at the deadline."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if needle.lower() in self.text().lower():
                return True
            if self.proc.poll() is not None:
                return needle.lower() in self.text().lower()
            time.sleep(0.5)
        return False

    def finish(self, timeout_s: float) -> int:
        """The exit status, after at most ``timeout_s`` (then SIGTERM, then SIGKILL)."""
        try:
            return self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait()
        finally:
            self._log.close()


def run(args: list[str], env: dict[str, str], log: Path, timeout_s: float = 180.0) -> tuple[int, str]:
    cli = Cli(args, env, log)
    return cli.finish(timeout_s), cli.text()


def kernel_line() -> LogLine:
    return LogLine(event_id=uuid.uuid4().hex, event_time=T0, cluster="c1", node_id="node-0007",
                   source="kernel", line=XID79)


def decision() -> Decision:
    now = datetime.now(UTC)
    did = derived_id("decision", "job-9", "checkpoint_now", uuid.uuid4().hex, now)
    return Decision(event_id=did, event_time=now, cluster="c1", decision_id=did, job_id="job-9", attempt=0,
                    issued_at=now, action="checkpoint_now", nodes=(), block_scope="none",
                    reason=Reason(kind="explicit_fault", cause_ids=("f1",)), policy_rule="sasl-test",
                    expires_at=now + timedelta(minutes=15))


def test_every_client_moves_an_event_over_sasl_ssl_and_never_prints_the_password(
        secure: tuple[LocalKafka, TlsMaterial], tmp_path: Path, consume: Any) -> None:
    broker, tls = secure
    namespace, app_id = f"s{uuid.uuid4().hex[:8]}.", f"s{uuid.uuid4().hex[:8]}"
    (tmp_path / "password").write_text(PASSWORD + "\n", encoding="utf-8")
    env = client_env(broker, tls, namespace, FAULTLINE_KAFKA_SASL_PASSWORD_FILE=str(tmp_path / "password"))
    kafka = kafka_from(env)
    assert kafka.sasl_password is not None and kafka.sasl_password.get_secret_value() == PASSWORD
    assert kafka.security_protocol == "SASL_SSL" and kafka.bootstrap_servers == broker.sasl_bootstrap

    status, _ = run(["topics", "create", "--app-id", app_id], env, tmp_path / "topics.log")
    assert status == 0, (tmp_path / "topics.log").read_text()
    worker = Cli(["worker", "--loglevel", "info", "--app-id", app_id], env, tmp_path / "worker.log")
    try:
        assert worker.wait_for("Worker]: Ready", 180), worker.text()[-4000:]
        with EventProducer(kafka) as producer:  # the producer, in process
            producer.send(kernel_line())
        faults = [decode(v) for _, v in consume(kafka, "faults.classified", until=1, timeout_s=120)]
        assert [type(f) for f in faults] == [Fault], worker.text()[-4000:]  # the worker, then a confluent consumer
    finally:
        worker.finish(0)

    the_decision = decision()
    (tmp_path / "decisions.jsonl").write_bytes(encode(the_decision) + b"\n")
    status, out = run(["produce", str(tmp_path / "decisions.jsonl")], env, tmp_path / "produce.log")
    assert status == 0 and "produced 1 events" in out, out

    journal = tmp_path / "journal.jsonl"
    status, out = run(["actuate", "--idle-exit-s", "5", "--journal", str(journal),
                       "--store", str(tmp_path / "applied.sqlite")], env, tmp_path / "actuate.log")
    assert status == 0, out
    assert the_decision.decision_id in journal.read_text()
    actuations = [decode(v) for _, v in consume(kafka, "actuations", until=1, timeout_s=60)]
    assert [a.decision_id for a in actuations if isinstance(a, Actuation)] == [the_decision.decision_id]

    dsn = f"chdb://{tmp_path / 'ch'}"
    status, out = run(["sink", "--dsn", dsn, "--idle-exit-s", "5"], env, tmp_path / "sink.log")
    assert status == 0, out
    status, out = run(["sql", "--dsn", dsn, "--format", "json", "SELECT count() AS n FROM faultline.faults"], env,
                      tmp_path / "sql.log")
    assert status == 0 and json.loads(out.strip().splitlines()[-1])["rows"] == [[1]], out

    logs = {p.name: p.read_text(errors="replace") for p in tmp_path.glob("*.log")}
    assert set(logs) >= {"topics.log", "worker.log", "produce.log", "actuate.log", "sink.log"}
    assert {name: text.count(PASSWORD) for name, text in logs.items() if PASSWORD in text} == {}


def test_a_wrong_password_fails_clearly_and_is_never_printed(
        secure: tuple[LocalKafka, TlsMaterial], tmp_path: Path) -> None:
    broker, tls = secure
    wrong = f"wrong{uuid.uuid4().hex}"
    env = client_env(broker, tls, f"w{uuid.uuid4().hex[:8]}.", FAULTLINE_KAFKA_SASL_PASSWORD=wrong)
    (tmp_path / "events.jsonl").write_bytes(encode(kernel_line()) + b"\n")
    clis = {
        "worker": Cli(["worker", "--loglevel", "info"], env, tmp_path / "worker.log"),
        "produce": Cli(["produce", str(tmp_path / "events.jsonl")], env, tmp_path / "produce.log"),
        "actuate": Cli(["actuate", "--store", str(tmp_path / "a.sqlite")], env, tmp_path / "actuate.log"),
        "sink": Cli(["sink", "--dsn", f"chdb://{tmp_path / 'ch'}"], env, tmp_path / "sink.log"),
    }
    try:
        said = {name: cli.wait_for("authentication", 150) for name, cli in clis.items()}
    finally:
        for cli in clis.values():
            cli.finish(0)
    texts = {name: cli.text() for name, cli in clis.items()}
    assert all(said.values()), {name: texts[name][-1500:] for name, ok in said.items() if not ok}
    assert "Worker]: Ready" not in texts["worker"]
    assert {name: (wrong in text, PASSWORD in text) for name, text in texts.items()} == {
        name: (False, False) for name in clis}
