"""A single-node Apache Kafka broker (KRaft, combined broker+controller) on 127.0.0.1.

The broker is Apache Kafka's own code: its jars are resolved from Maven Central with Maven
once, cached under ``.cache/kafka/<version>/libs``, and started with the JDK on this machine.
Used by ``make kafka-up`` / ``make kafka-down``, ``make demo`` and the pytest session fixture.

    with LocalKafka(LocalKafkaSettings(port=0)) as kafka:   # port 0: pick a free port
        kafka.create_topics(KafkaSettings(bootstrap_servers=kafka.bootstrap))

With ``LocalKafkaSettings(security=BrokerSecurity(...))`` the broker also opens a SASL_SSL
listener (TLS + SCRAM, optionally mutual TLS) on ``sasl_bootstrap``, to test clients against
a production-like setup; broker-internal and controller traffic stays PLAINTEXT on loopback.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from schemas.settings import KafkaSettings

REPO = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "kafka"
Progress = Callable[[str], None]


class LauncherError(RuntimeError):
    """The local broker could not be set up or started; the message says what to do."""


class BrokerSecurity(BaseModel):
    """An extra SASL_SSL listener: TLS with the given keystore, SCRAM users created at format time."""

    model_config = ConfigDict(frozen=True, hide_input_in_errors=True)

    sasl_port: int = 0
    """Port of the SASL_SSL listener; 0 picks a free one."""
    keystore_location: Path
    """PKCS#12 file holding the broker's private key and certificate chain."""
    keystore_password: SecretStr
    truststore_location: Path | None = None
    """PEM CA certificates; when given, clients must present a certificate they sign (mutual TLS)."""
    mechanism: Literal["SCRAM-SHA-256", "SCRAM-SHA-512"] = "SCRAM-SHA-512"
    scram_users: dict[str, SecretStr] = Field(default_factory=dict)
    """User name -> password, added to the metadata log when the storage is formatted."""

    @field_validator("scram_users")
    @classmethod
    def _plain_credentials(cls, users: dict[str, SecretStr]) -> dict[str, SecretStr]:
        # kafka-storage's "[name=...,password=...]" syntax has no escaping.
        for name, password in users.items():
            if any(c in name + password.get_secret_value() for c in ',[]="= '):
                raise ValueError(f"SCRAM user {name!r}: name and password must not contain , [ ] = \" or spaces")
        return users


class LocalKafkaSettings(BaseModel):
    """Where the local broker keeps its jars and data, and where it listens."""

    model_config = ConfigDict(frozen=True)

    version: str = "4.1.1"
    cache_dir: Path = REPO / ".cache" / "kafka"
    data_dir: Path = REPO / ".data" / "kafka"
    port: int = 9092
    controller_port: int = 0
    heap: str = "768m"
    start_timeout_s: float = 90.0
    security: BrokerSecurity | None = None
    """None (the default): a PLAINTEXT listener only."""


