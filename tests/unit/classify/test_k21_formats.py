"""Brief K21: the vocabularies of the NVIDIA fleet's Kubernetes and cloud layers behind the holdout21 misses.

Part 1 checks benign siblings next to the new patterns (progress lines of the GPU Operator driver container, of
nvidia-installer and of Google's cos-gpu-installer, an openibd module that loaded, an NVLink routine that only
reports a capability). Part 2 checks the formats: the GPU Operator driver container script (nvidia-driver),
nvidia-installer ui_error lines, cos-gpu-installer / GKE driver installer, kubelet's crash-loop back-off of the driver
DaemonSet, the CUDA vectorAdd sample of the Operator's cuda-validator, dcgmi diag result rows, open-gpu-kernel-modules knvlink* routines,
MLNX_OFED openibd, NCCL 1.x device-buffer allocation, NCCL socket connects and c10d TCPStore receives, and a
scheduler's node-failure preemption. Every line follows the documented or source-code format of its emitter (cited
in the rule's note), with made-up hosts, ids and numbers. None is a copy of a line of the real corpus (checked below
without printing any corpus line).
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format

# ---- Part 1: benign siblings of the new patterns
BENIGN: list[tuple[str, str]] = [
    ("system", "Resolving Linux kernel version..."),
    ("system", "Proceeding with Linux kernel version 6.8.0-1015-aws"),
    ("system", "Starting installation of NVIDIA driver version 550.90.07 for Linux kernel version 6.8.0-1015-aws"),
    ("system", "Unloading NVIDIA driver kernel modules..."),
    ("system", "Stopping NVIDIA persistence daemon..."),
    ("system", "[nvidia-driver-ctr] Done, now waiting for signal"),
    ("system", "waiting for mellanox ofed and nvidia drivers to be installed"),
    ("system", "WARNING: Unable to determine if Secure Boot is enabled: No such file or directory"),
    ("system", "WARNING: The nvidia-drm module will not be installed. As a result, DRM-KMS will not function with "
               "this installation of the NVIDIA driver (550.90.07)."),
    ("system", "I0412 07:08:09.123456    1733 install.go:244] Verifying GPU driver installation"),
    ("system", "I0412 07:08:19.654321    1733 installer.go:412] GPU driver installation completed successfully"),
    ("system", "I0412 07:08:01.000001    1733 install.go:180] Found cached version, NOT building the drivers."),
    ("system", "Loading HCA driver and Access Layer:                       [  OK  ]"),
    ("system", "Unloading HCA driver:                                      [  OK  ]"),
    ("kernel", "NVRM: knvlinkDiscoverPostRxDetLinks_GB100: Not in ALI, checking PostRxDetLinks not supported."),
    ("system", "nvidia-cuda-validator-x8k2m   0/1     Completed   0          2m"),
    ("training", "cuda-validation Copy output data from the CUDA device to the host memory"),
    ("nccl", "gpu-r7:4410:4410 [2] NCCL INFO Call to connect returned Software caused connection abort, retrying"),
    # step B
    ("system", "2024-03-05 06:07:09.002 ERROR [41:41] Failed to start host engine server"),
    ("system", "2024-03-05 06:07:09.003 INFO [41:41] Host engine successfully terminated."),
    ("system", "SUCCESS:  nhc:  Health check passed:  check_nv_gpu_count:  8 GPUs found"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77120 WTERMSIG 15"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77120 WEXITSTATUS 0"),
    ("system", "[2025-02-03T04:05:06.790] _job_complete: JobId=77120 done"),
    # step C
    ("system", "time=\"2025-03-04T05:06:07Z\" level=warning msg=\"failed to validate the driver, retrying after 5 "
               "seconds\""),
    ("system", "time=\"2025-03-04T05:06:07Z\" level=info msg=\"Attempting to validate a driver container "
               "installation\""),
    ("training", "    except ray.exceptions.NodeDiedError:"),
    ("system", "I0102 03:04:05.000000       1 driver.go:231] Preparing devices for claim default/infer-1-gpu-q9w8e"),
    ("system", "| SM Stress                 | Pass - All                                     |"),
    ("system", "| Memtest                   | Skip - All                                     |"),
    ("system", "| Environment Variables     | Fail                                           |"),
    ("system", "Warning  FailedPrepareDynamicResources  30s  kubelet  Failed to prepare dynamic resources: prepare "
               "dynamic resources: NodePrepareResources failed for ResourceClaim web-0-cpus-7d2k1: error preparing "
               "devices for claim default/web-0-cpus-7d2k1:9e8d: cpuset not available"),
]

# ---- Part 2: the formats (source, line, category, rule id or None)
FORMATS: list[tuple[str, str, str, str | None]] = [
    # GPU Operator driver container (gpu-driver-container nvidia-driver script)
    ("system", "[pod/nvidia-driver-daemonset-5x2lq/nvidia-driver-ctr] Could not resolve Linux kernel version",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "Unable to open the file '/lib/modules/5.14.0-427.el9.x86_64/proc/version' (No such file or "
               "directory).Could not resolve Linux kernel version", "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "Could not locate Linux kernel version string", "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "Could not unload NVIDIA driver kernel modules, driver is in use", "gpu_driver_init",
     "gpu.driver_container.k21"),
    ("system", "An instance of the NVIDIA driver is already running, aborting", "gpu_driver_init",
     "gpu.driver_container.k21"),
    # nvidia-installer ui_error
    ("system", "ERROR: Installation has failed.  Please see the file '/var/log/nvidia-installer.log' for details.",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "ERROR: Unable to open 'kernel/nvidia-peermem/Kbuild' for copying (No such file or directory)",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "ERROR: Unable to find the kernel source tree for the currently running kernel.  Please make sure "
               "you have installed the kernel source files for your kernel", "gpu_driver_init",
     "gpu.driver_container.k21"),
    ("system", "ERROR: Failed to install the kernel module through DKMS. No kernel module was installed;",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "ERROR: The Nouveau kernel driver is currently in use by your system.  This driver is incompatible "
               "with the NVIDIA driver", "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "ERROR: The kernel module failed to load. Secure boot is enabled on this system, so this is likely "
               "because it was not signed by a key that is trusted by the kernel.", "gpu_driver_init",
     "gpu.driver_container.k21"),
    # cos-gpu-installer / GKE
    ("system", "E0412 07:08:09.000002    1733 install.go:129] failed to verify GPU driver installation: failed to "
               "verify GPU driver installation: exit status 9", "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "E0412 07:08:09.000002    1733 install.go:311] failed to run GPU driver installer: exit status 1",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "failed to configure cached installation: failed to load GPU drivers: exit status 1",
     "gpu_driver_init", "gpu.driver_container.k21"),
    ("system", "GPU driver installation task ended with non-zero status code 2", "gpu_driver_init",
     "gpu.driver_container.k21"),
    ("system", "Back-off 1m20s restarting failed container=nvidia-driver-installer "
               "pod=nvidia-driver-installer-4kq7d_kube-system(9c1d2e3f-0a1b-11ee-8c2d-42010a800042): "
               "CrashLoopBackOff", "gpu_driver_init", "gpu.operator_pod.k16"),
    ("system", "E0102 03:04:05.000000    2211 pod_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed to "
               "\\\"CreatePodSandbox\\\" for \\\"cuda-job-0_default(5c1d)\\\" with CreatePodSandboxError: failed to get "
               "sandbox runtime: no runtime for \\\"nvidia\\\" is configured\"", "gpu_container_init",
     "accel.container_runtime.k20"),
    ("system", "docker: Error response from daemon: unknown or invalid runtime name: nvidia.", "gpu_container_init",
     "accel.container_runtime.k20"),
    ("system", "  Warning  FailedPrepareDynamicResources  4m1s  kubelet  Failed to prepare dynamic resources: prepare "
               "dynamic resources: NodePrepareResources failed for ResourceClaim job-7-gpu-m2n3b: error preparing "
               "devices for claim default/job-7-gpu-m2n3b:4a5b6c7d: unable to create CDI spec file for claim: failed "
               "to construct MIG device DeviceNode edits", "gpu_container_init", "gpu.dra_prepare.k21"),
    ("system", "E0102 03:04:05.000000    2211 driver.go:190] error preparing devices for claim "
               "default/mnnvl-0-compute-domain-channel-7x6c5:ab12: ComputeDomain daemon on this node is not ready",
     "gpu_container_init", "gpu.dra_prepare.k21"),
    ("system", "| Memory Bandwidth          | Fail - GPU: 2, 6                               |", "gpu_device_unhealthy",
     "gpu.dcgm_diag_table.k21"),
    ("system", "| PCIe                      | Fail - All                                     |", "gpu_device_unhealthy",
     "gpu.dcgm_diag_table.k21"),
    # cgroup OOM seen by kubelet and containerd
    ("system", "  Warning  SystemOOM  91s  kubelet  System OOM encountered, victim process: pt_main_thread, pid: 88213",
     "oom_killer", "process.oom_killer"),
    ("system", "Jan 02 03:04:05 gpu-k7 containerd[1201]: time=\"2025-01-02T03:04:05.123456789Z\" level=info "
               "msg=\"TaskOOM event container_id:\\\"9a8b7c6d5e4f\\\"\"", "oom_killer", "process.oom_killer"),
    # CUDA vectorAdd sample (GPU Operator cuda-validator)
    ("system", "nvidia-cuda-validator-p9z2w cuda-validation Failed to allocate device vector A (error code "
               "initialization error)!", "cuda_driver_init", "cuda.validator_alloc.k21"),
    ("training", "Failed to allocate device vector C (error code unknown error)!", "cuda_driver_init",
     "cuda.validator_alloc.k21"),
    ("training", "Failed to allocate device vector B (error code CUDA driver version is insufficient for CUDA "
                 "runtime version)!", "cuda_driver_init", None),
    ("training", "Failed to allocate device vector A (error code out of memory)!", "cuda_oom", None),
    ("training", "Failed to allocate device vector B (error code CUDA-capable device(s) is/are busy or "
                 "unavailable)!", "cuda_device_unavailable", None),
    # open-gpu-kernel-modules NVLink routines
    ("kernel", "[88211.402113] NVRM: knvlinkUpdatePostRxDetectLinkMask_IMPL: Failed to update Rx Detect Link mask!",
     "gpu_nvlink", "gpu.nvlink_driver.k21"),
    ("kernel", "kernel: NVRM: knvlinkDiscoverPostRxDetLinks_GB100: Getting peer5's postRxDetLinkMask failed!",
     "gpu_nvlink", "gpu.nvlink_driver.k21"),
    ("kernel", "NVRM: knvlinkCoreShutdownDeviceLinks_IMPL: Failed to shutdown links on GPU3, status 0x65",
     "gpu_nvlink", "gpu.nvlink_driver.k21"),
    # MLNX_OFED openibd
    ("system", "Failed loading kernel module mlx5_core:                    [FAILED]", "ib_hca_fault",
     "ib.ofed_load.k21"),
    ("system", "Loading Mellanox MLX5_IB HCA driver:                       [FAILED]", "ib_hca_fault",
     "ib.ofed_load.k21"),
    ("system", "Loading HCA driver and Access Layer:[FAILED]", "ib_hca_fault", "ib.ofed_load.k21"),
    # NCCL 1.x device buffers
    ("nccl", "WARN src/core.cu:231 failed to allocate 8392704 byte device buffer", "cuda_oom",
     "nccl.cuda_malloc.k21"),
    ("training", "[2] NCCL Init failed (10) 'cuda malloc failed'", "cuda_oom", "nccl.cuda_malloc.k21"),
    # NCCL sockets and the c10d store (LABELS.md rows of K21)
    ("nccl", "gpu-r7:4410:4410 [2] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
             "fe80::a288:c2ff:fe10:1%ib0<40211> failed : Software caused connection abort", "nccl_error", None),
    ("training", "[rank5]:[W1205 01:02:03.000000000 TCPStore.cpp:125] [c10d] recvValue failed on "
                 "SocketImpl(fd=33, addr=[gpu-r7]:40111, remote=[gpu-r0]:29500): failed to recv, got 0 bytes",
     "nccl_remote_peer", "nccl.remote_peer"),
    # schedulers
    ("system", "job 40211.mgmt01 preempted (node failure)", "process_killed", "slurm.node_failure"),
    ("system", "job 88123.head01 requeued due to node failure on gpu-q7", "process_killed", "slurm.node_failure"),
    # step B: DCGM host engine, NHC GPU checks, slurmctld job completion
    ("system", "2024-03-05 06:07:08.901 ERROR [41:41] Cannot initialize the hostengine: Error: Failed to initialize "
               "NVML [/workspaces/dcgm-rel_dcgm_3_3-postmerge/dcgmlib/src/DcgmHostEngineHandler.cpp:3702] "
               "[DcgmHostEngineHandler::Init]", "gpu_container_init", "gpu.dcgm_nvml.k21"),
    ("system", "time=\"2024-03-05T06:07:08Z\" level=fatal msg=\"Failed to watch metrics: DCGM_ST_NVML_NOT_LOADED\"",
     "gpu_container_init", "gpu.dcgm_nvml.k21"),
    ("system", "ERROR:  nhc:  Health check failed:  Check check_nv_gpu_count 4 returned 1", "gpu_unavailable",
     "gpu.nhc_gpu_count.k21"),
    ("system", "gpu-h11 | ERROR: nhc: Health check failed: check_gpu_count: Expected 8 GPUs, found 6",
     "gpu_unavailable", "gpu.nhc_gpu_count.k21"),
    ("system", "ERROR:  nhc:  Health check failed:  check_nv_healthmon:  nvidia-healthmon returned 2",
     "gpu_device_unhealthy", "gpu.nhc_healthmon.k21"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77121 WTERMSIG 9", "process_killed",
     "slurm.job_complete_signal.k21"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77122_3(77125) WTERMSIG 11", "segfault",
     "slurm.job_complete_segv.k21"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77123 WTERMSIG 6", "process_crash",
     "slurm.job_complete_crash.k21"),
    ("system", "[2025-02-03T04:05:06.789] _job_complete: JobId=77124 WEXITSTATUS 2", "process_exit_nonzero",
     "slurm.job_complete_exit.k21"),
    # step C: GPU Operator validator components, Ray node deaths
    ("system", "time=\"2025-03-04T05:06:07Z\" level=error msg=\"driver is not ready: error validating driver: "
               "failed to locate nvidia-smi: file not found\"", "gpu_driver_init", "gpu.operator_validator_driver.k21"),
    ("system", "time=\"2025-03-04T05:06:07Z\" level=fatal msg=\"error validating driver installation: error "
               "checking driver container status: exit status 1\"", "gpu_driver_init",
     "gpu.operator_validator_driver.k21"),
    ("system", "time=\"2025-03-04T05:06:07Z\" level=fatal msg=\"error validating toolkit installation: exit status "
               "127\"", "gpu_container_init", "gpu.operator_validator_toolkit.k21"),
    ("system", "time=\"2025-03-04T05:06:07Z\" level=fatal msg=\"error validating cuda workload: failed to create "
               "cuda workload validation pod\"", "cuda_driver_init", "gpu.operator_validator_cuda.k21"),
    ("system", "time=\"2025-03-04T05:06:07Z\" level=fatal msg=\"error validating MOFED driver installation: exit "
               "status 1\"", "ib_hca_fault", "ib.operator_validator_mofed.k21"),
    ("training", "ray.exceptions.NodeDiedError: Task failed due to the node (where this task was running) dying.",
     "process_killed", "process.ray_worker_died"),
    ("training", "(TrainTrainable pid=4411) ray.exceptions.LocalRayletDiedError: The task's local raylet died. Check "
                 "raylet.out for more information.", "process_killed", "process.ray_worker_died"),
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
