"""A real local Slurm cluster (munge, slurmctld, slurmd per virtual node) for the tests.

The session fixture runs ``deploy/slurm/setup-local-slurm.sh`` (idempotent; installs the
Debian packages with apt-get when missing). If the cluster cannot be installed or started,
the tests FAIL with the script's reason: they never skip silently.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest
from slurm_cluster import NODES, SETUP, reset_node


@pytest.fixture(scope="session")
def local_slurm() -> Iterator[None]:
    """A running local Slurm cluster with nodes node001..node004 (see the module docstring)."""
    try:
        done = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{SETUP} did not finish within 900 s")
    if done.returncode != 0:
        pytest.fail(f"local Slurm setup failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    yield


@pytest.fixture
def clean_nodes(local_slurm: None) -> Iterator[None]:
    """Every node IDLE before and after the test."""
    for node in NODES:
        reset_node(node)
    yield
    for node in NODES:
        reset_node(node)
