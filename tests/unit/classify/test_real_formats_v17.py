"""Brief K18 (issue 15 point 6): the format families behind the holdout17 misses, one case per new pattern.

Part 1 checks benign look-alikes next to each new pattern (a DCGM watch that is healthy, mount.nfs progress lines,
HDFS notices, a disk that grows, a user-requested XFS shutdown, a single mlx5 command answered with a bad status,
CPER memory-location continuation lines, a scheduler daemon's systemd exit line, ...). Part 2 checks the formats:
every x86 die() trap banner, PyTorch's zip container failures, NFS/CIFS mount helpers failing with an errno text,
the HDFS client family, old netdev transmit timeouts, Slurm GRES GPU-count and device-file failures, DCGM health
watches as NVSentinel node conditions and DCGM_FR_* codes, the amdgpu MES family, the mlx5 command interface,
memory-failure SIGBUS kills and XFS's own failure vocabulary. Every line follows the documented or source-code
format of its emitter (cited in the rule's note), with made-up hosts, ids and numbers. None is a copy of a line of
the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the new patterns
BENIGN: list[tuple[str, str]] = [
    # DCGM health watches that pass (NVSentinel node condition False, DCGM_FR_OK, PASS result)
    ("system", "GpuMemWatch = False   reason=GpuMemWatchIsHealthy"),
    ("system", "ErrorCode:DCGM_FR_OK GPU:5 no error found"),
    ("system", "health result for group 3: DCGM_HEALTH_RESULT_PASS"),
    # mount.nfs progress lines (mount -v)
    ("system", "mount.nfs4: timeout set for Wed Apr  8 09:10:11 2026"),
    ("system", "mount.nfs: trying text-based options 'vers=3,addr=172.16.4.9'"),
    # HDFS client notices
    ("system", "26/04/08 10:11:12 INFO hdfs.DFSClient: Created HDFS_DELEGATION_TOKEN token 4411 for etl on 10.8.0.3:8020"),
    ("system", "26/04/08 10:11:13 INFO hdfs.LeaseRenewer: Renewed lease for [DFSClient_NONMAPREDUCE_-88213_1]"),
    # a disk appearing (growth from 0), a detached loop device, and a disk going away (its headline carries it)
    ("kernel", "[    4.551020] nvme3n1: detected capacity change from 0 to 3840755982336"),
    ("kernel", "[  912.400111] loop7: detected capacity change from 131072 to 0"),
    ("kernel", "[ 6120.900100] sdk: detected capacity change from 4000787030016 to 0"),
    # a user-requested XFS shutdown (SHUTDOWN_FORCE_UMOUNT, 0x4)
    ("kernel", "XFS (sdc1): xfs_do_force_shutdown(0x4) called from line 2101 of file fs/xfs/xfs_fsops.c. "
               "Return address = xfs_fs_goingdown+0x4a/0x90 [xfs]"),
    # one mlx5 command answered with a bad status (routine on some firmware)
    ("kernel", "mlx5_core 0000:5e:00.0: mlx5_cmd_out_err:812:(pid 9031): QUERY_HCA_CAP(0x100) op_mod(0x2) failed, "
               "status bad parameter(0x3), syndrome (0x3e2c7a), err(-22)"),
    # CPER memory-error location continuation lines
    ("kernel", "[ 512.114400] {7}[Hardware Error]:   physical_address: 0x000000b1c2d3e000"),
    ("kernel", "[ 512.114401] {7}[Hardware Error]:   node:1 card:2 module:5 rank:0 bank:11 row:40121 column:1016"),
    # a workload-manager daemon's systemd exit line (its own fatal line carries the fault)
    ("system", "Apr 08 11:12:13 gpu-r4n2 systemd[1]: slurmctld.service: Main process exited, code=exited, "
               "status=1/FAILURE"),
    ("system", "Apr 08 11:12:13 gpu-r4n2 systemd[1]: slurmd.service: Failed with result 'exit-code'."),
    # Slurm GRES with enough GPUs and a link that comes back
    ("system", "[2026-04-08T11:12:14.000] debug:  gres/gpu: _node_config_init: found 8 GPUs on node gpu-r4n2"),
    ("kernel", "[ 302.000100] eth1: link up, 1000Mbps, full-duplex, lpa 0x45E1"),
]

# ---- Part 2: the formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # arch/x86/kernel/traps.c die() banners for every trap name
    ("kernel", "[ 8801.220311] divide error: 0000 [#1] SMP NOPTI", "kernel_panic", "kernel.panic"),
    ("kernel", "[  301.000712] int3: 0000 [#2] PREEMPT SMP KASAN", "kernel_panic", "kernel.panic"),
    ("kernel", "kernel: segment not present: 0000 [#1] SMP", "kernel_panic", "kernel.panic"),
    ("kernel", "[ 44.120000] control protection fault: 0000 [#1] PREEMPT SMP NOPTI", "kernel_panic", "kernel.panic"),
    # caffe2/serialize/inline_container.cc
    ("training", "RuntimeError: [enforce fail at inline_container.cc:471] . PytorchStreamWriter failed opening "
                 "archive.", "storage_io", "storage.block_io"),
    ("training", "RuntimeError: PytorchStreamReader failed locating file constants.pkl: file not found",
     "storage_io", "storage.block_io"),
    # nfs-utils / cifs-utils mount helpers with an errno text
    ("system", "mount.nfs: No route to host", "storage_remote_fs", "storage.remote_fs"),
    ("system", "mount.nfs4: access denied by server while mounting nas-3:/vol/datasets", "storage_remote_fs",
     "storage.remote_fs"),
    ("system", "mount.nfs: requested NFS version or transport protocol is not supported", "storage_remote_fs",
     "storage.remote_fs"),
    # hadoop-hdfs-client
    ("system", "26/05/01 03:04:05 WARN hdfs.LeaseRenewer: Failed to renew lease for [DFSClient_attempt_991_m_0001_0_"
               "17_1] for 61 seconds.  Will retry shortly ...", "storage_remote_fs", "storage.remote_fs"),
    ("system", "26/05/01 03:04:06 WARN hdfs.DataStreamer: Exception in createBlockOutputStream blk_1073 "
               "java.io.IOException: Bad connect ack with firstBadLink as 10.8.1.7:9866", "storage_remote_fs",
     "storage.remote_fs"),
    ("training", "java.io.IOException: All datanodes [DatanodeInfoWithStorage[10.8.1.7:9866,DS-1,DISK]] are bad. "
                 "Aborting...", "storage_remote_fs", "storage.remote_fs"),
    ("training", "org.apache.hadoop.hdfs.BlockMissingException: Could not obtain block: BP-77-10.8.0.3-1700000000 "
                 "file=/datasets/shard-0042.parquet", "storage_remote_fs", "storage.remote_fs"),
    # old netdev ndo_tx_timeout messages
    ("kernel", "eth1: Transmit timeout, status 0c 0005 c07f media 10.", "net_link_down", "net.link_down"),
    ("kernel", "[ 1201.330001] eth0: transmit timed out, tx_status 00 status e681.", "net_link_down", "net.link_down"),
    # Slurm GRES
    ("system", "Apr 9 01:02:03 head-2 slurmctld[4410]: error: Setting node gn-17 state to INVAL with reason:gres/gpu "
               "count reported lower than configured (7 < 8)", "gpu_unavailable", "gpu.unavailable.k15"),
    ("system", "   Reason=gres/gpu count too low (2 < 4) [slurm@2026-04-09T01:02:03]", "gpu_unavailable",
     "gpu.unavailable.k15"),
    ("system", "Apr 9 01:02:04 gn-17 slurmd[2211]: fatal: can't stat gres.conf file /dev/nvidia5: No such file or "
               "directory", "gpu_unavailable", "gpu.unavailable.k15"),
    ("system", "slurmd: warning: Ignoring file-less GPU gpu:a100 from final GRES list", "gpu_unavailable",
     "gpu.unavailable.k15"),
    # DCGM health watches (NVSentinel node conditions) and DCGM_FR_* codes
    ("system", "GpuPowerWatch = True   reason=GpuPowerWatchIsNotHealthy", "gpu_device_unhealthy",
     "gpu.health_watch.k18"),
    ("system", "  ErrorCode:DCGM_FR_PCI_REPLAY_RATE GPU:6 Detected 12 PCIe replays on GPU 6 Recommended Action=NONE;",
     "gpu_device_unhealthy", "gpu.health_watch.k18"),
    ("system", "ErrorCode:DCGM_FR_VOLATILE_DBE_DETECTED GPU:2 Detected 1 volatile double-bit ECC error(s) in GPU 2.",
     "gpu_memory_ecc", "gpu.ecc_text"),
    ("system", "ErrorCode:DCGM_FR_NVLINK_DOWN GPU:4 GPU 4's NvLink link 9 is currently down", "gpu_nvlink",
     "gpu.nvlink_text"),
    # amdgpu MES
    ("kernel", "[ 9012.500400] amdgpu 0000:83:00.0: amdgpu: MES(0) failed to respond to msg=SUSPEND", "gpu_driver_error",
     "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu 0000:83:00.0: amdgpu: failed to unmap legacy queue", "gpu_driver_error",
     "gpu.amdgpu_driver_error"),
    # mlx5 command interface
    ("kernel", "mlx5_core 0000:af:00.0: cmd_work_handler:902:(pid 7120): failed to allocate command entry",
     "ib_hca_fault", "ib.hca_fault"),
    ("kernel", "mlx5_core 0000:af:00.0: cmd_work_handler:921:(pid 7120): MODIFY_CQ(0x403) canceled on out of queue "
               "timeout.", "ib_hca_fault", "ib.hca_fault"),
    # mm/memory-failure.c kill_proc
    ("kernel", "[ 3301.004512] Memory failure: 0x2b11f0: Sending SIGBUS to python3:88120 due to hardware memory "
               "corruption", "hardware_mce", "host.mce_uncorrected"),
    ("kernel", "MCE 0x1f00a2: Killing java:4410 due to hardware memory corruption", "hardware_mce",
     "host.mce_uncorrected"),
    # XFS failure vocabulary
    ("kernel", "XFS (nvme0n1p4): xfs_do_force_shutdown(0x1) called from line 1321 of file fs/xfs/xfs_buf.c. "
               "Return address = xfs_buf_ioend+0x1c0/0x220 [xfs]", "storage_local_disk", "storage.local_disk"),
    ("kernel", "XFS (md127): ctx ticket reservation ran out. Need to up reservation", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "XFS (dm-2): Metadata CRC error detected at xfs_agf_read_verify+0x90/0xf0 [xfs], xfs_agf block 0x1",
     "storage_local_disk", "storage.local_disk"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if rule_id is not None:
        assert found.rule_id == rule_id, (found.rule_id, line)


def test_a_job_service_exit_is_still_a_fault(classifier: Classifier) -> None:
    """Only the workload manager's daemons are exempt: a training job run as a unit still exits non-zero."""
    found = classifier.classify("Apr 08 11:12:13 gpu-r4n2 systemd[1]: finetune.service: Main process exited, "
                                "code=exited, status=3/NOTIMPLEMENTED", "system")
    assert found is not None
    assert found.category == "process_exit_nonzero"


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0


