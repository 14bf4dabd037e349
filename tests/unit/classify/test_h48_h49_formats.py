"""H48 and H49: vocabularies read after holdout48's and holdout49's measurements, with their benign siblings.

H48: other GPU and fabric vendors' driver and transport vocabularies (Intel i915 / Level Zero, nouveau, amdgpu reset
modes, the RDMA core and its bnxt_re / hfi1 / mlx4 providers, libgdsync, UCX's UD transport, Open MPI's openib BTL,
MPICH's OFI netmod, libfabric's PSM3, HPE Slingshot's libcxi). A provider's verbs resource failures ("infiniband <dev>:
Failed to allocate ...") no longer take the node as an adapter fault, and MPICH's abort reports that quote an error
stack are the process ending, not a transport error (LABELS.md). H49: older kernel storage vocabularies (md RAID,
libata / IDE / SCSI, end_request, jbd), the SUN RPC layer, a NIC's PCI bus error and a GPU whose config space is gone;
a RAID array that lost one member but keeps its redundancy takes no action (the job's I/O succeeds).

Every line follows the format string of its emitter (cited in the rule's note), with made-up hosts, devices, ids and
numbers; none is a copy of a line of the real corpus (checked below without printing any corpus line). Each new rule
takes restart_app or none: a fit to one set of lines takes no node on its word.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

BENIGN_H48: list[tuple[str, str]] = [
    ("kernel", "[  412.100200] i915 0000:00:02.0: [drm] GuC firmware i915/tgl_guc_70.bin version 70.20.0"),
    ("kernel", "[   22.300100] bnxt_en 0000:41:00.0 bnxt_re1: Broadcom NetXtreme-C/E RoCE Driver loaded"),
    ("training", "libfabric:7001:psm3:core:psmx3_update_hfi_info():342<info> NIC 1 STATE = ACTIVE"),
    ("training", "[node07:4411:0:4411]       ud_ep.c:270  Warn: UD endpoint 0x1f2e3d0 resending 3 packets"),
    ("training", "Level Zero: found 4 devices, driver version 1.3.29735"),
]

FORMATS_H48: list[tuple[str, str, str, str | None, str]] = [
    ("kernel", "[ 1201.220114] i915 0000:00:02.0: [drm] GPU HANG: ecode 9:1:0x8ed9fff2, in torchrun [99120]",
     "gpu_xid_other", "gpu.intel_hang.h48", "restart_app"),
    ("kernel", "[   91.000300] nouveau 0000:03:00.0: gr: wait for idle timeout (en: 1, ctxsw: 1, busy: 1)",
     "gpu_xid_other", "gpu.intel_hang.h48", "restart_app"),
    ("kernel", "[  301.550101] amdgpu 0000:83:00.0: amdgpu: BACO reset failed", "gpu_reset_required",
     "gpu.reset_failed.h48", "restart_app"),
    ("kernel", "i915 0000:00:02.0: [drm] *ERROR* GT1: GUC: Engine reset failed on 1:0 (bcs0) because 0xffffff92",
     "gpu_reset_required", "gpu.reset_failed.h48", "restart_app"),
    ("training", "[rank3]: RuntimeError: Native API failed. Native API returns: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
     "gpu_unavailable", "gpu.level_zero_lost.h48", "restart_app"),
    ("training", "RuntimeError: level_zero backend failed with error: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)",
     "cuda_oom", "gpu.level_zero_oom.h48", "restart_app"),
    ("kernel", "[ 4410.010101] bnxt_en 0000:c1:00.0 bnxt_re3: Failed to register user MR", "nccl_error",
     "comm.rdma_provider.h48", "restart_app"),
    ("kernel", "[ 4410.010101] infiniband irdma0: Failed to create CQ", "nccl_error", "comm.rdma_provider.h48",
     "restart_app"),
    ("kernel", "[ 7781.900000] ib_umem_get: failed to get user pages, nr_pages=512", "nccl_error",
     "comm.rdma_provider.h48", "restart_app"),
    ("kernel", "[ 6602.330001] failed to drain send queue: -110", "nccl_error", "comm.rdma_provider.h48",
     "restart_app"),
    ("kernel", "[  915.200200] bnxt_en 0000:c1:00.1: QPLIB: cmdq[0x5a]=0x8 send failed", "ib_hca_fault",
     "comm.hca_firmware_cmd.h48", "restart_app"),
    ("training", "[gpu12:7702:0:7702]       ud_ep.c:278  Fatal: UD endpoint 0x55aa10 to gpu13:7710: unhandled timeout "
                 "error", "nccl_error", "comm.transport_fatal.h48", "restart_app"),
    ("training", "[gpu3][[4410,1],9][btl_openib_component.c:3601:poll_device] error polling HP CQ with -2 errno says "
                 "No such file or directory", "nccl_error", "comm.transport_fatal.h48", "restart_app"),
    ("system", "flux-slingshot: cxi2: cxil_alloc_svc: No space left on device", "nccl_error",
     "comm.transport_fatal.h48", "restart_app"),
    ("training", "libfabric:911:psm3:core:psmx3_update_hfi_info():342<warn> NIC 2 STATE = INACTIVE", "ib_link",
     "comm.psm3_nic_state.h48", "restart_app"),
    ("training", "gpu7:rank30: Assertion failure at psm3/ptl_am/am_reqrep_shmem.c:2101: len <= AMLONG_MTU",
     "process_crash", "process.psm_assert.h48", "restart_app"),
    ("training", "MPIDI_NM_mpi_init_hook(901): OFI addrinfo() failed (ofi_init.h:901:MPIDI_NM_mpi_init_hook:No data "
                 "available)", "nccl_error", "comm.mpich_ofi.f7", None),
    ("training", "Abort(1091215) on node 12 (rank 12 in comm 0): Fatal error in PMPI_Win_fence: Other MPI error, error "
                 "stack:", "process_crash", "process.mpich_abort.k29", None),
    ("training", "MPICH ERROR [Rank 40] [job id 1200.3] [Mon Mar  2 06:00:00 2026] [x1000c0s0b0n1] - Abort(67) (rank 40 "
                 "in comm 0): Fatal error in PMPI_Recv: Other MPI error, error stack:", "process_crash",
     "process.mpich_abort.k29", None),
]

BENIGN_H49: list[tuple[str, str]] = [
    # an operator's eviction of a Lustre client (the source's own spelling) and a scheduler daemon's unit ending
    ("kernel", "LustreError: 3301:0:(genops.c:1590:obd_export_evict_by_nid()) evicting 10.0.4.17@o2ib at "
               "adminstrative request"),
    # (the scheduler's own daemons only: a job run as a systemd service still ends in a fault)
    ("system", "Jun 02 03:04:05 head-1 systemd[1]: slurm.service: main process exited, code=exited, "
               "status=2/INVALIDARGUMENT"),
    ("kernel", "md/raid1:md2: active with 2 out of 2 mirrors"),
    ("kernel", "md: md2: resync done."),
]

FORMATS_H49: list[tuple[str, str, str, str | None, str]] = [
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

BENIGN = BENIGN_H48 + BENIGN_H49
FORMATS = FORMATS_H48 + FORMATS_H49


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None, action: str | None) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


@pytest.mark.parametrize(("suffix", "rules"), [(".h48", 9), (".h49", 7)])
def test_the_fit_rules_take_no_node(classifier: Classifier, suffix: str, rules: int) -> None:
    actions = fit_rule_actions(classifier, suffix)
    assert len(actions) == rules
    assert {rid for rid, action in actions.items() if action not in ("restart_app", "none")} == set()


def test_a_verbs_resource_failure_is_no_adapter_fault(classifier: Classifier) -> None:
    """A provider that cannot allocate or create a verbs object (an address handle, a CQ, a fence MR) failed one
    call for one process; the adapter's health is reported by its firmware-command and catastrophic-error lines,
    which keep ib.hca_fault's node action."""
    found = classifier.classify("[  476.300000] infiniband mlx5_3: Failed to allocate HW AH", "kernel")
    assert found is not None and found.category == "nccl_error" and found.action == "restart_app"
    firmware = classifier.classify("[ 1632.420956] infiniband efa_2: Failed to process command CREATE_QP (opcode 2) "
                                   "comp_status 1 err -12", "kernel")
    assert firmware is not None and firmware.rule_id == "ib.hca_fault"


def test_a_device_mapper_device_keeps_the_unnamed_io_reading(classifier: Classifier) -> None:
    """A device-mapper device may sit on a network block device: its lost page write stays storage_io."""
    found = classifier.classify("lost page write due to I/O error on dm-7", "kernel")
    assert found is not None and found.category == "storage_io"
