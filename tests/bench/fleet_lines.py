"""Real fault lines for the decision fleets (brief D2), drawn from the labelled real corpus.

Every pool is a list of real lines (``tests/data/real/corpus.jsonl``) of one kind of fault,
chosen by the corpus label and, where the label is too wide (``hardware_mce`` holds both
corrected and uncorrected errors), by a pattern on the text. :func:`pick` draws one line of a
pool with the caller's seeded generator, so which line of a category is used varies by seed.
When the corpus has no line for an Xid the contract names (48, 74, 92), the NVRM format of the
NVIDIA Xid catalog is used (``xid_line``). PCI bus ids are rewritten to the faulty GPU's.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "data" / "real" / "corpus.jsonl"
BUS_IDS = ("18", "2a", "3a", "5d", "9a", "ab", "ba", "db")
_PCI = re.compile(r"PCI:0000:[0-9a-fA-F]{2}:00")


@dataclass(frozen=True)
class Pool:
    """Which corpus lines make one pool: a label, optional text pattern and sources."""

    category: str
    pattern: str = ""
    sources: tuple[str, ...] = ("kernel", "system", "nccl", "training")


POOLS: dict[str, Pool] = {
    # corrected / contained errors: never take a node away alone (TAXONOMY.md)
    "mce_corrected": Pool("hardware_mce", r"\bCE\b"),
    "xid63": Pool("gpu_memory_ecc", r"\): 63,"),
    "xid94": Pool("gpu_memory_ecc", r"\): 94,.*Contained"),
    "aer_corrected": Pool("pcie_aer", r"severity=Corrected|(?<![Uu]n)(?<![Uu]n-)\bCorrected\b"),
    # real hardware faults on one node
    "xid79": Pool("gpu_fallen_off_bus", r"\): 79,", ("kernel",)),
    "xid119": Pool("gpu_gsp_timeout", r"\): 119,", ("kernel",)),
    "xid154": Pool("gpu_reset_required", r"\): 154,", ("kernel",)),
    # network
    "ib_port_down": Pool("ib_link", r"(?i)down|port error"),
    "net_link_down": Pool("net_link_down", r"(?i)link (is|status|state).*down|NIC Link is Down", ("kernel",)),
    "ib_completion": Pool("nccl_error", r"Got completion", ("nccl",)),
    "ib_async_port_error": Pool("ib_link", r"port error", ("nccl",)),
    # cascade on peers of a failed rank
    "cascade_nccl": Pool("nccl_error", r"NCCL WARN", ("nccl",)),
    "cascade_remote": Pool("nccl_remote_peer", "", ("nccl", "training")),
    "cascade_timeout": Pool("nccl_timeout", r"Watchdog caught", ("training",)),
    "elastic": Pool("torch_elastic", r"ChildFailedError|failed", ("training",)),
    # the job's own code
    "nccl_user_error": Pool("nccl_user_error", r"invalid usage|Mismatched|Duplicate GPU", ("nccl", "training")),
    "process_crash": Pool("process_crash", r"terminate called|Aborted|memory corruption", ("training",)),
    "illegal_memory": Pool("cuda_illegal_memory_access", r"illegal memory access", ("training",)),
    "cuda_oom": Pool("cuda_oom", r"out of memory", ("training",)),
    # brief D3 (round 3)
    "xid120": Pool("gpu_gsp_error", r"\): 120,", ("kernel",)),
    "gsp_heartbeat": Pool("gpu_gsp_timeout", r"(?i)heartbeat timed out|GSP Timeout|rpcRecvPoll timedout", ("kernel",)),
    "nvlink_fatal": Pool("gpu_nvlink", r"\bFatal\b", ("kernel",)),
    "nvlink_nonfatal": Pool("gpu_nvlink", r"Non-?fatal", ("kernel",)),
    "nvlink_cuda": Pool("gpu_nvlink", r"NVLink|NvLink", ("training",)),
    "hca_kernel": Pool("ib_hca_fault", r"timeout|No done completion|insufficient power|Failed to process", ("kernel",)),
    "hca_nccl": Pool("ib_hca_fault", r"catastrophic", ("nccl",)),
    "lockup": Pool("kernel_lockup", r"soft lockup|blocked for more than", ("kernel",)),
    "host_oom": Pool("oom_killer", r"Killed process \d+ \(python|invoked oom-killer", ("kernel",)),
    "oom_slurm": Pool("oom_killer", r"oom_kill event|Out Of Memory", ("system",)),
    "storage_fs": Pool("storage_remote_fs", r"not responding|Lustre", ("kernel",)),
    "storage_write": Pool("storage_io", r"PytorchStreamWriter|Input/output error|dist_checkpointing", ("training",)),
    "device_unhealthy": Pool("gpu_device_unhealthy", r"unhealthy", ("system",)),
    "xid_engine": Pool("gpu_graphics_engine_fault", r"\): (13|31|43),", ("kernel",)),
}
"""Pool name -> the corpus lines it draws from."""

CATALOG_TEXT: dict[int, str] = {
    48: "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.",
    74: "NVLink: fatal error detected on link 3(0x0, 0x0, 0x0, 0x10000, 0x0, 0x0, 0x0)",
    92: "High single-bit ECC error rate",
}
"""Xid message texts (NVIDIA Xid catalog wording) for Xids the real corpus lacks."""


@cache
def corpus() -> tuple[tuple[str, str, str], ...]:
    """(category, source, line) of every labelled fault line of the real corpus."""
    rows = []
    with CORPUS.open(encoding="utf-8") as handle:
        for raw in handle:
            item = json.loads(raw)
            if item.get("category"):
                rows.append((item["category"], item["source"], item["line"]))
    return tuple(rows)


@cache
def lines(pool: str) -> tuple[tuple[str, str], ...]:
    """(source, line) of every corpus line of ``pool``; empty when the corpus has none."""
    spec = POOLS[pool]
    rx = re.compile(spec.pattern) if spec.pattern else None
    return tuple((src, text) for cat, src, text in corpus()
                 if cat == spec.category and src in spec.sources and (rx is None or rx.search(text)))


def pick(pool: str, rng: random.Random, gpu: int | None = None) -> tuple[str, str]:
    """One (source, line) of ``pool``; its PCI bus id names GPU ``gpu`` when given.

    Raises ``KeyError`` when the pool is empty (a corpus without such a line).
    """
    choices = lines(pool)
    if not choices:
        raise KeyError(f"no corpus line for pool {pool!r}")
    source, text = rng.choice(choices)
    if gpu is not None:
        text = _PCI.sub(f"PCI:0000:{BUS_IDS[gpu % len(BUS_IDS)]}:00", text)
    return source, text


def xid_line(xid: int, gpu: int, pid: int | None, rng: random.Random) -> str:
    """An NVRM Xid kernel line: a real corpus line when the corpus has one, else the catalog text."""
    pool = f"xid{xid}"
    if pool in POOLS and lines(pool):
        return pick(pool, rng, gpu)[1]
    who = f"pid={pid}, name=python" if pid is not None else "pid='<unknown>', name=<unknown>"
    return f"NVRM: Xid (PCI:0000:{BUS_IDS[gpu % len(BUS_IDS)]}:00): {xid}, {who}, {CATALOG_TEXT[xid]}"
