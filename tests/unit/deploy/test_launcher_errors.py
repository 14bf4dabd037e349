"""The local Kafka launcher explains what is missing instead of failing obscurely."""

from __future__ import annotations

from pathlib import Path

import pytest

from deploy.local_kafka import LauncherError, LocalKafkaSettings, resolve_jars


def test_missing_java_or_maven_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on PATH
    settings = LocalKafkaSettings(cache_dir=tmp_path / "cache")
    with pytest.raises(LauncherError, match="'java' not found on PATH: install a JDK 17"):
        resolve_jars(settings, progress=lambda _: None)


def test_missing_maven_is_named_when_java_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_java = tmp_path / "java"
    fake_java.write_text("#!/bin/sh\nexit 0\n")
    fake_java.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LauncherError, match="'mvn' not found on PATH: install Apache Maven"):
        resolve_jars(LocalKafkaSettings(cache_dir=tmp_path / "cache"), progress=lambda _: None)


def test_cached_jars_need_neither_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = LocalKafkaSettings(cache_dir=tmp_path / "cache", version="9.9.9")
    libs = settings.cache_dir / "9.9.9" / "libs"
    libs.mkdir(parents=True)
    (libs / "kafka_2.13-9.9.9.jar").write_bytes(b"")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert resolve_jars(settings, progress=lambda _: None) == libs
