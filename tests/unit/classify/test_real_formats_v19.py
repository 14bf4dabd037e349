"""Brief K19 (issue 15 point 6): the format families behind the holdout19 misses, one case per new pattern.

Part 1 checks benign look-alikes next to each new pattern (SCSI unit-attention sense data, nouveau start-up lines,
amdgpu notices, a soft-recovered ring, rclone INFO lines, a systemd unit skipped by its condition, a Slurm cancel
with no reason, the PyTorch flight-recorder hint, detail lines of an MCE record, an amdgpu GMC fault decode and an
NMI, permission failures on an NVMe scratch path, a libfabric provider notice). Part 2 checks the formats: EXT2/3
error lines, SCSI additional sense, legacy IDE status/error lines, amdgpu SMU/powerplay/KFD/IP-block failures,
amdgpu DRM_ERROR lines, nouveau graphics/FIFO traps and channel failures, GPUDirect RDMA (nvidia-peermem, gdrdrv,
NVRM nv_p2p_*), TensorFlow LOG(FATAL) lines, localized shell crash notices, kubectl pod rows in error, kubelet
volume failures, rclone errors, libfabric and RDMA memory-registration failures, mlx5 QP/CQ command failures, CUDA
library allocator failures, RCCL IPC failures, NFS automounter / RPC slot lines, 2.6-era NMI watchdog lockups,
EDAC without its prefix, Windows exception exits and Open MPI's signal banner. Every line follows the documented or
source-code format of its emitter (cited in the rule's note), with made-up hosts, ids and numbers. None is a copy
of a line of the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign look-alikes of the new patterns
BENIGN: list[tuple[str, str]] = [
    # SCSI unit attention / informational additional sense
    ("kernel", "[   31.002200] sd 3:0:1:0: [sdf] tag#12 Add. Sense: Power on, reset, or bus device reset occurred"),
    ("kernel", "[   31.002300] sd 3:0:1:0: [sdf] tag#12 Add. Sense: No additional sense information"),
    # nouveau start-up lines
    ("kernel", "[    6.100200] nouveau 0000:0a:00.0: gr: using external firmware"),
    ("kernel", "[    6.100300] nouveau 0000:0a:00.0: DRM: VRAM: 8192 MiB"),
    # amdgpu notices and a ring that recovered by itself (the KB's convention, test_real_formats_v11)
    ("kernel", "amdgpu 0000:2b:00.0: amdgpu: SMU is initialized successfully!"),
    ("kernel", "[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring comp_1.1.0 timeout, but soft recovered"),
    ("kernel", "[drm:amdgpu_job_timedout [amdgpu]] *ERROR* Process information: process python pid 881 thread python pid 881"),
    # rclone notices
    ("system", "2024/05/06 07:08:09 INFO  : shard-0042.tar: Copied (new)"),
    ("system", "2024/05/06 07:08:10 NOTICE: ckpt/: Duplicate object found in source - ignoring"),
    # a systemd unit skipped by its ConditionXxx=
    ("system", "Jan 02 03:04:05 gpu-n17 systemd[1]: Condition check resulted in Machine Check Exception Logging "
               "Daemon being skipped."),
    # a Slurm cancel with no reason (a user's scancel)
    ("system", "slurmstepd: error: *** STEP 90211.3 ON gpu-n17 CANCELLED AT 2026-01-02T03:04:05 ***"),
    # PyTorch flight-recorder hint (context line of the watchdog failure)
    ("training", "[rank7]:[E0102 03:04:05.123456 4411 ProcessGroupNCCL.cpp:1701] Stack trace of the failed collective "
                 "not found, potentially because FlightRecorder is disabled. You can enable it by setting "
                 "TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value."),
    # detail lines: MCE record continuation, amdgpu GMC fault decode, the NMI's second line
    ("kernel", "mce: [Hardware Error]: TSC 0 ADDR 7fe2c31a0 MISC d012000100000000 SYND 4d000000 IPID 9600050f00"),
    ("kernel", "amdgpu 0000:2b:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00301031"),
    ("kernel", "amdgpu 0000:2b:00.0: amdgpu: \t Faulty UTCL2 client ID: TCP (0x8)"),
    ("kernel", "[ 9120.410001] Dazed and confused, but trying to continue"),
    # permission failures on a scratch path that names an NVMe mount
    ("system", "spank-prolog: error: pyxis: mkdir: cannot create directory '/scratch/nvme1/enroot/cache': "
               "Permission denied"),
    # libfabric provider notices
    ("training", "libfabric:9911:1700000000::efa:core:efa_device_init():201<warn> device has no GPUDirect support"),
    # GPUDirect module notices
    ("kernel", "nvidia-peermem nv_mem_client_init:480 INFO: peer-memory client registered"),
]

# ---- Part 2: the formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # fs/ext3 and fs/ext2 ext*_error / ext*_abort
    ("kernel", "EXT3-fs error (device sdb2): ext3_lookup: deleted inode referenced: 2211045", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "EXT3-fs abort (device md0): ext3_remount: Abort forced by user", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "EXT2-fs error (device hda3): ext2_check_page: bad entry in directory #41: rec_len is too small",
     "storage_local_disk", "storage.local_disk"),
    # drivers/scsi/constants.c additional sense
    ("kernel", "[ 7110.220311] sd 4:0:2:0: [sdh] tag#9 Add. Sense: Logical block address out of range",
     "storage_local_disk", "storage.local_disk"),
    # drivers/ide ide_dump_status
    ("kernel", "hda: dma_intr: status=0x51 { DriveReady SeekComplete Error }", "storage_local_disk",
     "storage.local_disk"),
    ("kernel", "hdc: task_in_intr: error=0x40 { UncorrectableError }, LBAsect=882211, sector=882200",
     "storage_local_disk", "storage.local_disk"),
    # amdgpu powerplay / swsmu / amdgpu_device / amdkfd
    ("kernel", "amdgpu 0000:0c:00.0: amdgpu: Failed to send message 0x2b, response 0xfe", "gpu_driver_error",
     "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu: [powerplay] Failed to set hard min uclk !", "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "[drm:amdgpu_device_ip_resume_phase2 [amdgpu]] *ERROR* resume of IP block <gfx_v10_0> failed -110",
     "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "[drm:amdgpu_ras_eeprom_init [amdgpu]] *ERROR* Failed to read EEPROM table header, res:-110",
     "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu: qcm fence wait loop timeout expired", "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu 0000:0c:00.0: amdgpu: No more SDMA queue to allocate", "gpu_driver_error",
     "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu: process pid 10231 DQM create queue type 0 failed. ret -28", "gpu_driver_error",
     "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu 0000:0c:00.0: timeout waiting for kiq fence", "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "WARNING: CPU: 7 PID: 3120 at drivers/gpu/drm/amd/amdgpu/amdgpu_vm.c:1421 "
               "amdgpu_vm_update_range+0x2a1/0x8c0 [amdgpu]", "gpu_driver_error", "gpu.amdgpu_driver_error"),
    ("kernel", "amdgpu 0000:0c:00.0: amdgpu: IP block:sdma_v5_2 is hung!", "gpu_xid_other",
     "gpu.amdgpu_ring_timeout"),
    # nouveau engine traps and channel failures
    ("kernel", "[ 1022.300100] nouveau 0000:0a:00.0: gr: TRAP ch 7 [00ff41c000 firefox[5521]]",
     "gpu_graphics_engine_fault", "gpu.nouveau_engine_fault.k19"),
    ("kernel", "nouveau 0000:0a:00.0: fifo: SCHED_ERROR 0a [CTXSW_TIMEOUT]", "gpu_graphics_engine_fault",
     "gpu.nouveau_engine_fault.k19"),
    ("kernel", "nouveau 0000:0a:00.0: Xorg[1202]: channel 2 killed!", "gpu_graphics_engine_fault",
     "gpu.nouveau_engine_fault.k19"),
    ("kernel", "[   12.004400] nouveau 0000:0a:00.0: drm: failed to create kernel channel, -19", "gpu_driver_error",
     "gpu.nouveau_driver_error.k19"),
    # GPUDirect RDMA
    ("kernel", "nvidia-peermem nv_dma_map:372 ERROR nvidia_p2p_dma_map_pages failed -22", "gpu_driver_error",
     "gpu.p2p_driver.k19"),
    ("kernel", "gdrdrv:gdrdrv_mmap:error -14 in remap_pfn_range()", "gpu_driver_error", "gpu.p2p_driver.k19"),
    ("kernel", "NVRM: Invalid argument in nv_p2p_get_pages, address or length are not aligned address=0x7f0000001000",
     "gpu_driver_error", "gpu.p2p_driver.k19"),
    # TensorFlow LOG(FATAL)
    ("training", "2019-05-06 07:08:09.101112: F tensorflow/core/kernels/split_op.cc:311] Check failed: "
                 "num_split > 0 (0 vs. 0)", "process_crash", "process.tf_fatal.k19"),
    # localized shell crash notices (zh_CN)
    ("training", "段: 已放弃 (核心已转储)", "process_crash", "process.crash"),
    ("training", "run.sh: 行 12: 40211 已杀死               python train.py", "process_killed", "process.killed"),
    # kubectl get pods rows
    ("system", "trainjob-launcher-7x2kq                 0/1     Error              0          41m",
     "process_exit_nonzero", "process.exit_nonzero"),
    # kubelet volume failures
    ("system", "E0211 10:11:12.131415    2210 kubelet.go:1800] \"Unable to attach or mount volumes for pod; skipping "
               "pod\" err=\"unmounted volumes=[ckpt], unattached volumes=[ckpt]: timed out waiting for the condition\"",
     "storage_remote_fs", "storage.volume_mount"),
    ("system", "Error: UnmountVolume.TearDown failed for volume \"data\" (UniqueName: \"kubernetes.io/nfs/9a1b-data\")",
     "storage_remote_fs", "storage.volume_mount"),
    ("system", "timeout expired waiting for volumes to attach or mount for pod \"train\"/\"worker-3\"",
     "storage_remote_fs", "storage.volume_mount"),
    # rclone
    ("system", "2023/09/10 11:12:13 ERROR : data/part-0007.parquet: WriteFileHandle: Flush: failed to upload",
     "storage_remote_fs", "storage.rclone.k19"),
    # libfabric and RDMA memory registration
    ("training", "libfabric:5120:1700000001:verbs:ep_ctrl:vrb_ep_enable():901<warn> rdma_create_qp: "
                 "Cannot allocate memory (12)", "nccl_error", "comm.ucx_mpi"),
    ("training", "2024-02-03T04:05:06.789Z ERROR rdma_engine::mr: ibv_reg_mr failed: Bad address", "nccl_error",
     "comm.ucx_mpi"),
    # mlx5 command interface on QP/CQ objects
    ("kernel", "mlx5_core 0000:af:00.1: mlx5_cmd_out_err:803:(pid 7712): CREATE_CQ(0x400) op_mod(0x0) failed, "
               "status limits exceeded(0x8), syndrome (0x2a11c0), err(-12)", "nccl_error", "comm.mlx5_cqe.k15"),
    # CUDA library allocator failures
    ("training", "RuntimeError: cuBLAS error: CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)",
     "cuda_oom", "cuda.oom"),
    ("training", "Error in thread 1: CUDA allocation failed", "cuda_oom", "cuda.oom"),
    # RCCL/NCCL P2P IPC
    ("nccl", "gpu-x3:9912:9950 [2] transport/p2p.cc:231 NCCL WARN hipIpcOpenMemHandle failed : invalid argument",
     "nccl_cuda_error", "nccl.cuda_error"),
    # NFS automounter and sunrpc
    ("system", "amd[2211]: file server fs07 type nfs is down", "storage_remote_fs", "storage.remote_fs"),
    ("kernel", "nfs: task 4410 can't get a request slot", "storage_remote_fs", "storage.remote_fs"),
    # 2.6-era NMI watchdog and EDAC without its prefix
    ("kernel", "NMI Watchdog detected LOCKUP on CPU 7, eip c0119a31, registers:", "kernel_lockup", "kernel.lockup"),
    ("kernel", "skx: HANDLING MCE MEMORY ERROR", "hardware_mce", "host.mce_corrected"),
    # Windows exception exits naming the exception; Open MPI's signal banner
    ("training", "error=\"llama runner process has terminated: exit status 0xc000001d: {EXCEPTION}\"",
     "process_crash", "process.crash"),
    ("training", "[gpu-n4:22011] *** Process received signal ***", "process_crash", "process.crash"),
    # Slurm cancel that names a node failure; systemd guard; NMI headline on one line
    ("system", "slurmstepd: error: *** STEP 90211.4 ON gpu-n17 CANCELLED AT 2026-01-02T03:04:05 DUE TO NODE "
               "FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***", "process_killed", "slurm.node_failure_step.f8"),
    ("kernel", "Uhhuh. NMI received for unknown reason 2d on CPU 3. Dazed and confused, but trying to continue",
     "hardware_mce", "host.nmi_hardware"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found.rule_id if found else None, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if rule_id is not None:
        assert found.rule_id == rule_id, (found.rule_id, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
