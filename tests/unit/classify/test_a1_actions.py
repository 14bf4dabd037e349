"""A1 audit of the node-taking actions: lines that read as a node fault but are a configuration,
a daemon's own trouble, a consumer's error or a reminder take no node; a sibling line of the same
rule that reports the node's own fault keeps its node action. Categories do not change.

Each case: (source, line, rule id, category, action) for the line that now takes no node, then
(source, line, action) for a sibling of the same rule that still takes it. The lines follow the
documented formats (kernel, DCGM, CUDA, FFmpeg, DKMS, Docker/containerd, k8s-device-plugin, NVML); the
public source of each decision is in the rule's note (A1).
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier

NODE_ACTIONS = {"reset_gpu", "reboot_node", "replace_node", "contact_support"}

CASES = [
    # A6: a NIC driver without RDMA (onboard / management 1 GbE, a BMC's USB network function) carries no
    # collective: its link going down is the management network, not the job's fabric.
    (("kernel", "[ 8812.204117] igb 0000:05:00.0 eno1: igb: eno1 NIC Link is Down",
      "net.link_down", "net_link_down", "none"),
     ("kernel", "[ 8812.204117] mlx5_core 0000:3b:00.0 ens1f0np0: Link down", "reboot_node")),
    (("kernel", "e1000e 0000:00:1f.6 eno1: NIC Link is Down", "net.link_down", "net_link_down", "none"),
     ("kernel", "ixgbe 0000:19:00.1 enp25s0f1: NIC Link is Down", "reboot_node")),
    # A6: a bond member that fails over; the bond goes down with its last member only.
    (("kernel", "[133194.258031] bond0: link status definitely down for interface ens4f0, disabling it",
      "net.link_down", "net_link_down", "none"),
     ("kernel", "[133194.458031] bond0: now running without any active interface!", "reboot_node")),
    (("kernel", "bond0: (slave ens1f1np1): link status definitely down, disabling slave",
      "net.link_down", "net_link_down", "none"),
     ("kernel", "mlx5_core 0000:3b:00.1 ens1f1np1: Link down", "reboot_node")),
    # mlx5 eq.c: a CQ error event belongs to the CQ's consumer (overrun / access violation).
    (("kernel", "mlx5_core 0000:b3:00.0: mlx5_eq_async_int:498:(pid 0): CQ error on CQN 0x4f7, syndrome 0x1",
      "ib.port", "ib_link", "restart_app"),
     ("kernel", "mlx5_core 0000:b3:00.0: Port module event[error]: module 1, Cable error, Bad or shorted cable/module",
      "reboot_node")),
    # ext4 print_daily_error_info: the superblock's error record, repeated daily until fsck.
    (("kernel", "[86412.004417] EXT4-fs (nvme0n1p3): error count since last fsck: 7",
      "storage.local_disk", "storage_local_disk", "none"),
     ("kernel", "EXT4-fs error (device nvme0n1p3): ext4_lookup:1817: inode #131074: comm python3: deleted inode referenced: 131399",
      "reboot_node")),
    (("kernel", "EXT4-fs (sdb2): last error at time 1764201600: ext4_journal_check_start:83",
      "storage.local_disk", "storage_local_disk", "none"),
     ("kernel", "blk_update_request: I/O error, dev sdb, sector 409600 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0",
      "reboot_node")),
    # k8s-device-plugin#1562: a GPU that cannot register NVML events is no unhealthy GPU.
    (("system", "2026/03/14 09:12:44 Warning: GPU-7c2e91d0-5b3a-4f18-a0c6-2d9e8b1f4a37 is too old to support "
                "healthchecking: Not Supported. Marking it unhealthy.",
      "gpu.device_plugin_unhealthy", "gpu_device_unhealthy", "none"),
     ("system", "I0314 09:12:44.100200       1 health.go:152] XidCriticalError: Xid=79 on Device=GPU-7c2e91d0-5b3a-4f18-a0c6-2d9e8b1f4a37; marking device as unhealthy.",
      "reset_gpu")),
    # CUDA runtime error reference: the image and the driver disagree (a configuration).
    (("training", "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update "
                  "your GPU driver by downloading and installing a new version from the URL: "
                  "http://www.nvidia.com/Download/index.aspx",
      "cuda.driver_init", "cuda_driver_init", "restart_app"),
     ("training", "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.", "reboot_node")),
    (("training", "cudaGetDeviceCount failed: CUDA driver version is insufficient for CUDA runtime version",
      "cuda.driver_init", "cuda_driver_init", "restart_app"),
     ("training", "THCudaCheck FAIL file=/opt/pytorch/aten/src/THC/THCGeneral.cpp line=51 error=100 : no "
                  "CUDA-capable device is detected", "reboot_node")),
    (("training", 'CUDA error at train.cu:88 code=804(cudaErrorCompatNotSupportedOnDevice) "cudaGetDeviceCount(&n)"',
      "cuda.driver_init", "cuda_driver_init", "restart_app"),
     ("training", 'CUDA error at train.cu:88 code=802(cudaErrorSystemNotReady) "cudaGetDeviceCount(&n)"', "reboot_node")),
    (("training", "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA error: the provided PTX was compiled with an "
                  "unsupported toolchain (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)",
      "cuda.driver_init", "cuda_driver_init", "restart_app"),
     ("training", "E0314 09:12:44.100200  4411 cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
      "reboot_node")),
    # FFmpeg nvenc.c: the build asks for a newer NVENC API than the driver offers.
    (("training", "[h264_nvenc @ 0x55c1d02b7a40] Driver does not support the required nvenc API version. Required: 13.0 Found: 12.1",
      "cuda.nvenc_driver.k15", "cuda_driver_init", "restart_app"),
     ("training", "[hevc_nvenc @ 0x55c1d02b7a40] Cannot load libnvidia-encode.so.1", "reboot_node")),
    (("training", "[hevc_nvenc @ 0x7f01c4002e00] The minimum required Nvidia driver for nvenc is 570.0 or newer",
      "cuda.nvenc_driver.k15", "cuda_driver_init", "restart_app"),
     ("training", "[AVHWDeviceContext @ 0x5611e3a0b2c0] Cannot load libcuda.so.1", "reboot_node")),
    # Container Toolkit install guide: an engine without the nvidia runtime is configured with nvidia-ctk.
    (("system", "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
      "accel.container_runtime.k20", "gpu_container_init", "restart_app"),
     ("system", "nvidia-container-cli: detection error: nvml error: driver not loaded", "reboot_node")),
    # dcgm-exporter threads: the monitoring daemon's own container cannot load NVML.
    (("system", "2026-03-14 09:12:44.512 ERROR [118:118] Cannot initialize the hostengine: Error: Failed to initialize "
                "NVML [/workspaces/dcgm/dcgmlib/src/DcgmHostEngineHandler.cpp:3716] [DcgmHostEngineHandler::Init]",
      "gpu.dcgm_nvml.k21", "gpu_container_init", "none"),
     ("kernel", "[ 8812.301177] NVRM: API mismatch: the client has the version 550.127.05, but", "reboot_node")),
    # nvidia-smi return codes: only the node's own (8, 9, 10, 14, 15) keep the node action.
    (("training", "2026-03-14 09:12:44,512 WARNING gpu_probe: nvidia-smi returned non-zero exit status 4",
      "gpu.nvidia_smi_failed.k20", "gpu_unavailable", "none"),
     ("training", "2026-03-14 09:12:44,512 WARNING gpu_probe: nvidia-smi returned non-zero exit status 15",
      "reboot_node")),
    (("system", "Mar 14 09:12:44 gpu-r7 gpustat-agent[3120]: Error: Command failed: nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader",
      "gpu.nvidia_smi_failed.k20", "gpu_unavailable", "none"),
     ("training", "2026-03-14 09:12:44,512 ERROR health: nvidia-smi returned non-zero exit status 9", "reboot_node")),
    # DKMS: a build for a kernel (often the next one) fails; the loaded driver is not touched.
    (("system", "Autoinstall on 6.8.0-51-generic failed for module(s) nvidia(10).",
      "gpu.driver_dkms.k25", "gpu_driver_init", "none"),
     ("kernel", "NVRM: GPU 0000:4e:00.0: RmInitAdapter failed! (0x26:0x56:1474)", "reboot_node")),
    # amdgpu_device_gpu_recover: the driver's own reset; only its failure takes the node.
    (("kernel", "[ 5120.447810] amdgpu 0000:83:00.0: amdgpu: GPU reset begin!",
      "gpu.amdgpu_reset", "gpu_reset_required", "restart_app"),
     ("kernel", "amdgpu 0000:83:00.0: amdgpu: GPU reset(3) failed", "reset_gpu")),
    # habanalabs hl_device_reset: the announced reset, then success or "Device is NOT usable".
    (("kernel", "[ 9120.114420] habanalabs hl2: Going to RESET device!",
      "gpu.habanalabs_reset.f3", "gpu_reset_required", "restart_app"),
     ("kernel", "habanalabs hl2: Failed to reset! Device is NOT usable", "reboot_node")),
    # NVML_ERROR_IN_USE: an operator's MIG change refused while the instance has processes.
    (("training", "Unable to destroy gpu instance id  1 from gpu  0: In use by another client",
      "accel.device_busy.k20", "cuda_device_unavailable", "none"),
     ("training", "E0314 09:12:44.100200 3120 tpu_init.cc:90] libtpu.so already in use by another process probably "
                  'owned by another user. Run "$ sudo lsof -w /dev/accel2" to figure out which process is using the TPU. '
                  "Not attempting to load libtpu.so in this process.", "reset_gpu")),
    # ipoib_multicast.c: a refused join is retried with back-off; the SM answers, not the port.
    (("kernel", "ib0: multicast join failed for ff12:401b:ffff:0000:0000:0000:ffff:ffff, status -22",
      "ib.port", "ib_link", "none"),
     ("kernel", "ib0: transmit timeout: latency 10240 msecs", "reboot_node")),
    # nvidia-docker#1642: no GPU device driver registered with Docker (the toolkit is missing).
    (("system", 'docker: Error response from daemon: could not select device driver "" with capabilities: '
                '[[gpu compute utility]].',
      "gpu.container_init", "gpu_container_init", "restart_app"),
     ("system", "nvidia-container-cli: mount error: stat failed: /proc/driver/nvidia/gpus/0000:b1:00.0: no such file "
                "or directory: unknown", "reboot_node")),
    # NCCL troubleshooting (IOMMU / ACS): DMA translation faults are a mapping set up wrongly.
    (("kernel", "DMAR: [DMA Write NO_PASID] Request device [c1:00.0] fault addr 0x7fe00000 [fault reason 0x05] "
                "PTE Write access is not set",
      "host.iommu_fault", "pcie_aer", "restart_app"),
     ("kernel", "AMD-Vi: Event logged [DEV_TAB_HARDWARE_ERROR device=0000:41:00.0 address=0x1f2e3d000 flags=0x0100]",
      "reboot_node")),
    # DCGM policy: the PCI condition counts PCIe replays (corrected link retransmissions).
    (("system", "Mar 14 09:12:44 gpu-r7 dcgm-policy[5120]: A PCIe replay event has violated policy manager values.",
      "gpu.dcgm_policy_pcie.k23", "pcie_aer", "none"),
     ("system", "Mar 14 09:12:44 gpu-r7 dcgm-policy[5120]: The maximum number of retired pages has violated policy "
                "manager values.", "reset_gpu")),
    # CUDA error reference: an ordinal that names no visible device is the caller's.
    (("training", "[rank6]: torch.AcceleratorError: CUDA error: invalid device ordinal",
      "cuda.device_unavailable", "cuda_device_unavailable", "restart_app"),
     ("training", "[rank6]: torch.AcceleratorError: CUDA error: CUDA-capable device(s) is/are busy or unavailable",
      "reset_gpu")),
]


@pytest.mark.parametrize(("flagged", "sibling"), CASES, ids=[c[0][2] + ":" + c[0][1][:40] for c in CASES])
def test_a_line_that_is_not_the_nodes_fault_takes_no_node(classifier: Classifier, flagged: tuple[str, ...],
                                                          sibling: tuple[str, ...]) -> None:
    source, line, rule_id, category, action = flagged
    found = classifier.classify(line, source)
    assert found is not None, line
    assert (found.rule_id, found.category, found.action) == (rule_id, category, action), found
    assert found.action not in NODE_ACTIONS
    sibling_source, sibling_line, sibling_action = sibling
    kept = classifier.classify(sibling_line, sibling_source)
    assert kept is not None and kept.action == sibling_action, (sibling_line, kept)
    assert kept.action in NODE_ACTIONS
