"""Brief F8: knowledge-base coverage from the vendors' own format strings, round 8.

Components the knowledge base knew little of, each instantiated from its own error/warning format strings (the
comment names the emitter and its source file or document): the NVIDIA kernel driver's firmware and bring-up paths
(open-gpu-kernel-modules: FSP, FWSEC/FRTS, Booter, GSP boot / RPC / heartbeat / CrashCat, falcon and SEC2,
RmInitAdapter, the OS layer, "fallen off the bus" wordings), NVLink / NVSwitch and Fabric Manager, the GPUDirect
modules (nvidia-peermem, nv_peer_mem, nvidia-fs) and modprobe/insmod errors for them; the container GPU stack
(libnvidia-container, the NVIDIA Container Toolkit and CDI, crun/runc hooks, the k8s device plugin, kubelet, the GPU
Operator, DCGM, nvidia-smi, nvidia-persistenced); Slurm (slurmstepd / slurmd / slurmctld / srun failures, memory
enforcement, node failure, prolog/epilog, GRES, pyxis / enroot); and the storage clients used for checkpoints (libfuse
and fusermount, s3fs, gcsfuse, mountpoint-s3, blobfuse2, GPUDirect Storage, Lustre / LNet, GPFS, Weka, BeeGFS, the NFS
client). Benign look-alikes are the INFO/notice/debug siblings from the same sources, fallbacks and probes. Hosts,
ids, paths and numbers are made up. No line is a copy of a corpus line (checked below without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (log source, line, expected category); the comment names the emitter and its source file
FORMATS: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- NVIDIA kernel driver: bring-up
    # nvrm: src/nvidia/arch/nvalloc/unix/src/osinit.c RmInitAdapter
    ('kernel', 'NVRM: GPU 0000:4c:00.0: RmInitAdapter failed! (0x24:0x65:1476)', 'gpu_driver_init'),
    # nvrm: osinit.c RmInitAdapter
    ('kernel', 'NVRM: RmInitAdapter: osInitNvMapping failed, bailing out of RmInitAdapter', 'gpu_driver_init'),
    # nvrm: kernel-open/nvidia/nv.c nv_start_device / rm_init_adapter
    ('kernel', 'NVRM: GPU 0000:4c:00.0: rm_init_adapter failed, device minor number 5', 'gpu_driver_init'),
    # nvrm: osinit.c RmInitAdapter (GSP-RM)
    ('kernel', 'NVRM: GPU6 RmInitAdapter: Cannot initialize GSP firmware RM', 'gpu_driver_init'),
    # nvrm: src/nvidia/src/kernel/gpu/gsp/kernel_gsp.c kgspInitRm_IMPL
    ('kernel', 'NVRM: GPU5 kgspInitRm_IMPL: cannot bootstrap riscv/gsp: 0x40', 'gpu_driver_init'),
    # nvrm: kernel_gsp.c _kgspBootGspRm
    ('kernel', 'NVRM: GPU2 _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP', 'gpu_driver_init'),
    # nvrm: gsp/arch/hopper/kernel_gsp_gh100.c kgspBootstrap_GH100
    ('kernel', 'NVRM: GPU7 kgspBootstrap_GH100: Timeout waiting for lockdown release. It\'s also possible that bootrom may have failed. RM may not have access to the BR status to be able to say for sure what failed.', 'gpu_driver_init'),
    # nvrm: gsp/arch/turing/kernel_gsp_frts_tu102.c s_executeFwsec_TU102
    ('kernel', 'NVRM: GPU3 s_executeFwsec_TU102: failed to execute FWSEC for FRTS: FRTS error code 0x3', 'gpu_driver_init'),
    # nvrm: kernel_gsp_frts_tu102.c kgspPrepareForFwsecFrts
    ('kernel', 'NVRM: GPU3 kgspPrepareForFwsecFrts_TU102: failed to prepare interface data for FRTS: 0x11', 'gpu_driver_init'),
    # nvrm: gsp/arch/turing/kernel_gsp_booter_tu102.c s_executeBooterUcode_TU102
    ('kernel', 'NVRM: GPU1 s_executeBooterUcode_TU102: Booter failed with non-zero error code: 0x39', 'gpu_driver_init'),
    # nvrm: kernel_gsp_booter_tu102.c kgspExecuteBooterLoad_TU102
    ('kernel', 'NVRM: GPU1 kgspExecuteBooterLoad_TU102: failed to execute Booter Load: 0x65', 'gpu_driver_init'),
    # nvrm: gsp/arch/turing/kernel_gsp_tu102.c kgspWaitForGfwBootOk_TU102
    ('kernel', 'NVRM: GPU4 kgspWaitForGfwBootOk_TU102: failed to wait for GFW boot complete: 0x65 VBIOS version 96.00.a1.00.02', 'gpu_driver_init'),
    # nvrm: gpu/fsp/kern_fsp.c kfspPollForResponse_IMPL
    ('kernel', 'NVRM: GPU0 kfspPollForResponse_IMPL: FSP command timed out', 'gpu_driver_init'),
    # nvrm: gpu/fsp/arch/hopper/kern_fsp_gh100.c kfspSendBootCommands_GH100
    ('kernel', 'NVRM: GPU6 kfspSendBootCommands_GH100: FSP boot cmds failed. RM cannot boot.', 'gpu_driver_init'),
    # nvrm: kern_fsp.c kfspSendPacket
    ('kernel', 'NVRM: GPU6 kfspSendPacket_IMPL: Timed out waiting for FSP command queue to be empty.', 'gpu_driver_init'),
    # nvrm: kern_fsp.c kfspProcessNvdmMessage
    ('kernel', 'NVRM: GPU6 kfspProcessNvdmMessage_IMPL: Received error message from FSP: 0x2', 'gpu_driver_init'),
    # nvrm: kernel-open/nvidia/nv-pci.c nv_pci_probe
    ('kernel', 'NVRM: The NVIDIA probe routine failed for 2 device(s).', 'gpu_driver_init'),
    # nvrm: kernel-open/nvidia/nv.c nvidia_init_module
    ('kernel', 'NVRM: None of the NVIDIA devices were initialized.', 'gpu_driver_init'),
    # nvrm: nv-pci.c nv_pci_probe (power)
    ('kernel', 'NVRM: GPU 0000:4c:00.0: GPU does not have the necessary power cables connected.', 'gpu_driver_init'),
    # nvrm: nv-pci.c nv_pci_validate_bars
    ('kernel', 'NVRM: BAR1 is 0M @ 0x0 (PCI:0000:4c:00.0)', 'gpu_driver_init'),
    # nvrm: kernel-open/nvidia/nv.c nv_open_device
    ('kernel', 'NVRM: nvidia_open: minor 4, module->open() failed, error -5', 'gpu_driver_init'),
    # nvrm: kernel-open/nvidia/nv.c nv_firmware (GSP firmware file missing)
    ('kernel', 'nvidia 0000:4c:00.0: Direct firmware load for nvidia/570.86.15/gsp_ga10x.bin failed with error -2', 'gpu_driver_init'),
    # nvrm: nv-pci.c: a GPU the open module cannot drive (no GSP)
    ('kernel', 'NVRM: The NVIDIA GPU 0000:4c:00.0 (PCI ID: 10de:1db6) installed in this system is not supported by open nvidia.ko because it does not include the required GPU System Processor (GSP).', 'gpu_driver_init'),
    # driver core: drivers/base/dd.c really_probe
    ('kernel', 'nvidia: probe of 0000:4c:00.0 failed with error -1', 'gpu_driver_init'),
    # kmod: tools/modprobe.c
    ('system', 'modprobe: ERROR: could not insert \'nvidia_uvm\': No such device', 'gpu_driver_init'),
    # kmod: tools/modprobe.c (missing build for the running kernel)
    ('system', 'modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-49-generic', 'gpu_driver_init'),
    # kernel: kernel/module/main.c resolve_symbol (nvidia built for another kernel)
    ('kernel', 'nvidia: disagrees about version of symbol module_layout', 'gpu_driver_init'),
    # ---------------------------------------------------------------- NVIDIA kernel driver: GSP at run time
    # nvrm: kernel_gsp.c _kgspLogXid119 banner
    ('kernel', 'NVRM: GPU2 _kgspLogXid119: ********************************* GSP Timeout **********************************', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp.c _kgspLogXid119
    ('kernel', 'NVRM: Xid (PCI:0000:4c:00): 119, pid=21877, name=python3, Timeout after 45s of waiting for RPC response from GPU5 GSP! Expected function 103 (GSP_RM_ALLOC) (0x0 0x6c).', 'gpu_gsp_timeout'),
    # nvrm: src/nvidia/src/kernel/vgpu/rpc.c _issueRpcAndWait
    ('kernel', 'NVRM: GPU3 _issueRpcAndWait: rpcRecvPoll timedout for fn 76 sequence 20311!', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp.c _kgspRpcRecvPoll
    ('kernel', 'NVRM: GPU3 _kgspRpcRecvPoll: GSP RM heartbeat timed out', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp.c _kgspIsHeartbeatTimedOut
    ('kernel', 'NVRM: GPU1 _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 4410 heartbeat 4401 heartbeatWithOffsetMs 4403 diff 7 timeout 5', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp.c _kgspRpcIncrementTimeoutCountAndRateLimitPrints
    ('kernel', 'NVRM: Rate limiting GSP RPC error prints for GPU at PCI:0000:4c:00 (printing 1 of every 30).  The GPU likely needs to be reset.', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp.c _kgspRpcRecvPoll (three back-to-back timeouts)
    ('kernel', 'NVRM: nvAssertFailedNoLog: Assertion failed: Back to back GSP RPC timeout detected! GPU marked for reset @ kernel_gsp.c:2459', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp_tu102.c kgspExecuteSequencerCommand (resume)
    ('kernel', 'NVRM: GPU0 kgspExecuteSequencerCommand_TU102: Timeout waiting for SEC2-RTOS to resume GSP-RM. SEC2 Mailbox0 is : 0x2', 'gpu_gsp_timeout'),
    # nvrm: kernel_gsp_tu102.c kgspHealthCheck_TU102 (CrashCat)
    ('kernel', 'NVRM: GPU4 kgspHealthCheck_TU102: ****************************** GSP-CrashCat Report *******************************', 'gpu_gsp_error'),
    # nvrm: crashcat report (GSP task exception, Xid 120)
    ('kernel', 'NVRM: Xid (PCI:0000:4c:00): 120, pid=\'<unknown>\', name=<unknown>, GSP task exception: load access fault', 'gpu_gsp_error'),
    # nvrm: rpc.c rpcRmApiControl_GSP (timeout status 0x65)
    ('kernel', 'NVRM: GPU2 rpcRmApiControl_GSP: GspRmControl failed: hClient=0xc1d00121; hObject=0x5c000003; cmd=0x20801702; paramsSize=0x8; paramsStatus=0x0; status=0x65', 'gpu_gsp_timeout'),
    # nvrm: gpu/falcon/arch/turing/kernel_falcon_tu102.c kflcnWaitForHalt_TU102
    ('kernel', 'NVRM: GPU1 kflcnWaitForHalt_TU102: Timeout waiting for Falcon to halt', 'gpu_driver_error'),
    # nvrm: gpu/falcon/arch/ampere/kernel_falcon_ga102.c kflcnWaitForHaltRiscv_GA102
    ('kernel', 'NVRM: GPU1 kflcnWaitForHaltRiscv_GA102: Timeout waiting for RISC-V to halt', 'gpu_driver_error'),
    # nvrm: kernel_gsp.c _kgspLogXid119 banner (older releases)
    ('kernel', 'NVRM: GPU1 _kgspLogXid119: ********************************* GSP Failure **********************************', 'gpu_gsp_timeout'),
    # nvrm: gpu/gpu.c gpuPowerManagementEnter (GSP unload at suspend)
    ('kernel', 'NVRM: GPU0 gpuPowerManagementEnter: GSP unload failed at suspend: 0x65', 'gpu_gsp_error'),
    # nvrm: kernel_rc watchdog (krcWatchdog)
    ('kernel', 'NVRM: GPU0 krcWatchdog_IMPL: RC watchdog: GPU is probably locked!  Notify Timeout Seconds: 7', 'gpu_xid_other'),
    # nvrm: nv-pci.c nv_pci_validate_bars (BAR0)
    ('kernel', 'NVRM: BAR0 is 0M @ 0x0 (PCI:0000:4c:00.0)', 'gpu_driver_init'),
    # nvrm: osinit.c osInitNvMapping
    ('kernel', 'NVRM: osInitNvMapping: *** Cannot attach gpu', 'gpu_driver_init'),
    # nvrm: NVLink fatal error text (Xid 74 body)
    ('kernel', 'NVRM: NVLink: fatal error detected on link 3(0x10000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)', 'gpu_nvlink'),
    # nvidia-installer: ui_error (module load)
    ('system', 'ERROR: Unable to load the kernel module \'nvidia.ko\'.  This happens most frequently when this kernel module was built against the wrong or improperly configured kernel sources, with a version of gcc that differs from the one used to build the target kernel.', 'gpu_driver_init'),
    # nvidia-installer: ui_error (Secure Boot)
    ('system', 'ERROR: The kernel module failed to load. Secure boot is enabled on this system, so this is likely because it was not signed by a key that is trusted by the kernel.', 'gpu_driver_init'),
    # ---------------------------------------------------------------- NVIDIA kernel driver: errors, OS layer, lost GPU
    # nvrm: utils/nvassert.c
    ('kernel', 'NVRM: nvAssertOkFailedNoLog: Assertion failed: GPU lost from the bus [NV_ERR_GPU_IS_LOST] (0x0000000F) returned from intrServiceStallSingle @ intr.c:1120', 'gpu_fallen_off_bus'),
    # nvrm: utils/nvassert.c (generic)
    ('kernel', 'NVRM: nvAssertFailedNoLog: Assertion failed: 0 @ mem_mgr.c:2211', 'gpu_driver_error'),
    # nvrm: nvCheckFailedNoLog with a real status
    ('kernel', 'NVRM: nvCheckOkFailedNoLog: Check failed: Generic Error: Invalid state [NV_ERR_INVALID_STATE] (0x00000040) returned from kbusSendSysmembar(pGpu, pKernelBus) @ kern_bus.c:1440', 'gpu_driver_error'),
    # nvrm: kernel-open/nvidia/os-interface.c os_pci_init_handle
    ('kernel', 'NVRM: os_pci_init_handle: invalid context!', 'gpu_driver_error'),
    # nvrm: os-interface.c os_schedule
    ('kernel', 'NVRM: os_schedule: Attempted to yield the CPU while in atomic or interrupt context', 'gpu_driver_error'),
    # nvrm: os-interface.c os_flush_work_queue (format string without the space)
    ('kernel', 'NVRM: os_flush_work_queue: attempted to execute passivework from an atomic or interrupt context.', 'gpu_driver_error'),
    # nvrm: os-interface.c os_map_kernel_space
    ('kernel', 'NVRM: os_map_kernel_space: can\'t map 0xfa000000, invalid context!', 'gpu_driver_error'),
    # nvrm: os-interface.c os_map_kernel_space
    ('kernel', 'NVRM: os_map_kernel_space: won\'t map address 0x0 UC!', 'gpu_driver_error'),
    # nvrm: os-interface.c os_queue_work_item
    ('kernel', 'NVRM: queue is not enabled', 'gpu_driver_error'),
    # nvrm: os-interface.c os_alloc_mutex
    ('kernel', 'NVRM: failed to allocate mutex!', 'gpu_driver_error'),
    # nvrm: kernel-open/nvidia/nv-vm.c nv_alloc_system_pages
    ('kernel', 'NVRM: VM: nv_alloc_system_pages: failed to allocate memory', 'gpu_driver_error'),
    # nvrm: thread_state.c _threadNodeCheckTimeout
    ('kernel', 'NVRM: GPU6 _threadNodeCheckTimeout: API_GPU_ATTACHED_SANITY_CHECK failed!', 'gpu_driver_error'),
    # nvrm: nv.c (older releases)
    ('kernel', 'NVRM: The NVIDIA GPU 0000:a1:00.0 (PCI ID: 10de:2331) installed in this system has fallen off the bus and is not responding to commands.', 'gpu_fallen_off_bus'),
    # nvrm: gpu.c gpuSanityCheck / osHandleGpuLost
    ('kernel', 'NVRM: GPU 0000:a1:00.0: GPU has fallen off the bus.', 'gpu_fallen_off_bus'),
    # nvrm: Xid 79 text
    ('kernel', 'NVRM: Xid (PCI:0000:c7:00): 79, pid=\'<unknown>\', name=<unknown>, GPU has fallen off the bus.', 'gpu_fallen_off_bus'),
    # nvrm: uvm: kernel-open/nvidia-uvm/uvm_gpu.c
    ('kernel', 'nvidia-uvm: uvm encountered global fatal error 0x60, requiring os reboot to recover.', 'gpu_driver_error'),
    # nvrm: nvidia-modeset: kernel-open/nvidia-modeset
    ('kernel', 'nvidia-modeset: ERROR: GPU:1: Error while waiting for GPU progress: 0x0000c67d:0 2:0:4048:4040', 'gpu_driver_error'),
    # ---------------------------------------------------------------- NVLink, NVSwitch, Fabric Manager
    # nvrm: gpu/nvlink/kernel_nvlink.c (link shutdown before an XVE reset)
    ('kernel', 'NVRM: GPU2 knvlinkPrepareForXVEReset_IMPL: failed to shutdown links on GPU2 while preparing XVE reset: Timeout (0x65)', 'gpu_nvlink'),
    # nvswitch: src/common/nvswitch (SXid)
    ('kernel', 'nvidia-nvswitch3: SXid (PCI:0000:85:00.0): 24007, Fatal, Link 40 sourcetrack timeout error (First)', 'gpu_nvlink'),
    # nvswitch: SXid non-fatal (action none)
    ('kernel', 'nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 12028, Non-fatal, Link 09 egress non-posted PRIV error (First)', 'gpu_nvlink'),
    # nvswitch: kernel-open/nvidia/linux_nvswitch.c nvswitch_probe
    ('kernel', 'nvidia-nvswitch2: Failed to initialize device : -5', 'gpu_nvlink'),
    # fabricmanager: nv-fabricmanager log (fabricmanager.log) NVSwitch fatal error
    ('system', '[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:86:00.0 physical id 0x3 port 33', 'gpu_nvlink'),
    # fabricmanager: nv-fabricmanager log, non-fatal SXid (action none)
    ('system', '[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected NVSwitch non-fatal error 12028 on fid 0 on NVSwitch pci bus id 00000000:07:00.0 physical id 1 port 12', 'gpu_nvlink'),
    # fabricmanager: nv-fabricmanager log, topology check at start
    ('system', '[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected number of NVSwitches don\'t match with any supported system topology, aborting fabric manager', 'gpu_nvlink'),
    # systemd: nvidia-fabricmanager.service result
    ('system', 'Mar 04 05:06:07 gpu-r17 systemd[1]: nvidia-fabricmanager.service: Failed with result \'exit-code\'.', 'gpu_nvlink'),
    # dcgm: dcgm_errors.h DCGM_FR_NVLINK_DOWN
    ('system', 'GPU 6\'s NvLink link 14 is currently down', 'gpu_nvlink'),
    # dcgm: dcgm_errors.h DCGM_FR_NVLINK_ERROR_THRESHOLD
    ('system', 'Detected 212 CRC FLIT NvLink errors on GPU 3\'s NVLink which exceeds threshold of 100', 'gpu_nvlink'),
    # dcgm: dcgm_errors.h DCGM_FR_SXID_ERROR
    ('system', 'Detected fatal NvSwitch SXID 20034', 'gpu_nvlink'),
    # cuda runtime: cudaErrorSystemNotReady (Fabric Manager not running on an NVSwitch system)
    ('training', 'RuntimeError: CUDA error: system not yet initialized', 'cuda_driver_init'),
    # ---------------------------------------------------------------- GPUDirect modules: nvidia-peermem, nv_peer_mem, nvidia-fs
    # nvidia-peermem: kernel-open/nvidia-peermem/nvidia-peermem.c peer_err (nv_mem_client_init)
    ('kernel', 'nvidia-peermem nv_mem_client_init:512 nv_mem_client_init -- error while registering traditional client', 'gpu_driver_init'),
    # nvidia-peermem: nvidia-peermem.c nv_mem_param_conf_check
    ('kernel', 'nvidia-peermem nv_mem_param_conf_check:478 invalid peerdirect_support param value 7', 'gpu_driver_init'),
    # nvidia-peermem: nvidia-peermem.c nv_mem_get_pages
    ('kernel', 'nvidia-peermem nv_mem_get_pages:398 error -22 while calling nvidia_p2p_get_pages()', 'gpu_driver_error'),
    # nvidia-peermem: nvidia-peermem.c nv_dma_map
    ('kernel', 'nvidia-peermem nv_dma_map:330 nv_dma_map -- error -12 while calling nvidia_p2p_dma_map_pages()', 'gpu_driver_error'),
    # nvidia-peermem: nvidia-peermem.c nv_get_p2p_free_callback
    ('kernel', 'nvidia-peermem nv_get_p2p_free_callback:105 nv_get_p2p_free_callback -- error -22 while calling nvidia_p2p_free_dma_mapping()', 'gpu_driver_error'),
    # kmod: modprobe nvidia-peermem without MLNX_OFED peer-memory symbols
    ('system', 'modprobe: ERROR: could not insert \'nvidia_peermem\': Invalid argument', 'gpu_driver_init'),
    # kernel: kernel/module/main.c (nvidia-peermem against inbox RDMA)
    ('kernel', 'nvidia_peermem: Unknown symbol ib_register_peer_memory_client (err -2)', 'gpu_driver_init'),
    # kmod: nv_peer_mem (legacy Mellanox module)
    ('system', 'modprobe: ERROR: could not insert \'nv_peer_mem\': Unknown symbol in module, or unknown parameter (see dmesg)', 'gpu_driver_init'),
    # systemd: nv_peer_mem.service (legacy init script)
    ('system', 'Mar 04 05:06:07 gpu-r17 systemd[1]: Failed to start nv_peer_mem.service - LSB: Activates/Deactivates nv_peer_mem to start at boot time.', 'gpu_driver_init'),
    # kmod: nvidia-fs (GPUDirect Storage)
    ('system', 'modprobe: FATAL: Module nvidia-fs not found in directory /lib/modules/5.15.0-1063-nvidia', 'gpu_driver_init'),
    # kernel: nvidia-fs built for another driver
    ('kernel', 'nvidia_fs: disagrees about version of symbol nvidia_p2p_get_pages', 'gpu_driver_init'),
    # nvidia-fs: src/nvfs-core.c nvfs_err
    ('kernel', 'nvidia-fs: nvfs_pin_gpu_pages: nvidia_p2p_get_pages failed with error -22', 'gpu_driver_error'),
    # ---------------------------------------------------------------- libnvidia-container / nvidia-container-cli
    # libnvidia-container: src/cli/common.c + src/error.c
    ('system', 'nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown', 'gpu_container_init'),
    # libnvidia-container: src/driver.c (rpc to the driver helper)
    ('system', 'nvidia-container-cli: initialization error: driver rpc error: timed out: unknown', 'gpu_container_init'),
    # libnvidia-container: src/nvc.c (dlopen of NVML)
    ('system', 'nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown', 'gpu_container_init'),
    # libnvidia-container: src/nvc_mount.c
    ('system', 'nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown', 'gpu_container_init'),
    # libnvidia-container: src/nvc_mount.c
    ('system', 'nvidia-container-cli: mount error: stat failed: /dev/nvidia-uvm: no such file or directory: unknown', 'gpu_container_init'),
    # libnvidia-container: src/nvc_info.c device lookup
    ('system', 'nvidia-container-cli: device error: GPU-7b0c1a9e-ffff-4d2e-8f11-0a9c3e2d1b44: unknown device: unknown', 'gpu_container_init'),
    # libnvidia-container: src/nvc_ldcache.c
    ('system', 'nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 127: unknown', 'gpu_container_init'),
    # libnvidia-container: src/cli/configure.c requirement check
    ('system', 'nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version, or use an earlier cuda container: unknown', 'gpu_container_init'),
    # libnvidia-container: src/log.h glog line (E level)
    ('system', 'E0304 05:06:07.412210 77310 nvc_mount.c:512] failed to mount /usr/bin/nvidia-smi: permission denied', 'gpu_container_init'),
    # nvidia-container-toolkit: OCI hook failure through runc
    ('system', 'docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as \'legacy\'', 'gpu_container_init'),
    # crun: src/libcrun/container.c hook failure (podman + toolkit)
    ('system', 'Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1)', 'gpu_container_init'),
    # crun: hook failure with nvidia-ctk (CDI hooks)
    ('system', 'Error: OCI runtime error: crun: error executing hook `/usr/bin/nvidia-ctk` (exit code: 1)', 'gpu_container_init'),
    # docker: daemon/runtime.go (runtime not registered)
    ('system', 'docker: Error response from daemon: unknown or invalid runtime name: nvidia.', 'gpu_container_init'),
    # containerd CRI: pkg/cri/server/sandbox_run.go
    ('system', 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured', 'gpu_container_init'),
    # docker: daemon/nvidia (device request)
    ('system', 'docker: Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu compute utility]].', 'gpu_container_init'),
    # nvidia-container-toolkit: internal/modifier (CDI)
    ('system', 'Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=3', 'gpu_container_init'),
    # nvidia-ctk: cmd/nvidia-ctk/cdi/generate (logrus)
    ('system', 'time="2026-03-04T05:06:07Z" level=error msg="failed to generate CDI spec: failed to create device CDI specs: failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND"', 'gpu_container_init'),
    # nvidia-container-runtime: runtime.go (no low-level runtime on the node)
    ('system', 'time="2026-03-04T05:06:07Z" level=error msg="failed to create NVIDIA Container Runtime: error constructing low-level runtime: error locating runtime: no runtime binary found from candidate list: [runc crun]"', 'gpu_container_init'),
    # nvidia-container-runtime: cmd/nvidia-container-runtime (logrus)
    ('system', 'time="2026-03-04T05:06:07Z" level=error msg="failed to create NVIDIA Container Runtime: failed to construct OCI spec modifier: failed to construct CDI modifier: failed to get CDI specs"', 'gpu_container_init'),
    # systemd: nvidia-cdi-refresh.service (toolkit 1.18)
    ('system', 'Mar 04 05:06:07 gpu-r17 systemd[1]: Failed to start nvidia-cdi-refresh.service - Refresh NVIDIA CDI specification file.', 'gpu_container_init'),
    # libnvidia-container: NVML refused the container's request
    ('system', 'nvidia-container-cli: initialization error: nvml error: insufficient permissions: unknown', 'gpu_container_init'),
    # nvidia-container-toolkit: createRuntime hook (nvidia-cdi-hook create-symlinks) through runc
    ('system', 'Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running createRuntime hook #1: exit status 1, stdout: , stderr: time="2026-03-04T05:06:07Z" level=error msg="failed to create link [libcuda.so.1 /usr/lib64/libcuda.so]: failed to check if link exists: unexpected link target: libcuda.so.1"', 'gpu_container_init'),
    # crun: nvidia-cdi-hook
    ('system', 'Error: crun: error executing hook `/usr/bin/nvidia-cdi-hook` (exit code: 1): OCI runtime error', 'gpu_container_init'),
    # containerd: CDI injection (toolkit's OCI spec modifier)
    ('system', 'Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices management.nvidia.com/gpu=all: unknown', 'gpu_container_init'),
    # ---------------------------------------------------------------- k8s device plugin, kubelet, GPU Operator
    # k8s-device-plugin: internal/rm/health.go
    ('system', 'I0304 05:06:07.101010       1 health.go:159] XidCriticalError: Xid=79 on Device=GPU-51d2b6f1-1b3c-4f2e-9a55-4c0e8d7a2b90; marking device as unhealthy.', 'gpu_device_unhealthy'),
    # k8s-device-plugin: internal/plugin/server.go
    ('system', 'I0304 05:06:07.101010       1 server.go:296] \'nvidia.com/gpu\' device marked unhealthy: GPU-0b9c3d2e-aaaa-4b1c-9e8f-112233445566', 'gpu_device_unhealthy'),
    # k8s-device-plugin: cmd/nvidia-device-plugin/main.go
    ('system', 'E0304 05:06:07.101010       1 main.go:132] Failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND', 'gpu_container_init'),
    # k8s-device-plugin: internal/rm factory
    ('system', 'E0304 05:06:07.101010       1 factory.go:115] Incompatible platform detected', 'gpu_container_init'),
    # kubelet: pkg/kubelet/cm/devicemanager/manager.go (UnexpectedAdmissionError)
    ('system', 'Warning  UnexpectedAdmissionError  3m  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 8, Available: 7, which is unexpected', 'gpu_unavailable'),
    # gpu-operator: validator/main.go
    ('system', 'time="2026-03-04T05:06:07Z" level=error msg="driver is not ready: error validating driver: exit status 9"', 'gpu_driver_init'),
    # gpu-driver-container: nvidia-driver script
    ('system', 'nvidia-driver-ctr: Could not unload NVIDIA driver kernel modules, driver is in use', 'gpu_driver_init'),
    # gpu-driver-container: nvidia-driver _unload_driver
    ('system', 'nvidia-driver-ctr: Could not stop NVIDIA fabric manager daemon', 'gpu_driver_init'),
    # gpu-driver-container: nvidia-driver reload_nvidia_peermem
    ('system', 'nvidia-peermem-ctr: failed to load nvidia-peermem module', 'gpu_driver_init'),
    # gpu-driver-container: nvidia-driver probe_nvidia_peermem (liveness probe output)
    ('system', 'nvidia-peermem module is not loaded', 'gpu_driver_init'),
    # kubelet: the same probe output in a pod event
    ('system', 'Warning  Unhealthy  2m (x9 over 6m)  kubelet  Startup probe failed: nvidia-peermem module is not loaded', 'gpu_driver_init'),
    # gpu-driver-container: nvidia-driver _find_vgpu_driver_version
    ('system', 'cannot find match for compatible vgpu driver from available list, please check /var/log/vgpu-util.log for more details...', 'gpu_driver_init'),
    # gpu-operator: driver DaemonSet pod status
    ('system', 'gpu-operator   nvidia-driver-daemonset-5c2x9   0/1   Init:CrashLoopBackOff   11   44m', 'gpu_driver_init'),
    # ---------------------------------------------------------------- DCGM, nvidia-smi, persistenced
    # dcgm: dcgm_errors.h DCGM_FR_VOLATILE_DBE_DETECTED
    ('system', 'Detected 2 volatile double-bit ECC error(s) in GPU 5.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_PENDING_PAGE_RETIREMENTS
    ('system', 'A pending retired page has been detected in GPU 2.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_RETIRED_PAGES_LIMIT
    ('system', '60 or more retired pages have been detected in GPU 1.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_ROW_REMAP_FAILURE
    ('system', 'GPU 4 had uncorrectable memory errors and row remapping failed.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_UNCORRECTABLE_ROW_REMAP
    ('system', 'GPU 4 had uncorrectable memory errors and 2 rows were remapped', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_DBE_PENDING_PAGE_RETIREMENTS
    ('system', 'Pending page retirements together with a DBE were detected on GPU 3.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_UNCONTAINED_ERROR
    ('system', 'GPU had an uncontained error (XID 95)', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_CUDA_DBE
    ('system', 'CUDA APIs have indicated that a double-bit ECC error has occured on GPU 5.', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_FAULTY_MEMORY
    ('system', 'Found 3 faulty memory elements on GPU 4', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_DBE_VIOLATION (field tag)
    ('system', 'Detected 2 ecc_dbe_volatile_total for GPU 6', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_SBE_VIOLATION (corrected: action none)
    ('system', 'Detected 1 ecc_sbe_volatile_total for GPU 6', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_MEMORY_MISMATCH
    ('system', 'A memory mismatch was detected on GPU 2, but no error was reported by CUDA or NVML.', 'gpu_device_unhealthy'),
    # dcgm: dcgm_errors.h DCGM_FR_MEMORY_BANDWIDTH
    ('system', 'GPU 5 only achieved a memory bandwidth of 812.40 GB/s, failing to meet 1500.00 GB/s for test 0', 'gpu_device_unhealthy'),
    # dcgm: dcgm_errors.h DCGM_FR_PCIE_GENERATION
    ('system', 'GPU 6 is running at PCI link generation 3, which is below the minimum allowed link generation of 4 (parameter \'pcie.min_pci_generation\')', 'gpu_device_unhealthy'),
    # dcgm: dcgm_errors.h DCGM_FR_LOW_BANDWIDTH
    ('system', 'Bandwidth of GPU 4 in direction d2h of 6.12 did not exceed minimum required bandwidth of 20.00.', 'gpu_device_unhealthy'),
    # dcgm: dcgm_errors.h DCGM_FR_NVSWITCH_DOWN
    ('system', 'NvSwitch physical ID 2\'s NvLink port 17 is currently down.', 'gpu_nvlink'),
    # dcgm: dcgm_errors.h DCGM_FR_NVSWITCH_EXPECTED_NVLINKS_UP
    ('system', 'NvSwitch 1 - Only 60 NvLinks are up out of the expected 64', 'gpu_nvlink'),
    # dcgm: dcgm_errors.h DCGM_FR_PCIE_H_REPLAY_VIOLATION (corrected: action none)
    ('system', 'GPU 2 host-side PCIe replay violation, see dmesg for more information', 'pcie_aer'),
    # dcgm: dcgm_errors.h DCGM_FR_PCIE_REPLAY_THRESHOLD_VIOLATION (field tag; action none)
    ('system', 'Detected 14 pcie_replay_counter for GPU 3 which is above the threshold 8', 'pcie_aer'),
    # dcgm: dcgm_errors.h DCGM_FR_PCI_REPLAY_RATE (a corrected link event: no node action)
    ('system', 'Detected more than 8 PCIe replays per minute for GPU 2 : 14', 'pcie_aer'),
    # nvidia-smi -q: retired pages pending
    ('system', '        Pending Page Blacklist            : Yes', 'gpu_memory_ecc'),
    # nvidia-smi -q: row remapper
    ('system', '        Remapping Failure Occurred        : Yes', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_XID_ERROR
    ('system', 'Detected XID 48 for GPU 7', 'gpu_memory_ecc'),
    # dcgm: dcgm_errors.h DCGM_FR_CORRUPT_INFOROM
    ('system', 'A corrupt InfoROM has been detected in GPU 3.', 'gpu_device_unhealthy'),
    # dcgm: dcgmi diag table (dcgmi/Diag.cpp)
    ('system', '| Memory                    | Fail - GPU: 6                                  |', 'gpu_device_unhealthy'),
    # dcgm: DcgmHostEngineHandler.cpp
    ('system', '2026-03-04 05:06:07.123 ERROR [4410:4410] Cannot initialize the hostengine: Error: Failed to initialize NVML [/workspaces/dcgm/dcgmlib/src/DcgmHostEngineHandler.cpp:3811] [DcgmHostEngineHandler::Init]', 'gpu_container_init'),
    # nvidia-smi: NVML handle lookup
    ('system', 'Unable to determine the device handle for GPU 0000:A1:00.0: Unknown Error', 'gpu_unavailable'),
    # nvidia-smi: NVML_ERROR_GPU_IS_LOST
    ('system', 'Unable to determine the device handle for GPU0000:A1:00.0: GPU is lost.  Reboot the system to recover this GPU', 'gpu_unavailable'),
    # nvidia-smi: NVML_ERROR_INSUFFICIENT_POWER
    ('system', 'Unable to determine the device handle for GPU 0000:A1:00.0: Insufficient External Power', 'gpu_unavailable'),
    # nvidia-smi: driver not reachable (prefixed by a node check)
    ('system', 'gpu-r17: NVIDIA-SMI has failed because it couldn\'t communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.', 'gpu_unavailable'),
    # nvidia-smi: NVML library missing (container without the driver libraries)
    ('system', 'NVIDIA-SMI couldn\'t find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.', 'gpu_container_init'),
    # nvidia-smi: NVML_ERROR_LIB_RM_VERSION_MISMATCH
    ('system', 'gpu-r17: Failed to initialize NVML: Driver/library version mismatch', 'gpu_driver_init'),
    # nvidia-smi: NVML_ERROR_UNKNOWN in a container that lost its device cgroup
    ('training', 'trainer-5 | Failed to initialize NVML: Unknown Error', 'gpu_container_init'),
    # nvidia-smi: table cell that NVML could not read
    ('system', '| N/A   ERR!   P0    ERR! / 700W |  81000MiB / 81559MiB |    ERR!      Default |', 'gpu_unavailable'),
    # nvidia-smi: -r on a GPU in a bad state
    ('system', 'GPU 00000000:A1:00.0 requires reset. Please reset the GPU.', 'gpu_reset_required'),
    # nvidia-persistenced: nvpd_main.c
    ('system', 'nvidia-persistenced[2211]: Failed to query NVIDIA devices. Please ensure that the NVIDIA device files (/dev/nvidia*) exist, and that user 0 has read and write permissions for those files.', 'gpu_unavailable'),
    # libnvidia (user-space driver): device node open
    ('training', 'NVIDIA: could not open the device file /dev/nvidia5 (Input/output error).', 'gpu_unavailable'),
    # ---------------------------------------------------------------- Slurm
    # slurm: src/plugins/task/cgroup (cgroup v1/v2 OOM notification)
    ('training', 'slurmstepd: error: Detected 3 oom-kill event(s) in StepId=550912.0. Some of your processes may have been killed by the cgroup out-of-memory handler.', 'oom_killer'),
    # slurm: task/cgroup (older wording)
    ('training', 'slurmstepd: error: Detected 1 oom-kill event(s) in step 550912.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.', 'oom_killer'),
    # slurm: task/cgroup (singular wording)
    ('training', 'slurmstepd: error: Detected 1 oom_kill event in StepId=4411.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.', 'oom_killer'),
    # slurm: jobacct_gather/common/common_jag.c
    ('training', 'slurmstepd: error: StepId=550912.3 exceeded memory limit (52428800 > 41943040), being killed', 'oom_killer'),
    # slurm: srun step status
    ('training', 'srun: error: gpu-r17: task 12: Out Of Memory', 'oom_killer'),
    # slurm: sacct State column
    ('system', '550912.0          python        gpu    lab-a        96 OUT_OF_ME+    0:125', 'oom_killer'),
    # slurm: slurmstepd step_terminate_monitor / req.c (node failure banner)
    ('training', 'slurmstepd: error: *** JOB 550912 ON gpu-r17 CANCELLED AT 2026-03-04T05:06:07 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***', 'process_killed'),
    # slurm: srun (src/srun/srun_job.c) node failure
    ('training', 'srun: error: Node failure on gpu-r17', 'process_killed'),
    # slurm: slurmctld node_mgr.c
    ('system', '[2026-03-04T05:06:07.123] Killing JobId=550912 on failed node gpu-r17', 'process_killed'),
    # slurm: slurmctld ping_nodes.c
    ('system', '[2026-03-04T05:06:07.123] error: Nodes gpu-r[17-18] not responding, setting DOWN', 'process_killed'),
    # slurm: slurmstepd step_terminate_monitor (unkillable processes)
    ('training', 'slurmstepd: error: *** JOB 550912 STEPD TERMINATED ON gpu-r17 AT 2026-03-04T05:06:07 DUE TO JOB NOT ENDING WITH SIGNALS ***', 'process_killed'),
    # slurm: slurmctld job_mgr.c
    ('system', '[2026-03-04T05:06:07.123] error: slurmd error running JobId=550912 on node(s)=gpu-r17: Kill task failed', 'process_killed'),
    # slurm: srun task status (signal 9)
    ('training', 'srun: error: gpu-r17: task 5: Killed', 'process_killed'),
    # slurm: srun task status (signal 11)
    ('training', 'srun: error: gpu-r17: task 5: Segmentation fault (core dumped)', 'segfault'),
    # slurm: srun task status (signal 6)
    ('training', 'srun: error: gpu-r17: tasks 0-7: Aborted (core dumped)', 'process_crash'),
    # slurm: srun task status (signal 7)
    ('training', 'srun: error: gpu-r17: task 3: Bus error', 'process_crash'),
    # slurm: srun task status (exit code)
    ('training', 'srun: error: gpu-r17: tasks 8-15: Exited with exit code 1', 'process_exit_nonzero'),
    # slurm: slurmd req.c prolog
    ('system', 'slurmd[3311]: error: [job 550912] prolog failed status=1:0', 'process_exit_nonzero'),
    # slurm: slurmd req.c epilog
    ('system', 'slurmd[3311]: error: [job 550912] epilog failed status=2:0', 'process_exit_nonzero'),
    # slurm: scontrol show node (drain reason set by slurmctld)
    ('system', '   State=DOWN+DRAIN ThreadsPerCore=2 Reason=Prolog error [slurm@2026-03-04T05:06:07]', 'process_exit_nonzero'),
    # slurm: slurmctld prolog_slurmctld (src/slurmctld/prolog.c)
    ('system', '[2026-03-04T05:06:07.123] error: prolog_slurmctld JobId=550912 prolog exit status 1:0', 'process_exit_nonzero'),
    # slurm: slurmctld node_mgr.c validate_node_specs with the reason from interfaces/gres.c _node_config_validate
    ('system', '[2026-03-04T05:06:07.123] error: Setting node gpu-r17 state to INVALID with reason:gres/gpu count reported lower than configured (7 < 8)', 'gpu_unavailable'),
    # slurm: scontrol show node drain reason (GRES count)
    ('system', '   Reason=gres/gpu count reported lower than configured (7 < 8) [slurm@2026-03-04T05:06:07]', 'gpu_unavailable'),
    # slurm: gpu/nvml plugin (src/plugins/gpu/nvml/gpu_nvml.c)
    ('system', 'slurmd[3311]: error: _nvml_init: Failed to initialize NVML: Driver Not Loaded', 'gpu_unavailable'),
    # slurm: sacct NODE_FAIL
    ('system', '550913            train.sh      gpu    lab-a        96   NODE_FAIL      0:0', 'process_killed'),
    # slurm: slurmctld _job_complete
    ('system', '[2026-03-04T05:06:07.123] _job_complete: JobId=550914 WTERMSIG 9', 'process_killed'),
    # pyxis: pyxis_slurmstepd.c
    ('training', 'slurmstepd: error: pyxis: container start failed with error code: 2', 'gpu_container_init'),
    # pyxis: pyxis_slurmstepd.c (image import)
    ('training', 'slurmstepd: error: pyxis: failed to import docker image', 'gpu_container_init'),
    # pyxis: pyxis_slurmstepd.c (container filesystem)
    ('training', 'slurmstepd: error: pyxis: failed to create container filesystem', 'gpu_container_init'),
    # pyxis: pyxis_slurmstepd.c child_wait (the enroot child)
    ('training', 'slurmstepd: error: pyxis: child 4410 failed with error code: 1', 'gpu_container_init'),
    # pyxis: pyxis_slurmstepd.c task_init_privileged
    ('training', 'slurmstepd: error: pyxis: couldn\'t join mount namespace: Operation not permitted', 'gpu_container_init'),
    # slurm: src/common/plugstack.c (required SPANK plugin failed)
    ('training', 'slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1', 'gpu_container_init'),
    # enroot: enroot hooks (98-nvidia.sh through pyxis)
    ('training', 'slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1', 'gpu_container_init'),
    # enroot: nvidia hook calling libnvidia-container
    ('training', 'slurmstepd: error: pyxis:     nvidia-container-cli: initialization error: nvml error: driver not loaded', 'gpu_container_init'),
    # enroot: src/common.sh common::curl (registry answer while importing through pyxis)
    ('training', 'slurmstepd: error: pyxis:     [ERROR] URL https://nvcr.io/v2/nvidia/pytorch/manifests/25.01-py3 returned error code: 401 Unauthorized', 'gpu_container_init'),
    # enroot: src/bundle / runtime (missing nvidia-container-cli)
    ('training', '[ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container', 'gpu_container_init'),
    # ---------------------------------------------------------------- FUSE, s3fs, gcsfuse, mountpoint-s3, blobfuse2
    # libfuse: lib/mount.c fuse_mount_sys
    ('system', 'fuse: device not found, try \'modprobe fuse\' first', 'storage_remote_fs'),
    # libfuse: lib/mount.c fuse_mount_fusermount
    ('system', 'fuse: failed to exec fusermount3: No such file or directory', 'storage_remote_fs'),
    # libfuse: util/fusermount.c
    ('system', 'fusermount3: failed to open /dev/fuse: Operation not permitted', 'storage_remote_fs'),
    # libfuse: util/fusermount.c
    ('system', 'fusermount: mount failed: Operation not permitted', 'storage_remote_fs'),
    # libfuse: lib/mount.c (mountpoint of a dead FUSE daemon)
    ('training', 'fuse: bad mount point `/mnt/ckpt\': Transport endpoint is not connected', 'storage_remote_fs'),
    # s3fs: src/curl.cpp RequestPerform (new log format)
    ('system', '2026-03-04T05:06:07.123Z [ERR] curl.cpp:RequestPerform(2461): HTTP response code 503, returning EIO. Body Text: <Error><Code>ServiceUnavailable</Code></Error>', 'storage_remote_fs'),
    # s3fs: src/curl.cpp (CURLE code)
    ('system', '2026-03-04T05:06:07.123Z [ERR] curl.cpp:RequestPerform(2716): ### CURLE_SEND_ERROR', 'storage_remote_fs'),
    # s3fs: src/s3fs.cpp s3fs_release (upload failure)
    ('system', '2026-03-04T05:06:07.123Z [ERR] s3fs.cpp:s3fs_release(3061): failed to upload file contents for pseudo_fd(4)', 'storage_remote_fs'),
    # s3fs: syslog form
    ('system', 's3fs[7721]: s3fs.cpp:s3fs_read(2311): failed to read file(/ckpt/step_900.pt). result=-5', 'storage_remote_fs'),
    # s3fs: src/s3fs.cpp s3fs_check_service (mount time)
    ('system', 's3fs: Failed to check bucket and directory for mount point : Service Unavailable(host=https://s3.us-east-2.amazonaws.com)', 'storage_remote_fs'),
    # s3fs: syslog form of RequestPerform
    ('system', 's3fs[7721]: curl.cpp:RequestPerform(2461): HTTP response code 500, returning EIO.', 'storage_remote_fs'),
    # gcsfuse: jacobsa/fuse error log through gcsfuse's logger
    ('system', 'time="04/03/2026 05:06:07.123456" severity=ERROR message="fuse: *fuseops.ReadFileOp error: input/output error"', 'storage_remote_fs'),
    # s3fs: critical log level
    ('system', '2026-03-04T05:06:07.123Z [CRT] s3fs_cred.cpp:CheckIAMCredentialUpdate(1521): IAM Access Token refresh failed', 'storage_remote_fs'),
    # gcsfuse: internal/logger (text format)
    ('system', 'time="04/03/2026 05:06:07.123456" severity=ERROR message="ReadFile: input/output error, fh.reader.ReadAt: readFull: not retrying Read(\\"ckpt/step_900.pt\\", 4411): stream error: stream ID 5; INTERNAL_ERROR"', 'storage_remote_fs'),
    # gcsfuse: internal/logger (JSON format)
    ('system', '{"timestamp":{"seconds":1772600767,"nanos":123456789},"severity":"ERROR","message":"FlushFile: input/output error, FileHandle.Flush: SyncObject: Create: googleapi: Error 503: We encountered an internal error. Please try again., backendError"}', 'storage_remote_fs'),
    # gcsfuse: cmd/legacy_main.go
    ('system', 'Error while mounting gcsfuse: mountWithArgs: mountWithStorageHandle: fs.NewServer: create file system: SetUpBucket: BucketHandle: storageLayout call failed: rpc error: code = Unavailable desc = connection error', 'storage_remote_fs'),
    # mountpoint-s3: mountpoint-s3/src/fuse.rs (tracing WARN)
    ('system', '2026-03-04T05:06:07.123456Z  WARN mountpoint_s3::fuse: read failed with errno 5: get request failed: get object request failed: Client error: Unknown response error: 503 Service Unavailable', 'storage_remote_fs'),
    # mountpoint-s3: mountpoint-s3/src/cli.rs
    ('system', 'Error: Failed to create S3 client', 'storage_remote_fs'),
    # mountpoint-s3: the same error through journald
    ('system', 'Mar 04 05:06:07 gpu-r17 mount-s3[8812]: Error: Failed to create S3 client', 'storage_remote_fs'),
    # mountpoint-s3: mountpoint-s3/src/cli.rs (daemon did not come up)
    ('system', 'Error: Timeout after 30 seconds while waiting for mount process to be ready', 'storage_remote_fs'),
    # blobfuse2: common/log (syslog)
    ('system', 'blobfuse2[6110]: LOG_ERR [block_blob.go (927)]: BlockBlob::ReadBuffer : Failed to download blob ckpt/step_900.pt [GET https://acct.blob.core.windows.net/ckpt/step_900.pt RESPONSE 503]', 'storage_remote_fs'),
    # blobfuse2: component/file_cache
    ('system', 'blobfuse2[6110]: LOG_ERR [file_cache.go (1201)]: FileCache::FlushFile : Failed to upload file ckpt/step_900.pt [context deadline exceeded]', 'storage_remote_fs'),
    # blobfuse2: component/azstorage
    ('system', 'blobfuse2[6110]: LOG_ERR [azstorage.go (512)]: AzStorage::WriteFromFile : Failed to upload blob ckpt/step_900.pt [context deadline exceeded]', 'storage_remote_fs'),
    # ---------------------------------------------------------------- GPUDirect Storage (cuFile)
    # libcufile: cufile.log
    ('training', '[pid=4410 tid=4410] ERROR  cufio-fs:611 Failed to register file, unsupported file system', 'storage_io'),
    # libcufile: API error text (kvikio wrapper)
    ('training', 'RuntimeError: cuFile error at: /opt/kvikio/cpp/src/file_handle.cpp:121: CU_FILE_INTERNAL_ERROR (5030)', 'storage_io'),
    # libcufile: cuFileBufRegister
    ('training', 'cuFileBufRegister failed: GPU memory pinning failed', 'storage_io'),
    # libcufile: cuFileHandleRegister without the nvidia-fs module
    ('training', 'cuFileHandleRegister error: nvidia-fs driver is not loaded', 'storage_io'),
    # ---------------------------------------------------------------- Lustre / LNet
    # lustre: lustre/ptlrpc/import.c
    ('kernel', 'Lustre: lfs01-MDT0000-mdc-ffff8d3b4a1c2000: Connection to lfs01-MDT0000 (at 10.21.0.11@o2ib4) was lost; in progress operations using this service will wait for recovery to complete', 'storage_remote_fs'),
    # lustre: lustre/ptlrpc/import.c eviction
    ('kernel', 'LustreError: 167-0: lfs01-OST0012-osc-ffff8d3b4a1c2000: This client was evicted by lfs01-OST0012; in progress operations using this service will fail.', 'storage_remote_fs'),
    # lustre: lustre/ptlrpc/client.c ptlrpc_expire_one_request
    ('kernel', 'Lustre: 8801:0:(client.c:2295:ptlrpc_expire_one_request()) @@@ Request sent has timed out for slow reply: [sent 1772600700/real 1772600700]  req@ffff8d3b11110000 x1790000000001/t0(0) o4->lfs01-OST0012-osc@10.21.0.14@o2ib4:6/4 lens 488/448 e 0 to 1 dl 1772600767 ref 2 fl Rpc:X/0/ffffffff rc 0/-1', 'storage_remote_fs'),
    # lnet: lnet/klnds/o2iblnd/o2iblnd_cb.c
    ('kernel', 'LNetError: 8801:0:(o2iblnd_cb.c:3397:kiblnd_check_conns()) Timed out RDMA with 10.21.0.14@o2ib4 (52): c: 0, oc: 0, rc: 8', 'storage_remote_fs'),
    # lnet: lnet/lnet/lib-move.c
    ('kernel', 'LNetError: 8801:0:(lib-move.c:4018:lnet_handle_find_routed_path()) no route to 10.21.0.14@o2ib4 from <?>', 'storage_remote_fs'),
    # mount.lustre: lustre/utils/mount_lustre.c
    ('system', 'mount.lustre: mount 10.21.0.11@o2ib4:/lfs01 at /lustre failed: Input/output error', 'storage_remote_fs'),
    # lustre: lustre/ldlm/ldlm_request.c ldlm_expired_completion_wait
    ('kernel', 'LustreError: 4411:0:(ldlm_request.c:147:ldlm_expired_completion_wait()) ### lock timed out (enqueued at 1772600000, 300s ago), entering recovery for lfs01-MDT0000_UUID@10.21.0.11@o2ib4 ns: lfs01-MDT0000-mdc-ffff8d3b lock: ffff8d3b00001111/0x1 lrc: 4/1,0 mode: --/PR', 'storage_remote_fs'),
    # lnet: o2iblnd_cb.c kiblnd_check_txs_locked
    ('kernel', 'LNet: 4411:0:(o2iblnd_cb.c:3353:kiblnd_check_txs_locked()) Timed out tx: active_txs(WSQ:100), 8 seconds', 'storage_remote_fs'),
    # lnet: lnet/lnet/peer.c health recovery
    ('kernel', 'LNetError: 4411:0:(peer.c:3724:lnet_peer_ni_add_to_recoveryq_locked()) lpni 10.21.0.14@o2ib4 added to recovery queue. Health = 900', 'storage_remote_fs'),
    # ---------------------------------------------------------------- GPFS / Storage Scale, Weka, BeeGFS
    # gpfs: mmfs.log
    ('system', '2026-03-04_05:06:07.123+0000: [E] The TCP connection to IP address 10.30.0.5 gpfs-n05 <c0n4> (socket 81) state is unexpected: state=1 ca_state=4 snd_cwnd=1 snd_ssthresh=2 unacked=3 probes=0 backoff=7 retransmits=7 rto=120000000 rcv_ssthresh=1047392 rtt=221 rttvar=129 sacked=0 retrans=1 reordering=3 lost=3', 'storage_remote_fs'),
    # gpfs: mmfs.log (forced unmount)
    ('system', '2026-03-04_05:06:07.123+0000: [X] File System gpfs01 unmounted by the system with return code 5 reason code 0', 'storage_remote_fs'),
    # gpfs: syslog tag
    ('system', 'Mar  4 05:06:07 gpu-r17 mmfs[4455]: [E] Node 10.30.0.17 (gpu-r17) is being expelled because of an expired lease.', 'storage_remote_fs'),
    # gpfs: error log entry (mmfs syslog)
    ('system', 'mmfs: Error=MMFS_PHOENIX, ID=0xAB429E38, Tag=7712601: Reason code 668 Failure Reason Lost membership in cluster gpfs-prod.', 'storage_remote_fs'),
    # gpfs: mmfs.log (open failure)
    ('system', '2026-03-04_05:06:07.123+0000: [E] Failed to open gpfs01.', 'storage_remote_fs'),
    # weka: wekafsio kernel client (all frontends lost)
    ('kernel', 'wekafsio: ALL FEs down', 'storage_remote_fs'),
    # weka: wekafsgw kernel gateway
    ('kernel', 'wekafsgw: FE was down', 'storage_remote_fs'),
    # beegfs: client_module (kernel)
    ('kernel', 'beegfs: beegfs-client: mount(2) system call failed: Connection refused', 'storage_remote_fs'),
    # beegfs: client log (MessagingTk)
    ('kernel', 'beegfs: Worker1 [Messaging (RPC)] >> Communication error: Node: stor03 [ID: 103]; Error: Receive timed out from: stor03 @ 10.40.0.3:8003', 'storage_remote_fs'),
    # beegfs: systemd unit of the client
    ('system', 'Failed to start beegfs-client.service - Start BeeGFS Client.', 'storage_remote_fs'),
    # ---------------------------------------------------------------- NFS client
    # nfs: fs/nfs (older wording)
    ('kernel', 'nfs: server fs-07 not responding, timed out', 'storage_remote_fs'),
    # nfs: fs/nfs/nfs4state.c
    ('kernel', 'NFS: nfs4_discover_server_trunking unhandled error -512. Exiting with error EIO', 'storage_remote_fs'),
    # nfs: fs/nfs/nfs4state.c
    ('kernel', 'nfs4_reclaim_open_state: Lock reclaim failed!', 'storage_remote_fs'),
    # nfs: fs/nfs/inode.c
    ('kernel', 'NFS: server fs-07 error: fileid changed', 'storage_remote_fs'),
    # nfs: fs/nfs/nfs4proc.c
    ('kernel', 'NFS: nfs4_reclaim_open_state: unhandled error -10026', 'storage_remote_fs'),
    # nfs-utils: utils/mount (mount.nfs)
    ('system', 'mount.nfs: Connection timed out for fs-07:/export/ckpt on /mnt/ckpt', 'storage_remote_fs'),
    # sunrpc: net/sunrpc/xprtsock.c
    ('kernel', 'xs_tcp_setup_socket: connect returned unhandled error -107', 'storage_remote_fs'),
    # nfs: fs/lockd/clntproc.c
    ('kernel', 'lockd: server fs-11 not responding, still trying', 'storage_remote_fs'),
    # nfs: stale handle seen by the job
    ('training', "OSError: [Errno 116] Stale file handle: '/mnt/ckpt/run-17/step_900'", 'storage_remote_fs'),
]

# Benign siblings from the same sources: INFO/notice/debug lines, fallbacks, probes, successful steps
BENIGN: list[tuple[str, str]] = [
    # slurm task/cgroup (older releases): the cgroup's memory failure counter is non-zero, the limit was
    # reached and memory reclaimed; a kill is reported as 'Detected <n> oom-kill event(s)' (above)
    ('training', 'slurmstepd: error: Exceeded step memory limit at some point.'),
    ('training', 'slurmstepd: error: Exceeded job memory limit at some point.'),
    # nvrm: nv.c module banner
    ('kernel', 'NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.86.15  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Jan 16 00:52:12 UTC 2026'),
    # nvrm: nv-pci.c MSI fallback
    ('kernel', 'NVRM: GPU 0000:4c:00.0: Failed to enable MSI-X; falling back to MSI.'),
    # nvrm: nvCheckFailedNoLog with NV_ERR_NOT_SUPPORTED (a capability probe)
    ('kernel', 'NVRM: nvCheckOkFailedNoLog: Check failed: Call not supported [NV_ERR_NOT_SUPPORTED] (0x00000056) returned from pRmApi->Control(pRmApi, hClient, hSubdevice, NV2080_CTRL_CMD_PERF_GET_POWERSTATE, &params, sizeof(params)) @ perf.c:412'),
    # nvrm: kernel_gsp_tu102.c (context after the GFW failure headline)
    ('kernel', 'NVRM: GPU4 kgspWaitForGfwBootOk_TU102: (the GPU may be in a bad state and may need to be reset)'),
    # nvrm: kern_fsp_gh100.c debug dump
    ('kernel', 'NVRM: GPU6 kfspDumpDebugState_GH100: NV_PFSP_FALCON_COMMON_SCRATCH_GROUP_2(0) = 0x0'),
    # nvrm: kernel_gsp.c (info)
    ('kernel', 'NVRM: GPU0 GSP RM init completed, GSP firmware version 570.86.15'),
    # nvrm: the GPU identification lines printed before an Xid headline (context)
    ('kernel', 'NVRM: GPU at PCI:0000:a1:00: GPU-51d2b6f1-1b3c-4f2e-9a55-4c0e8d7a2b90'),
    ('kernel', 'NVRM: GPU Board Serial Number: 1650221002311'),
    # nvrm: crash dump notice (context of the headline)
    ('kernel', '[ 8812.331207] NVRM: A GPU crash dump has been created. If possible, please run'),
    # nvrm: nv.c persistence notice
    ('kernel', 'NVRM: Persistence mode is deprecated and will be removed in a future release. Please use nvidia-persistenced instead.'),
    # nvrm: platform request handler (notebook thermal ACPI)
    ('kernel', 'NVRM: GPU0 PlatformRequestHandler failed to get target temp from SBIOS'),
    # nvrm: kernel_gsp.c RPC debug dump (context of the Xid 119 headline)
    ('kernel', 'NVRM: GPU1 GSP RPC buffer contains function 76 (GSP_RM_CONTROL) and data 0x0000000020801348 0x0000000000000410.'),
    ('kernel', 'NVRM: GPU1 RPC history (CPU -> GSP):'),
    # nvidia-uvm: load notice
    ('kernel', 'nvidia-uvm: Loaded the UVM driver, major device number 510.'),
    # nvrm: os-interface.c os_dbg_set_level
    ('kernel', 'NVRM: Changing debuglevel from 0xffffffff to 0x2'),
    # kernel: module taint notice for out-of-tree nvidia modules
    ('kernel', 'nvidia_peermem: module verification failed: signature and/or required key missing - tainting kernel'),
    # kernel: out-of-tree module notice
    ('kernel', 'nvidia: loading out-of-tree module taints kernel.'),
    # nvidia-peermem: load notice (older releases)
    ('kernel', 'nvidia-peermem nv_mem_client_init:470 INFO: nvidia-peermem loaded'),
    # nvrm: kernel_nvlink.c link teardown at driver unload / re-init (routine)
    ('kernel', 'NVRM: knvlinkCoreShutdownDeviceLinks_IMPL: Need to shutdown all links unilaterally for GPU0'),
    ('kernel', 'nvidia-nvlink: Nvlink Core is being initialized, major device number 509'),
    # nvswitch: linux_nvswitch.c probe banner
    ('kernel', 'nvidia-nvswitch: Probing device 0000:86:00.0, Vendor Id = 0x10de, Device Id = 0x22a3, Class = 0x068000'),
    # fabricmanager: success
    ('system', '[Mar 04 2026 05:06:07] [INFO] [tid 4412] Successfully configured all the available NVSwitches to route GPU NVLink traffic. NVLink Peer-to-Peer support will be enabled once the GPUs are successfully registered with the NVLink fabric.'),
    # fabricmanager: info line
    ('system', '[Mar 04 2026 05:06:07] [INFO] [tid 1803] Received an inband message'),
    # fabricmanager: start banner
    ('system', 'Mar 04 05:06:07 gpu-r17 nv-fabricmanager[4412]: Connected to 1 node.'),
    # libnvidia-container: I/W lines
    ('system', 'I0304 05:06:07.412210 77310 nvc.c:393] loading kernel module nvidia_uvm'),
    ('system', 'W0304 05:06:07.412210 77310 nvc.c:273] skipping kernel modules load due to user namespace'),
    ('system', 'I0304 05:06:07.412210 77310 nvc_info.c:799] requesting device information with \'\''),
    # nvidia-container-runtime-hook: mode notice
    ('system', 'Auto-detected mode as \'legacy\''),
    # nvidia-container-toolkit: CDI notices
    ('system', 'time="2026-03-04T05:06:07Z" level=info msg="Generated CDI spec with version 0.8.0"'),
    ('system', 'time="2026-03-04T05:06:07Z" level=warning msg="Could not locate nvidia-imex-channels: pattern nvidia-imex-channels not found"'),
    # k8s-device-plugin: start-up info
    ('system', 'I0304 05:06:07.101010       1 main.go:256] Retrieving plugins.'),
    ('system', 'I0304 05:06:07.101010       1 server.go:216] Starting GRPC server for \'nvidia.com/gpu\''),
    # kubelet: scheduling (not a fault)
    ('system', 'Warning  FailedScheduling  2m  default-scheduler  0/16 nodes are available: 16 Insufficient nvidia.com/gpu.'),
    # gpu-operator validator: retry while waiting
    ('system', 'time="2026-03-04T05:06:07Z" level=info msg="Waiting for driver container to be ready, retrying after 5 seconds"'),
    # gpu-driver-container: progress and probe notes
    ('system', 'MOFED drivers are not ready, skipping probe to avoid container restarts...'),
    ('system', 'waiting for mellanox ofed and nvidia drivers to be installed'),
    ('system', 'successfully loaded nvidia-peermem module, now waiting for signal'),
    ('system', 'Unloading NVIDIA driver kernel modules...'),
    ('system', 'cannot find vgpu devices on host, pleae check /var/log/vgpu-util.log for more details...'),
    # dcgm: health pass and info
    ('system', 'Overall Health: Healthy'),
    ('system', '| Memory                    | Pass - All                                     |'),
    ('system', '2026-03-04 05:06:07.123 INFO  [4410:4410] Host engine listening on port 5555'),
    # dcgmi: the host engine is not running (monitoring, not the GPU)
    ('system', 'Error: Unable to connect to host engine. Host engine connection invalid/disconnected.'),
    # dcgm: dcgm_errors.h advisory / skip reasons
    ('system', "Could not connect to the host engine: 'Host engine connection invalid/disconnected'"),
    ('system', 'Persistence mode for GPU 0 is disabled.'),
    ("system", "Found CUDA performance-limiting environment variable 'CUDA_LAUNCH_BLOCKING'."),
    ('system', 'Test was aborted early due to user signal'),
    ('system', 'The Memory test is skipped for this GPU.'),
    # nvidia-smi: reset success and persistence notice
    ('system', 'GPU 00000000:A1:00.0 was successfully reset.'),
    ('system', 'Enabled persistence mode for GPU 00000000:A1:00.0.'),
    # nvidia-smi -r refused while processes use the GPU (an operator's request, not a fault)
    ('system', 'GPU 00000000:4C:00.0: Unable to reset this GPU because it\'s being used by some other process (e.g. CUDA application, graphics application like X server, monitoring application like other instance of nvidia-smi). Please first kill all processes using this GPU and all compute applications running in the system.'),
    # slurm: time limit and user cancels
    ('training', 'slurmstepd: error: *** JOB 550915 ON gpu-r17 CANCELLED AT 2026-03-04T05:06:07 DUE TO TIME LIMIT ***'),
    ('training', 'slurmstepd: error: *** STEP 550915.0 ON gpu-r17 CANCELLED AT 2026-03-04T05:06:07 ***'),
    ('training', 'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.'),
    ('training', 'srun: forcing job termination'),
    # slurm: preemption / requeue banners (the scheduler's decision, not a fault)
    ('training', 'slurmstepd: error: *** JOB 550920 ON gpu-r17 CANCELLED AT 2026-03-04T05:06:07 DUE TO PREEMPTION ***'),
    ('training', 'slurmstepd: error: *** STEP 550920.0 ON gpu-r17 CANCELLED AT 2026-03-04T05:06:07 DUE TO JOB REQUEUE ***'),
    # slurm: srun retries and allocation refusals
    ('training', 'srun: Job 550920 step creation temporarily disabled, retrying (Requested nodes are busy)'),
    ('training', 'srun: error: Unable to allocate resources: Requested node configuration is not available'),
    ('training', 'srun: error: gpu-r17: task 2: Exited with exit code 0'),
    # slurm: debug/verbose lines
    ('system', 'slurmd[3311]: debug:  [job 550912] attempting to run prolog [/etc/slurm/prolog.d/10-gpu.sh]'),
    ('system', 'slurmd[3311]: gres/gpu: _normalize_gres_conf: Capturing autodetected gpu info'),
    ('system', 'slurmstepd: debug:  task/cgroup: _memcg_initialize: job: alloc=65536MB mem.limit=65536MB memsw.limit=unlimited'),
    ('system', '550915.0          python        gpu    lab-a        96  COMPLETED      0:0'),
    ('system', '550916            train.sh      gpu    lab-a        96  CANCELLED+      0:0'),
    ('system', '550918            train.sh      gpu    lab-a        96   PREEMPTED      0:0'),
    # pyxis: debug note and log-dump header
    ('training', 'slurmstepd: debug:  pyxis: user_init() failed with rc=-1; postponing error for now, will report later'),
    ('training', 'slurmstepd: error: pyxis: printing contents of log file ...'),
    # pyxis: progress lines
    ('training', 'pyxis: importing docker image: nvcr.io#nvidia/pytorch:25.01-py3'),
    ('training', 'pyxis: creating container filesystem: pytorch'),
    ('training', 'pyxis: starting container ...'),
    # libfuse / fusermount: unmount-side notes
    ('system', 'fusermount: entry for /mnt/ckpt not found in /etc/mtab'),
    # s3fs: info lines
    ('system', '2026-03-04T05:06:07.123Z [INF] curl.cpp:RequestPerform(2461): HTTP response code 200'),
    ('system', 's3fs[7721]: s3fs.cpp:s3fs_init(3493): init v1.94(commit:unknown) with OpenSSL, credential-library(built-in)'),
    ('system', '2026-03-04T05:06:07.123Z [INF] curl.cpp:RequestPerform(2519): HTTP response code 404 was returned, returning ENOENT'),
    ('system', '2026-03-04T05:06:07.123Z [WAN] s3fs.cpp:s3fs_check_service(3700): Failed to connect by sigv4, so retry to connect by signature version 2.'),
    # gcsfuse: info lines
    ('system', 'time="04/03/2026 05:06:07.123456" severity=INFO message="File system has been successfully mounted."'),
    ('system', '{"timestamp":{"seconds":1772600767,"nanos":1},"severity":"INFO","message":"Start gcsfuse/2.5.0 (Go version go1.23.0) for app \\"\\" using mount point: /mnt/gcs"}'),
    # mountpoint-s3: application-caused failure (not the store)
    ('system', '2026-03-04T05:06:07.123456Z  WARN mountpoint_s3::fuse: write failed with errno 1: upload error: out of order write is NOT supported by Mountpoint, aborting the upload; expected offset 0 but got 4096'),
    # blobfuse2: its start banner is logged at LOG_CRIT
    ('system', 'blobfuse2[6110]: LOG_CRIT [mount.go (431)]: Starting Blobfuse2 Mount : 2.4.0 on [Ubuntu 22.04.4 LTS]'),
    ('system', 'blobfuse2[6110]: LOG_CRIT [mount.go (432)]: Logging level set to : LOG_WARNING'),
    # cuFile: compat-mode notices
    ('training', '[pid=4410 tid=4410] NOTICE  cufio-drv:720 running in compatible mode'),
    ('training', '[pid=4410 tid=4410] WARN  cufio-fs:441 dumping volume attributes: DEVNAME:/dev/nvme0n1,ID_FS_TYPE:ext4,ID_FS_USAGE:filesystem'),
    # lustre: recovery and info
    ('kernel', 'Lustre: lfs01-MDT0000-mdc-ffff8d3b4a1c2000: Connection restored to 10.21.0.11@o2ib4 (at 10.21.0.11@o2ib4)'),
    ('kernel', 'Lustre: Mounted lfs01-client'),
    ('kernel', 'LNet: Added LNI 10.21.0.17@o2ib4 [8/256/0/180]'),
    ('kernel', 'Lustre: MGC10.21.0.11@o2ib4: Connection restored to 10.21.0.11@o2ib4 (at 10.21.0.11@o2ib4)'),
    # gpfs: notice lines
    ('system', '2026-03-04_05:06:07.123+0000: [N] Connecting to 10.30.0.5 gpfs-n05 <c0n4>'),
    ('system', '2026-03-04_05:06:07.123+0000: [I] Command: successful mount gpfs01'),
    ('system', '2026-03-04_05:06:07.123+0000: [W] Unable to determine the NUMA node for GPU 3'),
    ('system', '2026-03-04_05:06:07.123+0000: [N] Node 10.30.0.5 (gpfs-n05) lease renewal is overdue. Pinging to check if it is alive'),
    # beegfs: mount notice
    ('kernel', 'beegfs: Mounted BeeGFS: /mnt/beegfs'),
    # nfs: recovery
    ('kernel', 'nfs: server fs-07 OK'),
    ('kernel', 'NFS: Registering the id_resolver key type'),
    ('kernel', 'nfs: Deprecated parameter \'intr\''),
]

# How syslog, journald, RFC5424, dmesg -T / -x and /dev/kmsg put a kernel line on the page
KERNEL_PREFIXES: list[str] = [
    "[ 1234.567890] ",
    "kernel: [ 1234.567890] ",
    "Mar  4 05:06:07 gpu-r17 kernel: [ 1234.567890] ",
    "2026-03-04T05:06:07.123456+00:00 gpu-r17 kernel: ",
    "[Wed Mar  4 05:06:07 2026] ",
    "kern  :err   : [Wed Mar  4 05:06:07 2026] ",
]
KERNEL_FORMATS = [(line, category) for source, line, category in FORMATS if source == "kernel"]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize("prefix", KERNEL_PREFIXES)
def test_kernel_format_is_classified_behind_each_prefix(classifier: Classifier, prefix: str) -> None:
    """Every kernel format keeps its category behind every log prefix (no rule anchors too hard)."""
    wrong = []
    for line, category in KERNEL_FORMATS:
        found = classifier.classify(prefix + line, "kernel")
        if found is None or found.category != category:
            wrong.append((line, found and found.rule_id))
    assert not wrong, wrong


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize("line", [
    "nvidia-nvswitch1: SXid (PCI:0000:07:00.0): 12028, Non-fatal, Link 09 egress non-posted PRIV error (First)",
    "slurmstepd: error: pyxis: failed to import docker image",
    "slurmd[3311]: error: [job 550912] prolog failed status=1:0",
    "srun: error: Node failure on gpu-r17",
    "nvidia-peermem nv_mem_get_pages:398 error -22 while calling nvidia_p2p_get_pages()",
    "Detected more than 8 PCIe replays per minute for GPU 2 : 14",
    "Detected 14 pcie_replay_counter for GPU 3 which is above the threshold 8",
    "Detected 1 ecc_sbe_volatile_total for GPU 6",
])
def test_a_recoverable_condition_takes_no_node(classifier: Classifier, line: str) -> None:
    """Non-fatal fabric notices, image imports, Slurm's own node handling, one failed GPUDirect registration, PCIe
    replays and corrected ECC counts take no node away alone."""
    found = classifier.classify(line, "system")
    assert found is not None
    assert found.action in {"none", "restart_app"}


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0


@pytest.mark.parametrize(("line", "action"), [
    ('[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id '
     '00000000:86:00.0 physical id 0x3 port 33', "reset_gpu"),
    ("[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected number of NVSwitches don't match with any supported system "
     "topology, aborting fabric manager", "reset_gpu"),
    ('[Mar 04 2026 05:06:07] [ERROR] [tid 4412] detected NVSwitch non-fatal error 12028 on fid 0 on NVSwitch pci bus id '
     '00000000:07:00.0 physical id 1 port 12', "none"),
    ('[Mar 04 2026 05:06:07] [ERROR] [tid 4412] request to query NVSwitch device information from NVSwitch driver '
     'failed with error: Invalid argument', "restart_app"),
])
def test_fabric_manager_takes_a_node_only_for_a_fatal_error(classifier: Classifier, line: str, action: str) -> None:
    """A Fabric Manager ERROR line it carries on from never takes the node; a fatal one or its abort does."""
    found = classifier.classify(line, "system")
    assert found is not None and found.category == "gpu_nvlink"
    assert found.action == action
