"""Knowledge-base rules added or widened after the holdout3 collection (issue 15, brief E3), one case per pattern.

Every line follows the documented message format of its emitter (the rule's note names it: IPMI v2.0 sensor
offsets as printed by ipmitool, Slurm sacct/scontrol/srun, Linux x86 fault and panic banners, NVIDIA driver
README, Lustre manual, the nccl-fastsocket plugin source) with made-up hosts, ids and numbers. None
is a copy of a line of the real corpus (checked below), so these tests check formats, not lines.
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (source, line, category, action or None when the category default applies)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # BMC SEL (ipmitool sel elist): Critical Interrupt bus errors and memory ECC, by severity
    ("system", "  a1 | 10/03/2025 | 04:18:07 | Critical Interrupt #0x62 | Bus Fatal Error | Asserted",
     "pcie_aer", "replace_node"),
    ("system", "  a2 | 10/03/2025 | 04:18:07 | Critical Interrupt PCIE_SLOT7 | Bus Uncorrectable Error | Asserted",
     "pcie_aer", None),
    ("system", "  a3 | 10/03/2025 | 04:18:09 | Critical Interrupt #0x62 | PCI PERR | Asserted", "pcie_aer", None),
    ("system", "  a4 | 10/03/2025 | 04:19:00 | Critical Interrupt #0x62 | Bus Correctable Error | Asserted",
     "pcie_aer", "none"),
    ("system", "  b7 | 10/03/2025 | 05:00:31 | Memory P2_DIMM_C1 | Uncorrectable ECC | Asserted", "hardware_mce", None),
    ("system", "  b8 | 10/03/2025 | 05:00:31 | Memory #0x53 | Correctable ECC | Asserted", "hardware_mce", "none"),
    # Slurm: sacct rows (State ExitCode columns), scontrol show job, srun task status
    ("system", "9120077.0    python              a100   research        64     FAILED      2:0", "process_exit_nonzero", None),
    ("system", "9120077_12   sweep.sh            a100   research         8     FAILED      0:9",
     "process_exit_nonzero", None),
    ("system", "   JobState=FAILED Reason=NonZeroExitCode Dependency=afterok:9120070_*(unfulfilled)", "process_exit_nonzero",
     None),
    ("system", "9120078.batch  batch                research        16 OUT_OF_ME+    0:125", "oom_killer", None),
    ("system", "   JobState=OUT_OF_MEMORY Reason=OutOfMemory Dependency=(null)", "oom_killer", None),
    ("system", "srun: error: a100-n041: tasks 0-3: Out Of Memory", "oom_killer", None),
    # older x86 kernels: segfault with rip/eip, "Kernel panic:" without "- not syncing", MCE context corrupt
    ("kernel", "train[30112]: segfault at 0000000000000018 rip 00000000004a1b2c rsp 00007fffd1e2f3a0 error 4",
     "segfault", None),
    ("kernel", "python[4411]: segfault at b7e1c000 eip 08049f3a esp bf9d2c10 error 6", "segfault", None),
    ("kernel", "Kernel panic: Fatal exception in interrupt", "kernel_panic", None),
    ("kernel", "[ 3012.100221] general protection fault, probably for non-canonical address 0x6b6b6b6b6b6b6b6b: 0000 "
     "[#2] PREEMPT SMP PTI", "kernel_panic", None),
    ("kernel", "<0>Kernel panic: CPU context corrupt", "hardware_mce", None),
    # NVIDIA driver probe/open failures (driver README "Common Problems")
    ("kernel", "[   8.120771] NVRM: No NVIDIA graphics adapter probed!", "gpu_driver_init", None),
    ("kernel", "[  61.402117] NVRM: nvidia_frontend_open: minor 3, module->open() failed, error -5", "gpu_driver_init",
     None),
    # Lustre server eviction notices
    ("kernel", "LustreError: 0:0:(ldlm_lockd.c:261:expired_lock_main()) ### lock callback timer expired after 101s: "
     "evicting client at 10.21.4.8@o2ib1 ns: filter-proj-OST0012_UUID", "storage_remote_fs", None),
    ("kernel", "[88120.22] proj-MDT0000-mdc-ffff8c1e2d3f4000: This client was evicted by proj-MDT0000; in progress "
     "operations using this service will fail.", "storage_remote_fs", None),
]

BENIGN: list[tuple[str, str]] = [
    # SEL events that are not faults, or that close one
    ("system", "  a5 | 10/03/2025 | 04:30:00 | Critical Interrupt #0x62 | Bus Uncorrectable Error | Deasserted"),
    ("system", "  b9 | 10/03/2025 | 05:10:00 | Memory #0x53 | Correctable ECC | Deasserted"),
    ("system", "  c0 | 10/03/2025 | 06:00:00 | Power Supply PS2 | Presence detected | Asserted"),
    ("system", "   2 | 10/03/2025 | 00:00:09 | Event Logging Disabled #0x07 | Log area reset/cleared | Asserted"),
    # Slurm rows that ended well or by the time limit
    ("system", "9120077      train.sh            a100   research        64  COMPLETED      0:0"),
    ("system", "9120079      train.sh            a100   research        64    TIMEOUT      0:0"),
    ("system", "9120080      train.sh            a100   research        64    PENDING      0:0"),
    ("system", "   JobState=COMPLETED Reason=None Dependency=(null)"),
    # nccl-fastsocket advisories (it carries on with another CPU/queue)
    ("nccl", "a100-n041:9911:9970 [5] net_fastsocket.cc:765 NCCL WARN Cannot get incoming CPU."),
    ("nccl", "a100-n041:9911:9970 [5] net_fastsocket.cc:785 NCCL WARN Maximum retry reached for accept 2."),
]


@pytest.mark.parametrize(("source", "line", "category", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              action: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if action is not None:
        assert found.action == action, (found.rule_id, found.action)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_same_format_without_a_fault_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    assert classifier.classify(line, source) is None


def test_sel_fatal_bus_error_is_a_fault_and_correctable_ecc_is_only_counted(classifier: Classifier) -> None:
    fatal = classifier.classify("  d1 | 01/02/2026 | 01:02:03 | Critical Interrupt #0x10 | Bus Fatal Error | Asserted",
                                "system")
    counted = classifier.classify("  d2 | 01/02/2026 | 01:02:04 | Memory #0x20 | Correctable ECC | Asserted", "system")
    assert fatal is not None and fatal.level == "fault"
    assert counted is not None and (counted.level, counted.action) == ("error", "none")


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    assert not ours & corpus
