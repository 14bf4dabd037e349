"""Brief K23: holdout23's false alarms and the vocabularies of the components behind its misses.

Part 1 checks the benign notices of the communication and monitoring stack that the K23 guards keep out (NCCL/RCCL
WARNs that announce a fallback, give host advice or carry a debug print, the RAS client socket that NCCL does
without, rdma-core symbol probes, DCGM's own logger levels, plugin discovery and GPM sampling refusals, the NVIDIA
crash-dump request, UCX DEBUG capability probes) next to the fault lines of the same components they must not
swallow. Every line follows the documented or source-code format of its emitter (cited in the guard's or rule's
note), with made-up hosts, ids and numbers. None is a copy of a line of the real corpus (checked below without
printing any corpus line). Half A adds the formats of UCX's mlx5 completion errors and unhandled endpoint errors,
libfabric psm3 and EFA memory registration, NCCL's NET device-count mismatch, DeepEP, NVIDIA SHARP, NIXL status
codes, Open MPI's OFI MTL abort, dcgmi policy violations, NCCL/RCCL Cuda/HIP failure forms, compute-sanitizer,
UCX's signal handler and torch.multiprocessing's teardown. Half B adds NCCL NET/IB async events without a name,
ncclUnhandledCudaError wrapped as a CUDA error, the "Segfault encountered" banner, Fabric Manager's NVSwitch multicast
exhaustion, aws-ofi-nccl's rail mismatch, PyTorch's desync report, UCX's ucp_mm registration failure, NIXL's E-level
log lines and NIXL_ERR_NOT_FOUND, and the GSP RPC rate-limit notice.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

# ---- Part 1: benign notices (K23 false alarms) ...
BENIGN: list[tuple[str, str]] = [
    ("nccl", "gpu-q2:4410:4471 [0] transport.cc:391 NCCL WARN Cannot initialize CollNet, using point-to-point network "
             "instead"),
    ("nccl", "trn-4:9011:9090 [2] graph/search.cc:1020 NCCL WARN Could not find a path for pattern 2, falling back to "
             "simple order"),
    ("nccl", "node-5:771:771 [0] /opt/rocm/share/rccl/src/init.cc:118 NCCL WARN NUMA auto balancing enabled which can "
             "lead to variability in the RCCL performance! Disable by \"sudo sysctl kernel.numa_balancing=0\""),
    ("nccl", "[3] /home/dev/rccl/src/misc/proxy_trace/proxy_trace.cc:70 NCCL WARN [dbg] posted 12, trans 12, flush 0, "
             "done 9"),
    ("nccl", "trainer-3:2210:2210 [1] ras/client_support.cc:176 NCCL WARN Call to bind failed: Address already in use"),
    ("nccl", "dlvsym failed on mlx5dv_get_data_direct_sysfs_path - /usr/lib/x86_64-linux-gnu/libmlx5.so.1: undefined "
             "symbol: mlx5dv_get_data_direct_sysfs_path, version MLX5_1.25"),
    ("nccl", "gpu-q2:4410:4410 [0] NCCL INFO dlvsym failed on ibv_reg_dmabuf_mr - /lib64/libibverbs.so.1: undefined "
             "symbol: ibv_reg_dmabuf_mr, version IBVERBS_1.12"),
    ("system", "2025-10-02 11:04:17.208 DEBUG [5120:5120] [[pcie]] External command stdout: Could not exec "
               "'/usr/libexec/datacenter-gpu-manager-4/plugins/cuda13/BwChecker_13'. Error: (2) No such file or "
               "directory"),
    ("system", "2025-10-02 11:04:17.301 INFO  [5120:5120] Detected 0 NVLinks for GPU 3 "
               "[/builds/dcgm/dcgm/dcgmlib/src/DcgmCacheManager.cpp:1280] [DcgmCacheManager::InitializeNvLinkCount]"),
    ("system", "Error: Cannot load plugins. Unable to change to the plugin dir "
               "'/usr/libexec/datacenter-gpu-manager-4/plugins/cuda11/': 'No such file or directory'"),
    ("system", "ERROR [1:57] Got nvml st 4 from nvmlGpmMigSampleGet(). [/workspaces/dcgm/dcgmlib/src/DcgmGpmManager.cpp:"
               "158] [DcgmGpmManagerEntity::MaybeFetchNewSample]"),
    ("system", "ERROR [1:57] Got nvml st 3 from nvmlGpmSampleGet(). [/workspaces/dcgm/dcgmlib/src/DcgmGpmManager.cpp:"
               "161] [DcgmGpmManagerEntity::MaybeFetchNewSample]"),
    ("kernel", "[ 9021.440012] NVRM: A GPU crash dump has been created. If possible, please run"),
    ("kernel", "Jun  3 04:05:06 dgx-7 kernel: [ 9021.440013] NVRM: nvidia-bug-report.sh as root to collect this data "
               "before"),
    ("kernel", "[ 9021.440014] NVRM: the NVIDIA kernel module is unloaded."),
    ("nccl", "[1716900000.100200] [gpu7:4410:0]    ib_mlx5dv_md.c:98   UCX  DEBUG mlx5dv_devx_obj_create(CREATE_MKEY, "
             "mode=KSM) failed, syndrome 0x3e5f2a: Remote I/O error"),
    ("nccl", "[1716900000.100300] [gpu7:4410:0]          uct_md.c:101  UCX  DEBUG failed to query rc_verbs resources: No "
             "such device"),

    # half A: siblings of the new vocabulary that report nothing
    ("nccl", "[gpu5:7101:0:7101] ib_mlx5_log.c:177  RC QP 0x1a9 wqe[7]: SEND s-- [inl len 10] [va 0x7f1c3c800000 len 1 "
             "lkey 0xb5d2] [rqpn 0x1a9 dlid=12 sl=0 port=1 src_path_bits=0]"),
    ("nccl", "gpu-q2:4410:4410 [0] NCCL INFO Detected mixed local Net device counts across ranks (min 2, max 4). "
             "Ignoring due to NCCL_IGNORE_NET_MISMATCH."),
    ("training", "[TRT-LLM] [I] DeepEP not available: CUDA driver too old"),
    ("nccl", "[gpu12:0:4410 - context.c:580][2025-06-01 10:11:11] INFO job (ID: 4242) resource request quota: "
             "( osts:0 user_data_per_ost:0 max_groups:0 max_qps:1 max_group_channels:1, num_trees:1)"),
    ("training", "DEBUG nixl_agent: transfer 17 finished with NIXL_SUCCESS"),
    ("system", "dcgmi policy -g 3 --reg: Listening for violations"),
    ("training", "I0225 17:27:30.774000 75225 site-packages/torch/multiprocessing/spawn.py:160] Starting 8 processes"),

    # half B: siblings
    ("nccl", "trn-4:9011:9011 [0] NCCL INFO NET/OFI Using Libfabric version 1.22"),
    ("nccl", "trn-4:9011:9011 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)"),
    ("training", "I0301 10:11:12.131415     512 nixl_agent.cpp:122] Initialized NIXL agent: decode-3"),
    ("training", "W0301 10:11:12.131415     512 ucx_utils.cpp:77] UCX_TLS is not set, using the UCX defaults"),
    ("system", "[Jun 02 2025 10:11:12] [INFO] [tid 4410] multicast group 17 is allocated."),
    ("training", " - Snapshot of ranks' latest states:"),
    ("kernel", "[  300.100000] NVRM: GPU at PCI:0000:07:00: GPU-6e4d9996-6edf-b18c-d3a1-0a1b2c3d4e5f"),
    ("nccl", "[1643390000.300000] [node4:1290:0]           ib_md.c:820  UCX  DEBUG registered memory 0x7f10e0000000.."
             "0x7f10e0400000 on mlx5_1 lkey 0x1a2b3 rkey 0x1a2b3 access 0xf flags 0x368"),
]

# ... and the fault lines of the same components that must stay faults
FORMATS: list[tuple[str, str, str, str | None]] = [
    ("nccl", "gpu-q2:4410:4471 [0] misc/shmutils.cc:91 NCCL WARN Call to open failed: No such file or directory",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] include/socket.h:361 NCCL WARN Call to bind failed : Address already in use",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] ras/rasnet.cc:700 NCCL WARN Call to connect failed : Connection refused",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] transport/net_ib.cc:1701 NCCL WARN NET/IB : Got completion from peer "
             "10.0.0.7<40123> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) len=0 vendor_err=129",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] transport/nvls.cc:420 NCCL WARN Cuda failure 'out of memory' falling back to "
             "the ring algorithm", "cuda_oom", None),
    ("nccl", "gpu-q2:4410:4471 [0] misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
             "Operation not supported", "nccl_error", None),
    ("nccl", "[1643390000.100000] [node4:1290:0]           ib_md.c:381  UCX  DEBUG ibv_reg_mr(address=0x7f10e0000000, "
             "length=4194304, access=0xf) failed: Cannot allocate memory", "nccl_error", None),
    ("nccl", "[1716900000.100400] [gpu7:4410:0]      ib_mlx5dv_md.c:98   UCX  ERROR mlx5dv_devx_obj_create(CREATE_MKEY)"
             " failed, syndrome 0x3e5f2a: Remote I/O error", "nccl_error", None),
    ("system", "2025-10-02 11:04:17.208 ERROR [5231:5273] [[NvSwitch]] ReadNvSwitchStatusAllSwitches() returned Object "
               "is in an undefined state [/builds/dcgm/modules/nvswitch/DcgmNvSwitchManager.cpp:300]", "gpu_nvlink",
     None),
    ("kernel", "[ 9021.440010] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
               "the bus.", "gpu_fallen_off_bus", None),
    ("kernel", "[  812.100000] blk_update_request: I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 "
               "prio class 0", "storage_local_disk", None),
    ("training", "OSError: [Errno 5] Input/output error: '/ckpt/step_100.pt'", "storage_io", None),
    ("training", "OSError: [Errno 121] Remote I/O error: '/mnt/fsx/ckpt/step_9'", "storage_io", None),

    # half A: the components' own formats
    ("nccl", "[gpu5:7101:0:7101] ib_mlx5_log.c:177  Local protection on mlx5_2:1/IB (synd 0x4 vend 0x51 hw_synd 0/2)",
     "nccl_error", "comm.ucx_ib_completion.k23"),
    ("nccl", "[gpu5:7101:0:7101] ib_mlx5_log.c:177  Remote side aborted on mlx5_4:1/RoCE (synd 0x22 vend 0x0 hw_synd "
             "0/0)", "nccl_error", "comm.ucx_ib_completion.k23"),
    ("nccl", "[1509100000.100000] [clx-7:1869 :0]    ib_mlx5_log.c:109  FATAL: Error on QP 0x16d83 wqe[134]: Local "
             "QP operation (synd 0x2 vend 0x68) opcode SEND", "nccl_error", None),
    ("nccl", "[1701200000.100000] [gpu5:7101:0]          ucp_ep.c:1512 UCX  DIAG  ep 0x7f00aa0b5108: error "
             "'Endpoint timeout' on rc_mlx5/mlx5_2:1 will not be handled since no error callback is installed",
     "nccl_error", "comm.ucx_ib_completion.k23"),
    ("training", "trn-a:rank3.all_reduce_perf:  Mismatched protocol: remote EP (10.1.2.3): UD (1) Local EP: RC (2)",
     "nccl_error", "comm.ucx_ib_completion.k23"),
    ("nccl", "gpu-q2:4410:4410 [0] init.cc:1601 NCCL WARN Detected mixed local CollNet device counts across ranks (min "
             "0, max 1). Set NCCL_IGNORE_COLLNET_MISMATCH=1 to continue.", "nccl_error", None),
    ("training", "RuntimeError: DeepEP error: CPU recv timeout", "nccl_timeout", "comm.deepep_timeout.k23"),
    ("training", "DeepEP combine (scale-up wait) timeout, scale-out: 1/2, scale-up: 3/8, channel: 4, lane: 0, recv: 7, "
                 "tail: 6", "nccl_timeout", "comm.deepep_timeout.k23"),
    ("training", "RuntimeError: DeepEP error: invalid number of SMs", "nccl_error", "comm.deepep.k23"),
    ("nccl", "[gpu12:0:4410 - context.c:690][2025-06-01 10:11:12] ERROR sharp_get_job_data_len failed: Job error(-35)",
     "nccl_error", "comm.sharp.k23"),
    ("training", "nixl._bindings.nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT", "nccl_remote_peer",
     "comm.nixl_remote.k23"),
    ("training", "ERROR 03-01 10:11:12 [nixl_connector.py:812] KV transfer failed with status NIXL_ERR_BACKEND",
     "nccl_error", "comm.nixl.k23"),
    ("training", "nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM", "nccl_user_error",
     "comm.nixl_user.k23"),
    ("training", "[trn-a:4410] mtl_ofi.h:1050: *** The Open MPI OFI MTL is aborting the MPI job (via exit(3)).",
     "process_crash", "process.ompi_mtl_abort.k23"),
    ("system", "  A PCIe error has violated policy manager values. PCIe replay count: 412", "pcie_aer", "gpu.dcgm_policy_pcie.k23"),
    ("system", "NVLink Counter 60 has violated policy manager values.", "gpu_nvlink", "gpu.dcgm_policy_nvlink.k23"),
    ("system", "The maximum power limit has violated policy manager values.", "gpu_device_unhealthy",
     "gpu.dcgm_policy_limits.k23"),
    ("system", "The maximum number of retired pages has violated policy manager values.", "gpu_memory_ecc",
     "gpu.dcgm_policy_ecc.k23"),
    ("nccl", "node3:5120:5190 [2] include/alloc.h:110 NCCL WARN Cuda failure 2 'out of memory'", "cuda_oom", None),
    ("nccl", "node3:5120:5190 [2] include/alloc.h:210 NCCL WARN Failed to CUDA malloc async 4194304 bytes", "cuda_oom",
     None),
    ("training", "Cuda failure 'context is destroyed'", "nccl_cuda_error", None),
    ("training", "gpu-m3:717:1686 [0] [FATAL ERROR]: HIP failure: 'the operation cannot be performed in the present "
                 "state'", "nccl_cuda_error", None),
    ("training", "[5] [FATAL ERROR]: HIP failure: 'out of memory'", "cuda_oom", None),
    ("training", "Invalid __shared__ read of size 16 bytes", "cuda_illegal_memory_access", None),
    ("training", "[node7:4410:0:4410] Caught signal 4 (Illegal instruction: illegal operand)", "process_crash", None),
    ("training", "W0301 10:11:12.000000 4410 site-packages/torch/multiprocessing/spawn.py:160] Terminating process 4420 "
                 "via signal SIGTERM", "torch_elastic", None),
    ("training", "libfabric:4410:1712411021:efa:mr:efa_mr_reg_impl():901<warn> Unable to register MR of 2097152 bytes: "
                 "Cannot allocate memory, flags 0", "nccl_error", None),

    # half B: the components' own formats
    ("nccl", "gpu-b3:3311:3390 [2] transport/net_ib.cc:99 NCCL WARN NET/IB : mlx5_4:1 Got async event : unknown", "ib_link",
     None),
    ("training", "RuntimeError: CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
     "nccl_cuda_error", "nccl.cuda_error"),
    ("training", "(VllmWorker rank=1 pid=4410) !!!!!!! Segfault encountered !!!!!!!", "segfault", None),
    ("system", "[Jun 02 2025 10:11:12] [ERROR] [tid 4410] all the NVSwitch multicast resources/slot ids are used for "
               "partition id 3.", "gpu_nvlink", None),
    ("system", "[Jun 02 2025 10:11:12] [ERROR] [tid 4410] failed to allocated resource to the multicast team setup "
               "request id 2817", "gpu_nvlink", None),
    ("nccl", "trn-4:9011:9090 [3] NCCL WARN NET/OFI Unexpected number of remote control rails for dev 2. Expected 1 but "
             "got 2", "nccl_error", None),
    ("training", "[rank0]:[E301 10:11:12.000000 4410 ProcessGroupNCCL.cpp:1400]     [0, 2, 3] finished collective #912, "
                 "but didn't join collective #913 (count from 1)", "nccl_timeout", None),
    ("training", "   - [1] joined but didn't finish collective #913 (count from 1)", "nccl_timeout",
     "comm.desync_report.k23"),
    ("nccl", "[1643390000.200000] [node4:1290:0]          ucp_mm.c:153  UCX  DIAG  failed to register address "
             "0x7f10e0000000 mem_type bit 0x2 length 4194304 on md[5]=mlx5_1: Input/output error (md reg_mem_types 0x3)",
     "nccl_error", "comm.ucx_memreg.k23"),
    ("training", "E0301 10:11:12.131415     512 nixl_agent.cpp:870] createXferReq: metadata for remote agent 'decode-7' "
                 "not found", "nccl_error", "comm.nixl_log.k23"),
    ("training", "nixl._bindings.nixlNotFoundError: NIXL_ERR_NOT_FOUND", "nccl_error", "comm.nixl.k23"),
    ("kernel", "[ 1454.930190] NVRM: Rate limiting GSP RPC error prints for GPU at PCI:0000:4b:00 (printing 1 of every "
               "30).  The GPU likely needs to be reset.", "gpu_gsp_timeout", "gpu.gsp_timeout"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    expect_format(classifier, source, line, category, rule_id)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0