def _say(message: str) -> None:
    print(f"[kafka] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    """An unused TCP port on 127.0.0.1 (racy by nature; good enough for a local broker)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_tool(name: str, hint: str) -> str:
    """The path of executable ``name``, or a LauncherError saying how to install it."""
    path = shutil.which(name)
    if path is None:
        raise LauncherError(f"'{name}' not found on PATH: {hint}")
    return path


def resolve_jars(settings: LocalKafkaSettings, progress: Progress = _say) -> Path:
    """The folder of the broker's jars, resolving them with Maven on first use."""
    libs = settings.cache_dir / settings.version / "libs"
    if (libs / f"kafka_2.13-{settings.version}.jar").exists():
        return libs
    require_tool("java", "install a JDK 17+ (e.g. apt-get install openjdk-17-jdk-headless)")
    mvn = require_tool("mvn", "install Apache Maven (e.g. apt-get install maven)")
    progress(f"resolving Apache Kafka {settings.version} from Maven Central (once) ...")
    staging = libs.with_name(f"libs.{uuid.uuid4().hex}")
    cmd = [mvn, "-q", "-B", "-f", str(HERE / "pom.xml"), f"-Dkafka.version={settings.version}",
           "dependency:copy-dependencies", f"-DoutputDirectory={staging}"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise LauncherError(f"Maven could not resolve Kafka {settings.version}:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    staging.replace(libs)
    progress(f"cached {len(list(libs.glob('*.jar')))} jars in {libs}")
    return libs


class LocalKafka:
    """One broker process: ``start()`` formats storage if needed, launches and waits for it."""

    def __init__(self, settings: LocalKafkaSettings | None = None, progress: Progress = _say) -> None:
        self.settings = settings or LocalKafkaSettings()
        self.progress = progress
        self.port = self.settings.port or free_port()
        self.controller_port = self.settings.controller_port or free_port()
        security = self.settings.security
        self.sasl_port = (security.sasl_port or free_port()) if security else None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap(self) -> str:
        """``host:port`` clients use to reach this broker."""
        return f"127.0.0.1:{self.port}"

    @property
    def sasl_bootstrap(self) -> str:
        """``host:port`` of the SASL_SSL listener; LauncherError when security is not configured."""
        if self.sasl_port is None:
            raise LauncherError("this broker has no SASL_SSL listener (LocalKafkaSettings.security is None)")
        return f"127.0.0.1:{self.sasl_port}"

    @property
    def pid_file(self) -> Path:
        return self.settings.data_dir / "broker.pid"

    def _properties(self) -> Path:
        data = self.settings.data_dir
        listeners = [f"PLAINTEXT://127.0.0.1:{self.port}", f"CONTROLLER://127.0.0.1:{self.controller_port}"]
        advertised = [f"PLAINTEXT://127.0.0.1:{self.port}"]
        protocols = ["PLAINTEXT:PLAINTEXT", "CONTROLLER:PLAINTEXT"]
        if self.sasl_port is not None:
            listeners.insert(1, f"SASL_SSL://127.0.0.1:{self.sasl_port}")
            advertised.append(f"SASL_SSL://127.0.0.1:{self.sasl_port}")
            protocols.append("SASL_SSL:SASL_SSL")
        text = "\n".join([
            "process.roles=broker,controller",
            "node.id=1",
            f"controller.quorum.voters=1@127.0.0.1:{self.controller_port}",
            f"listeners={','.join(listeners)}",
            f"advertised.listeners={','.join(advertised)}",
            "controller.listener.names=CONTROLLER",
            f"listener.security.protocol.map={','.join(protocols)}",
            f"log.dirs={data / 'logs'}",
            "num.partitions=1",
            "offsets.topic.replication.factor=1",
            "offsets.topic.num.partitions=10",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "auto.create.topics.enable=true",
            "log.retention.hours=24",
            *_security_properties(self.settings.security),
            "",
        ])
        path = data / "server.properties"
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)  # may hold the keystore password
        return path

    def _java(self, libs: Path, *args: str) -> list[str]:
        java = require_tool("java", "install a JDK 17+ (e.g. apt-get install openjdk-17-jdk-headless)")
        logs = self.settings.data_dir
        return [java, f"-Xmx{self.settings.heap}", "-Xms256m", "-XX:+UseG1GC",
                f"-Dlog4j2.configurationFile={HERE / 'log4j2.properties'}",
                f"-Dkafka.logs.dir={logs}", "-cp", f"{libs}/*", *args]

    def _format(self, libs: Path, props: Path) -> None:
        if (self.settings.data_dir / "logs" / "meta.properties").exists():
            return
        cmd = self._java(libs, "kafka.tools.StorageTool", "format", "-t", _cluster_id(), "-c", str(props))
        cmd += _scram_args(self.settings.security)
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise LauncherError(f"formatting KRaft storage failed: {done.stdout}{done.stderr}")

    def start(self) -> LocalKafka:
        """Resolve jars, format storage, launch the broker and wait until clients see it."""
        libs = resolve_jars(self.settings, self.progress)
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        props = self._properties()
        self._format(libs, props)
        self.progress(f"starting broker on {self.bootstrap} (data in {self.settings.data_dir})")
        with open(self.settings.data_dir / "broker.out", "ab") as out:  # the child keeps its own copy
            self.process = subprocess.Popen(self._java(libs, "kafka.Kafka", str(props)),
                                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.pid_file.write_text(f"{self.process.pid} {self.port}\n", encoding="utf-8")
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Block until an admin client sees the broker, or raise LauncherError with the log tail."""
        from confluent_kafka.admin import AdminClient

        deadline = time.monotonic() + self.settings.start_timeout_s
        admin = AdminClient({"bootstrap.servers": self.bootstrap, "log_level": 0})
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise LauncherError(f"broker exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if admin.list_topics(timeout=2).brokers:
                    self.progress(f"broker ready on {self.bootstrap}")
                    return
            except Exception:  # noqa: BLE001 - not up yet; retried until the deadline
                time.sleep(0.5)
        raise LauncherError(f"broker not ready after {self.settings.start_timeout_s}s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        """The last lines the broker wrote, for error messages."""
        for name in ("server.log", "broker.out"):
            path = self.settings.data_dir / name
            if path.exists():
                return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
        return "(no broker log)"

    def create_topics(self, kafka: KafkaSettings, app_id: str | None = None) -> list[str]:
        """Create every registry topic under ``kafka.namespace``; existing ones are kept."""
        return create_registry_topics(kafka, app_id)

    def stop(self, timeout_s: float = 30.0) -> None:
        """Stop the broker (SIGTERM, then SIGKILL after ``timeout_s``); a no-op if not running."""
        if self.process is None:
            return
        stop_child(self.process, timeout_s)
        self.process = None
        self.pid_file.unlink(missing_ok=True)
        self.progress("broker stopped")

    def __enter__(self) -> LocalKafka:
        return self.start()

    def __exit__(self, *exc: object | TracebackType | None) -> None:
        self.stop()


def _security_properties(security: BrokerSecurity | None) -> list[str]:
    """``server.properties`` lines of the SASL_SSL listener; none without ``security``."""
    if security is None:
        return []
    prefix = "listener.name.sasl_ssl."
    mech = security.mechanism.lower()
    lines = [
        "inter.broker.listener.name=PLAINTEXT",
        f"sasl.enabled.mechanisms={security.mechanism}",
        f"{prefix}{mech}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
        f"{prefix}ssl.keystore.type=PKCS12",
        f"{prefix}ssl.keystore.location={security.keystore_location}",
        f"{prefix}ssl.keystore.password={security.keystore_password.get_secret_value()}",
    ]
    if security.truststore_location is not None:
        lines += [f"{prefix}ssl.truststore.type=PEM", f"{prefix}ssl.truststore.location={security.truststore_location}",
                  f"{prefix}ssl.client.auth=required"]
    return lines


def _scram_args(security: BrokerSecurity | None) -> list[str]:
    """``kafka-storage format`` arguments that create the SCRAM users in the metadata log."""
    args: list[str] = []
    if security is None:
        return args
    for name, password in security.scram_users.items():
        args += ["--add-scram", f"{security.mechanism}=[name={name},password={password.get_secret_value()}]"]
    return args


def _cluster_id() -> str:
    """A fresh Kafka cluster id: 16 random bytes in URL-safe base64 without padding, never
    starting with ``-`` (the storage tool would read it as an option)."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode("ascii").rstrip("=")
        if not text.startswith("-"):
            return text


def stop_child(process: subprocess.Popen[bytes], timeout_s: float) -> None:
    """SIGTERM the process group of our child ``process``, SIGKILL it if it outlives ``timeout_s``.

    Waits on the child itself: an exited child stays a zombie until reaped, so probing its
    pid with signal 0 would see it alive until the deadline.
    """
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        process.wait()
        return
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def stop_pid(pid: int, timeout_s: float) -> None:
    """SIGTERM the process group of ``pid`` (not our child), SIGKILL it if it outlives ``timeout_s``."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        return


def create_registry_topics(kafka: KafkaSettings, app_id: str | None = None) -> list[str]:
    """Create the pipeline's topics through the one provisioning path (``faultline topics create``)."""
    from streams.topics import TopicError, create_topics

    try:
        return create_topics(kafka, app_id)
    except TopicError as exc:
        raise LauncherError(str(exc)) from exc


def _running(settings: LocalKafkaSettings) -> tuple[int, int] | None:
    pid_file = settings.data_dir / "broker.pid"
    if not pid_file.exists():
        return None
    pid, port = (int(x) for x in pid_file.read_text().split())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pid_file.unlink(missing_ok=True)
        return None
    return pid, port


def main(argv: list[str] | None = None) -> int:
    """``python -m deploy.local_kafka up|down|status [--port N]`` for make targets."""
    parser = argparse.ArgumentParser(prog="local-kafka", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["up", "down", "status", "resolve"])
    parser.add_argument("--port", type=int, default=9092)
    parser.add_argument("--namespace", default=KafkaSettings().namespace)
    args = parser.parse_args(argv)
    settings = LocalKafkaSettings(port=args.port)
    running = _running(settings)
    try:
        return _command(args.command, settings, running, args.namespace)
    except LauncherError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _command(command: str, settings: LocalKafkaSettings, running: tuple[int, int] | None, namespace: str) -> int:
    if command == "resolve":
        resolve_jars(settings)
    elif command == "status":
        print(f"running: pid {running[0]} on 127.0.0.1:{running[1]}" if running else "not running")
        return 0 if running else 1
    elif command == "down":
        if running:
            stop_pid(running[0], 30.0)
            (settings.data_dir / "broker.pid").unlink(missing_ok=True)
            _say("broker stopped")
    elif running:
        _say(f"already running: pid {running[0]} on 127.0.0.1:{running[1]}")
    else:
        broker = LocalKafka(settings).start()
        kafka = KafkaSettings(bootstrap_servers=broker.bootstrap, namespace=namespace)
        broker.create_topics(kafka, f"{namespace}pipeline")
        broker.process = None  # leave it running after this command exits
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
