"""The local Slurm cluster of tests/integration/slurm, for the scheduler watcher's tests.

The helpers come from tests/integration/slurm/slurm_cluster.py; the session fixture runs the
same idempotent setup script and FAILS (never skips) when the cluster cannot be started.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "slurm"))

from slurm_cluster import SETUP  # noqa: E402 - found through the path added above


@pytest.fixture(scope="session")
def slurm_cluster() -> Iterator[None]:
    """A running local Slurm cluster (node001..node004)."""
    try:
        done = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{SETUP} did not finish within 900 s")
    if done.returncode != 0:
        pytest.fail(f"local Slurm setup failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    yield