@pytest.mark.parametrize(("line", "action"), [
    ("  ErrorCode:DCGM_FR_CLOCKS_EVENT_POWER GPU:5 Clocks event: power violation on GPU 5 Recommended Action=NONE;",
     "none"),
    ("GpuThermalWatch = True   reason=GpuThermalWatchIsNotHealthy", "none"),
    ("dcgm health check on gpu-node-17: DCGM_HEALTH_RESULT_WARN", "none"),
    ("GpuInforomWatch = True   reason=GpuInforomWatchIsNotHealthy", "reset_gpu"),
    ("gpu-node-03 dcgm health: DCGM_HEALTH_RESULT_FAIL", "reset_gpu"),
])
def test_a_health_watch_takes_a_node_only_when_the_gpu_failed(classifier: Classifier, line: str, action: str) -> None:
    """Thermal, power and clock events, warnings and watches DCGM recommends nothing for count
    against the node but take no node alone (TAXONOMY: action none)."""
    found = classifier.classify(line, "system")
    assert found is not None and found.category == "gpu_device_unhealthy", line
    assert found.action == action, line


@pytest.mark.parametrize(("line", "action"), [
    ("NETDEV WATCHDOG: enp65s0f1 (mlx5_core): transmit queue 11 timed out 5124 ms", "none"),
    ("ena 0000:00:06.0 ens6: Keep alive watchdog timeout.", "none"),
    ("igb 0000:03:00.1 eno2: Detected Tx Unit Hang", "none"),
    ("i40e 0000:5e:00.0 ens785f0: NIC Link is Down", "reboot_node"),
    ("bond1: now running without any active interface!", "reboot_node"),
])
def test_a_nic_the_driver_recovers_takes_no_node(classifier: Classifier, line: str, action: str) -> None:
    """A transmit timeout or unit hang makes the driver reset its queue or adapter and traffic
    resumes: it counts against the node but takes none; a link that went down keeps the node action."""
    found = classifier.classify(line, "kernel")
    assert found is not None and found.category == "net_link_down", line
    assert found.action == action, line


