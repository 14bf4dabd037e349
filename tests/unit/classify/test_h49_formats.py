"""H49: older kernel storage vocabularies, the SUN RPC layer, a PCI device's bus error and a GPU whose config space
is gone, read after holdout49's measurement; and two benign look-alikes it showed.

Every line follows the format string of its emitter (cited in the rule's note), with made-up devices and numbers;
none is a copy of a line of the real corpus (checked below without printing any corpus line). Each new rule takes
restart_app or none; a RAID array that lost one member but keeps its redundancy takes none (the job's I/O succeeds).
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

BENIGN: list[tuple[str, str]] = [
    # an operator's eviction of a Lustre client (the source's own spelling) and a scheduler daemon's unit ending
    ("kernel", "LustreError: 3301:0:(genops.c:1590:obd_export_evict_by_nid()) evicting 10.0.4.17@o2ib at "
               "adminstrative request"),
    # (the scheduler's own daemons only: a job run as a systemd service still ends in a fault)
    ("system", "Jun 02 03:04:05 head-1 systemd[1]: slurm.service: main process exited, code=exited, "
               "status=2/INVALIDARGUMENT"),
    ("kernel", "md/raid1:md2: active with 2 out of 2 mirrors"),
    ("kernel", "md: md2: resync done."),
]

FORMATS: list[tuple[str, str, str, str | None, str]] = [
    ("kernel", "md/raid10:md5: Disk failure on sdk2, disabling device.", "storage_local_disk",
     "storage.md_degraded.h49", "none"),
    ("system", "A DegradedArray event had been detected on md device /dev/md5.", "storage_local_disk",
     "storage.md_degraded.h49", "none"),
    ("kernel", "md/raid:md5: not enough operational devices (2/4 failed)", "storage_local_disk",
     "storage.md_failed.h49", "restart_app"),
    ("kernel", "kernel: SCSI error : <5 0 3 0> return code = 0x8000002", "storage_local_disk",
     "storage.legacy_disk.h49", "restart_app"),
    ("kernel", "end_request: I/O error, dev hdb, sector 99120", "storage_local_disk", "storage.legacy_disk.h49",
     "restart_app"),
    ("kernel", "lost page write due to I/O error on nvme2n1p1", "storage_local_disk", "storage.legacy_disk.h49",
     "restart_app"),
    ("kernel", "kernel: RPC: sendmsg returned unrecognized error 101", "storage_remote_fs", "storage.sunrpc.h49",
     "restart_app"),
    ("kernel", "kernel: svc: bad direction 65536, dropping request", "storage_remote_fs", "storage.sunrpc_notice.h49",
     "none"),
    ("kernel", "kernel: eth3: PCI bus error, bus status 0x80000008", "pcie_aer", "host.pci_bus_error.h49", "none"),
    ("kernel", "amdgpu 0000:c3:00.0: can't change power state from D3hot to D0 (config space inaccessible)",
     "gpu_fallen_off_bus", "gpu.config_space_gone.h49", "restart_app"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None, action: str | None) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


def test_h49_rules_take_no_node(classifier: Classifier) -> None:
    actions = fit_rule_actions(classifier, ".h49")
    assert len(actions) == 7
    assert {rid for rid, action in actions.items() if action not in ("restart_app", "none")} == set()


def test_a_device_mapper_device_keeps_the_unnamed_io_reading(classifier: Classifier) -> None:
    """A device-mapper device may sit on a network block device: its lost page write stays storage_io."""
    found = classifier.classify("lost page write due to I/O error on dm-7", "kernel")
    assert found is not None and found.category == "storage_io"
