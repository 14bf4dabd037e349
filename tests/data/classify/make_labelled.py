"""Regenerate ``labelled.jsonl``: ``python tests/data/classify/make_labelled.py``.

Fault lines follow documented message formats (NVIDIA Xid catalog and driver messages, DCGM
dcgm_errors.h, PyTorch ProcessGroupNCCL / c10d / elastic, NCCL WARN formats, Linux kernel
AER / MCE / EDAC / OOM / block / NFS / Lustre, Slurm, Kubernetes, CUDA runtime error
strings). Each template is instantiated with varied hosts, PCI addresses, pids, ranks and
numbers, and a varied log prefix (syslog, journald, dmesg, torchrun rank prefix, none).
``handwritten.txt`` adds single hand-written lines (``source|category|line``) in formats the
templates do not cover.
Benign lines are hard negatives: they share words with faults but report nothing to act on.
Deterministic (seeded) so the file only changes when the templates do.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import yaml

RNG = random.Random(20261122)
HERE = Path(__file__).parent
CATALOG = yaml.safe_load((HERE.parents[2] / "streams/classify/xid_catalog.yaml").read_text())["xids"]


def host() -> str:
    return RNG.choice(["gpu-a", "node", "h100-", "dgx", "trn-b", "gb200-r"]) + f"{RNG.randrange(1, 512):03d}"


def pci(full: bool = True) -> str:
    bus = RNG.choice(["18", "2a", "3b", "5d", "9a", "ab", "ba", "db", "1b", "4e", "cb", "b1"])
    return f"0000:{bus}:00" + (".0" if full else "")


def pid() -> int:
    return RNG.randrange(1200, 4_000_000)


def kprefix() -> str:
    t = f"{RNG.randrange(10, 9_999_999)}.{RNG.randrange(0, 999999):06d}"
    return RNG.choice([
        f"[{t:>14}] ",
        f"Nov 22 08:{RNG.randrange(60):02d}:{RNG.randrange(60):02d} {host()} kernel: ",
        f"2026-11-22T08:{RNG.randrange(60):02d}:{RNG.randrange(60):02d}.{RNG.randrange(999999):06d}+00:00 {host()} kernel: [{t}] ",
        "kernel: ",
        "",
    ])


def tprefix() -> str:
    r = RNG.randrange(0, 512)
    return RNG.choice([f"[rank{r}]: ", f"{r}: ", f"[default{r % 8}]:", "", "", f"[1,{r}]<stderr>:"])


def sprefix() -> str:
    return RNG.choice([f"Nov 22 09:{RNG.randrange(60):02d}:{RNG.randrange(60):02d} {host()} ", "", f"{host()} "])


def ncclp() -> str:
    return f"{host()}:{pid()}:{pid()} [{RNG.randrange(8)}] "


def fill(template: str) -> str:
    values = {
        "pci": pci(), "pcis": pci(False), "pid": pid(), "pid2": pid(), "host": host(), "host2": host(),
        "rank": RNG.randrange(0, 1024), "lr": RNG.randrange(8), "gpu": RNG.randrange(8),
        "n": RNG.randrange(2, 40), "seq": RNG.randrange(1, 900000), "ms": RNG.choice([600000, 1800000, 300000, 120000]),
        "ip": f"10.{RNG.randrange(256)}.{RNG.randrange(256)}.{RNG.randrange(1, 255)}", "port": RNG.randrange(30000, 65000),
        "dev": RNG.choice(["nvme0n1", "nvme3n1", "sdb", "sdc1", "nvme1n1p1", "md127"]), "sector": RNG.randrange(10**6, 10**10),
        "mlx": f"mlx5_{RNG.randrange(12)}", "nic": RNG.choice(["eno1", "ens1f0np0", "enp25s0f1", "eth2", "ens3f1"]),
        "job": RNG.randrange(10000, 999999), "cpu": RNG.randrange(0, 192), "bank": RNG.randrange(0, 28),
        "proc": RNG.choice(["python", "python3", "pt_main_thread", "torchrun", "python3.11"]),
        "size": RNG.choice(["2.00 GiB", "512.00 MiB", "20.00 MiB", "1.53 GiB", "384.00 MiB"]),
        "link": RNG.randrange(0, 18), "gib": round(RNG.uniform(60, 79.9), 2),
    }
    return template.format(**values)


def xid_text(xid: int) -> str:
    """Message bodies: documented strings for the common Xids, the catalog description otherwise."""
    specific = {
        13: ["Graphics SM Warp Exception on (GPC 2, TPC 1, SM 0): Out Of Range Address", "Graphics Exception: ESR 0x514730=0x201000e 0x514734=0x0", "Graphics SM Global Exception on (GPC 0, TPC 4, SM 1): Multiple Warp Errors"],
        31: ["Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_3 faulted @ 0x7f2a_bc000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ"],
        43: ["Ch 00000010"],
        45: ["Ch 00000018"],
        48: ["An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 0."],
        63: ["Row Remapper: New row (0x00000000001f23a8) is marked for remapping, reset gpu to activate."],
        64: ["Row Remapper: Failed to mark row (0x000000000003a1f0) for remapping"],
        74: ["NVLink: fatal error detected on link 5(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)"],
        79: ["GPU has fallen off the bus."],
        92: ["High single-bit ECC error rate"],
        94: ["Contained: SM (0x1). RST: No, D-RST: No"],
        95: ["Uncontained: LTC TAG (0x2,0x0). RST: Yes, D-RST: No"],
        119: ["Timeout after 6s of waiting for RPC response from GPU2 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4)."],
        120: ["GSP task exception: GSP fatal error, halting GSP"],
        144: ["SAW_MVB Fatal XC0 i0 Link 3 (0x00000001 0x00000002 0x00000000 0x00000000 0x00000000 0x00000000)"],
        149: ["NETIR_LINK_EVT Fatal XC0 i0 Link 07 (0x026001c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)"],
        154: ["GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)", "GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)"],
    }
    if xid in specific:
        return RNG.choice(specific[xid])
    return CATALOG[xid]["description"]


def xid_lines() -> list[tuple[str, str, str]]:
    out = []
    for xid, entry in CATALOG.items():
        body = xid_text(xid)
        line = RNG.choice([
            f"NVRM: Xid (PCI:{pci(False)}): {xid}, pid={pid()}, name={RNG.choice(['python3', 'pt_main_thread', '<unknown>'])}, {body}",
            f"NVRM: Xid (PCI:{pci(False)}): {xid}, pid='<unknown>', name=<unknown>, {body}",
            f"NVRM: Xid (PCI:{pci(False)}): {xid}, {body}",
        ])
        out.append((kprefix() + line, "kernel", entry["category"]))
    return out


FAULTS: dict[str, list[tuple[str, str]]] = {
    "gpu_fallen_off_bus": [
        ("kernel", "NVRM: GPU {pci}: GPU has fallen off the bus."),
        ("kernel", "NVRM: GPU at PCI:{pci}: GPU has fallen off the bus."),
        ("system", "Unable to determine the device handle for GPU{pci}: GPU is lost.  Reboot the system to recover this GPU"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 79, pid=0, GPU has fallen off the bus."),
    ],
    "gpu_memory_ecc": [
        ("system", "DCGM: Detected {n} volatile double-bit ECC error(s) in GPU {gpu}."),
        ("system", "dcgmi health: GPU {gpu} had uncorrectable memory errors and row remapping failed."),
        ("system", "A pending retired page has been detected in GPU {gpu}."),
        ("system", "        Remapping Failure Occurred        : Yes"),
        ("system", "            DRAM Uncorrectable            : {n}"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 48, pid={pid}, name={proc}, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 1, subpartition 1."),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 94, pid={pid}, name={proc}, Contained: SM (0x1). RST: No, D-RST: No"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 95, pid={pid}, name={proc}, Uncontained: FBHUB. RST: Yes, D-RST: No"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 63, pid={pid}, Row Remapper: New row marked for remapping, reset gpu to activate."),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 64, pid={pid}, Row Remapper: Failed to mark row for remapping, row remapping failed"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 92, pid={pid}, High single-bit ECC error rate"),
        ("system", "XID 63 Dynamic Page Retirement: New retired page, reload the driver to activate. (0x000000000071d3f2)"),
    ],
    "gpu_nvlink": [
        ("kernel", "NVRM: Xid (PCI:{pcis}): 74, pid={pid}, name={proc}, NVLink: fatal error detected on link {link}(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 145, RLW_REMAP Nonfatal XC0 i0 Link {link} (0x00000004 0x00000004 0x00000000 0x00000000 0x00000000 0x00000000)"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 149, NETIR_LINK_EVT Fatal XC0 i0 Link {link} (0x026001c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)"),
        ("kernel", "nvidia-nvswitch{gpu}: SXid (PCI:{pci}): 12028, Non-fatal, Link {link} egress non-posted PRIV error (First)"),
        ("kernel", "nvidia-nvswitch{gpu}: SXid (PCI:{pci}): 20034, Fatal, Link {link} LTSSM Fault Up"),
        ("system", "DCGM: GPU {gpu}'s NvLink link {link} is currently down"),
        ("system", "Detected 12.0 CRC FLIT NvLink errors on GPU {gpu}'s link {link} which exceeds threshold of 10.0"),
        ("system", "\t Link {link}: <inactive>"),
        ("system", "nv-fabricmanager[{pid}]: fabric manager failed to start: NVSwitch fatal error detected on device {gpu}"),
    ],
    "gpu_graphics_engine_fault": [
        ("kernel", "NVRM: Xid (PCI:{pcis}): 13, pid={pid}, name={proc}, Graphics SM Warp Exception on (GPC 3, TPC 0, SM 1): Illegal Instruction Encoding"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 13, pid={pid}, name={proc}, Graphics Exception: ChID 0010, Class 0000c7c0, Offset 00000000, Data 00000000"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 31, pid={pid}, name={proc}, Ch 0000000a, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f3c_12340000. Fault is of type FAULT_PTE ACCESS_TYPE_VIRT_WRITE"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 43, pid={pid}, name={proc}, Ch 00000010"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 69, pid={pid}, name={proc}, Class Error: ChId 0008, Class 0000c6c0, Offset 00000248, Data 00000000, ErrorCode 0000000c"),
    ],
    "gpu_reset_required": [
        ("kernel", "NVRM: Xid (PCI:{pcis}): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 154, GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 154, pid={pid}, GPU recovery action changed from 0x1 (GPU Reset Required) to 0x4 (Drain and Reset)"),
        ("system", "GPU {pci} requires reset. Please reset the GPU to recover."),
        ("system", "    GPU Recovery Action                   : GPU Reset Required"),
    ],
    "gpu_device_unhealthy": [
        ("system", "I1122 08:14:03.222143       1 health.go:146] XidCriticalError: Xid={n}, on Device=GPU-3f1c2d9a-8b11-7e0a-55c1-9a0e2b7d4c10, the device will go unhealthy."),
        ("system", "2026/11/22 08:14:03 'nvidia.com/gpu' device marked unhealthy: GPU-9d1e0c44-1a2b-4c3d-8e9f-0011223344{gpu}5"),
        ("system", "Overall Health: Failure"),
        ("system", "gpu-health-check: GPU {gpu} is unhealthy: DCGM diagnostic level 2 failed"),
        ("system", "Warning  UnhealthyGPU  node/{host}  GPU {gpu} reported unhealthy by device plugin"),
    ],
    "gpu_unavailable": [
        ("system", "Unable to determine the device handle for GPU{pci}: Unknown Error"),
        ("system", "No devices were found"),
        ("system", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."),
        ("system", "Failed to initialize NVML: Unknown Error"),
        ("system", "node-check: expected 8 GPUs but found {gpu}"),
    ],
    "gpu_gsp_timeout": [
        ("kernel", "NVRM: Timeout after 6s of waiting for RPC response from GPU{gpu} GSP! Expected function 76 (GSP_RM_CONTROL) (0x2080014b 0x5)."),
        ("kernel", "NVRM: Timeout after 45s of waiting for RPC response from GPU{gpu} GSP! Expected function 10 (FREE) (0xc1d00056 0x0)."),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 119, pid={pid}, name={proc}, Timeout after 6s of waiting for RPC response from GPU{gpu} GSP! Expected function 103 (GSP_RM_ALLOC) (0x0 0x6c)."),
        ("kernel", "NVRM: GPU{gpu} GSP RPC timeout, heartbeat lost"),
    ],
    "gpu_gsp_error": [
        ("kernel", "NVRM: Xid (PCI:{pcis}): 120, pid={pid}, name={proc}, GSP task exception: (reason 0x4 [MMU fault], pc 0x00000000000c5a3e)"),
        ("kernel", "NVRM: GPU{gpu} GSP-RM crashed: core dump captured"),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 62, pid={pid}, 0000(0000) 00000000 00000000"),
        ("kernel", "NVRM: GPU {pci}: PMU halted, GSP error state"),
    ],
    "gpu_driver_init": [
        ("kernel", "NVRM: GPU {pci}: RmInitAdapter failed! (0x{n}:0x56:2477)"),
        ("kernel", "NVRM: GPU {pci}: rm_init_adapter failed, device minor number {gpu}"),
        ("kernel", "nvidia: probe of {pci} failed with error -1"),
        ("kernel", "NVRM: The NVIDIA probe routine failed for 1 device(s)."),
        ("kernel", "NVRM: None of the NVIDIA devices were initialized."),
        ("kernel", "NVRM: Xid (PCI:{pcis}): 143, pid={pid}, GPU Initialization Error"),
    ],
    "gpu_driver_error": [
        ("kernel", "NVRM: nvAssertOkFailedNoLog: Assertion failed: Generic Error: Invalid state [NV_ERR_INVALID_STATE] (0x00000040) returned from status @ kern_fsp_gh100.c:{n}"),
        ("kernel", "NVRM: nvAssertFailedNoLog: Assertion failed: 0 @ g_kern_bus_nvoc.h:{n}"),
        ("kernel", "NVRM: nvCheckOkFailedNoLog: Check failed: Call timed out [NV_ERR_TIMEOUT] (0x00000065) returned from rmapiControl @ rs_server.c:{n}"),
    ],
    "nccl_timeout": [
        ("training", "[rank{rank}]:[E1122 08:05:11.402311 {pid} ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)={ms}) ran for {ms}71 milliseconds before timing out."),
        ("training", "[E ProcessGroupNCCL.cpp:475] [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=BROADCAST, Timeout(ms)={ms}) ran for {ms}53 milliseconds before timing out."),
        ("training", "[rank{rank}]:[E1122 08:15:00.000 ProcessGroupNCCL.cpp:1415] [PG ID 0 PG GUID 0(default_pg) Rank {rank}] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=2"),
        ("training", "[E1122 08:05:11.4 ProcessGroupNCCL.cpp:1616] [PG 0 Rank {rank}] Timeout at NCCL work: {seq}, last enqueued NCCL work: {seq}, last completed NCCL work: {n}."),
        ("training", "[rank{rank}]:[E1122 08:05:11 ProcessGroupNCCL.cpp:577] [Rank {rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."),
        ("training", "RuntimeError: NCCL communicator was aborted on rank {rank}. Original reason for failure was: [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=_ALLGATHER_BASE, Timeout(ms)={ms}) ran for {ms}12 milliseconds before timing out."),
        ("training", "[PG ID 0 PG GUID 0 Rank {rank}] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives."),
        ("training", "[rank{rank}]:[E1122 ProcessGroupNCCL.cpp:2168] [PG ID 1 PG GUID 1 Rank {rank}]  failure detected by watchdog at work sequence id: {seq} PG status: last enqueued work: {seq}, last completed work: {n}"),
    ],
    "nccl_error": [
        ("nccl", "{ncclp}transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer {ip}<{port}> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) len=0 vendor_err=129 localGid ::ffff:{ip} remoteGids::ffff:{ip}"),
        ("nccl", "{ncclp}transport/net_ib.cc:1245 NCCL WARN NET/IB : Got completion from peer {ip}<{port}> with error 12, opcode 0, len 0, vendor err 129 (Recv)"),
        ("nccl", "{ncclp}misc/socket.cc:49 NCCL WARN socketProgressOpt: Call to recv from {ip}<{port}> failed : Connection reset by peer"),
        ("nccl", "{ncclp}proxy.cc:1418 NCCL WARN [Proxy Service {lr}] Failed to execute operation Connect from rank {rank}, retcode 6"),
        ("nccl", "{ncclp}include/alloc.h:124 NCCL WARN Cuda failure 'invalid argument'"),
        ("nccl", "{ncclp}NCCL WARN [Service thread] Could not receive type from localRank {lr}, res=3, closed=1"),
        ("training", "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"),
        ("training", "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3"),
        ("training", "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."),
        ("training", "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error."),
        ("training", "ncclInternalError: Internal check failed."),
        ("training", "[Rank {rank}] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5"),
        ("training", "torch.distributed.DistStoreError: [{rank}] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer"),
        ("training", "[W1122 08:20:01 TCPStore.cpp:141] [c10d] recvValue failed on SocketImpl(fd=62, addr=[{host}]:{port}, remote=[{host2}]:29500): failed to recv, got 0 bytes"),
    ],
    "ib_link": [
        ("nccl", "{ncclp}NCCL WARN NET/IB : {mlx}:1 Got async event : port error"),
        ("kernel", "mlx5_core {pci}: print_health_info:424:(pid 0): Fatal error {n} detected"),
        ("kernel", "mlx5_core {pci}: mlx5_handle_bad_state:296:(pid {pid}): device's health compromised - reached miss count"),
        ("kernel", "mlx5_core {pci}: mlx5_fw_fatal_reporter_err_work:1811:(pid {pid}): Driver is in error state. Unloading"),
        ("system", "        State: Down"),
        ("system", "        Physical state: Polling"),
        ("system", "ibstat: CA '{mlx}' Port 1 State: Down Physical state: Disabled"),
        ("nccl", "{ncclp}NCCL WARN NET/IB : {mlx}:1 Got async event : local catastrophic error"),
        ("system", "ufm: InfiniBand port {mlx}/1 on {host} link down (LinkDownedCounter {n})"),
    ],
    "net_link_down": [
        ("kernel", "ixgbe {pci} {nic}: NIC Link is Down"),
        ("kernel", "ice {pci} {nic}: NIC Link is Down"),
        ("kernel", "mlx5_core {pci} {nic}: Link down"),
        ("kernel", "bond0: (slave {nic}): link status definitely down, disabling slave"),
        ("kernel", "bond0: now running without any active interface!"),
        ("system", "systemd-networkd[{pid}]: {nic}: Lost carrier"),
        ("kernel", "NETDEV WATCHDOG: {nic} (ixgbe): transmit queue 3 timed out"),
        ("kernel", "tg3 {pci} {nic}: Link is down"),
    ],
    "cuda_oom": [
        ("training", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}. GPU {gpu} has a total capacity of 79.10 GiB of which 1.19 GiB is free. Including non-PyTorch memory, this process has {gib} GiB memory in use."),
        ("training", "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate {size} (GPU {gpu}; 79.35 GiB total capacity; {gib} GiB already allocated; 412.19 MiB free; 77.61 GiB reserved in total by PyTorch)"),
        ("training", "RuntimeError: CUDA error: out of memory"),
        ("training", "RuntimeError: CUDA out of memory. Tried to allocate {size} (GPU {gpu}; 39.59 GiB total capacity)"),
        ("nccl", "{ncclp}include/alloc.h:99 NCCL WARN Cuda failure 'out of memory'"),
        ("training", "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8589934592 bytes."),
        ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"),
    ],
    "cuda_illegal_memory_access": [
        ("training", "RuntimeError: CUDA error: an illegal memory access was encountered"),
        ("training", "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"),
        ("nccl", "{ncclp}enqueue.cc:1556 NCCL WARN Cuda failure 'an illegal memory access was encountered'"),
        ("training", "RuntimeError: CUDA error: misaligned address"),
        ("training", "what():  CUDA error: an illegal memory access was encountered (cudaErrorIllegalAddress)"),
        ("training", "========= Invalid __global__ read of size 4 bytes"),
    ],
    "cuda_ecc_uncorrectable": [
        ("training", "RuntimeError: CUDA error: uncorrectable ECC error encountered"),
        ("nccl", "{ncclp}NCCL WARN Cuda failure 'uncorrectable ECC error encountered'"),
        ("training", "cudaErrorECCUncorrectable: uncorrectable ECC error encountered"),
    ],
    "cuda_launch_failure": [
        ("training", "RuntimeError: CUDA error: unspecified launch failure"),
        ("training", "RuntimeError: CUDA error: the launch timed out and was terminated"),
        ("training", "RuntimeError: CUDA error: too many resources requested for launch"),
        ("training", "RuntimeError: CUDA error: no kernel image is available for execution on the device"),
        ("training", "RuntimeError: CUDA error: device-side assert triggered"),
        ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"),
    ],
    "cuda_driver_init": [
        ("training", "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"),
        ("training", "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu."),
        ("training", "RuntimeError: CUDA error: initialization error"),
        ("training", "RuntimeError: CUDA error: no CUDA-capable device is detected"),
        ("training", "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver."),
        ("training", "CUDA driver version is insufficient for CUDA runtime version"),
        ("system", "Failed to initialize NVML: Driver/library version mismatch"),
        ("training", "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero."),
        ("training", "RuntimeError: CUDA error: system not yet initialized"),
    ],
    "cuda_device_unavailable": [
        ("training", "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"),
        ("training", "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable"),
        ("training", "RuntimeError: CUDA error: invalid device ordinal"),
        ("training", "cudaErrorDevicesUnavailable: CUDA-capable device(s) is/are busy or unavailable"),
    ],
    "oom_killer": [
        ("kernel", "{proc} invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0"),
        ("kernel", "Out of memory: Killed process {pid} ({proc}) total-vm:912345120kB, anon-rss:701234560kB, file-rss:123456kB, shmem-rss:0kB, UID:1000 pgtables:1503240kB oom_score_adj:0"),
        ("kernel", "Memory cgroup out of memory: Killed process {pid} ({proc}) total-vm:51234512kB, anon-rss:40123456kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:90324kB oom_score_adj:-997"),
        ("kernel", "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-8a1f.scope,mems_allowed=0-1,oom_memcg=/kubepods/burstable/pod1234,task_memcg=/kubepods/burstable/pod1234/8a1f,task={proc},pid={pid},uid=0"),
        ("kernel", "oom_reaper: reaped process {pid} ({proc}), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB"),
        ("system", "slurmstepd: error: Detected {n} oom_kill events in StepId={job}.0. Some of the step tasks have been OOM Killed."),
        ("system", "      Reason:       OOMKilled"),
    ],
    "process_killed": [
        ("training", "Killed"),
        ("training", "/var/spool/slurmd/job{job}/slurm_script: line 42: {pid} Killed                  python train.py --config cfg.yaml"),
        ("system", "slurmstepd: error: *** STEP {job}.0 ON {host} CANCELLED AT 2026-11-22T08:40:02 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"),
        ("system", "slurmstepd: error: *** JOB {job} ON {host} CANCELLED AT 2026-11-22T08:40:02 DUE TO TIME LIMIT ***"),
        ("system", "srun: error: {host}: task {rank}: Killed"),
        ("system", "      Exit Code:    137"),
    ],
    "segfault": [
        ("kernel", "{proc}[{pid}]: segfault at 0 ip 00007f3a9c2d1e40 sp 00007ffd6a1b2c90 error 4 in libc.so.6[7f3a9c150000+195000] likely on CPU {cpu} (core 5, socket 0)"),
        ("kernel", "pt_main_thread[{pid}]: segfault at 18 ip 00007f1b2c3d4e5f sp 00007f0a1b2c3d40 error 6 in libtorch_cuda.so[7f1b00000000+5a000000]"),
        ("training", "Fatal Python error: Segmentation fault"),
        ("training", "Segmentation fault (core dumped)"),
        ("training", "traceback : Signal 11 (SIGSEGV) received by PID {pid}"),
        ("training", "*** SIGSEGV (@0x0) received by PID {pid} (TID 0x7f8a2c7fe640) from PID 0; stack trace: ***"),
        ("training", "[{host}:{pid}:0:{pid2}] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)"),
    ],
    "process_crash": [
        ("training", "terminate called after throwing an instance of 'c10::Error'"),
        ("training", "terminate called after throwing an instance of 'std::runtime_error'"),
        ("training", "terminate called without an active exception"),
        ("training", "free(): invalid pointer"),
        ("training", "double free or corruption (out)"),
        ("training", "malloc(): corrupted top size"),
        ("training", "corrupted size vs. prev_size"),
        ("training", "*** stack smashing detected ***: terminated"),
        ("training", "Bus error (core dumped)"),
        ("training", "Aborted (core dumped)"),
        ("training", "traceback : Signal 6 (SIGABRT) received by PID {pid}"),
        ("training", "traceback : Signal 7 (SIGBUS) received by PID {pid}"),
        ("kernel", "traps: {proc}[{pid}] trap invalid opcode ip:7f2a1c3b4d5e sp:7ffc1a2b3c40 error:0 in libcrypto.so.3[7f2a1c200000+1b5000]"),
        ("kernel", "traps: {proc}[{pid}] general protection fault ip:7f61c3c1d2e3 sp:7ffe2b1c0d30 error:0 in libc.so.6[7f61c3b00000+195000]"),
        ("system", "systemd-coredump[{pid}]: Process {pid2} ({proc}) of user 1001 dumped core."),
        ("training", "Fatal Python error: Aborted"),
        ("training", "Illegal instruction (core dumped)"),
    ],
    "process_exit_nonzero": [
        ("system", "srun: error: {host}: task {rank}: Exited with exit code 1"),
        ("system", "srun: error: {host}: tasks 0-7: Exited with exit code 2"),
        ("system", "mpirun detected that one or more processes exited with non-zero status, thus causing the job to be terminated."),
        ("system", "Primary job  terminated normally, but 1 process returned a non-zero exit code. Per user-direction, the job has been aborted."),
        ("training", "[2026-11-22 08:41:00,101] [INFO] [launch.py:325:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank={lr}'] exits with return code = 1"),
        ("system", "Warning  BackOff  pod/trainer-worker-{lr}  Back-off restarting failed container pytorch in pod trainer-worker-{lr}_default"),
        ("system", "trainer-worker-{lr}   0/1   CrashLoopBackOff   {n}   31m"),
        ("system", "      Exit Code:    1"),
    ],
    "dataloader_worker_killed": [
        ("training", "RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Killed. "),
        ("training", "RuntimeError: DataLoader worker (pid(s) {pid}, {pid2}) exited unexpectedly"),
        ("training", "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)."),
        ("training", "ERROR: Unexpected segmentation fault encountered in worker."),
        ("training", "RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Segmentation fault. "),
        ("training", "RuntimeError: DataLoader timed out after 600 seconds"),
        ("training", "RuntimeError: Caught RuntimeError in DataLoader worker process {lr}."),
    ],
    "torch_elastic": [
        ("training", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "),
        ("training", "E1122 08:20:31.118000 {pid} torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: {lr} (pid: {pid2}) of binary: /usr/bin/python3"),
        ("training", "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: {lr} (pid: {pid2}) of binary: /opt/conda/bin/python"),
        ("training", "traceback : Signal 9 (SIGKILL) received by PID {pid}"),
        ("training", "W1122 08:20:30.901000 {pid} torch/distributed/elastic/multiprocessing/api.py:890] Sending process {pid2} closing signal SIGTERM"),
        ("training", "  exitcode  : 1 (pid: {pid})"),
        ("training", "Root Cause (first observed failure):"),
        ("training", "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError"),
        ("training", "WARNING:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; will restart worker group"),
        ("training", "torch.distributed.elastic.multiprocessing.api.SignalException: Process {pid} got signal: 15"),
    ],
    "storage_io": [
        ("kernel", "blk_update_request: I/O error, dev {dev}, sector {sector} op 0x1:(WRITE) flags 0x8800 phys_seg 16 prio class 0"),
        ("kernel", "I/O error, dev {dev}, sector {sector} op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 2"),
        ("kernel", "Buffer I/O error on dev {dev}, logical block {sector}, lost async page write"),
        ("kernel", "nvme nvme{gpu}: I/O 123 QID 4 timeout, aborting"),
        ("kernel", "nvme nvme{gpu}: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff"),
        ("kernel", "XFS ({dev}): metadata I/O error in \"xfs_imap_to_bp+0x5c/0xb0\" at daddr 0x1a2b3c len 32 error 5"),
        ("kernel", "EXT4-fs error (device {dev}): ext4_find_entry:1455: inode #2: comm {proc}: reading directory lblock 0"),
        ("kernel", "nfs: server {ip} not responding, still trying"),
        ("kernel", "nfs: server fs{n} not responding, timed out"),
        ("kernel", "LustreError: 11-0: scratch-OST00{n}-osc-ffff9a3b2e8c1000: operation ost_write to node {ip}@o2ib failed: rc = -107"),
        ("kernel", "Lustre: scratch-OST00{n}-osc-ffff9a3b2e8c1000: Connection to scratch-OST00{n} (at {ip}@o2ib) was lost; in progress operations using this service will wait for recovery to complete"),
        ("training", "OSError: [Errno 5] Input/output error: '/checkpoints/run-{job}/step_{seq}/model_00.pt'"),
        ("training", "OSError: [Errno 28] No space left on device: '/ckpt/job-{job}/step_{seq}/optim_{rank}.pt'"),
        ("training", "OSError: [Errno 116] Stale file handle: '/data/shards/shard-{seq}.tar'"),
        ("training", "RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file data/{n}: file write failed"),
        ("kernel", "sd 0:0:{gpu}:0: [sdb] tag#{n} FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s"),
        ("kernel", "critical medium error, dev {dev}, sector {sector} op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0"),
        ("kernel", "EXT4-fs ({dev}): Remounting filesystem read-only"),
    ],
    "hardware_mce": [
        ("kernel", "mce: [Hardware Error]: CPU {cpu}: Machine Check Exception: 5 Bank {bank}: be00000000800400"),
        ("kernel", "mce: [Hardware Error]: Machine check events logged"),
        ("kernel", "EDAC MC{gpu}: 1 UE memory read error on CPU_SrcID#1_MC#0_Chan#2_DIMM#0 (channel:2 slot:0 page:0x4a1f3 offset:0x0 grain:32 - err_code:0x0000:0x009f)"),
        ("kernel", "EDAC MC{gpu}: {n} CE memory read error on CPU_SrcID#0_MC#1_Chan#0_DIMM#1 (channel:0 slot:1 page:0x1bb2c0 offset:0x300 grain:32 syndrome:0x0 - err_code:0x0000:0x0090)"),
        ("kernel", "Kernel panic - not syncing: Fatal machine check"),
        ("kernel", "mce: Uncorrected hardware memory error in user-access at 3f1a2b3c40"),
        ("kernel", "Memory failure: 0x{sector}: recovery action for dirty LRU page: Recovered"),
        ("kernel", "{{1}}[Hardware Error]: event severity: fatal"),
        ("kernel", "mce: [Hardware Error]: CPU {cpu}: Machine Check: 0 Bank {bank}: dc2040000000011b"),
        ("kernel", "EDAC sbridge MC{gpu}: HANDLING MCE MEMORY ERROR"),
    ],
    "pcie_aer": [
        ("kernel", "pcieport 0000:80:03.1: AER: Uncorrected (Fatal) error received: {pci}"),
        ("kernel", "pcieport 0000:00:01.0: AER: Uncorrected (Non-Fatal) error received: {pci}"),
        ("kernel", "pcieport 0000:00:01.0: AER: Multiple Uncorrected (Non-Fatal) error received: {pci}"),
        ("kernel", "nvidia {pci}: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)"),
        ("kernel", "nvidia {pci}: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Completer ID)"),
        ("kernel", "pcieport 0000:16:02.0: pciehp: Slot({gpu}): Link Down"),
        ("kernel", "pcieport 0000:80:01.0: DPC: containment event, status:0x1f01 source:0x0000"),
        ("kernel", "pcieport 0000:00:01.0: AER: device recovery failed"),
        ("system", "DCGM: Detected more than 8 PCIe replays per minute for GPU {gpu} : {n}"),
    ],
}

BENIGN: list[tuple[str, str]] = [
    # the context line after an Xid's headline (LABELS.md: the headline carries the fault; K23)
    ("kernel", "NVRM: A GPU crash dump has been created. If possible, please run"),
    ("nccl", "{ncclp}NCCL INFO NCCL_IB_TIMEOUT set by environment to 22."),
    ("nccl", "{ncclp}NCCL INFO NCCL_IB_RETRY_CNT set by environment to 13."),
    ("nccl", "{ncclp}NCCL INFO Call to connect returned Connection refused, retrying"),
    ("nccl", "{ncclp}NCCL INFO NET/IB : Using [0]{mlx}:1/IB [1]mlx5_1:1/IB ; OOB eth0:{ip}<0>"),
    ("nccl", "{ncclp}NCCL INFO comm 0x5581d2c0 rank {rank} nranks 64 cudaDev {lr} busId 3b000 commId 0x9f1b2e - Init COMPLETE"),
    ("nccl", "{ncclp}NCCL INFO [Service thread] Connection closed by localRank {lr}"),
    ("nccl", "{ncclp}NCCL INFO comm 0x7f1a2c0 rank {rank} nranks 64 cudaDev {lr} busId 3b000 - Abort COMPLETE"),
    ("nccl", "{ncclp}NCCL INFO NCCL_ASYNC_ERROR_HANDLING set by environment to 1."),
    ("nccl", "{ncclp}NCCL INFO Channel 02/32 :    0   1   2   3   4   5   6   7"),
    ("nccl", "{ncclp}NCCL INFO Using network IB"),
    ("nccl", "NCCL version 2.21.5+cuda12.4"),
    ("training", "[I1122 08:00:01.123 ProcessGroupNCCL.cpp:852] [PG ID 0 PG GUID 0 Rank {rank}] ProcessGroupNCCL initialization options: size: 64, global rank: {rank}, TIMEOUT(ms): {ms}, USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0"),
    ("training", "[I1122 08:00:01.123 ProcessGroupNCCL.cpp:861] [PG ID 0 PG GUID 0 Rank {rank}] ProcessGroupNCCL environments: NCCL version: 2.21.5, TORCH_NCCL_ASYNC_ERROR_HANDLING: 3, TORCH_NCCL_DUMP_ON_TIMEOUT: 0, TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC: 60000, TORCH_NCCL_DESYNC_DEBUG: 0"),
    ("training", "UserWarning: TORCH_NCCL_ASYNC_ERROR_HANDLING is deprecated, use TORCH_NCCL_ASYNC_ERROR_HANDLING instead"),
    ("training", "training config: nccl_timeout_minutes=30, dist_timeout={ms}, log_interval=10"),
    ("training", " iteration {seq:>8}/  500000 | consumed samples: {sector:>12} | elapsed time per iteration (ms): 1843.2 | learning rate: 2.999E-04 | global batch size:  2048 | lm loss: 2.113E+00 | loss scale: 1.0 | grad norm: 0.231 | number of skipped iterations:   0 | number of nan iterations:   0 |"),
    ("training", "{{'loss': 1.2345, 'grad_norm': 0.88, 'learning_rate': 1e-05, 'epoch': 0.42}}"),
    ("training", "step {seq}: loss=2.0131 lr=3.0e-4 tokens/s=812345 errors=0"),
    ("training", "eval: loss 1.998, ppl 7.37, nan_count 0, inf_count 0"),
    ("training", "[rank{rank}]: step {seq} | mem allocated {n}123 MiB | max reserved 71234 MiB | out_of_memory_retries 0"),
    ("training", "Saving checkpoint at iteration {seq} to /ckpt/run-42/iter_{seq}"),
    ("training", "successfully saved checkpoint from iteration {seq} to /ckpt/run-{job}"),
    ("training", "Loading checkpoint from /ckpt/run-{job}/iter_{seq}: no errors, 0 missing keys"),
    ("training", "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead."),
    ("training", "UserWarning: The given NumPy array is not writable, and PyTorch does not support non-writable tensors."),
    ("training", "FutureWarning: You are using `torch.load` with `weights_only=False`. This default is deprecated and will change."),
    ("training", "warnings.warn('torch.distributed.reduce_op is deprecated, please use torch.distributed.ReduceOp instead')"),
    ("training", "Setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation"),
    ("training", "OOM guard: peak memory {gib} GiB below limit 79.0 GiB, no action"),
    ("training", "auto batch size: trying micro batch 8 ... fits in memory"),
    ("training", "    except torch.cuda.OutOfMemoryError:"),
    ("training", "    except torch.distributed.DistBackendError as exc:"),
    ("training", "# retry the allreduce if NCCL times out"),
    ("training", "  File \"/opt/conda/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py\", line 2501, in all_reduce"),
    ("training", "torch.distributed.elastic.agent.server.api:[default] Starting worker group"),
    ("training", "I1122 08:00:02.000000 {pid} torch/distributed/elastic/agent/server/api.py:525] [default] Rendezvous complete for workers. Result: restart_count=0 master_addr={host} master_port=29500"),
    ("training", "  exitcode  : 0 (pid: {pid})"),
    ("training", "INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully finished. Waiting 300 seconds for other agents to finish."),
    ("training", "wandb: Run summary: loss 1.73, grad_norm 0.41, killed_runs 0"),
    ("training", "dataloader: 16 workers, prefetch_factor 2, persistent_workers=True, timeout=0"),
    ("training", "Epoch 3:  37%|███▋      | {seq}/30000 [1:02:11<1:45:20,  3.28it/s, loss=1.913]"),
    ("training", "GPU memory: total 79.1 GiB, free {gib} GiB"),
    ("training", "CUDA available: True, device count: 8, cuda version 12.4"),
    ("training", "Using device cuda:{gpu} (NVIDIA H100 80GB HBM3), ECC enabled"),
    ("training", "fault tolerance: heartbeat every 30s, rank timeout 600s"),
    ("training", "Process group initialized: backend=nccl, world_size=64, timeout=0:30:00"),
    ("training", "gradient overflow detected, skipping step, reducing loss scale to 32768.0"),
    ("training", "errors encountered while parsing sample {seq}: 0"),
    ("training", "[W1122 08:00:03 Utils.hpp:110] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function getCvarInt)"),
    ("kernel", "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16-I3-C03-3-1)  Tue Mar  5 22:15:33 UTC 2024"),
    ("kernel", "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.08  Tue Mar  5 22:42:15 UTC 2024"),
    ("kernel", "nvidia: module license 'NVIDIA' taints kernel."),
    ("kernel", "nvidia-nvlink: Nvlink Core is being initialized, major device number 511"),
    ("kernel", "nvidia {pci}: enabling device (0000 -> 0003)"),
    ("kernel", "NVRM: GPU at PCI:{pcis}: GPU-3f1c2d9a-8b11-7e0a-55c1-9a0e2b7d4c10"),
    ("kernel", "NVRM: GPU Board Serial Number: 1652923000{n}"),
    ("kernel", "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.54.15"),
    ("kernel", "[drm] Initialized nvidia-drm 0.0.0 20160202 for {pci} on minor {gpu}"),
    ("kernel", "NVRM: Xid (PCI:{pcis}): 154, GPU recovery action changed from 0x1 (GPU Reset Required) to 0x0 (None)"),
    ("kernel", "[Hardware Error]: Corrected error, no action required."),
    ("kernel", "pcieport 0000:00:03.1: AER: Corrected error received: {pci}"),
    ("kernel", "nvidia {pci}: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)"),
    ("kernel", "pcieport 0000:00:01.0: AER: Multiple Corrected error received: 0000:00:01.0"),
    ("kernel", "pcieport 0000:00:01.0: AER: enabled with IRQ 27"),
    ("kernel", "pcieport 0000:00:01.0: AER: Device recovery successful"),
    ("kernel", "EDAC MC0: Giving out device to module skx_edac controller Skylake Socket#0 IMC#0: DEV 0000:3a:0a.0 (INTERRUPT)"),
    ("kernel", "EDAC sbridge: Seeking for: PCI ID 8086:2fa0"),
    ("kernel", "mce: CPU{cpu}: Thermal monitoring enabled (TM1)"),
    ("kernel", "MCE: In-kernel MCE decoding enabled."),
    ("system", "edac-util: No errors to report."),
    ("system", "edac-util: mc0: 0 Uncorrected Errors with no DIMM info"),
    ("system", "mc0: csrow2: ch1: 0 Corrected Errors"),
    ("system", "rasdaemon: ras:mc_event event enabled"),
    ("kernel", "EXT4-fs ({dev}): mounted filesystem 2b3c5e7a-1d2e-4f60-8a9b-0c1d2e3f4a5b r/w with ordered data mode. Quota mode: none."),
    ("kernel", "XFS ({dev}): Mounting V5 Filesystem 7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f"),
    ("kernel", "XFS ({dev}): Ending clean mount"),
    ("kernel", "nfs: server {ip} OK"),
    ("kernel", "Lustre: scratch-OST00{n}-osc-ffff8f2ac3a1b000: Connection restored to {ip}@o2ib (at {ip}@o2ib)"),
    ("kernel", "Lustre: Mounted scratch-client"),
    ("kernel", "nvme nvme{gpu}: 64/0/0 default/read/poll queues"),
    ("kernel", "nvme nvme{gpu}: pci function {pci}"),
    ("kernel", "ice {pci} {nic}: NIC Link is Up 100 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, Autoneg: True, Flow Control: None"),
    ("kernel", "mlx5_core {pci} {nic}: Link up"),
    ("kernel", "bond0: (slave {nic}): link status definitely up, 100000 Mbps full duplex"),
    ("kernel", "IPv6: ADDRCONF(NETDEV_CHANGE): ibp12s0: link becomes ready"),
    ("kernel", "mlx5_core {pci}: firmware version: 28.39.1002"),
    ("kernel", "mlx5_core {pci}: Port module event: module 0, Cable plugged"),
    ("system", "systemd-networkd[{pid}]: {nic}: Gained carrier"),
    ("system", "        State: Active"),
    ("system", "        Physical state: LinkUp"),
    ("system", "        Rate: 400"),
    ("system", "vm.oom_kill_allocating_task = 0"),
    ("kernel", "Tasks state (memory values in pages):"),
    ("system", "slurmstepd: done with job"),
    ("system", "srun: {host}: task {rank}: Exited with exit code 0"),
    ("system", "process finished with exit code 0"),
    ("system", "[2026-11-22 08:41:00,101] [INFO] [launch.py:351:main] Process {pid} exits successfully."),
    ("system", "Normal  Pulled  pod/trainer-worker-{lr}  Successfully pulled image \"nvcr.io/nvidia/pytorch:24.09-py3\""),
    ("system", "trainer-worker-{lr}   1/1   Running   0   31m"),
    ("system", "      Reason:       Completed"),
    ("system", "      Exit Code:    0"),
    ("system", "I1122 08:14:03.222143       1 health.go:98] Ignoring the following XIDs for health checks: map[13:true 31:true 43:true 45:true 68:true 109:true]"),
    ("system", "I1122 08:14:03 main.go:317] Registered device plugin for 'nvidia.com/gpu' with Kubelet"),
    ("system", "device plugin: 8 devices registered, 0 unhealthy"),
    ("system", "Overall Health: Healthy"),
    ("system", "| 0  NVIDIA H100 80GB HBM3          On  | 00000000:{gpu}B:00.0 Off |                    0 |"),
    ("system", "| N/A   34C    P0            118W /  700W |   60123MiB /  81559MiB |     97%      Default |"),
    ("system", "    ECC Mode  Current : Enabled  Pending : Enabled"),
    ("system", "            DRAM Uncorrectable            : 0"),
    ("system", "            SRAM Uncorrectable            : 0"),
    ("system", "        Remapping Failure Occurred        : No"),
    ("system", "        Pending                           : No"),
    ("system", "    GPU Recovery Action                   : None"),
    ("system", "\t Link {link}: 26.562 GB/s"),
    ("system", "nv-fabricmanager[{pid}]: Successfully configured all the available GPUs and NVSwitches to route NVLink traffic"),
    ("system", "DCGM: all health watches passed for GPU {gpu} (PCIe, NVLink, memory, thermal)"),
    ("system", "dcgmi diag -r 1: Deployment ... Pass; Memory ... Pass; Diagnostic ... Pass"),
    ("system", "health check: GPU 0-7 ECC: no errors detected, Xid: none"),
    ("system", "$ sudo grep 'NVRM: Xid' /var/log/kern.log"),
    ("system", "root@{host}:~# dmesg -T | grep -i 'fallen off the bus'"),
    ("system", "+ echo 'CUDA out of memory, lowering batch size'"),
    ("system", "+ grep -E 'Watchdog caught collective operation timeout|NCCL WARN' /logs/rank{rank}.log"),
    ("system", "journalctl -k --since '1 hour ago' | grep -E 'Xid|AER|mce'"),
    ("system", "gpu_sample xid_last=null util_pct=97.5 ecc_dbe_total=0"),
    ("system", "ecc_sbe_total=12 ecc_dbe_total=0 nvlink_crc_errors_total=0 pcie_replay_total=0"),
    ("system", "prometheus: DCGM_FI_DEV_XID_ERRORS{{gpu=\"{gpu}\"}} 0"),
    ("system", "systemd[1]: Started NVIDIA Persistence Daemon."),
    ("system", "nvidia-persistenced[{pid}]: Started (pid {pid})"),
    ("system", "kubelet: Successfully probed plugin nvidia.com/gpu: healthy"),
    ("system", "Nov 22 08:00:01 {host} sshd[{pid}]: Connection closed by {ip} port {port} [preauth]"),
    ("system", "CRON[{pid}]: (root) CMD (/usr/local/bin/gpu-health.sh --quiet)"),
    ("system", "node-check: expected 8 GPUs, found 8"),
]


def rows() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line, source, category in xid_lines():
        out.append({"line": line, "source": source, "category": category})
    for category, templates in FAULTS.items():
        for source, template in templates:
            for _ in range(3 if len(templates) < 8 else 2):
                out.append({"line": _prefixed(source, template), "source": source, "category": category})
    for source, template in BENIGN:
        for _ in range(4):
            out.append({"line": _prefixed(source, template), "source": source, "category": None})
    out += handwritten()
    return _dedupe(out)


def handwritten() -> list[dict[str, object]]:
    """Single lines written by hand (``source|category|line``, empty category = benign)."""
    out: list[dict[str, object]] = []
    for row in (HERE / "handwritten.txt").read_text(encoding="utf-8").splitlines():
        if row.strip():
            source, category, line = row.split("|", 2)
            out.append({"line": line, "source": source, "category": category or None})
    return out


def _prefixed(source: str, template: str) -> str:
    text = fill(template.replace("{ncclp}", ncclp().replace("{", "{{").replace("}", "}}")))
    if source == "kernel":
        return kprefix() + text
    if source == "training":
        return tprefix() + text
    if source == "system":
        return sprefix() + text if not text.startswith(("$", "+", " ", "\t", "journalctl", "|", "root@")) else text
    return text


def _dedupe(items: list[dict[str, object]]) -> list[dict[str, object]]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item["line"] not in seen:
            seen.add(str(item["line"]))
            out.append(item)
    return out


if __name__ == "__main__":
    data = rows()
    (HERE / "labelled.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), encoding="utf-8")
    faults = sum(1 for r in data if r["category"])
    print(f"{len(data)} lines: {faults} faults, {len(data) - faults} benign")