def test_a_pending_page_retirement_takes_no_node(classifier: Classifier) -> None:
    """DCGM: a pending retired page is retired at the next driver reload; the GPU can still
    work (DCGM_FR_PENDING_PAGE_RETIREMENTS): action none, like pending row remaps."""
    found = classifier.classify("dcgmi diag: A pending retired page has been detected in GPU 5.", "system")
    assert found is not None and (found.category, found.action) == ("gpu_memory_ecc", "none")


def test_a_shell_bus_error_is_no_cuda_error(classifier: Classifier) -> None:
    found = classifier.classify("fish: Job 2, 'torchrun --nproc 8 pretrain.py' terminated by signal SIGBUS "
                                "(Misaligned address error)", "training")
    assert found is None or found.category != "cuda_illegal_memory_access"


@pytest.mark.parametrize("line", [
    "  GPU 00000000:B7:00.0: In use by another client",
    "Failed to get unit file state for nvidia-fabricmanager.service: Connection timed out",
])
def test_operator_and_systemd_notices_take_no_gpu(classifier: Classifier, line: str) -> None:
    """nvidia-smi refusing an operator's reset because the GPU is busy with work, and systemd unable to read a unit's
    state, report no GPU or fabric fault (both were filed with reset_gpu)."""
    assert classifier.classify(line, "system") is None, line
