"""Knowledge-base rules added or widened from public vendor knowledge (brief K5), one case per pattern.

Every line follows the documented message format of its emitter, cited next to it (kernel source files, vendor
catalogues and manuals, library sources), with made-up hosts, ids and numbers. None is a copy of a line of the
real corpus (checked below without printing any corpus line), so these tests check formats, not lines.
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (source, line, category, action or None when the category default applies)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # ---- comm
    # UCX logger, ucs/debug/log.c: "[sec.usec] [host:pid:tid] file.c:line UCX  ERROR <message>"
    ("nccl", "[1731001122.004410] [a100-n07:55120:0]          ib_md.c:293  UCX  ERROR ibv_reg_mr(address=0x7f10, "
     "length=4096, access=0xf) failed: Bad address", "nccl_error", None),
    # Open MPI help-errmgr-base.txt / prte: lost daemon
    ("training", "PRTE has lost communication with a remote daemon.", "nccl_remote_peer", None),
    # Open MPI help-mpi-btl-openib.txt
    ("training", "The InfiniBand retry count between two MPI processes has been", "nccl_error", None),
    # Open MPI btl_openib_component.c handle_wc
    ("training", "[[5120,1],7][btl_openib_component.c:3610:handle_wc] from a100-n07 to: a100-n09 error polling HP CQ "
     "with status WORK REQUEST FLUSHED ERROR status number 5 for wr_id 2a8b0c0 opcode 128  vendor error 244 qp_idx 3",
     "nccl_error", None),
    # Open MPI help-mpi-btl-tcp.txt
    ("training", "A process or daemon was unable to complete a TCP connection", "nccl_error", None),
    # Open MPI btl_tcp_frag.c mca_btl_tcp_frag_recv
    ("training", "[[5120,1],2][btl_tcp_frag.c:237:mca_btl_tcp_frag_recv] mca_btl_tcp_frag_recv: readv failed: "
     "Connection timed out (110)", "nccl_error", None),
    # Gloo (torch c10d ProcessGroupGloo rendezvous)
    ("training", "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] "
     "Connection refused", "nccl_error", None),
    # PyTorch ProcessGroupNCCL.cpp ncclCommWatchdog
    ("training", "[E ProcessGroupNCCL.cpp:467] [Rank 4] NCCL watchdog thread terminated with exception: NCCL "
     "communicator was aborted on rank 4.", "nccl_error", None),
    # PyTorch distributed_c10d.py _store_based_barrier
    ("training", "RuntimeError: Timed out initializing process group in store based barrier on rank: 3, for key: "
     "store_based_barrier_key:1 (world_size=16, worker_count=12, timeout=0:30:00)", "nccl_timeout", None),
    # Horovod stall_inspector.cc; XLA/TSL coordination service barrier and heartbeats (the barrier timeout is the
    # JAX rendezvous: torch_elastic since brief K10, like the c10d store of brief K8)
    ("training", "W stall_inspector.cc:138 One or more tensors were submitted to be reduced, gathered or broadcasted by "
     "subset of ranks and are waiting for remainder of ranks for more than 30 seconds.", "nccl_timeout", None),
    ("training", "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
     "PjRT_Client_Connect", "torch_elastic", None),
    ("training", "F0112 04:21:09.118210 88120 client.cc:94] Terminating process because the coordinator detected "
     "missing heartbeats. This most likely indicates that another task died.", "nccl_remote_peer", None),
    # Horovod operations.cc (a peer's failure stopped the job: nccl_remote_peer since K28); librdmacm rdma_cm.h events; libibverbs async events
    ("training", "horovod.common.exceptions.HorovodInternalError: Horovod has been shut down. This was caused by an "
     "exception on one of the ranks or an attempt to allreduce, allgather or broadcast a tensor after one of the "
     "ranks finished execution.", "nccl_remote_peer", None),
    ("training", "rdma_connect: event RDMA_CM_EVENT_UNREACHABLE, error -110", "nccl_error", None),
    ("nccl", "worker-3: async event IBV_EVENT_QP_FATAL on mlx5_1", "nccl_error", None),
    # ibverbs calls as NCCL/ibverbs users report them (verbs man pages: ibv_post_send returns errno)
    ("nccl", "a100-n07:55120:55190 [2] ibvwrap.c:188 ibv_modify_qp failed with error Connection timed out",
     "nccl_error", None),
    # perfquery (infiniband-diags) PortCounters
    ("system", "SymbolErrorCounter:..............1204", "ib_link", None),
    ("system", "LinkErrorRecoveryCounter:........3", "ib_link", None),
    # e1000e/igb netdev_err "Detected Hardware Unit Hang"; bnxt_en "TX timeout detected"; mlx5e tx timeout
    ("kernel", "e1000e 0000:00:1f.6 eno1: Detected Hardware Unit Hang:", "net_link_down", None),
    ("kernel", "bnxt_en 0000:41:00.0 enp65s0f0np0: TX timeout detected, starting reset task!", "net_link_down", None),
    ("kernel", "mlx5_core 0000:17:00.0 ens1f0np0: TX timeout on queue: 9, SQ: 0x12e4, CQ: 0x8a1, SQ Cons: 0x2f1 "
     "SQ Prod: 0x301, usecs since last trans: 18432000", "net_link_down", None),
    # ---- gpu_driver
    # NVIDIA kernel module nv.c API mismatch; NVML NVML_ERROR_LIB_RM_VERSION_MISMATCH (nvidia-smi)
    ("kernel", "[ 812.440918] NVRM: API mismatch: the client has the version 535.183.06, but", "gpu_driver_init", None),
    ("system", "2026/01/12 04:11:09 Failed to initialize NVML: Driver/library version mismatch", "gpu_driver_init", None),
    # NVIDIA notice NVIDIA/nvidia-docker#1730 "Containers losing access to GPUs with error: Failed to initialize NVML:
    # Unknown Error" (nvidia-smi inside the container)
    ("training", "[train-7f9c] Failed to initialize NVML: Unknown Error",
     "gpu_container_init", None),
    # open-gpu-kernel-modules kernel_gsp.c / kernel_gsp_gh100.c boot failures
    ("kernel", "NVRM: kgspBootstrap_GH100: Timeout waiting for lockdown release.", "gpu_driver_init", None),
    ("kernel", "NVRM: GPU3 kgspInitRm_IMPL: cannot bootstrap riscv/gsp: 0x62", "gpu_driver_init", None),
    # open-gpu-kernel-modules kernel_gsp.c _kgspRpcRecvPoll heartbeat checks
    ("kernel", "NVRM: GPU5 _kgspRpcRecvPoll: LibOS heartbeat timed out", "gpu_gsp_timeout", None),
    # NVIDIA driver README "Common Problems"
    ("kernel", "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:", "gpu_driver_init", None),
    ("kernel", "NVRM: request_mem_region failed for 16M @ 0xde000000. This can occur when a driver such as rivatv "
     "was loaded and claimed ownership of the NVIDIA GPU's resources.", "gpu_driver_init", None),
    ("kernel", "NVRM: GPU 0000:65:00.0: GPU does not have the necessary power cables connected.", "gpu_driver_init",
     None),
    ("kernel", "nvidia: Unknown symbol drm_gem_object_free (err -2)", "gpu_driver_init", None),
    # open-gpu-kernel-modules thread state sanity check, nv_gpu_ops.c UVM fatal error; nvidia-modeset
    ("kernel", "NVRM: GPU0 _threadNodeCheckTimeout: API_GPU_ATTACHED_SANITY_CHECK failed!", "gpu_driver_error", None),
    ("kernel", "NVRM: nvGpuOpsReportFatalError: uvm encountered global fatal error 0x60, requiring os reboot to "
     "recover.", "gpu_driver_error", None),
    ("kernel", "nvidia-modeset: ERROR: GPU:1: Idling display engine timed out: 0x0000c67d:0:0:1126", "gpu_driver_error",
     None),
    ("kernel", "NVRM: GPU4 rpcRmApiFree_GSP: GspRmFree failed: hClient=0xc1e0002a; hObject=0x5c000013; "
     "paramsStatus=0x0; status=0x0000000f", "gpu_gsp_error", None),
    # ---- gpu_hw
    # nvidia-smi infoROM warning; DCGM_FR_CORRUPT_INFOROM; gpu-burn summary; DCGM_FR_FAULTY_MEMORY
    ("system", "WARNING: infoROM is corrupted at gpu 0000:B1:00.0", "gpu_device_unhealthy", None),
    ("system", "DCGM: A corrupt InfoROM has been detected in GPU 6.", "gpu_device_unhealthy", None),
    ("training", "	GPU 3: FAULTY", "gpu_device_unhealthy", None),
    ("system", "DCGM: Found 2 faulty memory elements on GPU 1.", "gpu_memory_ecc", None),
    # ---- cuda
    # cudaError_t catalogue (CUDA runtime API, driver_types.h) as PyTorch prints it; cudnnStatus_t; cublasStatus_t
    ("training", "RuntimeError: CUDA error: invalid configuration argument", "cuda_launch_failure", None),
    ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmStridedBatchedEx("
     "handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, stridea, b, CUDA_R_16BF, ldb, strideb, &fbeta, c, "
     "CUDA_R_16BF, ldc, stridec, num_batches, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "cuda_launch_failure", None),
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a "
     "non-contiguous input.", "cuda_launch_failure", None),
    ("training", "numba.cuda.cudadrv.driver.CudaAPIError: [1] Call to cuLaunchKernel results in "
     "CUDA_ERROR_INVALID_VALUE", "cuda_launch_failure", None),
    # CUDA device assert() report (CUDA C++ Programming Guide, "Assertion")
    ("training", "/opt/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [118,0,0], thread: "
     "[64,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
     "cuda_launch_failure", None),
    # cuda-gdb exceptions
    ("training", "CUDA Exception: Warp Illegal Address", "cuda_illegal_memory_access", None),
    # driver too old / unusable (cudaErrorUnsupportedPtxVersion 222, cudaErrorCompatNotSupportedOnDevice 804)
    ("training", "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.",
     "cuda_driver_init", None),
    ("training", "E external/xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: "
     "CUDA_ERROR_UNKNOWN: unknown error", "cuda_driver_init", None),
    ("training", "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. "
     "changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.",
     "cuda_driver_init", None),
    # ---- host_hw
    # drivers/pci/pcie/dpc.c dpc_process_error
    ("kernel", "pcieport 0000:40:01.3: DPC: ERR_NONFATAL detected", "pcie_aer", "replace_node"),
    # drivers/edac/edac_pci_sysfs.c; arch/x86/kernel/nmi.c
    ("kernel", "EDAC PCI: Signaled System Error on 0000:3a:00.0", "pcie_aer", None),
    ("kernel", "NMI: PCI system error (SERR) for reason b1 on CPU 0.", "pcie_aer", None),
    ("kernel", "NMI: IOCK error (debug interrupt?) for reason 71 on CPU 0.", "hardware_mce", None),
    # EDAC legacy CE/UE reports (edac_mc.c), rasdaemon mc_event / ras-mc-ctl, CPER, mcelog, CMCI storm
    ("kernel", "EDAC MC0: CE page 0x5f1e2, offset 0x2c0, grain 8, syndrome 0x41, row 0, channel 1, label \"\": "
     "e752x CE", "hardware_mce", "none"),
    ("kernel", "EDAC MC1: UE page 0x20a11, offset 0x100, grain 8, row 2, labels \":\": e752x UE", "hardware_mce",
     None),
    ("system", "   kworker/2:1-218   [002] ....  9120.118273: mc_event: 1 Uncorrected error: memory read error on "
     "CPU_SrcID#1_Ha#0_Chan#3_DIMM#0 (mc:1 location:0:3:-1 address:0x2b71c0 grain:32)", "hardware_mce", None),
    ("system", "3 2025-09-14 02:11:57 +0000 2 Corrected error(s): memory scrubbing error at "
     "CPU_SrcID#0_MC#0_Chan#1_DIMM#1 location: 0:0:1:-1, addr 0x8a2c1000, grain 5, syndrome 0  area:DRAM",
     "hardware_mce", "none"),
    ("kernel", "{3}[Hardware Error]:  Error 1, type: recoverable", "hardware_mce", None),
    ("system", "mcelog: Corrected memory errors on page 3c1f02 exceed threshold 10 in 24h: 12 in 24h",
     "hardware_mce", "none"),
    ("kernel", "mce: CMCI storm detected: switching to poll mode", "hardware_mce", "none"),
    # IPMI v2.0 Processor sensor offsets (ipmitool sel elist)
    ("system", "  7e | 02/11/2026 | 06:40:02 | Processor #0x53 | Uncorrectable machine check exception | Asserted",
     "hardware_mce", None),
    # ---- process
    # Abseil failure signal handler; torch.multiprocessing spawn; concurrent.futures; systemd unit results
    ("training", "*** SIGTERM received at time=1731004122 on cpu 17 ***", "process_killed", None),
    ("training", "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGTERM",
     "process_killed", None),
    ("training", "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly "
     "while the future was running or pending.", "process_killed", None),
    ("system", "systemd[1]: trainer.service: Main process exited, code=killed, status=9/KILL", "process_killed", None),
    ("training", "torch.multiprocessing.spawn.ProcessRaisedException: process 1 terminated with exit code 1",
     "process_exit_nonzero", None),
    ("system", "systemd[1]: trainer.service: Main process exited, code=exited, status=2/INVALIDARGUMENT",
     "process_exit_nonzero", None),
    ("system", "systemd[1]: trainer.service: Main process exited, code=dumped, status=11/SEGV", "segfault", None),
    ("system", "systemd[1]: trainer.service: Failed with result 'oom-kill'.", "oom_killer", None),
    ("training", "RuntimeError: [enforce fail at alloc_cpu.cpp:83] err == 0. DefaultCPUAllocator: can't allocate "
     "memory: you tried to allocate 21474836480 bytes. Error code 12 (Cannot allocate memory)", "oom_killer", None),
    ("training", "*** buffer overflow detected ***: terminated", "process_crash", None),
    ("training", "Fatal glibc error: malloc.c:4172 (_int_malloc): assertion failed: chunk_main_arena (fwd)",
     "process_crash", None),
    ("training", "MPI_ABORT was invoked on rank 5 in communicator MPI_COMM_WORLD", "process_crash", None),
    # srun / bash fatal-signal status strings (strsignal)
    ("system", "srun: error: a100-n041: task 6: Aborted", "process_crash", None),
    ("training", "/var/spool/slurmd/job9120081/slurm_script: line 12: 88123 Illegal instruction     python -u "
     "train.py", "process_crash", None),
    ("training", "/var/spool/slurmd/job9120081/slurm_script: line 12: 88123 Terminated              python -u "
     "train.py", "process_killed", None),
    # Ray exceptions; kubelet eviction; Python MemoryError
    ("training", "ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task. Check "
     "python-core-worker-*.log files for more information.", "process_crash", None),
    ("training", "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
     "oom_killer", None),
    ("system", "  Warning  Evicted    3m    kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, "
     "available: 81204Ki.", "oom_killer", None),
    ("system", "  Warning  Evicted    3m    kubelet  The node was low on resource: ephemeral-storage. Threshold "
     "quantity: 10Gi, available: 7218312Ki.", "storage_space", None),
    ("training", "MemoryError", "oom_killer", None),
    ("training", "[2026-01-12 04:11:09,771] torch.distributed.elastic.agent.server.api: [WARNING] Received "
     "Signals.SIGTERM death signal, shutting down workers", "torch_elastic", None),
    # ---- storage
    # errno(3) ESTALE: NFS and other shared filesystems
    ("training", "OSError: [Errno 116] Stale file handle: '/shared/ckpt/run-12/latest'", "storage_remote_fs", None),
    # lockd, nfs client, sunrpc, GPFS, open-iscsi
    ("kernel", "lockd: server 10.20.0.5 not responding, still trying", "storage_remote_fs", None),
    ("kernel", "NFS: server nas-02 error: fileid changed", "storage_remote_fs", None),
    ("kernel", "connection2:0: detected conn error (1020)", "storage_remote_fs", None),
    ("kernel", " session recovery timed out after 120 secs", "storage_remote_fs", None),
    # block/blk-core.c blk_print_req_error status names
    ("kernel", "[ 9001.22] timeout error, dev sdc, sector 4198400 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0",
     "storage_local_disk", None),
    ("kernel", "device offline error, dev sdd, sector 0 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 2",
     "storage_local_disk", None),
    # jbd2, md raid, SCSI, NVMe status log, smartd, dm-multipath, btrfs, libata, ext4
    ("kernel", "JBD2: Detected IO errors while flushing file data on nvme1n1p1-8", "storage_local_disk", None),
    ("kernel", "md/raid10:md1: Disk failure on nvme3n1, disabling device.", "storage_local_disk", None),
    ("kernel", "sd 4:0:0:0: [sde] tag#17 timing out command, waited 180s", "storage_local_disk", None),
    ("kernel", "sd 4:0:0:0: rejecting I/O to offline device", "storage_local_disk", None),
    ("kernel", "nvme2n1: Write(0x1) @ LBA 88811520, 256 blocks, Write Fault (sct 0x2 / sc 0x80)",
     "storage_local_disk", None),
    ("system", "smartd[1102]: Device: /dev/sdb [SAT], 16 Currently unreadable (pending) sectors", "storage_local_disk",
     None),
    ("kernel", "device-mapper: multipath: 253:2: Failing path 8:32.", "storage_local_disk", None),
    ("kernel", "BTRFS warning (device nvme0n1p3): csum failed root 5 ino 2571 off 81920 csum 0x8941f998 expected "
     "csum 0x1c2d3e4f mirror 1", "storage_local_disk", None),
    ("kernel", "ata6.00: disabled", "storage_local_disk", None),
    # Amazon S3 error responses; TensorFlow file systems; safetensors; google-resumable-media; azure-core
    ("training", "botocore.exceptions.ClientError: An error occurred (BadDigest) when calling the UploadPart "
     "operation: The Content-MD5 you specified did not match what we received.", "storage_io", None),
    ("training", "tensorflow.python.framework.errors_impl.OutOfRangeError: Read less bytes than requested",
     "storage_io", None),
    ("training", "tensorflow.python.framework.errors_impl.DataLossError: corrupted record at 1843270",
     "storage_io", None),
    ("training", "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
     "storage_io", None),
    ("training", "google.resumable_media.common.InvalidResponse: ('Request failed with status code', 503, "
     "'Expected one of', <HTTPStatus.OK: 200>)", "storage_io", None),
]

BENIGN: list[tuple[str, str]] = [
    # UCX warnings are advice; MPI/Gloo set-up lines
    ("nccl", "[1731001122.004410] [a100-n07:55120:0]        parser.c:2314 UCX  WARN  unused environment variables: "
     "UCX_TLS"),
    # NVRM continuation lines of the API mismatch message, version banner, MSI fallback, NOT_SUPPORTED replies
    ("kernel", "               NVRM: this kernel module has the version 535.161.08.  Please"),
    ("kernel", "               NVRM: components have the same version."),
    ("kernel", "NVRM: GPU 0000:65:00.0: Failed to enable MSI-X; falling back to MSI."),
    ("kernel", "NVRM: GPU0 rpcRmApiControl_GSP: GspRmControl failed: hClient=0xc1d0004b; hObject=0x5c000001; "
     "cmd=0x20801348; paramsSize=0x1c; paramsStatus=0x56; status=0x56"),
    # gpu-burn healthy summary, InfoROM version lines
    ("training", "	GPU 3: OK"),
    ("system", "    Image Version                         : 1001.0230.00.03"),
    # PyTorch hints after a CUDA error, cuBLAS init, CUDA status names that are not failures
    ("training", "[rank5]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
    ("training", "cudaErrorNotReady returned by cudaEventQuery: the work is still running"),
    ("training", "[INFO] cuBLAS handle created, CUBLAS_STATUS_SUCCESS"),
    # DPC capability banner, CMCI storm end, rasdaemon summary with zero errors
    ("kernel", "pcieport 0000:40:01.3: DPC: error containment capabilities: Int Msg #0, RPExt+ PoisonedTLP+ "
     "SwTrigger+ RP PIO Log 4, DL_ActiveErr+"),
    ("kernel", "mce: CMCI storm subsided: switching to interrupt mode"),
    ("system", "	Uncorrected on DIMM Label(s): 'CPU_SrcID#1_MC#0_Chan#0_DIMM#0' location: 1:0:0:-1 errors: 0"),
    # RDMA CM events that are not failures
    ("training", "rdma_cm: event RDMA_CM_EVENT_ESTABLISHED on id 0x7f3a"),
    # IB counters at zero, link back up
    ("system", "PortRcvErrors:...................0"),
    # Python exception names that only contain "MemoryError"; a task that ended well
    ("training", "    except MemoryOverflowGuard: pass  # no MemoryErrorHandler here"),
    ("system", "srun: a100-n041: task 6: Completed"),
    # systemd unit that ended well
    ("system", "systemd[1]: trainer.service: Main process exited, code=exited, status=0/SUCCESS"),
    ("system", "systemd[1]: trainer.service: Deactivated successfully."),
    # block layer lines that are not errors; smartd informational attribute change
    ("kernel", "sd 4:0:0:0: [sde] Synchronizing SCSI cache"),
    ("system", "smartd[1102]: Device: /dev/sdb [SAT], SMART Usage Attribute: 194 Temperature_Celsius changed from "
     "36 to 37"),
    ("kernel", "md/raid10:md1: active with 4 out of 4 devices"),
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
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


def test_driver_version_mismatch_is_the_gpu_driver_not_cuda(classifier: Classifier) -> None:
    found = classifier.classify("nvidia-smi: Failed to initialize NVML: Driver/library version mismatch", "system")
    assert found is not None and (found.family, found.level, found.action) == ("gpu_driver", "error", "reboot_node")


def test_aer_event_corrected_is_only_counted(classifier: Classifier) -> None:
    found = classifier.classify("rasdaemon: aer_event: 0000:3b:00.0 Corrected error: Receiver Error", "system")
    assert found is not None and (found.category, found.action) == ("pcie_aer", "none")


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
