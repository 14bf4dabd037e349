"""Brief K22: the vocabularies of the components behind the holdout22 misses.

Part 1 checks benign siblings next to the new patterns (cuFile progress and compat-mode notices, systemd-oomd's
candidate dump and pressure debug line, an RDMA tool's usage text, torch elastic's "no error file defined for parent"
warning; half B: UCX and NCCL INFO lines, TensorFlow's diagnostic context, a passing dcgmi diag row). Part 2 checks the formats: NVIDIA GPUDirect Storage cufile.log lines and CUfileOpError status strings,
systemd-oomd kills and the unit log PID 1 leaves, the rdma-core example programs' and perftest's verbs-setup failures,
PyTorch ProcessGroupNCCL's watchdog ending on a CUDA error that names no cause, torch elastic's @record wrapper; half B:
kmod modprobe for the GPUDirect RDMA peer-memory modules, dcgmi diag's wrapped row-remap message, UCX's CUDA transports
and socket layer, NCCL's IB resiliency, TensorFlow's cuda_diagnostics.cc, Tenstorrent's PciOpenError.
Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, ids and numbers. None is a copy of a line of the real corpus (checked below without printing any corpus line).
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

# ---- Part 1: benign siblings of the new patterns
BENIGN: list[tuple[str, str]] = [
    ("system", "[pid=7712 tid=7712] NOTICE  cufio-drv:720 running in compatible mode"),
    ("system", "[pid=7712 tid=7712] NOTICE  cufio:1036 cuFileHandleRegister GDS not supported or disabled by config, "
               "using cuFile posix read/write with compat mode enabled"),
    ("system", "[pid=7712 tid=7712] NOTICE  cufio-rdma:175 nvidia_peermem.ko is not loaded. Disabling UserSpace RDMA "
               "access."),
    ("system", "[pid=7712 tid=7712] INFO  cufio:512 cuFileDriverOpen done"),
    ("system", "Nov 14 03:22:10 trainer-9 systemd-oomd[701]: Considered 9 cgroups for killing, top candidates were:"),
    ("system", "Memory pressure for /user.slice/user-1001.slice/user@1001.service is 8.33% > 60.00% for > 30s with "
               "reclaim activity"),
    ("system", "Nov 14 03:22:10 trainer-9 systemd[1]: Started systemd-oomd.service - Userspace Out-Of-Memory (OOM) "
               "Killer."),
    ("nccl", "  -m, --mtu=<size>        path MTU (default 1024)"),
    ("nccl", "Couldn't find port with lid 12; trying the next one"),
    ("training", "[2025-03-04 05:06:07,890] torch.distributed.elastic.multiprocessing.errors.error_handler: [ERROR] no "
                 "error file defined for parent, to copy child error file (/tmp/torchelastic_x1/none_y2/attempt_0/1/"
                 "error.json)"),
    ("training", "I0304 05:06:07.890000 4242 torch/distributed/elastic/agent/server/api.py:680] [default] worker group "
                 "successfully finished. Waiting 300 seconds for other agents to finish."),

    # half B: UCX, NCCL IB resiliency, TensorFlow diagnostics, dcgmi diag
    ("nccl", "[1699001122.445566] [trn-7:3301:0]     ucp_context.c:1014 UCX  WARN  transport 'tcp' is not available, "
             "please use one or more of: self, shm, sm"),
    ("nccl", "gpu-b12:22011:22190 [3] NCCL INFO NET/IB: ncclIbResiliencyCheckErrorNotFatal: The error is not fatal. "
             "Trying to continue..."),
    ("training", "2022-08-09 10:11:12.131415: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:176] hostname: gpu-17"),
    ("training", "2022-08-09 10:11:12.131415: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported "
                 "version is: 535.104.5"),
    ("training", "2022-08-09 10:11:12.131415: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported "
                 "version is: 535.104.5"),
    ("system", "| Memory                    | Pass - GPUs: 0, 1, 2, 3                        |"),
]

# ---- Part 2: the components' own formats
FORMATS: list[tuple[str, str, str, str | None]] = [
    # GPUDirect Storage libcufile (cufile.log, CUfileOpError strings, kvikio)
    ("system", "[pid=9120 tid=9133] ERROR  cufio:352 cuFileHandleRegister error: nvidia-fs driver ioctl error",
     "storage_io", "storage.cufile.k22"),
    ("system", "[pid=9120 tid=9120] ERROR  cufio-obj:242 unable to get volume attributes for fd 11",
     "storage_io", "storage.cufile.k22"),
    ("system", "[pid=9120 tid=9120] ERROR  cufio:311 cuFileHandleRegister error, failed to allocate file object",
     "storage_io", "storage.cufile.k22"),
    ("training", "cuFileBufRegister failed: device pointer lookup failure", "storage_io", "storage.cufile.k22"),
    ("training", "cuFileRead error: NVFS driver initialization error", "storage_io", "storage.cufile.k22"),
    ("training", "RuntimeError: kvikio: cuFile error at: /opt/kvikio/cpp/include/kvikio/file_handle.hpp:192: "
                 "CU_FILE_DRIVER_NOT_INITIALIZED (5001)", "storage_io", "storage.cufile.k22"),
    ("training", "CUFILEError: internal error (code 5030, CU_FILE_INTERNAL_ERROR)", "storage_io", "storage.cufile.k22"),
    # systemd-oomd and the unit log
    ("system", "Nov 14 03:22:11 trainer-9 systemd[1]: slurmstepd.scope: systemd-oomd killed 41 process(es) in this "
               "unit.", "oom_killer", "process.systemd_oomd.k22"),
    ("system", "Nov 14 03:22:11 trainer-9 systemd[2210]: vte-spawn-0a1b.scope: systemd-oomd killed some process(es) in "
               "this unit.", "oom_killer", "process.systemd_oomd.k22"),
    ("system", "Killed /user.slice/user-1001.slice/user@1001.service/app.slice/jupyter.service due to memory pressure "
               "for /user.slice/user-1001.slice/user@1001.service being 63.10% > 50.00% for > 20s with reclaim activity",
     "oom_killer", None),
    ("system", "systemd-oomd[701]: Killed /system.slice/train-job.service due to memory used (132000000000) / total "
               "(134000000000) and swap used (7900000000) / total (8500000000) being more than 90.00%",
     "oom_killer", "process.systemd_oomd.k22"),
    # rdma-core example programs and perftest
    ("nccl", "[1,0]<stderr>:Couldn't register MR", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't allocate PD", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't create CQ", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't create QP", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't modify QP to RTS", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't post receive (0)", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't post send: qp 1 scnt=64, ccnt=16", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't get context for mlx5_3", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Unable to create QP.", "nccl_error", "ib.verbs_setup.k22"),
    ("nccl", "Couldn't register MR num 2", "nccl_error", "ib.verbs_setup.k22"),
    # ProcessGroupNCCL watchdog, CUDA error with no cause of its own
    ("training", "[rank2]:[E ProcessGroupNCCL.cpp:916] [Rank 2] NCCL watchdog thread terminated with exception: CUDA "
                 "error: unknown error", "nccl_cuda_error", "nccl.watchdog_cuda_generic.k22"),
    ("training", "[rank5]:[E0611 02:03:04.556677889 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 5] "
                 "Process group watchdog thread terminated with exception: CUDA error: invalid argument",
     "nccl_cuda_error", "nccl.watchdog_cuda_generic.k22"),
    # ... a specific cause keeps its own category
    ("training", "[rank5]:[E0611 02:03:04.556677889 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 5] "
                 "Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was "
                 "encountered", "cuda_illegal_memory_access", None),
    ("training", "[rank1]:[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: CUDA "
                 "error: unspecified launch failure", "cuda_launch_failure", None),
    # torch elastic @record wrapper
    ("training", "I0304 05:06:07.890000 4242 torch/distributed/elastic/multiprocessing/errors/__init__.py:357] "
                 "local_rank 1 FAILED with no error file. Decorate your entrypoint fn with @record for traceback info. "
                 "See: https://pytorch.org/docs/stable/elastic/errors.html", "torch_elastic", "process.torch_elastic"),
    # half B: kmod modprobe for the GPUDirect RDMA peer-memory modules
    ("system", "modprobe: ERROR: could not insert 'gdrdrv': Exec format error", "gpu_driver_init", "gpu.driver_init"),
    ("system", "modprobe: FATAL: Module nv_peer_mem not found in directory /lib/modules/6.5.0-35-generic",
     "gpu_driver_init", None),
    # dcgmi diag result table (DCGM_FR_PENDING_ROW_REMAP, wrapped)
    ("system", "| Error                     | GPU 6 has uncorrectable memory errors and row  |", "gpu_memory_ecc",
     "gpu.ecc_text"),
    # UCX CUDA transports and socket layer
    ("nccl", "[1702001122.334455] [gpu-n4:7712:0]    cuda_ipc_md.c:62   UCX  ERROR cuIpcGetMemHandle(&key->ph, "
             "(CUdeviceptr)addr) is failed. ret:invalid argument", "nccl_cuda_error", "comm.ucx_cuda.k22"),
    ("nccl", "[1702001122.334455] [gpu-n4:7712:1]   cuda_copy_md.c:360  UCX  ERROR cuMemGetAddressRange(&base, &size, "
             "(CUdeviceptr)address) failed: named symbol not found", "nccl_cuda_error", "comm.ucx_cuda.k22"),
    ("nccl", "[1699001122.445566] [trn-7:3301:0]            sock.c:452  UCX  ERROR   connect(fd=57, "
             "dest_addr=10.2.0.14:41533) failed: Connection refused", "nccl_remote_peer", "comm.ucx_socket_peer.k22"),
    ("nccl", "[1699001122.445566] [trn-7:3301:0]    ucp_worker.c:1781 UCX  ERROR   Error Connection reset by remote peer "
             "was not handled for ep 0x7f11c8046040", "nccl_remote_peer", "comm.ucx_socket_peer.k22"),
    # NCCL IB resiliency (p2p_resiliency.cc)
    ("nccl", "gpu-b12:22011:22190 [3] transport/net_ib/p2p_resiliency.cc:318 NCCL WARN NET/IB: "
             "ncclIbResiliencyHandleDeviceFailure: Device 1 marked as failed. (send comm=0x7f5a10001230)",
     "ib_link", "nccl.ib_resiliency.k22"),
    ("nccl", "gpu-b12:22011:22190 [3] transport/net_ib/p2p_resiliency.cc:54 NCCL WARN NET/IB: "
             "ncclIbResiliencyCheckErrorNotFatal: The error is fatal (No functional devices left). Cannot continue.",
     "ib_link", "nccl.ib_resiliency.k22"),
    # TensorFlow / XLA stream_executor cuda_diagnostics.cc
    ("training", "2022-08-09 10:11:12.131415: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] no NVIDIA GPU "
                 "device is present: /dev/nvidia0 does not exist", "cuda_driver_init", "cuda.tf_diagnostics.k22"),
    ("training", "2022-08-09 10:11:12.131415: I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:137] "
                 "kernel driver does not appear to be running on this host (gpu-17): /proc/driver/nvidia/version does "
                 "not exist", "cuda_driver_init", "cuda.tf_diagnostics.k22"),
    ("training", "2022-08-09 10:11:12.131415: E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version "
                 "535.104.5 does not match DSO version 550.54.15 -- cannot find working devices in this configuration",
     "gpu_driver_init", "gpu.tf_dso_mismatch.k22"),
    # Tenstorrent luwen / ttkmd-if PciOpenError
    ("training", "called `Result::unwrap()` on an `Err` value: DeviceOpenFailed { id: 1, source: Os { code: 13, kind: "
                 "PermissionDenied, message: \"Permission denied\" } }", "cuda_device_unavailable",
     "accel.tenstorrent_open.k22"),
    ("training", "Error: Failed to open device /dev/tenstorrent/3: No such file or directory (os error 2)",
     "cuda_device_unavailable", "accel.tenstorrent_open.k22"),
    ("training", "Error: ioctl query_mappings failed for device 0 with: EINVAL: Invalid argument", "gpu_driver_error",
     "accel.tenstorrent_kmd.k22"),
    ("training", "called `Result::unwrap()` on an `Err` value: BarMappingError { name: \"bar4_wc\", id: 1 }",
     "gpu_driver_error", "accel.tenstorrent_kmd.k22"),
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
