"""Slurm hostlist expansion (the same results as ``scontrol show hostnames``)."""

from __future__ import annotations

import pytest

from producers.scheduler.hostlist import expand_hostlist


@pytest.mark.parametrize(("text", "names"), [
    ("node001", ["node001"]),
    ("node[001-003]", ["node001", "node002", "node003"]),
    ("node[01-02,07],login1", ["node01", "node02", "node07", "login1"]),
    ("gpu[8-10]", ["gpu8", "gpu9", "gpu10"]),
    ("gpu[08-10]", ["gpu08", "gpu09", "gpu10"]),
    ("rack[1-2]-n[1-2]", ["rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"]),
    ("a[1],b", ["a1", "b"]),
    ("", []),
])
def test_expansion(text: str, names: list[str]) -> None:
    assert expand_hostlist(text) == names


@pytest.mark.parametrize("bad", ["node[1-", "node]1[", "node[a-b]", "node[3-1]", "node[[1]]"])
def test_malformed_hostlists_raise(bad: str) -> None:
    with pytest.raises(ValueError):
        expand_hostlist(bad)
