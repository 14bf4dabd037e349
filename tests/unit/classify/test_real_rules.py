"""The v1 knowledge-base additions on real-format lines: new categories, the NCCL split, actions.

Lines are verbatim from the dev split of the real corpus (tests/data/real/corpus.jsonl, sources
cited there) unless marked "format": those follow the documented message format of the emitter.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from streams.classify.model import ACTIONS, KnowledgeBase

# (source, line, category, blame, action)
CASES: list[tuple[str, str, str, str, str]] = [
    # NCCL split: user error (job), remote peer (network, cascade), local CUDA (node), fabric (network)
    ("nccl", "10.10.23.10: so-ucloud-10-10-23-10:1307367:1307586 [0] transport/net_ib.cc:1038 NCCL WARN NET/IB : req 0/1 "
     "tag 0 peer 10.10.23.6<58683> collective mismatch error, local size 496640 remote size 65536",
     "nccl_user_error", "job", "restart_app"),
    ("training", "NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1287, invalid usage, "
     "NCCL version 2.17.1", "nccl_user_error", "job", "restart_app"),
    ("nccl", "node-8x-v100-nvlink-1:39719:39719 [3] init.cu:1197 NCCL WARN Mismatched collective detected, please check your "
     "collective calls at and around rank 11.", "nccl_user_error", "job", "restart_app"),
    ("nccl", "[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.10.1.3<36138>",
     "nccl_remote_peer", "network", "restart_app"),
    ("nccl", "a100-st-p4d24xlarge-22:183006:183220 [1] misc/socket.cc:518 NCCL WARN Net : Call to recv from "
     "10.200.84.247<58355> failed : Broken pipe", "nccl_remote_peer", "network", "restart_app"),
    ("training", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1347, "
     "remote process exited or there was a network error, NCCL version 2.18.5", "nccl_remote_peer", "network", "restart_app"),
    ("training", "socketProgressOpt: Call to recv from 172....<33759> failed : Connection reset by peer",
     "nccl_remote_peer", "network", "restart_app"),
    ("training", "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, "
     "unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "nccl_cuda_error", "node", "restart_app"),
    ("nccl", "c76d92cccb6e:72:456 [0] enqueue.cc:58 NCCL WARN Cuda failure 'named symbol not found'",
     "nccl_cuda_error", "node", "restart_app"),
    ("training", "[rank7]: Cuda failure 1 'invalid argument'", "nccl_cuda_error", "node", "restart_app"),
    ("nccl", "kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer "
     "10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)", "nccl_error", "network", "restart_app"),
    ("training", "[rank3]: NET/OFI Request 0x7f14cc5b60c0 completed with error. RC: 113. Error: 2 (UNDELIVERABLE). "
     "Completed length: 0", "nccl_error", "network", "restart_app"),
    ("nccl", "WARN: Function: create_nccl_ofi_component Line: 459: NET/OFI Couldn't open AV. RC: -22, ERROR: Invalid argument",
     "nccl_error", "network", "restart_app"),
    ("training", "Failed to modify QP to RTR: Connection timed out", "nccl_error", "network", "restart_app"),
    # A specific CUDA error inside NCCL keeps its CUDA category (cuda rules come first).
    ("nccl", "gpu5:35917:35917 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'",
     "cuda_illegal_memory_access", "job", "restart_app"),
    # InfiniBand: HCA faults and a node's own port state blame the node
    ("kernel", "[    5.502207] mlx5_core 0000:01:00.0: handle_hca_cap failed", "ib_hca_fault", "node", "replace_node"),
    ("kernel", "[    5.663152] mlx5_core: probe of 0000:01:00.0 failed with error -22", "ib_hca_fault", "node", "replace_node"),
    ("kernel", "[ 1632.420956] infiniband efa_0: Failed to process command ALLOC_PD (opcode 14) comp_status 1 err -12",
     "ib_hca_fault", "node", "replace_node"),
    ("system", "\t\tState: Down", "ib_link", "node", "reboot_node"),
    ("system", "                        state:                  PORT_DOWN (1)", "ib_link", "node", "reboot_node"),
    # host OS: hung-task, soft-lockup and RCU-stall warnings count against the node, take nothing
    ("kernel", "[26825.855448] INFO: task kworker/2:1:5747 blocked for more than 120 seconds.",
     "kernel_lockup", "node", "none"),
    ("kernel", "kernel:[405108.698255] watchdog: BUG: soft lockup - CPU#2 stuck for 22s! [chia_plot:29632]",
     "kernel_lockup", "node", "none"),
    ("kernel", "[Thu Mar 25 00:50:20 2021] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
     "kernel_lockup", "node", "none"),
    ("kernel", "[ 8812.120044] NMI watchdog: Watchdog detected hard LOCKUP on cpu 40", "kernel_lockup", "node",
     "reboot_node"),
    ("kernel", "Kernel panic - not syncing: hung_task: blocked tasks", "kernel_panic", "node", "reboot_node"),  # format
    ("kernel", "Kernel panic - not syncing: Fatal Machine check", "hardware_mce", "node", "replace_node"),
    ("kernel", "DAC MC0: 1 UE memory read error on CPU_SrcID#0_MC#0_Chan#0_DIMM#0 (channel:0 slot:0 page:0xe16677)",
     "hardware_mce", "node", "replace_node"),
    # storage split
    ("kernel", "[Mon Oct 16 09:54:43 2017] LNet: 2431:0:(o2iblnd_cb.c:3174:kiblnd_check_conns()) Timed out tx for "
     "172.31.126.87@o2ib: 403055 seconds", "storage_remote_fs", "storage", "restart_app"),
    ("kernel", "[Mon Oct 16 10:06:17 2017] LustreError: 11-0: jmain01-MDT0000-mdc-ffff88203810d800: operation obd_ping to "
     "node 172.31.126.88@o2ib failed: rc = -107", "storage_remote_fs", "storage", "restart_app"),
    ("kernel", "[32956.142249] nfs: server thinkcentre not responding, still trying", "storage_remote_fs", "storage",
     "restart_app"),
    ("kernel", "[  265.311275] nvme nvme1: I/O 775 QID 2 timeout, aborting", "storage_local_disk", "node", "reboot_node"),
    ("kernel", "Jan 29 17:09:49 argon kernel: nvme0n1: I/O Cmd(0x2) @ LBA 32545872, 8 blocks, I/O Error (sct 0x3 / sc 0x71) ",
     "storage_local_disk", "node", "reboot_node"),
    ("kernel", "kernel: XFS (dm-4): I/O Error Detected. Shutting down filesystem", "storage_local_disk", "node",
     "reboot_node"),
    ("kernel", "Sep  6 14:24:35 node2 kernel: EXT4-fs (sdi): I/O error while writing superblock", "storage_local_disk",
     "node", "reboot_node"),
    ("training", "OSError: [Errno 28] No space left on device", "storage_space", "job", "restart_app"),
    ("training", "tensorflow/core/platform/s3/aws_logging.cc:60] Curl returned error code 55", "storage_remote_fs",
     "storage", "restart_app"),
    ("training", "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
     "storage_io", "storage", "restart_app"),
    # GPU driver / container runtime
    ("system", "nvidia-container-cli: initialization error: nvml error: driver not loaded", "gpu_container_init", "node",
     "reboot_node"),
    ("system", "nvidia-container-cli: initialization error: cuda error: unknown error", "gpu_container_init", "node",
     "reboot_node"),
    ("kernel", "[   24.302465] NVRM: GPU6 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 812751949 heartbeat "
     "1899482 heartbeatWithOffsetMs 812745879 diff 6070 timeout 5200", "gpu_gsp_timeout", "node", "reset_gpu"),
    ("kernel", "[   84.300480] NVRM: GPU6 kgmmuCheckMemSubsysError_IMPL: Memory Subsystem Error detected. "
     "kbusSendSysmembarSingle failed.", "gpu_driver_error", "node", "reset_gpu"),
    ("training", "RuntimeError: No CUDA GPUs are available", "cuda_driver_init", "node", "reboot_node"),
    # format: CUDA's cudaErrorUnknown names no cause in the job: the node's, contained
    ("training", "RuntimeError: CUDA error: unknown error", "cuda_driver_init", "node", "restart_app"),
    ("training", "RuntimeError: CUDA error: unspecified launch failure", "cuda_launch_failure", "job", "restart_app"),
    # format: a kubelet admission failure and an undocumented driver-side error take no node alone
    ("system", "Warning  UnexpectedAdmissionError  4m   kubelet  Allocate failed due to requested number of devices "
     "unavailable for nvidia.com/gpu. Requested: 2, Available: 1, which is unexpected", "gpu_unavailable", "node",
     "restart_app"),
    ("system", "[2026-02-11T08:09:10.111] error: _slurm_rpc_node_registration node=gn-042: Invalid argument; reason: "
     "gres/gpu count reported lower than configured (6 < 8)", "gpu_unavailable", "node", "reboot_node"),
    ("system", "Error: Failed to initialize NVML", "gpu_driver_error", "node", "restart_app"),
    # processes
    ("training", "ud_ep.c:496  Assertion `ctl->type == UCT_UD_PACKET_CREP' failed", "process_crash", "job", "restart_app"),
    ("system", "[2026-04-29T23:36:37.809] error: *** STEP 52222788.0 ON nid002888 CANCELLED AT 2026-04-29T23:36:37 "
     "DUE TO TASK FAILURE ***", "process_exit_nonzero", "job", "restart_app"),
]

BENIGN: list[tuple[str, str]] = [
    # format: a loader trying the next library name; a component that says it falls back
    ("training", "[1,0]<stderr>:libfabric:4410:1731012345::core:core:cuda_hmem_dl_init():499<warn> Failed to dlopen "
     "libnvidia-ml.so.  Trying libnvidia-ml.so.1"),
    ("system", "[2025-01-02T03:04:05.000000000+00:00 mgmtd_main:   12 IBDevice.cc:441 CRITICAL] IBDevice mlx5_0:1 "
     "can't set zone by IP, fallback to UNKNOWN"),
    # format: Slurm task/cgroup's memory failure counter: the limit was reached, no task killed
    ("system", "slurmstepd: error: Exceeded job memory limit at some point."),
    ("system", "slurmstepd: error: *** JOB 867816 ON c0700a-s1 CANCELLED AT 2021-05-11T12:06:17 DUE TO TIME LIMIT ***"),
    ("kernel", "[74889.542184] pcieport 0000:00:02.0:    [ 5] Surprise Down Error    (First)"),
    ("kernel", "Sep 22 09:59:09 pve kernel: pcieport 0000:80:1b.4:   device [8086:7f44] error status/mask=00200000/00000000"),
    ("kernel", "[Mon Oct 16 09:50:06 2017] Lustre: 2449:0:(client.c:2141:ptlrpc_expire_one_request()) Skipped 24 previous "
     "similar messages"),
    ("kernel", '[26825.866477] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.'),
    ("training", "raise ChildFailedError("),
    ("nccl", "kolyoz2:25146:25852 [0] NCCL INFO [Service thread] Connection closed by localRank 0"),
    ("training", "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
     "`torch.amp.GradScaler('cuda', args...)` instead."),
    ("system", "\t\tState: Active"),
    ("system", "mlx5_0   port  1  ==>  ibp26s0        (Down)  # CX-7 1/8 infiniband"),  # IPoIB netdev, not the port
]


@pytest.mark.parametrize(("source", "line", "category", "blame", "action"), CASES)
def test_real_line_gets_category_blame_and_action(
    classifier: Classifier, source: str, line: str, category: str, blame: str, action: str
) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert (found.category, found.blame, found.action) == (category, blame, action)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_hard_benign_real_lines_stay_benign(classifier: Classifier, source: str, line: str) -> None:
    assert classifier.classify(line, source) is None


@pytest.mark.parametrize(("line", "level", "action"), [
    ("[    3.499123] pcieport 0000:00:1d.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, id=00e8(Receiver ID)",
     "error", "none"),
    ("[74785.660366] pcieport 0000:00:02.0: AER: Corrected error received: id=0010", "error", "none"),
    ("[   58.258850] pcieport 0000:00:00.0: AER: Uncorrected (Non-Fatal) error received: 0000:00:00.0", "error", "reboot_node"),
    ("[74889.542031] pcieport 0000:00:02.0: AER: Uncorrected (Fatal) error received: id=0010", "fault", "replace_node"),
    # Older kernels misspelt the field ("serverity"): the same severities.
    ("pcieport 0000:00:03.0: PCIe Bus Error: serverity=Corrected, type=Physical Layer, id=0018(Receiver ID)",
     "error", "none"),
    ("pcieport 0000:80:02.0: PCIe Bus Error: serverity=Uncorrected (Fatal), type=Transaction Layer, id=8010(Requester ID)",
     "fault", "replace_node"),
])
def test_aer_severity_sets_level_and_action(classifier: Classifier, line: str, level: str, action: str) -> None:
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "pcie_aer"
    assert (found.level, found.action) == (level, action)


@pytest.mark.parametrize(("line", "action"), [
    ("EDAC skx: ERROR: MC0: CPU_SrcID#1_Ha#0_Chan#2 decode failed", "none"),
    ("EDAC amd64: ERROR: node 3: Uncorrected error on DIMM B2, unrecognised syndrome", "replace_node"),
    ("EDAC i10nm: ERROR: MC2: Non-fatal error on channel 1, decode pending", "none"),
])
def test_an_unrecognised_host_ras_error_takes_no_node_unless_it_says_uncorrected(classifier: Classifier, line: str,
                                                                                   action: str) -> None:
    """The fallback for host RAS lines no specific rule knows: its severity is unknown, so it
    only counts against the node, unless the line itself says it was not corrected."""
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "hardware_mce"
    assert found.action == action


@pytest.mark.parametrize(("line", "action"), [
    ("NVRM: Xid (PCI:0000:1b:00): 144, SAW_MVB Nonfatal XC0 i0 Link 3 (0x00000001 0x00000010 0x00000000 0x00000000 "
     "0x00000000 0x00000000)", "none"),
    ("NVRM: Xid (PCI:0000:1b:00): 145, RLW_REMAP Fatal XC0 i0 Link 7 (0x00000004 0x00000000 0x00000000 0x00000000 "
     "0x00000000 0x00000000)", "reset_gpu"),
    ("nvidia-nvswitch1: SXid (PCI:0000:a5:00.0): 20034, Non-fatal, Link 12 LTSSM Fault Up (First)", "none"),
    ("nvidia-nvswitch1: SXid (PCI:0000:a5:00.0): 24007, Fatal, Link 40 sourcetrack TCEN0 crumbstore ECC DBE Error",
     "reset_gpu"),
])
def test_a_non_fatal_nvlink_error_counts_against_the_node_and_takes_nothing(classifier: Classifier, line: str,
                                                                           action: str) -> None:
    """NVLink5 Xids and NVSwitch SXids say whether the error was fatal: a non-fatal one was
    contained by the hardware (action none, it counts toward a lemon node)."""
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "gpu_nvlink"
    assert found.action == action


def test_corrected_memory_errors_count_but_take_no_action(classifier: Classifier) -> None:
    ce = classifier.classify("[Mon Jan 27 19:27:15 2020] EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#2_DIMM#0 "
                             "(channel:2 slot:0 page:0x849923 offset:0x380 grain:32 syndrome:0x0)", "kernel")
    assert ce is not None and (ce.category, ce.level, ce.action) == ("hardware_mce", "error", "none")


@pytest.mark.parametrize(("line", "action"), [
    ("NVRM: Xid (PCI:0000:9b:00): 94, pid=1234, name=python3, Contained ECC error", "restart_app"),
    ("NVRM: Xid (PCI:0000:3b:00): 63, pid=0, Row Remapping Event: pending", "none"),  # format
    ("NVRM: Xid (PCI:0000:3b:00): 92, High single-bit ECC error rate", "none"),  # format
    ("NVRM: Xid (PCI:0000:3b:00): 95, pid=77, Uncontained ECC error", "reset_gpu"),  # format
    ("NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus", "reboot_node"),
    # A line that says it was non-fatal overrides the bucket (see the NVLink test above).
    ("NVRM: Xid (PCI:0000:01:00): 144, SAW_MVB Nonfatal XC0 i0 Link 0 (0x00000001 0x00000008 0x00000000 0x00000000 "
     "0x00000000 0x00000000)", "none"),
    ("kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149", "restart_app"),
])
def test_xid_action_is_the_catalog_bucket_mapped(classifier: Classifier, line: str, action: str) -> None:
    found = classifier.classify(line, "kernel")
    assert found is not None and found.xid is not None
    assert found.action == action


@pytest.mark.parametrize(("line", "action"), [
    ("NVRM: Xid (PCI:0000:3b:00): 154, GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)",
     "reboot_node"),
    ("NVRM: Xid (PCI:0000:3b:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)",
     "reset_gpu"),
    ("XID 154 GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)", "reboot_node"),
    ("gpu-health: GPU 5 recovery state: Node Reboot Required", "reboot_node"),
])
def test_xid_154_reads_its_own_recovery_action(classifier: Classifier, line: str, action: str) -> None:
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "gpu_reset_required"
    assert found.action == action


def test_every_category_and_rule_action_is_a_known_action(kb: KnowledgeBase) -> None:
    assert {c.action for c in kb.categories.values()} <= set(ACTIONS)
    assert {r.action for r in kb.rules if r.action} <= set(ACTIONS)
    assert {x.fault_action for x in kb.xids.values()} <= set(ACTIONS)


def test_every_classification_carries_an_action(classifier: Classifier) -> None:
    for line in ("RuntimeError: CUDA error: out of memory", "Killed", "nfs: server fs1 not responding, still trying"):
        found = classifier.classify(line)
        assert found is not None and found.action in ACTIONS, line
