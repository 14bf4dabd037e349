"""The knowledge-base rules added for issue 15 item 6 (real formats never seen), one case per new pattern.

Every line follows the documented or source-code message format of its emitter (the note of the rule
names it) with made-up hosts, addresses and numbers: none is a copy of a line of the real corpus
(tests/data/real/corpus.jsonl), so these tests check that a rule matches the format, not one line.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier

# (source, line, category)
FORMATS: list[tuple[str, str, str]] = [
    # GPU health tables and NVML handles (dcgmi health -c table; nvidia-smi / NVML error strings)
    ("system", "| Overall Health            | Warning                                         |", "gpu_device_unhealthy"),
    ("system", "Unable to detect the device handle for GPU00000000:3B:00.0: Unknown Error", "gpu_unavailable"),
    ("system", "Unable to get the device handle for GPU0000:DB:00.0: Not Found", "gpu_unavailable"),
    ("system", "ERROR: nvmlDeviceGetHandleByPciBusId() failed: Unknown Error", "gpu_unavailable"),
    ("system", "Failed to get details on GPU (0x3): Unknown Error", "gpu_unavailable"),
    # container runtime / device plugin (libnvidia-container, go-nvml, nvidia-container-toolkit)
    ("system", "E0918 07:11:02.331 1 main.go:132] Failed to initialize NVML: could not load NVML library.",
     "gpu_container_init"),
    ("system", "2025/01/09 11:20:45 Failed to start nvml with error: could not load NVML library", "gpu_container_init"),
    ("system", "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to "
     "a newer version, or use an earlier cuda container: unknown", "gpu_container_init"),
    ("system", "E1104 10:02:11.873 1 factory.go:83] failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND",
     "gpu_container_init"),
    ("system", "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc "
     "create failed: unable to start container process: error during container init: error running hook #1: error "
     "running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'csv'", "gpu_container_init"),
    # GPU driver initialisation (NVIDIA driver README "Common Problems"; open-gpu-kernel-modules)
    ("kernel", "[   12.882010] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM", "gpu_driver_init"),
    ("kernel", "[   12.901771] NVRM: RmInitAdapter: osInitNvMapping failed, bailing out of RmInitAdapter",
     "gpu_driver_init"),
    ("kernel", "[   12.901760] NVRM: osInitNvMapping: *** Cannot attach gpu", "gpu_driver_init"),
    ("kernel", "[ 1220.410020] NVRM: gpuWaitForGfwBootComplete_TU102: failed to wait for GFW_BOOT: (progress 0x7)",
     "gpu_driver_init"),
    ("kernel", "[    6.001122] NVRM: No NVIDIA graphics adapter found!", "gpu_driver_init"),
    ("kernel", "[    6.001190] NVRM: NVIDIA init module failed!", "gpu_driver_init"),
    # machine checks (EDAC sb/skx decoders; mcelog / rasdaemon memory-controller decode)
    ("kernel", "[Tue Mar  4 02:10:33 2025] EDAC skx MC1: CPU 17: Machine Check Event: 0x0 Bank 14: 0x8c00004000010091",
     "hardware_mce"),
    ("system", "3 2025-03-04 02:10:33 +0000 error: MEMORY CONTROLLER RD_CHANNEL3_ERR", "hardware_mce"),
    ("kernel", "[ 9912.120001] mce: [Hardware Error]: Machine check: Processor context corrupt", "hardware_mce"),
    # lockups and panics (Documentation/RCU/stallwarn.rst, kernel/workqueue.c, arm64/riscv oops banners)
    ("kernel", "[ 8810.440203] INFO: rcu_preempt_state detected stall on CPU 6 (t=15000 jiffies)", "kernel_lockup"),
    ("kernel", "[ 8810.441001] rcu: rcu_sched kthread starved for 2101 jiffies! g91441 f0x0 RCU_GP_WAIT_FQS(5) "
     "->state=0x402 ->cpu=3", "kernel_lockup"),
    ("kernel", "[ 7003.100021] BUG: workqueue lockup - pool cpus=12 node=1 flags=0x0 nice=0 stuck for 33s!",
     "kernel_lockup"),
    ("kernel", "[  512.004411] Unable to handle kernel paging request at virtual address ffff800011223344",
     "kernel_panic"),
    ("kernel", "[  512.004519] Oops [#1]", "kernel_panic"),
    # process crashes (glibc malloc diagnostics; PaddlePaddle launch.py)
    ("training", "malloc(): memory corruption (fast)", "process_crash"),
    ("training", "malloc(): smallbin double linked list corrupted", "process_crash"),
    ("training", "free(): invalid next size (normal)", "process_crash"),
    ("training", "ERROR 2025-02-01 10:20:30,401 launch.py:311] ABORT!!! Out of all 8 trainers, the trainer process "
     "with rank=[5] was aborted. Please check its log.", "process_crash"),
    # CUDA OOM (NCCL alloc.h wrappers, CUDA driver API wording)
    ("nccl", "gpu-q3:88120:88191 [6] include/alloc.h:124 NCCL WARN Failed to CUDA malloc 134217728 bytes", "cuda_oom"),
    ("training", "RuntimeError: CUDA driver error: out of memory", "cuda_oom"),
    # NCCL: peers, watchdog, transports, usage
    ("nccl", "gpu-q3:88120:88193 [6] misc/socket.cc:61 NCCL WARN socketProgressOpt: Call to send to 10.2.3.4<41442> "
     "failed : Broken pipe", "nccl_remote_peer"),
    ("nccl", "gpu-q3:88120:88193 [6] misc/socket.cc:480 NCCL WARN Net : Connect to 10.2.3.9<50122> failed : "
     "Connection reset by peer", "nccl_remote_peer"),
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
     "[10.2.3.9]:24511", "nccl_remote_peer"),
    ("training", "[rank5]:[E1201 10:11:12.000000000 ProcessGroupNCCL.cpp:1395] [PG ID 0 PG GUID 0(default_pg) Rank 5] "
     "First PG on this rank that detected no heartbeat of its watchdog.", "nccl_timeout"),
    ("nccl", "NET/IBext_v8 : Got completion from peer 10.2.3.4<42113> with status=4 opcode=32704 len=0 vendor err 81 "
     "(Send)", "nccl_error"),
    ("nccl", "libfabric:2211:1719001122::efa:cq:efa_rdm_pke_handle_rx_error():612<warn> err: 22, prov_err: Invalid "
     "argument (4)", "nccl_error"),
    ("nccl", "[gpu-q3:88120:0:88120] ib_mlx5_log.c:177  RNR retry count exceeded on mlx5_2:1/RoCE (synd 0x15 vend 0x82 "
     "hw_synd 0/0)", "nccl_error"),
    ("training", "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/"
     "NCCLUtils.hpp:272, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5",
     "nccl_user_error"),
    # InfiniBand HCA and port (mlx5 cmd.c / health.c; port_module_event)
    ("kernel", "[ 5521.012201] mlx5_core 0000:41:00.0: wait_func_handle_exec_timeout:1088:(pid 7711): cmd[4]: "
     "QUERY_CQ(0x402) No done completion", "ib_hca_fault"),
    ("kernel", "[ 5521.012310] mlx5_core 0000:41:00.0: mlx5_health_try_recover:327:(pid 7711): handling bad device here",
     "ib_hca_fault"),
    ("kernel", "[   88.120034] mlx5_core 0000:41:00.0: Port module event: module 1, Cable unplugged", "ib_link"),
    # remote filesystems (macOS/BSD NFS, libceph, CephFS, CIFS, NFSv4 state manager)
    ("kernel", "nfs server 10.8.0.2:/export/ckpt: not responding", "storage_remote_fs"),
    ("kernel", "[ 4412.100210] libceph: mon1 (1)10.8.0.12:6789 session lost, hunting for new mon", "storage_remote_fs"),
    ("kernel", "[ 4412.100877] ceph: mds0 caps stale", "storage_remote_fs"),
    ("kernel", "[ 4412.331000] CIFS: VFS: \\\\nas02 has not responded in 180 seconds. Reconnecting...",
     "storage_remote_fs"),
    ("kernel", "[ 4413.020001] NFS: nfs4_reclaim_open_state: Lock reclaim failed!", "storage_remote_fs"),
    # node-local disks (ext4 error summary, FAT, libata, ZFS)
    ("kernel", "[86412.001233] EXT4-fs (md0): initial error at time 1712231321: ext4_journal_check_start:83",
     "storage_local_disk"),
    ("kernel", "[  301.220011] FAT-fs (sdb1): Directory bread(block 8192) failed", "storage_local_disk"),
    ("kernel", "[ 7712.002110] ata4.00: failed command: WRITE FPDMA QUEUED", "storage_local_disk"),
    ("kernel", "zio pool=scratch vdev=/dev/disk/by-id/nvme-SAMSUNG_1-part1 error=5 type=2 offset=81920 size=4096 "
     "flags=180880", "storage_local_disk"),
    # object stores seen by the job (botocore ClientError; google-api-core): the storage service failed, so
    # storage_remote_fs since brief K6 (rule storage.object_store)
    ("training", "botocore.exceptions.ClientError: An error occurred (ServiceUnavailable) when calling the "
     "UploadPart operation (reached max retries: 4): Please reduce your request rate.", "storage_remote_fs"),
    ("training", "google.api_core.exceptions.TooManyRequests: 429 PUT https://storage.googleapis.com/upload/x: rate",
     "storage_remote_fs"),
]

# Lines in the same formats that report nothing to act on.
BENIGN: list[tuple[str, str]] = [
    ("system", "| Overall Health            | Healthy                                         |"),
    ("kernel", "[   11.097110] mlx5_core 0000:41:00.0: Port module event: module 1, Cable plugged"),
    ("kernel", "[    3.499133] nvme 0000:02:00.0: AER:   Error of this Agent is reported first"),
    ("nccl", "gpu-q3:88120:88120 [0] NCCL WARN NET/Plugin : Plugin load returned 2 : libnccl-net-ofi.so: cannot open "
     "shared object file: No such file or directory"),
    ("nccl", "gpu-q3:88120:88120 [0] NCCL WARN NET/IB : No device found."),
    ("training", "[W1201 10:00:01.223000000 socket.cpp:752] [c10d] The client socket has failed to connect to "
     "[gpu-q3]:29500 (errno: 22 - Invalid argument)."),
    ("training", "[W socket.cpp:464] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 97 - Address "
     "family not supported by protocol)."),
    ("kernel", "zio pool=scratch vdev=/dev/sdb1 error=0 type=1 offset=4096 size=512"),
    ("kernel", "[    2.100211] ata2.00: configured for UDMA/133"),
    ("nccl", "libfabric:2211:1719001122::efa:ep_ctrl:efa_rdm_ep_set_use_device_rdma():1390<warn> FI_OPT_EFA_USE_DEVICE"
     "_RDMA is set"),
    ("kernel", "[  920.331208] nfs: server 10.8.0.2 OK"),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_new_format_rule_matches(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_same_format_without_a_fault_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    assert classifier.classify(line, source) is None


def test_cuda_failure_inside_nccl_keeps_its_cuda_category_over_the_usage_rule(classifier: Classifier) -> None:
    # 'invalid argument' in a NCCL Cuda failure is the CUDA call's error, not ncclInvalidArgument.
    found = classifier.classify("gpu-q3:88120:88191 [6] enqueue.cc:61 NCCL WARN Cuda failure 'invalid argument'", "nccl")
    assert found is not None and found.category == "nccl_cuda_error"


def test_edac_machine_check_event_is_counted_without_action(classifier: Classifier) -> None:
    found = classifier.classify("EDAC sbridge MC0: CPU 4: Machine Check Event: 0 Bank 9: 8c00004000010091", "kernel")
    assert found is not None and (found.category, found.action) == ("hardware_mce", "none")
