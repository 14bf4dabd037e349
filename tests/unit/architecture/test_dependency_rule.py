"""ARCHITECTURE.md's dependency rule, checked by import-linter on the whole tree.

The contracts live in pyproject.toml (``[tool.importlinter]``): ``schemas`` imports nothing
from the repository; ``streams`` never imports ``deploy``; the pure detector packages import
only ``schemas``, ``streams.core``, their own package and the standard library (no Kafka,
Faust or ClickHouse client, no ``producers``/``sinks``/``deploy``); detector packages are
independent of each other.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint_imports), "--no-cache"], cwd=REPO, capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "broken" in done.stdout and " 0 broken" in done.stdout


def test_the_contracts_cover_every_detector_package() -> None:
    text = (REPO / "pyproject.toml").read_text()
    detectors = sorted(p.name for p in (REPO / "streams").iterdir()
                       if p.is_dir() and (p / "__init__.py").exists() and p.name != "__pycache__")
    for name in detectors:
        assert f'"streams.{name}"' in text, f"streams.{name} is not under an import contract"
