"""Brief F1 (issue 15 point 6): the classifier against the vendors' own format strings.

Instead of fitting rules to collected lines, every case below instantiates one failure (or benign) format string of the
emitting software's source, with the prefix the component really prints (NCCL's "host:pid:tid [dev] NCCL WARN ...",
the kernel's "[  123.456] <driver> <device>: ...") and made-up hosts, devices and numbers: NCCL (net_ib.cc, ibvwrap.cc,
socket.cc, net_socket.cc, proxy.cc, bootstrap.cc, init.cc, argcheck.cc, p2p.cc, shmutils.cc, cudawrap.cc), aws-ofi-nccl,
PyTorch ProcessGroupNCCL / NCCLUtils / gloo, Linux (nvme host core.c + pci.c, ext4 + jbd2, xfs, PCIe AER/DPC/pciehp,
EDAC, x86 MCE, memory-failure, hung_task, watchdog, RCU stalls, workqueue, mlx5 core health/cmd/en/events, IPoIB,
ib core, bonding), NVIDIA (nvswitch SXid, Fabric Manager, GSP/NVRM, libnvidia-container, k8s-device-plugin,
nvidia-smi, nvidia-persistenced, DCGM dcgm_errors.h DCGM_FR_*_MSG). The source file of each format is named in the
comment above its case and in the rule's note. Part 1 holds the benign siblings (INFO/notice lines and continuation
details of the same files), part 2 the failures with their TAXONOMY category. None is a copy of a corpus line
(checked below without printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign siblings of the failure formats (INFO/notice lines, continuation details)
BENIGN: list[tuple[str, str]] = [
    # K19: MCE record continuation line (TSC/ADDR/MISC) is detail, LABELS.md
    ("kernel", '[ 4409.998100] mce: [Hardware Error]: TSC 8e0c7bd13b4d ADDR 3f1a2b400 MISC 86'),
    # pytorch: ProcessGroupNCCL.cpp (K19: the flight-recorder hint is a context line of the watchdog failure)
    ('training', '[rank2]:[E1127 02:31:05.004600 9100 ProcessGroupNCCL.cpp:1858] Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value.'),
    # kernel: drivers/nvme/host/core.c
    ('kernel', '[ 5102.341200] nvme nvme0: Identify(0x6), Invalid Field in Command (sct 0x0 / sc 0x2) DNR '),
    ('kernel', '[    3.210000] nvme nvme0: Shutdown timeout set to 10 seconds'),
    # kernel: drivers/nvme/host/pci.c
    ('kernel', '[    3.220000] nvme nvme0: 63/0/0 default/read/poll queues'),
    # kernel: drivers/nvme/host/core.c
    ('kernel', '[    3.230000] nvme nvme3: failed to set APST feature (-19)'),
    # kernel: fs/ext4/super.c
    ('kernel', '[   12.100000] EXT4-fs (nvme0n1p2): mounted filesystem 7c1e2f34-aa10-4b7e-9d7e-1d2c3b4a5f6e r/w with ordered data mode. Quota mode: none.'),
    ('kernel', '[   12.100100] EXT4-fs (nvme0n1p2): re-mounted 7c1e2f34-aa10-4b7e-9d7e-1d2c3b4a5f6e r/w. Quota mode: none.'),
    # kernel: fs/xfs/xfs_error.c
    ('kernel', '[ 8110.000800] XFS (sdf1): First 128 bytes of corrupted metadata buffer:'),
    # kernel: fs/xfs/xfs_super.c
    ('kernel', '[   15.100000] XFS (sdg1): Mounting V5 Filesystem 9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d'),
    # kernel: fs/xfs/xfs_log_recover.c
    ('kernel', '[   15.200000] XFS (sdg1): Starting recovery (logdev: internal)'),
    ('kernel', '[   15.300000] XFS (sdg1): Ending recovery (logdev: internal)'),
    # kernel: drivers/pci/pcie/err.c
    ('kernel', '[ 3311.000300] pcieport 0000:80:03.1: AER: device recovery successful'),
    # kernel: drivers/pci/pcie/aer.c
    ('kernel', '[ 3311.000210] nvidia 0000:83:00.0:   device [10de:2330] error status/mask=00000001/0000e000'),
    ('kernel', '[ 3311.000220] nvidia 0000:83:00.0: AER:   TLP Header: 4a000001 01000004 00000000 00000000'),
    # kernel: drivers/pci/hotplug/pciehp_ctrl.c
    ('kernel', '[ 3312.200000] pcieport 0000:80:03.1: pciehp: Slot(7): Link Up'),
    # kernel: drivers/edac/edac_mc.c
    ('kernel', '[    2.000000] EDAC MC: Ver: 3.0.0'),
    # kernel: drivers/edac/amd64_edac.c
    ('kernel', '[    2.000100] EDAC amd64: Node 0: DRAM ECC enabled.'),
    # kernel: arch/x86/kernel/cpu/mce/therm_throt.c
    ('kernel', '[ 5000.000000] mce: CPU12: Package temperature above threshold, cpu clock throttled (total events = 4411)'),
    ('kernel', '[ 5000.100000] mce: CPU12: Package temperature/speed normal'),
    # kernel: kernel/hung_task.c
    ('kernel', '[ 9841.220010]       Not tainted 6.8.0-45-generic #45-Ubuntu'),
    ('kernel', '[ 9841.220020] "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.'),
    ('kernel', '[ 9841.220030] Future hung task reports are suppressed, see sysctl kernel.hung_task_warnings'),
    # kernel: kernel/rcu/tree_stall.h
    ('kernel', '[ 9950.000100] rcu: \t12-....: (5249 ticks this GP) idle=6a4c/1/0x4000000000000000 softirq=88112/88112 fqs=2401'),
    # kernel: mlx5/core/en_main.c
    ('kernel', '[ 7702.100000] mlx5_core 0000:c1:00.0 ens2f0np0: Link up'),
    # kernel: mlx5/core/events.c
    ('kernel', '[ 7703.200000] mlx5_core 0000:c1:00.0: Port module event: module 0, Cable plugged'),
    ('kernel', '[ 7703.300000] mlx5_core 0000:c1:00.0: temp_warn:167:(pid 0): High temperature on sensors with bit set 0 1'),
    # nvidia: open-gpu-kernel-modules kernel_gsp.c
    ('kernel', '[ 5300.000100] NVRM: GPU4 GSP RPC buffer contains function 76 (GSP_RM_CONTROL) and data 0x0000000020801348 0x0000000000000410.'),
    # nvidia: dcgm_errors.h
    ('system', 'The operation completed successfully.'),
    ('system', 'Skipping test memory because ECC is not enabled on GPU 3'),
    # nccl: src/transport/net_ib.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : mlx5_3:1 Got async error event: GID table change'),
    # nccl: src/graph/search.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] graph/search.cc:1127 NCCL WARN Could not find a path for pattern 4, falling back to simple order'),
    # nccl: src/transport/net_ib.cc
    ('nccl', "gpu-r7n3:48211:48390 [5] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)"),
    # nccl: src/init.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL INFO comm 0x55d0c1a2b3c0 rank 5 nranks 16 cudaDev 5 nvmlDev 5 busId 9b000 commId 0x3a1f2e4d5c6b7a89 - Init COMPLETE'),
    # nccl: src/misc/socket.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL INFO socketPollConnect: connect returned Connection refused, retrying (3/34) after sleep for 300 msec'),
    # pytorch: ProcessGroupNCCL.cpp
    ('training', '[rank2]:[E1127 02:31:05.004500 9100 ProcessGroupNCCL.cpp:1834] [PG ID 0 PG GUID 0(default_pg) Rank 2] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1'),
    ('training', '[rank0]:[I1127 01:00:00.000000 1200 ProcessGroupNCCL.cpp:905] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL initialization options: size: 16, global rank: 0, TIMEOUT(ms): 1200000, USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0'),
    ('training', '[rank0]:[I1127 01:00:00.000100 1200 ProcessGroupNCCL.cpp:914] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL environments: NCCL version: 2.21.5, TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK: 0, TORCH_NCCL_ENABLE_MONITORING: 1, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC: 480, TORCH_NCCL_TRACE_BUFFER_SIZE: 2000'),
    ('training', '[rank3]:[W1127 01:00:01.000000 1203 ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0 Rank 3]  using GPU 3 to perform barrier as devices used by this process are currently unknown. This can potentially cause a hang if this rank to GPU mapping is incorrect.Specify device_ids in barrier() to force use of a particular device,or call init_process_group() with a device_id.'),
    ('training', '[rank0]:[W1127 03:10:00.000000 1200 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process. (function operator())'),
    ('training', '[rank3]:[I1127 01:00:02.000000 1203 ProcessGroupNCCL.cpp:2104] [PG ID 0 PG GUID 0(default_pg) Rank 3] ProcessGroupNCCL broadcast unique ID through store took 0.094 ms'),
    # kernel: drivers/nvme/host/pci.c
    ('kernel', '[ 9120.600000] nvme nvme2: Abort status: 0x371'),
    # kernel: drivers/nvme/host/core.c
    ('kernel', '[    3.240000] nvme nvme1: D3 entry latency set to 10 seconds'),
    # kernel: fs/ext4/super.c
    ('kernel', '[   12.400000] EXT4-fs (dm-1): recovery complete'),
    # kernel: fs/ext4/orphan.c
    ('kernel', '[   12.410000] EXT4-fs (dm-1): ext4_orphan_cleanup: deleting unreferenced inode 1571023'),
    # kernel: fs/xfs/xfs_super.c
    ('kernel', '[ 9000.000000] XFS (sdg1): Unmounting Filesystem 9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d'),
    # kernel: fs/xfs/xfs_qm.c
    ('kernel', '[   15.500000] XFS (sdg1): Quotacheck needed: Please wait.'),
    # kernel: drivers/pci/pcie/err.c
    ('kernel', '[ 3320.000300] pcieport 0000:80:03.1: AER: Root Port link has been reset (0)'),
    # kernel: drivers/pci/pcie/pme.c
    ('kernel', '[ 3320.000500] pcieport 0000:80:03.1: PME: Spurious native interrupt!'),
    # kernel: kernel/sched/core.c
    ('kernel', '[ 9841.220100] task:pt_data_worker  state:D stack:0     pid:71244 tgid:71200 ppid:1      flags:0x00004002'),
    # kernel: mlx5/core/health.c
    ('kernel', '[ 7700.000110] mlx5_core 0000:c1:00.0: print_health_info:423:(pid 0): assert_var[0] 0x00000000'),
    # kernel: net/ipv6/addrconf.c
    ('kernel', '[ 7706.100000] IPv6: ADDRCONF(NETDEV_CHANGE): ens1f0: link becomes ready'),
    # nvidia: open-gpu-kernel-modules
    ('kernel', '[   40.000000] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024'),
    # nccl: src/transport/net_ib.cc (ncclIbAsyncThreadMain, ibv_event_type_str)
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: port active'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: LID change'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: P_Key change'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: SM change'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: client reregistration'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: GID table change'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: send queue drained'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: SRQ limit reached'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: last WQE reached'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: path migrated'),
    # nccl: src/transport/net_ib.cc (older)
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got async event : SM change'),
    # nccl: amd-anp net_ib.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN ANP plugin loaded successfully with telemetry enabled : /opt/rocm/lib/librccl-anp.so'),
    # kernel: drivers/edac/mce_amd.c
    ('kernel', '[ 3000.100000] [Hardware Error]: Corrected error, no action required.'),
    ('kernel', '[ 3000.800000] [Hardware Error]: Deferred error, no action required.'),
    # kernel: drivers/edac/amd64_edac.c
    ('kernel', '[ 3002.000000] EDAC amd64: Node 0: DRAM ECC disabled.'),
]

# ---- Part 2: the failure formats, instantiated, with their TAXONOMY category
FORMATS: list[tuple[str, str, str]] = [
    # nccl: src/transport/net_ib.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got async event : port error', 'ib_link'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got async event : local catastrophic error', 'ib_hca_fault'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : mlx5_3:1 Got async error event: port error', 'ib_link'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : mlx5_2:1 async fatal event: local catastrophic error', 'ib_hca_fault'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : mlx5_0:1 async fatal event on QP (0x55d0c1a2b3c0): local work queue catastrophic error', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : mlx5_1:1 async fatal event on CQ (0x55d0c1a2b3c0): CQ error', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : No IP interface found.', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Unable to open device mlx5_4', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Unable to query port 1', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got completion from peer 10.20.3.14<37011> with error 12, opcode 0, len 0, vendor err 129 (Send)', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got completion from peer 10.20.3.14<37011> with status=IBV_WC_REM_ACCESS_ERR(10) opcode=IBV_WC_RDMA_WRITE(1) len=0 vendor_err=136 (Send) localGid ::ffff:10.20.3.13 remoteGids ::ffff:10.20.3.14 hca mlx5_3', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Got completion with error 5, opcode 129, len 32711, vendor err 249', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : req 1/1 tag 3 peer 10.20.3.14<37011> collective mismatch error, local size 4194304 remote size 2097152', 'nccl_user_error'),
    # nccl: src/misc/ibvwrap.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to ibv_create_qp failed with error Cannot allocate memory', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_2:1, curr state INIT, next state RTR, local GID index 3', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to ibv_reg_mr failed with error Bad address', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Invalid argument', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to ibv_poll_cq() returned -1', 'nccl_error'),
    # nccl: src/transport/net_ib.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] include/ibvwrap.h:80 NCCL WARN ibv_post_send() failed with error Cannot allocate memory, Bad WR 0x7f2a1c0b8d40, First WR 0x7f2a1c0b8d40', 'nccl_error'),
    # nccl: src/misc/socket.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Net : Connect to 10.20.3.14<51233> failed : No route to host', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Net : Connection closed by remote peer gpu-r7n4.cluster<49812>', 'nccl_remote_peer'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketProgressOpt: Call to recv from 10.20.3.14<51233> failed : Connection reset by peer', 'nccl_remote_peer'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketProgressOpt: Call to send to 10.20.3.14<51233> failed : Broken pipe', 'nccl_remote_peer'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketProgress: Connection closed by remote peer 10.20.3.14<51233>', 'nccl_remote_peer'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketStartConnect: Connect to 10.20.3.14<51233> failed : Software caused connection abort', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketPollConnect: connect to 10.20.3.14<51233> returned Connection refused, exceeded error retry count after 35 attempts', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketFinalizeAccept: wrong magic 74d3a19c00000000 != 3f0c8a2e5b6d7e91', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN ncclSocketInit: Socket creation failed : Too many open files', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketTryAccept: Accept failed: Too many open files', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN socketPollConnect: Connect to 10.20.3.14<51233> returned 113(No route to host) errno 115(Operation now in progress)', 'nccl_error'),
    # nccl: src/transport/net_socket.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/Socket : socket progress error', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/Socket : message truncated : receiving 1048576 bytes instead of 65536', 'nccl_user_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/Socket : No usable listening interface found', 'nccl_error'),
    # nccl: src/proxy.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 11, retcode 6', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN [Service thread] Could not receive type from localRank 6, res=3, closed=0', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN ncclPollProxyResponse: Proxy Call to rank 3 failed (Connect)', 'nccl_error'),
    # nccl: src/bootstrap.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Bootstrap Root : mismatch in rank count from procs 16 : 8', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Bootstrap : no socket interface found', 'nccl_error'),
    # nccl: src/init.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Duplicate GPU detected : rank 3 and rank 11 both on CUDA device 3b000', 'nccl_user_error'),
    # K23: LABELS.md files NCCL's Cuda failure 'out of memory' (with or without the error number) as cuda_oom
    ('nccl', "gpu-r7n3:48211:48390 [5] NCCL WARN Cuda failure 2 'out of memory'", 'cuda_oom'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Invalid rank requested : 16/16', 'nccl_user_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Error : ring 3 does not loop back to start (5 != 0)', 'nccl_error'),
    # nccl: src/transport/p2p.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN failed to open CUDA IPC handle : 217 peer access is not supported between these two devices', 'nccl_cuda_error'),
    ('nccl', "gpu-r7n3:48211:48390 [5] NCCL WARN Cuda failure 'peer mapping resources exhausted'", 'nccl_cuda_error'),
    # nccl: src/misc/shmutils.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Error: failed to extend /dev/shm/nccl-Hk3r2 to 9637892 bytes', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Hk3r2 (size 9637888)', 'nccl_error'),
    # nccl: src/misc/cudawrap.cc
    ('nccl', "gpu-r7n3:48211:48390 [5] NCCL WARN Cuda failure 999 'unknown error'", 'nccl_cuda_error'),
    # nccl: src/misc/nvmlwrap.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Unknown Error', 'gpu_unavailable'),
    # nccl: src/transport/net.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Message truncated : received 262144 bytes instead of 131072', 'nccl_user_error'),
    # nccl: src/misc/argcheck.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN AllReduce : invalid root 9 (root should be in the 0..7 range)', 'nccl_user_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Broadcast : invalid type 12', 'nccl_user_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN AllGather : sendbuff argument is NULL', 'nccl_user_error'),
    # nccl: src/include/checks.h
    ('nccl', "gpu-r7n3:48211:48390 [5] include/alloc.h:125 NCCL WARN Cuda failure 'out of memory'", 'cuda_oom'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN Call to posix_fallocate failed : No space left on device', 'nccl_error'),
    # nccl: aws-ofi-nccl nccl_ofi_rdma.c
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/OFI Request 0x7f2a1c0b8d40 completed with error. RC: 5. Error: 22 (Input/output error). Completed length: 0, Request: { dev: 2, size: 1048576, state: CREATED, type: SEND }', 'nccl_error'),
    # nccl: aws-ofi-nccl nccl_ofi_net.c
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/OFI Unable to retrieve completion queue entries. RC: -5, ERROR: Input/output error', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available', 'nccl_error'),
    # nccl: aws-ofi-nccl nccl_ofi_rdma.c
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/OFI Unable to register memory (type = 2) for device 1. RC: -12, Error: Cannot allocate memory', 'nccl_error'),
    # nccl: aws-ofi-nccl nccl_ofi_net.c
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/OFI Unable to find a protocol that worked.  Failing initialization.', 'nccl_error'),
    # pytorch: ProcessGroupNCCL.cpp
    ('training', '[rank6]:[E1127 02:11:45.120331 8812 ProcessGroupNCCL.cpp:632] [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=84211, OpType=_ALLGATHER_BASE, NumelIn=2097152, NumelOut=16777216, Timeout(ms)=1200000) ran for 1200087 milliseconds before timing out.', 'nccl_timeout'),
    ('training', '[rank6]:[E1127 02:11:45.120899 8812 ProcessGroupNCCL.cpp:2168] [PG ID 0 PG GUID 0(default_pg) Rank 6] Timeout at NCCL work: 84211, last enqueued NCCL work: 84213, last completed NCCL work: 84210.', 'nccl_timeout'),
    ('training', '[rank6]:[E1127 02:11:45.121002 8812 ProcessGroupNCCL.cpp:1780] [PG ID 0 PG GUID 0(default_pg) Rank 6] Exception (either an error or timeout) detected by watchdog at work: 84211, last enqueued NCCL work: 84213, last completed NCCL work: 84210.', 'nccl_timeout'),
    ('training', '[rank6]:[E1127 02:11:45.121100 8812 ProcessGroupNCCL.cpp:630] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.', 'nccl_timeout'),
    ('training', '[rank2]:[E1127 02:31:05.004411 9100 ProcessGroupNCCL.cpp:1418] [PG ID 0 PG GUID 0(default_pg) Rank 2] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=3', 'nccl_timeout'),
    ('training', "[rank2]:[F1127 02:31:05.004900 9100 ProcessGroupNCCL.cpp:1211] [PG ID 0 PG GUID 0(default_pg) Rank 2] [PG ID 0 PG GUID 0(default_pg) Rank 2] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.", 'nccl_timeout'),
    ('training', '[rank6]:[E1127 02:11:45.130000 8812 ProcessGroupNCCL.cpp:1609] [PG ID 0 PG GUID 0(default_pg) Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=84211, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.', 'nccl_timeout'),
    ('training', '[rank3]:[E1127 02:11:45.130000 8812 ProcessGroupNCCL.cpp:1316] [Rank 3] NCCL watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5', 'nccl_remote_peer'),
    ('training', 'RuntimeError: [Rank 4] Work WorkNCCL(SeqNum=771, OpType=BROADCAST, NumelIn=512, NumelOut=512, Timeout(ms)=300000) timed out in blocking wait (TORCH_NCCL_BLOCKING_WAIT=1).', 'nccl_timeout'),
    ('training', 'RuntimeError: NCCL communicator was aborted on rank 5. Original reason for failure was: [Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=BARRIER, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800410 milliseconds before timing out.', 'nccl_timeout'),
    ('training', '[rank1]:[E1127 02:11:46.220000 8870 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 1] Observed flight recorder dump signal from another rank via TCPStore.', 'nccl_timeout'),
    # pytorch: NCCLUtils.hpp
    ('training', 'torch.distributed.DistBackendError: NCCL error in: /opt/conda/lib/python3.11/site-packages/torch/csrc/distributed/c10d/NCCLUtils.hpp:275, internal error - please report this issue to the NCCL developers, NCCL version 2.20.5', 'nccl_error'),
    # pytorch: NCCLUtils.cpp
    ('training', '[rank11]: ncclInternalError: Internal check failed.', 'nccl_error'),
    ('training', '[rank11]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ', 'nccl_error'),
    # pytorch: ProcessGroupNCCL.cpp
    ('training', '[rank0]:[E1127 03:00:00.100000 1200 ProcessGroupNCCL.cpp:1260] [PG ID 0 PG GUID 0(default_pg) Rank 0] Future for ProcessGroup abort timed out after 600000 ms', 'nccl_error'),
    ('training', '[rank3]:[E1127 02:11:45.130000 8812 ProcessGroupNCCL.cpp:1316] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: CUDA error: unspecified launch failure', 'cuda_launch_failure'),
    # pytorch: gloo unbound_buffer.cc
    ('training', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete', 'nccl_timeout'),
    # pytorch: gloo pair.cc
    ('training', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Read error [10.20.3.14]:13921: Connection reset by peer', 'nccl_remote_peer'),
    # kernel: drivers/nvme/host/pci.c
    ('kernel', '[ 9120.551402] nvme nvme2: I/O 417 QID 11 timeout, aborting', 'storage_local_disk'),
    ('kernel', '[ 9120.551402] nvme nvme2: I/O tag 417 (b1a1) opcode 0x2 (I/O Cmd) QID 11 timeout, aborting req_op:READ(0) size:131072', 'storage_local_disk'),
    ('kernel', '[ 9151.771040] nvme nvme2: I/O 417 QID 11 timeout, reset controller', 'storage_local_disk'),
    ('kernel', '[ 9151.771040] nvme nvme5: I/O 8 QID 0 timeout, disable controller', 'storage_local_disk'),
    ('kernel', '[ 9200.100010] nvme nvme1: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff', 'storage_local_disk'),
    ('kernel', '[ 9200.300200] nvme nvme1: Removing after probe failure status: -19', 'storage_local_disk'),
    ('kernel', '[ 9200.200100] nvme nvme1: Device not ready; aborting reset, CSTS=0x1', 'storage_local_disk'),
    ('kernel', '[ 9200.300100] nvme nvme1: Disabling device after reset failure: -19', 'storage_local_disk'),
    ('kernel', '[ 777.001122] nvme nvme0: frozen state error detected, reset controller', 'storage_local_disk'),
    ('kernel', '[ 777.001122] nvme nvme0: failure state error detected, request disconnect', 'storage_local_disk'),
    # kernel: drivers/nvme/host/core.c
    ('kernel', '[ 5102.341200] nvme0n1: Read(0x2) @ LBA 981234, 256 blocks, Unrecovered Read Error (sct 0x2 / sc 0x81) DNR ', 'storage_local_disk'),
    ('kernel', '[    8.120000] nvme nvme4: Device not ready; aborting initialisation, CSTS=0x0', 'storage_local_disk'),
    # kernel: fs/ext4/super.c
    ('kernel', '[ 6012.110044] EXT4-fs error (device nvme1n1p1): ext4_lookup:1855: inode #2621441: comm python3: deleted inode referenced: 2621507', 'storage_local_disk'),
    ('kernel', '[ 6012.110044] EXT4-fs error (device sdb1) in ext4_reserve_inode_write:5863: IO failure', 'storage_local_disk'),
    ('kernel', '[ 6012.110100] EXT4-fs (sdb1): Remounting filesystem read-only', 'storage_local_disk'),
    # kernel: fs/ext4/page-io.c
    ('kernel', '[ 6012.090001] EXT4-fs warning (device sdb1): ext4_end_bio:343: I/O error 10 writing to inode 14155799 starting block 56632321)', 'storage_local_disk'),
    # kernel: fs/ext4/super.c
    ('kernel', '[ 6012.120001] EXT4-fs (nvme1n1p1): I/O error while writing superblock', 'storage_local_disk'),
    ('kernel', '[ 6012.120001] EXT4-fs (sdc1): previous I/O error to superblock detected', 'storage_local_disk'),
    ('kernel', '[ 6012.130000] EXT4-fs error (device sdb1): ext4_journal_check_start:83: comm rsync: Detected aborted journal', 'storage_local_disk'),
    # kernel: fs/ext4/inode.c
    ('kernel', '[ 7000.000001] EXT4-fs (dm-2): failed to convert unwritten extents to written extents -- potential data loss!  (inode 393228, error -30)', 'storage_local_disk'),
    ('kernel', '[ 7000.000002] EXT4-fs (sda3): delayed block allocation failed for inode 1310734 at logical offset 2048 with max blocks 2 with error 117', 'storage_local_disk'),
    # kernel: fs/ext4/super.c
    ('kernel', '[   12.000003] EXT4-fs (sdd1): ext4_check_descriptors: Checksum for group 14 failed (41120!=19562)', 'storage_local_disk'),
    ('kernel', '[   12.000004] EXT4-fs (sdd1): warning: mounting fs with errors, running e2fsck is recommended', 'storage_local_disk'),
    # kernel: fs/jbd2/journal.c
    ('kernel', '[ 6012.110060] Aborting journal on device sdb1-8.', 'storage_local_disk'),
    ('kernel', '[ 6012.110070] JBD2: Error -5 detected when updating journal superblock for sdb1-8.', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_buf.c
    ('kernel', '[ 8110.000100] XFS (nvme3n1): metadata I/O error in "xfs_buf_ioend+0x228/0x550 [xfs]" at daddr 0x1e8a40 len 32 error 5', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_fsops.c
    ('kernel', '[ 8110.000200] XFS (nvme3n1): Log I/O Error (0x2) detected at xlog_ioend_work+0x6e/0x70 [xfs] (fs/xfs/xfs_log.c:1271).  Shutting down filesystem.', 'storage_local_disk'),
    ('kernel', '[ 8110.000300] XFS (dm-4): Corruption of in-memory data (0x8) detected at xfs_trans_cancel+0x140/0x150 [xfs] (fs/xfs/xfs_trans.c:1097).  Shutting down filesystem.', 'storage_local_disk'),
    ('kernel', '[ 8110.000400] XFS (dm-4): Please unmount the filesystem and rectify the problem(s)', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_error.c
    ('kernel', '[ 8110.000500] XFS (sdf1): Internal error XFS_WANT_CORRUPTED_GOTO at line 1851 of file fs/xfs/libxfs/xfs_alloc.c.  Caller xfs_free_ag_extent+0x3c4/0x7a0 [xfs]', 'storage_local_disk'),
    ('kernel', '[ 8110.000600] XFS (sdf1): Metadata corruption detected at xfs_dinode_verify+0xa0/0x590 [xfs], inode 0x2a01c4 dinode', 'storage_local_disk'),
    ('kernel', '[ 8110.000700] XFS (sdf1): Unmount and run xfs_repair', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_aops.c
    ('kernel', '[ 8110.000900] XFS (nvme3n1): writeback error on inode 33561475, offset 1048576, sector 219402112', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_buf_item.c
    ('kernel', '[ 8111.000000] XFS (nvme3n1): Failing async write on buffer block 0x1e8a40. Retrying async write.', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_log.c
    ('kernel', '[   15.000000] XFS (sdg1): log mount failed', 'storage_local_disk'),
    ('kernel', '[ 8111.100000] XFS (sdg1): Filesystem has been shut down due to log error (0x2).', 'storage_local_disk'),
    ('kernel', '[ 8111.200000] XFS (sdg1): xfs_log_force: error -5 returned.', 'storage_local_disk'),
    # kernel: drivers/pci/pcie/aer.c
    ('kernel', '[ 3311.000100] pcieport 0000:80:03.1: AER: Corrected error received: 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3311.000100] pcieport 0000:80:03.1: AER: Multiple Corrected error received: 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3311.000100] pcieport 0000:80:03.1: AER: Uncorrected (Non-Fatal) error received: 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3311.000100] pcieport 0000:80:03.1: AER: Uncorrected (Fatal) error received: 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3311.000100] pcieport 0000:80:03.1: AER: Multiple Uncorrected (Non-Fatal) error message received from 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3311.000200] nvidia 0000:83:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)', 'pcie_aer'),
    ('kernel', '[ 3311.000200] mlx5_core 0000:83:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Receiver ID)', 'pcie_aer'),
    ('kernel', '[ 3311.000200] nvme 0000:83:00.0: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=Transaction Layer, (Requester ID)', 'pcie_aer'),
    # kernel: drivers/pci/pcie/err.c
    ('kernel', '[ 3311.000300] pcieport 0000:80:03.1: AER: device recovery failed', 'pcie_aer'),
    # kernel: drivers/pci/pcie/dpc.c
    ('kernel', '[ 3312.000000] pcieport 0000:80:03.1: DPC: containment event, status:0x1f01 source:0x0000', 'pcie_aer'),
    ('kernel', '[ 3312.000010] pcieport 0000:80:03.1: DPC: unmasked uncorrectable error detected', 'pcie_aer'),
    # kernel: drivers/pci/hotplug/pciehp_ctrl.c
    ('kernel', '[ 3312.100000] pcieport 0000:80:03.1: pciehp: Slot(7): Link Down', 'pcie_aer'),
    ('kernel', '[ 3312.100010] pcieport 0000:80:03.1: pciehp: Slot(7): Card not present', 'pcie_aer'),
    # kernel: drivers/pci/pci.c
    ('kernel', '[ 3313.000000] nvidia 0000:83:00.0: Unable to change power state from D3cold to D0, device inaccessible', 'gpu_unavailable'),
    # kernel: drivers/edac/edac_mc.c
    ('kernel', '[ 4410.000000] EDAC MC1: 1 CE memory read error on CPU_SrcID#1_MC#1_Chan#0_DIMM#0 (channel:0 slot:0 page:0x3f1a2b offset:0x400 grain:32 syndrome:0x0 - err_code:0x0000:0x009f  SystemAddress:0x3f1a2b400 ProcessorSocketId:0x1 MemoryControllerId:0x1 ChannelAddress:0x1f8d15 ChannelId:0x0 RankAddress:0xfc68a DimmSlotId:0x0 PhysicalRankId:0x1 Row:0x7e34 Column:0x1a8 Bank:0x1 BankGroup:0x2)', 'hardware_mce'),
    ('kernel', '[ 4410.000000] EDAC MC0: 1 UE memory read error on CPU_SrcID#0_Ha#0_Chan#2_DIMM#0 (channel:2 slot:0 page:0x81b2c offset:0x0 grain:32 - area:DRAM err_code:0001:0092 socket:0 ha:0 channel_mask:4 rank:0)', 'hardware_mce'),
    ('kernel', '[ 4410.000000] EDAC MC3: 2 CE on mc#3csrow#1channel#0 (csrow:1 channel:0 page:0x2b1a offset:0xe40 grain:64 syndrome:0x7c01)', 'hardware_mce'),
    ('kernel', '[ 4410.000000] EDAC MC2: 1 UE Cannot decode error address on unknown memory (page:0x0 offset:0x0 grain:0 )', 'hardware_mce'),
    # kernel: drivers/edac/skx_common.c
    ('kernel', '[ 4409.999000] EDAC skx MC1: HANDLING MCE MEMORY ERROR', 'hardware_mce'),
    ('kernel', '[ 4409.999100] EDAC skx MC1: CPU 24: Machine Check Event: 0x0 Bank 13: 0x8c00004000010090', 'hardware_mce'),
    # kernel: arch/x86/kernel/cpu/mce/core.c
    ('kernel', '[ 4409.998000] mce: [Hardware Error]: CPU 24: Machine Check: 0 Bank 13: cc00008000010090', 'hardware_mce'),
    ('kernel', '[ 4409.998000] mce: [Hardware Error]: CPU 3: Machine Check Exception: 5 Bank 4: b200000000070005', 'hardware_mce'),
    ('kernel', '[ 4409.998500] mce: [Hardware Error]: Machine check events logged', 'hardware_mce'),
    ('kernel', '[ 4409.999900] Kernel panic - not syncing: Fatal machine check', 'hardware_mce'),
    ('kernel', '[ 4409.999800] mce: [Hardware Error]: Machine check: Processor context corrupt', 'hardware_mce'),
    ('kernel', '[ 4410.100000] mce: Uncorrected hardware memory error in user-access at 3f1a2b400', 'hardware_mce'),
    # kernel: mm/memory-failure.c
    ('kernel', '[ 4410.200000] Memory failure: 0x3f1a2b: recovery action for dirty LRU page: Recovered', 'hardware_mce'),
    # kernel: kernel/hung_task.c
    ('kernel', '[ 9841.220000] INFO: task pt_data_worker:71244 blocked for more than 245 seconds.', 'kernel_lockup'),
    # kernel: kernel/watchdog.c
    ('kernel', '[ 9900.000000] watchdog: BUG: soft lockup - CPU#41 stuck for 26s! [kworker/41:2:8811]', 'kernel_lockup'),
    # kernel: kernel/watchdog_hld.c
    ('kernel', '[ 9900.100000] NMI watchdog: Watchdog detected hard LOCKUP on cpu 17', 'kernel_lockup'),
    # kernel: kernel/watchdog.c
    ('kernel', '[ 9900.200000] Kernel panic - not syncing: softlockup: hung tasks', 'kernel_panic'),
    # kernel: kernel/watchdog_buddy.c
    ('kernel', '[ 9900.100000] watchdog: CPU5: Watchdog detected hard LOCKUP on cpu 6', 'kernel_lockup'),
    # kernel: kernel/rcu/tree_stall.h
    ('kernel', '[ 9950.000000] rcu: INFO: rcu_sched self-detected stall on CPU', 'kernel_lockup'),
    ('kernel', '[ 9950.000000] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:', 'kernel_lockup'),
    # kernel: kernel/rcu/tree_exp.h
    ('kernel', '[ 9950.000000] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 12-... } 21002 jiffies s: 1401 root: 0x8/.', 'kernel_lockup'),
    # kernel: kernel/rcu/tree_stall.h
    ('kernel', '[ 9950.100000] rcu: rcu_sched kthread starved for 10502 jiffies! g718841 f0x0 RCU_GP_WAIT_FQS(5) ->state=0x0 ->cpu=12', 'kernel_lockup'),
    # kernel: kernel/workqueue.c
    ('kernel', '[ 9960.000000] BUG: workqueue lockup - pool cpus=14 node=0 flags=0x0 nice=0 stuck for 41s!', 'kernel_lockup'),
    # kernel: mlx5/core/health.c
    ('kernel', '[ 7700.000000] mlx5_core 0000:c1:00.0: poll_health:803:(pid 0): Fatal error 1 detected', 'ib_hca_fault'),
    ('kernel', "[ 7700.000000] mlx5_core 0000:c1:00.0: poll_health:812:(pid 0): device's health compromised - reached miss count", 'ib_hca_fault'),
    ('kernel', '[ 7700.000100] mlx5_core 0000:c1:00.0: print_health_info:431:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:', 'ib_hca_fault'),
    ('kernel', '[ 7700.000200] mlx5_core 0000:c1:00.0: mlx5_health_try_recover:335:(pid 1411): handling bad device here', 'ib_hca_fault'),
    ('kernel', '[ 7700.000300] mlx5_core 0000:c1:00.0: mlx5_health_try_recover:339:(pid 1411): health recovery flow aborted, PCI reads still not working', 'ib_hca_fault'),
    ('kernel', '[ 7700.000400] mlx5_core 0000:c1:00.0: mlx5_crdump_collect:50:(pid 1411): crdump: Crash snapshot collected to /proc/mlx5_core/crdump/0000:c1:00.0', 'ib_hca_fault'),
    ('kernel', '[ 7700.000500] mlx5_core 0000:c1:00.0: mlx5_fw_fatal_reporter_err_work:690:(pid 1411): Driver is in error state. Unloading', 'ib_hca_fault'),
    # kernel: mlx5/core/cmd.c
    ('kernel', '[ 7701.000000] mlx5_core 0000:c1:00.0: wait_func:1128:(pid 2231): CREATE_MKEY(0x200) timeout. Will cause a leak of a command resource', 'ib_hca_fault'),
    ('kernel', '[ 7701.000100] mlx5_core 0000:c1:00.0: wait_func_handle_exec_timeout:1062:(pid 2231): cmd[0]: DESTROY_CQ(0x401) No done completion', 'ib_hca_fault'),
    ('kernel', '[ 7701.000200] mlx5_core 0000:c1:00.0: mlx5_cmd_comp_handler:1608:(pid 0): Command completion arrived after timeout (entry idx = 0).', 'ib_hca_fault'),
    # kernel: mlx5/core/en_main.c
    ('kernel', '[ 7702.000000] mlx5_core 0000:c1:00.0 ens2f0np0: Link down', 'net_link_down'),
    ('kernel', '[ 7702.200000] mlx5_core 0000:c1:00.0 ens2f0np0: TX timeout on queue: 7, SQ: 0x1a3, CQ: 0x5c2, SQ Cons: 0x0 SQ Prod: 0x2, usecs since last trans: 12040000', 'net_link_down'),
    # kernel: mlx5/core/events.c
    ('kernel', '[ 7703.000000] mlx5_core 0000:c1:00.0: Port module event[error]: module 0, Cable error, Bus stuck (I2C or data shorted)', 'ib_link'),
    ('kernel', '[ 7703.100000] mlx5_core 0000:c1:00.0: Port module event: module 0, Cable unplugged', 'ib_link'),
    # kernel: mlx5/core/eq.c
    ('kernel', '[ 7703.400000] mlx5_core 0000:c1:00.0: cq_err_event_notifier:612:(pid 0): CQ error on CQN 0x4c1, syndrome 0x1', 'ib_link'),
    # kernel: drivers/infiniband/ulp/ipoib/ipoib_multicast.c
    ('kernel', '[ 7704.000000] ib0: multicast join failed for ff12:401b:ffff:0000:0000:0000:ffff:ffff, status -110', 'ib_link'),
    # kernel: drivers/infiniband/ulp/ipoib/ipoib_main.c
    ('kernel', '[ 7704.100000] ib0: transmit timeout: latency 4120 msecs', 'ib_link'),
    # kernel: drivers/infiniband/core/cache.c
    ('kernel', '[ 7704.200000] infiniband mlx5_1: ib_query_port failed (-110)', 'ib_link'),
    # nvidia: nvswitch kernel driver
    ('kernel', '[ 6100.000000] nvidia-nvswitch3: SXid (PCI:0000:86:00.0): 12028, Non-fatal, Link 32 egress non-posted PRIV error (First)', 'gpu_nvlink'),
    ('kernel', '[ 6100.000100] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 30 LTSSM Fault Up', 'gpu_nvlink'),
    ('kernel', '[ 6100.000200] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Severity 1 Engine instance 30 Sub-engine instance 00', 'gpu_nvlink'),
    # nvidia: fabricmanager
    ('system', '[Nov 27 2026 02:10:11] [ERROR] [tid 1844] detected NVSwitch non-fatal error 12028 on fid 0 on NVSwitch pci bus id 00000000:86:00.0 physical id 3 port 32', 'gpu_nvlink'),
    ('system', '[Nov 27 2026 02:10:11] [ERROR] [tid 1844] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:05:00.0 physical id 0 port 30', 'gpu_nvlink'),
    # nvidia: open-gpu-kernel-modules kernel_gsp.c
    ('kernel', '[ 5300.000000] NVRM: Xid (PCI:0000:9b:00): 119, pid=5512, name=python3, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801348 0x410).', 'gpu_gsp_timeout'),
    ('kernel', '[ 5300.000050] NVRM: GPU4 _kgspLogXid119: ********************************* GSP Timeout **********************************', 'gpu_gsp_timeout'),
    ('kernel', '[ 5301.000000] NVRM: GPU4 _issueRpcAndWait: rpcSendMessage failed with status 0x0000000f for fn 76!', 'gpu_gsp_error'),
    # nvidia: open-gpu-kernel-modules
    ('kernel', '[ 5302.000000] NVRM: nvAssertOkFailedNoLog: Assertion failed: Call timed out [NV_ERR_TIMEOUT] (0x00000065) returned from pRmApi->Control(pRmApi, pGpu->hInternalClient, pGpu->hInternalSubdevice, NV2080_CTRL_CMD_INTERNAL_BUS_FLUSH_WITH_SYSMEMBAR, NULL, 0) @ kern_bus_gh100.c:1171', 'gpu_driver_error'),
    ('kernel', '[   44.000000] NVRM: GPU 0000:9b:00.0: RmInitAdapter failed! (0x62:0x40:2477)', 'gpu_driver_init'),
    ('kernel', '[   43.000000] NVRM: GPU4 _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP', 'gpu_driver_init'),
    ('kernel', '[ 5400.000000] NVRM: GPU at PCI:0000:9b:00: GPU-3f1a2b4c-5d6e-7f80-91a2-b3c4d5e6f708 has fallen off the bus.', 'gpu_fallen_off_bus'),
    # nvidia: libnvidia-container
    ('system', 'nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown', 'gpu_container_init'),
    ('system', 'nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown', 'gpu_container_init'),
    ('system', 'nvidia-container-cli: device error: 5: unknown device: unknown', 'gpu_container_init'),
    ('system', 'nvidia-container-cli: detection error: nvml error: unknown error: unknown', 'gpu_container_init'),
    ('system', 'nvidia-container-cli: mount error: file creation failed: /var/lib/containerd/rootfs/usr/bin/nvidia-smi: file exists: unknown', 'gpu_container_init'),
    # nvidia: k8s-device-plugin
    ('system', "I1127 02:12:13.000000       1 health.go:159] 'nvidia.com/gpu' device marked unhealthy: GPU-3f1a2b4c-5d6e-7f80-91a2-b3c4d5e6f708", 'gpu_device_unhealthy'),
    ('system', 'I1127 02:12:13.000000       1 health.go:151] XidCriticalError: Xid=79 on Device=GPU-3f1a2b4c-5d6e-7f80-91a2-b3c4d5e6f708; marking device as unhealthy.', 'gpu_device_unhealthy'),
    ('system', 'E1127 02:12:13.000000       1 factory.go:112] Failed to initialize NVML: ERROR_DRIVER_NOT_LOADED', 'gpu_unavailable'),
    # nvidia: dcgm_errors.h
    ('system', 'Detected more than 8 PCIe replays per minute for GPU 4 : 31', 'pcie_aer'),
    ('system', 'Detected 2 volatile double-bit ECC error(s) in GPU 5.', 'gpu_memory_ecc'),
    ('system', 'More than 10 single-bit ECC error(s) detected in GPU 1 Volatile SBEs: 14', 'gpu_memory_ecc'),
    ('system', 'A pending retired page has been detected in GPU 5.', 'gpu_memory_ecc'),
    ('system', '64 or more retired pages have been detected in GPU 2. ', 'gpu_memory_ecc'),
    ('system', 'An excess of 15 retired pages due to DBEs have been detected and more than one page has been retired due to DBEs in the past week in GPU 0.', 'gpu_memory_ecc'),
    ('system', 'A corrupt InfoROM has been detected in GPU 1.', 'gpu_device_unhealthy'),
    ('system', 'Detected clock throttling due to thermal violation in GPU 3.', 'gpu_device_unhealthy'),
    ('system', "Detected 144 CRC FLIT NvLink errors on GPU 3's NVLink which exceeds threshold of 100", 'gpu_nvlink'),
    ('system', "GPU 3's NvLink link 11 is currently down", 'gpu_nvlink'),
    ('system', 'Only 16 NvLinks are up out of the expected 18', 'gpu_nvlink'),
    ('system', 'NvSwitch 2 - Only 60 NvLinks are up out of the expected 64', 'gpu_nvlink'),
    ('system', 'Detected fatal errors on NvSwitch 2 link 17', 'gpu_nvlink'),
    ('system', 'Detected nonfatal errors on NvSwitch 2 link 17', 'gpu_nvlink'),
    ('system', "NvSwitch physical ID 3's NvLink port 31 is currently down.", 'gpu_nvlink'),
    ('system', "NVSwitch 1's NvLink 7 is down.", 'gpu_nvlink'),
    ('system', '212.5 CRC FLIT NvLink errors found occuring per second on GPU 6, exceeding the limit of 100 per second.', 'gpu_nvlink'),
    ('system', "Detected 3 Replay NvLink errors on GPU 6's NVLink (should be 0)", 'gpu_nvlink'),
    ('system', 'Found 3 faulty memory elements on GPU 6', 'gpu_memory_ecc'),
    ('system', 'CUDA APIs have indicated that a double-bit ECC error has occured on GPU 4.', 'gpu_memory_ecc'),
    ('system', 'GPU 6 had uncorrectable memory errors and row remapping failed.', 'gpu_memory_ecc'),
    ('system', 'GPU had an uncontained error (XID 95)', 'gpu_memory_ecc'),
    ('system', 'Pending page retirements together with a DBE were detected on GPU 2.', 'gpu_memory_ecc'),
    ('system', 'GPU 2 had uncorrectable memory errors and 3 rows were remapped', 'gpu_memory_ecc'),
    ('system', 'GPU 2 had memory errors and row remappings are pending', 'gpu_memory_ecc'),
    ('system', 'GPU 3 host-side PCIe replay violation, see dmesg for more information', 'pcie_aer'),
    ('system', 'Detected XID 79 for GPU 2', 'gpu_fallen_off_bus'),
    ('system', 'Detected fatal NvSwitch SXID 20034', 'gpu_nvlink'),
    # nccl: src/proxy.cc / allocator
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN [Rem Allocator] Allocation failed (segment 0, fd 87)', 'nccl_error'),
    # pytorch: ProcessGroupNCCL.cpp
    ('training', '[rank5]:[F1127 02:31:05.010000 9100 ProcessGroupNCCL.cpp:1557] [PG ID 0 PG GUID 0(default_pg) Rank 5] [PG ID 0 PG GUID 0(default_pg) Rank 5] Terminating the process after attempting to dump debug info, due to collective timeout or exception.', 'nccl_timeout'),
    ('training', '[rank1]:[E1127 02:40:00.000000 7100 ProcessGroupNCCL.cpp:542] [Rank 1] Collective WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) raised the following async exception: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5', 'nccl_error'),
    ('training', '[rank1]:[E1127 02:40:00.000100 7100 ProcessGroupNCCL.cpp:548] [Rank 1] To avoid data inconsistency, we are taking the entire process down.', 'nccl_error'),
    ('training', "torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer", 'nccl_remote_peer'),
    # kernel: drivers/nvme/host/core.c
    ('kernel', '[ 5102.341300] nvme1n1: Write(0x1) @ LBA 77120, 8 blocks, Access Denied (sct 0x2 / sc 0x86) DNR ', 'storage_local_disk'),
    # kernel: fs/ext4/super.c
    ('kernel', '[   12.300000] EXT4-fs (sde1): bad geometry: block count 9767540992 exceeds size of device (976754099 blocks)', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_log.c
    ('kernel', '[ 8112.000000] XFS (sdg1): log I/O error -5', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_aops.c
    ('kernel', '[ 8112.100000] XFS (sdg1): page discard on page 00000000c3d2e1f0, inode 0x2a01c4, pos 1048576.', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_log_recover.c
    ('kernel', '[   15.400000] XFS (sdg1): Corruption warning: Metadata has LSN (7:18232) ahead of current LSN (7:18001). Please unmount and run xfs_repair (>= v4.3) to resolve.', 'storage_local_disk'),
    # kernel: fs/xfs/xfs_super.c
    ('kernel', '[ 8113.000000] XFS (nvme4n1): Block device removal (0x20) detected at fs_bdev_mark_dead+0x59/0x70 (fs/xfs/xfs_super.c:1177).  Shutting down filesystem.', 'storage_local_disk'),
    # kernel: drivers/pci/pcie/aer.c
    ('kernel', '[ 3320.000000] pcieport 0000:80:03.1: AER: Correctable error message received from 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3320.000100] pcieport 0000:80:03.1: AER: Uncorrectable (Fatal) error message received from 0000:83:00.0', 'pcie_aer'),
    ('kernel', '[ 3320.000200] pcieport 0000:00:1c.0: AER: Corrected error received: id=00e0', 'pcie_aer'),
    # kernel: drivers/pci/pcie/err.c
    ('kernel', "[ 3320.000400] pcieport 0000:80:03.1: AER: can't recover (no error_detected callback)", 'pcie_aer'),
    # kernel: drivers/edac/edac_mc.c
    ('kernel', '[ 4411.000000] EDAC MC0: 1 CE memory scrubbing error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x1a2b3c offset:0x0 grain:32 syndrome:0x0 - err_code:0x0008:0x00c1)', 'hardware_mce'),
    # kernel: drivers/edac/ghes_edac.c
    ('kernel', '[ 4411.100000] EDAC MC0: 1 UE Read error on unknown memory ( page:0x0 offset:0x0 grain:0 - APEI location: node:1 card:2 module:5 rank:0 bank:11 row:40121 col:1016 status(0x0000000000000400): Storage error in DRAM memory)', 'hardware_mce'),
    # kernel: drivers/firmware/efi/cper.c
    ('kernel', '[ 4411.200000] {3}[Hardware Error]: event severity: fatal', 'hardware_mce'),
    # kernel: drivers/acpi/apei/ghes.c
    ('kernel', '[ 4411.200100] {3}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 2', 'hardware_mce'),
    # kernel: arch/x86/kernel/cpu/mce/core.c
    # kernel: mm/memory-failure.c
    ('kernel', '[ 4410.300000] Memory failure: 0x3f1a2b: Sending SIGBUS to python3:88123 due to hardware memory corruption', 'hardware_mce'),
    # kernel: kernel/hung_task.c
    ('kernel', '[ 9841.300000] Kernel panic - not syncing: hung_task: blocked tasks', 'kernel_panic'),
    # kernel: mlx5/core/en_rx.c
    ('kernel', '[ 7705.000000] mlx5_core 0000:c1:00.0 ens2f0np0: Error cqe on cqn 0x4c1, ci 0x12, qn 0x1a3, opcode 0xd, syndrome 0x2, vendor syndrome 0x68', 'nccl_error'),
    # kernel: drivers/net/bonding/bond_main.c
    ('kernel', '[ 7706.000000] bonding: bond0: link status definitely down for interface ens1f0, disabling it', 'net_link_down'),
    # nvidia: open-gpu-kernel-modules nv.c
    ('kernel', '[   44.100000] NVRM: GPU 0000:9b:00.0: GPU does not have the necessary power cables connected.', 'gpu_driver_init'),
    ('kernel', '[   44.200000] NVRM: The NVIDIA probe routine failed for 1 device(s).', 'gpu_driver_init'),
    ('kernel', '[   44.300000] NVRM: None of the NVIDIA devices were initialized.', 'gpu_driver_init'),
    ('kernel', '[   44.400000] NVRM: GPU 0000:9b:00.0: rm_init_adapter failed, device minor number 3', 'gpu_driver_init'),
    # nvidia: open-gpu-kernel-modules
    ('kernel', '[ 5500.000000] NVRM: GPU4 _threadNodeCheckTimeout: API_GPU_ATTACHED_SANITY_CHECK failed!', 'gpu_driver_error'),
    # nvidia: nvidia-smi
    ('system', 'Unable to determine the device handle for GPU0000:9B:00.0: Unknown Error', 'gpu_unavailable'),
    ('system', "Nov 27 02:00:07 gpu-r7n3 gpu-healthcheck[3310]: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", 'gpu_unavailable'),
    # nvidia: nvidia-persistenced
    ('system', 'Nov 27 02:00:00 gpu-r7n3 nvidia-persistenced[2210]: Failed to query NVIDIA devices. Please ensure that the NVIDIA device files (/dev/nvidia*) exist, and that user 0 has read and write permissions for those files.', 'gpu_unavailable'),
    # nvidia: libnvidia-container
    ('system', 'nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version, or use an earlier cuda container: unknown', 'gpu_container_init'),
    # nvidia: open-gpu-kernel-modules
    ('kernel', '[ 5600.000000] NVRM: Xid (PCI:0000:9b:00): 120, pid=5512, name=python3, Ch 00000008', 'gpu_gsp_error'),
    # nccl: src/transport/net_ib.cc (ncclIbAsyncThreadMain, ibv_event_type_str)
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: port error', 'ib_link'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 Got async error event: path migration request error', 'nccl_error'),
    # nccl: src/transport/net_ib.cc
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 async fatal event on SRQ, unused for now (0x7f3a1c0b8d40): SRQ catastrophic error', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] transport/net_ib.cc:154 NCCL WARN NET/IB : mlx5_3:1 unknown event type (21)', 'nccl_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB : Attempted to merge incompatible devices: [0]mlx5_0:1/IB and [1]mlx5_bond_0:1/RoCE. Try selecting NICs of only one link type using NCCL_IB_HCA', 'nccl_user_error'),
    ('nccl', 'gpu-r7n3:48211:48390 [5] NCCL WARN NET/IB: open failed in ncclIbRoceGetVersionNum: Permission denied', 'nccl_error'),
    # kernel: drivers/edac/mce_amd.c
    ('kernel', '[ 3000.200000] [Hardware Error]: CPU:12 (19:1:1) MC17_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0xdc2040000000011b', 'hardware_mce'),
    ('kernel', '[ 3001.000000] [Hardware Error]: CPU:3 (19:1:1) MC5_STATUS[Over|UE|MiscV|AddrV|PCC|-|-|-|-|-|-]: 0xfe20000000000e0f', 'hardware_mce'),
    ('kernel', '[ 3000.600000] [Hardware Error]: Uncorrected, software restartable error.', 'hardware_mce'),
    ('kernel', '[ 3000.900000] [Hardware Error]: System Fatal error.', 'hardware_mce'),
    # nvidia: nvidia-smi
    ('system', 'Nov 27 02:00:09 gpu-r7n3 gpu-healthcheck[3310]: No devices were found', 'gpu_unavailable'),
    # nvidia: nvidia-smi / NVML
    ('system', 'Nov 27 02:00:09 gpu-r7n3 gpu-healthcheck[3310]: Failed to initialize NVML: Driver/library version mismatch', 'gpu_driver_init'),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_source_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), [
    # DCGM warnings that DCGM itself answers with "Monitor" or that are corrected/contained (TAXONOMY: action none)
    ("system", "More than 10 single-bit ECC error(s) detected in GPU 1 Volatile SBEs: 14"),
    ("system", "GPU 2 had memory errors and row remappings are pending"),
    ("system", "Detected clock throttling due to thermal violation in GPU 3."),
    ("system", "Detected more than 8 PCIe replays per minute for GPU 4 : 31"),
    ("system", "GPU 3 host-side PCIe replay violation, see dmesg for more information"),
    ("system", "Detected nonfatal errors on NvSwitch 2 link 17"),
])
def test_a_warning_takes_no_node(classifier: Classifier, source: str, line: str) -> None:
    """Corrected, contained and thermal warnings count against the node but never take it away alone."""
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.action == "none", (found.rule_id, found.action, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
