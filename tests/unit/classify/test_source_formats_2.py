"""Brief F2 (issue 15 point 6): knowledge-base coverage from the vendors' own format strings.

Instead of fitting collected log lines, each case below instantiates a failure message as the software that prints it
formats it (its source file is named in the comment): the CUDA runtime/driver error strings (cudaGetErrorString,
CUresult names) as PyTorch, TensorFlow/XLA, JAX, CuPy, Numba, MXNet, Caffe, THC, ggml and Triton wrap them, and the
cuBLAS/cuDNN/cuFFT/cuSOLVER/cuSPARSE/cuRAND statuses; storage as training jobs see it (Lustre/LNet, the NFS client and
sunrpc, CephFS/libceph, GPFS mmfs.log, BeeGFS, botocore/S3, GCS/gcsfs, Azure Blob, torch.distributed.checkpoint,
safetensors, Python errno families); process ends (glibc malloc and fortify aborts, libstdc++ terminate, CPython
faulthandler, bash/zsh job status, subprocess, torch elastic, Open MPI/PRRTE and MPICH Hydra, the kernel OOM killer,
cgroup/systemd/systemd-oomd, Kubernetes); transports below NCCL (libibverbs, UCX, ucx-py, libfabric/EFA, aws-ofi-nccl,
Open MPI, MPICH); Slurm (srun, slurmstepd, slurmctld, slurmd, scontrol, sacct). Benign look-alikes are the INFO/notice
siblings from the same sources and the scheduler's own no-fault endings (time limit, preemption, cancellation).
Hosts, ids, paths and numbers are made up. No line is a copy of a corpus line (checked below without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (log source, line, expected category); the comment names the emitter and its source file
FORMATS: list[tuple[str, str, str]] = [
    # ---- cuda_runtime
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: invalid argument", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: out of memory", "cuda_oom"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank2]: RuntimeError: CUDA error: initialization error", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank3]: RuntimeError: CUDA error: driver shutting down", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank4]: RuntimeError: CUDA error: invalid configuration argument", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank5]: RuntimeError: CUDA error: invalid device function", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank6]: RuntimeError: CUDA error: no CUDA-capable device is detected", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank7]: RuntimeError: CUDA error: invalid device ordinal", "cuda_device_unavailable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable", "cuda_device_unavailable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank2]: RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "cuda_device_unavailable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank3]: RuntimeError: CUDA error: uncorrectable ECC error encountered", "cuda_ecc_uncorrectable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank4]: RuntimeError: CUDA error: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank5]: RuntimeError: CUDA error: misaligned address", "cuda_illegal_memory_access"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank6]: RuntimeError: CUDA error: unspecified launch failure", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank7]: RuntimeError: CUDA error: the launch timed out and was terminated", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: too many resources requested for launch", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: device-side assert triggered", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank2]: RuntimeError: CUDA error: an illegal instruction was encountered", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank3]: RuntimeError: CUDA error: invalid program counter", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank4]: RuntimeError: CUDA error: hardware stack error", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank5]: RuntimeError: CUDA error: operation not supported on global/shared address space", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank6]: RuntimeError: CUDA error: unknown error", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank7]: RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: forward compatibility was attempted on non supported HW", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: system not yet initialized", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank2]: RuntimeError: CUDA error: no kernel image is available for execution on the device", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank3]: RuntimeError: CUDA error: a PTX JIT compilation failed", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank4]: RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank5]: RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution", "gpu_nvlink"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank6]: RuntimeError: CUDA error: MPS client failed to connect to the MPS control daemon or the MPS server", "cuda_device_unavailable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank7]: RuntimeError: CUDA error: the MPS server is not ready to accept new MPS client requests", "cuda_device_unavailable"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: operation not permitted when stream is capturing", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: API call is not supported in the installed CUDA driver", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank2]: RuntimeError: CUDA error: CUDA driver is a stub library", "cuda_driver_init"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank3]: RuntimeError: CUDA error: too many blocks in cooperative launch", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank4]: RuntimeError: CUDA error: context is destroyed", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank5]: RuntimeError: CUDA error: invalid resource handle", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank6]: RuntimeError: CUDA error: peer access is not supported between these two devices", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank7]: RuntimeError: CUDA error: operation not permitted", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank0]: RuntimeError: CUDA error: device kernel image is invalid", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp C10_CUDA_CHECK + cuda_runtime_api.h / driver_types.h cudaGetErrorString
    ("training", "[rank1]: RuntimeError: CUDA error: the operation cannot be performed in the present state", "cuda_launch_failure"),
    # c10/cuda/CUDAException.cpp (AcceleratorError)
    ("training", "[rank5]: torch.AcceleratorError: CUDA error: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # c10/cuda/driver_api.h C10_CUDA_DRIVER_CHECK
    ("training", "RuntimeError: CUDA driver error: out of memory", "cuda_oom"),
    # c10/cuda/driver_api.h C10_CUDA_DRIVER_CHECK
    ("training", "RuntimeError: CUDA driver error: invalid argument", "cuda_launch_failure"),
    # c10/cuda/driver_api.h C10_CUDA_DRIVER_CHECK
    ("training", "RuntimeError: CUDA driver error: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # ---- cuda_driver
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-02 11:22:33.000046: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-03 11:22:33.000047: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-04 11:22:33.000048: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_OUT_OF_MEMORY: out of memory", "cuda_oom"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-05 11:22:33.000049: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_ECC_UNCORRECTABLE: uncorrectable ECC error encountered", "cuda_ecc_uncorrectable"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-06 11:22:33.000050: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_NVLINK_UNCORRECTABLE: uncorrectable NVLink error detected during the execution", "gpu_nvlink"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-07 11:22:33.000051: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "cuda_driver_init"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-08 11:22:33.000052: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal", "cuda_device_unavailable"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-09 11:22:33.000053: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-01 11:22:33.000054: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_MISALIGNED_ADDRESS: misaligned address", "cuda_illegal_memory_access"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-02 11:22:33.000055: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_HARDWARE_STACK_ERROR: hardware stack error", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-03 11:22:33.000056: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-04 11:22:33.000057: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_ASSERT: device-side assert triggered", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-05 11:22:33.000058: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_LAUNCH_TIMEOUT: the launch timed out and was terminated", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-06 11:22:33.000059: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_NOT_INITIALIZED: initialization error", "cuda_driver_init"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-07 11:22:33.000060: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_DEINITIALIZED: driver shutting down", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-08 11:22:33.000061: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda driver combination", "cuda_driver_init"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-09 11:22:33.000062: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_MPS_CONNECTION_FAILED: MPS client failed to connect to the MPS control daemon or the MPS server", "cuda_device_unavailable"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-01 11:22:33.000063: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_DEVICE_UNAVAILABLE: CUDA-capable device(s) is/are busy or unavailable", "cuda_device_unavailable"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-02 11:22:33.000064: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc + cuda.h CUresult / cuGetErrorName+cuGetErrorString
    ("training", "2024-03-03 11:22:33.000065: E tensorflow/stream_executor/cuda/cuda_driver.cc:1018] failed to synchronize the stop event: CUDA_ERROR_UNKNOWN: unknown error", "cuda_driver_init"),
    # xla/stream_executor/gpu/gpu_timer.cc / XlaRuntimeError
    ("training", "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.func.launch' failed: Failed to launch CUDA kernel: fusion_17 with block dimensions: 256x1x1 and grid dimensions: 64x1x1: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # xla/stream_executor/cuda/cuda_driver.cc
    ("training", "jax.errors.JaxRuntimeError: INTERNAL: Failed to load in-memory CUBIN: CUDA_ERROR_ECC_UNCORRECTABLE: uncorrectable ECC error encountered", "cuda_ecc_uncorrectable"),
    # tensorflow stream_executor/cuda/cuda_event.cc
    ("training", "2024-05-06 07:08:09.101112: E tensorflow/stream_executor/cuda/cuda_event.cc:29] Error polling for event status: failed to query event: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure", "cuda_launch_failure"),
    # tensorflow core/common_runtime/gpu/gpu_event_mgr.cc
    ("training", "2024-05-06 07:08:09.201112: F tensorflow/core/common_runtime/gpu/gpu_event_mgr.cc:273] Unexpected Event status: 1", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc
    ("training", "2024-05-06 07:08:09.301112: E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "cuda_driver_init"),
    # tensorflow stream_executor/cuda/cuda_dnn.cc
    ("training", "2024-05-06 07:08:09.401112: E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_blas.cc
    ("training", "2024-05-06 07:08:09.501112: E tensorflow/stream_executor/cuda/cuda_blas.cc:226] failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc DeviceAllocate
    ("training", "2024-05-06 07:08:09.601112: I tensorflow/stream_executor/cuda/cuda_driver.cc:789] failed to allocate 3.17G (3403544576 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory", "cuda_oom"),
    # tensorflow/core/kernels (cuDNN launch)
    ("training", "tensorflow.python.framework.errors_impl.UnknownError: Failed to get convolution algorithm. This is probably because cuDNN failed to initialize, so try looking to see if a warning log message was printed above. [Op:Conv2D]", "cuda_launch_failure"),
    # tensorflow stream_executor/cuda/cuda_driver.cc
    ("training", "2024-05-06 07:08:10.001112: E tensorflow/stream_executor/cuda/cuda_driver.cc:1131] could not synchronize on CUDA context: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered :: *** Begin stack trace ***", "cuda_illegal_memory_access"),
    # ---- cuda_libs
    # aten/src/ATen/cuda/CUDABlas.cpp TORCH_CUDABLAS_CHECK
    ("training", "[rank2]: RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "cuda_launch_failure"),
    # aten/src/ATen/cuda/CublasHandlePool.cpp
    ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`", "cuda_launch_failure"),
    # aten/src/ATen/cuda/CublasHandlePool.cpp
    ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", "cuda_oom"),
    # aten/src/ATen/cuda/CUDABlas.cpp
    ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasGemmStridedBatchedEx(handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, stridea, b, CUDA_R_16BF, ldb, strideb, &fbeta, c, CUDA_R_16BF, ldc, stridec, num_batches, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "cuda_launch_failure"),
    # aten/src/ATen/cuda/CUDABlas.cpp
    ("training", "RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasLtMatmul(...)`", "cuda_launch_failure"),
    # aten/src/ATen/cudnn/Exceptions.h AT_CUDNN_CHECK
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR", "cuda_launch_failure"),
    # aten/src/ATen/cudnn/Exceptions.h
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED", "cuda_launch_failure"),
    # aten/src/ATen/cudnn/Exceptions.h
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED", "cuda_launch_failure"),
    # aten/src/ATen/cudnn/Exceptions.h
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED", "cuda_oom"),
    # aten/src/ATen/native/cudnn/Conv_v7.cpp
    ("training", "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.", "cuda_launch_failure"),
    # aten/src/ATen/native/cudnn/MHA.cpp cudnn_frontend
    ("training", "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.", "cuda_launch_failure"),
    # aten/src/ATen/native/cuda/CuFFTUtils.h CUFFT_CHECK
    ("training", "RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR", "cuda_launch_failure"),
    # aten/src/ATen/native/cuda/CuFFTUtils.h
    ("training", "RuntimeError: cuFFT error: CUFFT_ALLOC_FAILED", "cuda_oom"),
    # aten/src/ATen/cuda/Exceptions.h TORCH_CUSOLVER_CHECK
    ("training", "RuntimeError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling `cusolverDnCreate(handle)`", "cuda_launch_failure"),
    # aten/src/ATen/cuda/Exceptions.h
    ("training", "RuntimeError: cusolver error: CUSOLVER_STATUS_ALLOC_FAILED, when calling `cusolverDnCreate(handle)`", "cuda_oom"),
    # aten/src/ATen/cuda/Exceptions.h TORCH_CUDASPARSE_CHECK
    ("training", "RuntimeError: CUDA error: CUSPARSE_STATUS_INTERNAL_ERROR when calling `cusparseSpMM(...)`", "cuda_launch_failure"),
    # aten/src/ATen/cuda/Exceptions.h
    ("training", "RuntimeError: CUDA error: CUSPARSE_STATUS_ALLOC_FAILED when calling `cusparseCreate(handle)`", "cuda_oom"),
    # curand.h curandStatus_t
    ("training", "RuntimeError: CURAND error: CURAND_STATUS_LAUNCH_FAILURE", "cuda_launch_failure"),
    # aten/src/ATen/cuda/detail/LazyNVRTC.cpp / NVRTC
    ("training", "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.12.1.", "cuda_launch_failure"),
    # cupy_backends/cuda/libs/cublas.pyx
    ("training", "cupy_backends.cuda.libs.cublas.CUBLASError: CUBLAS_STATUS_NOT_INITIALIZED", "cuda_launch_failure"),
    # cupy/cuda/cudnn.pyx
    ("training", "cupy.cuda.cudnn.CuDNNError: CUDNN_STATUS_INTERNAL_ERROR: b'CUDNN_STATUS_INTERNAL_ERROR'", "cuda_launch_failure"),
    # cupy_backends/cuda/libs/cusolver.pyx
    ("training", "cupy_backends.cuda.libs.cusolver.CUSOLVERError: CUSOLVER_STATUS_EXECUTION_FAILED", "cuda_launch_failure"),
    # cupy/cuda/cufft.pyx
    ("training", "cupy.cuda.cufft.CuFFTError: CUFFT_EXEC_FAILED", "cuda_launch_failure"),
    # ---- cuda_frameworks
    # cupy_backends/cuda/api/runtime.pyx check_status
    ("training", "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorIllegalAddress: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # cupy_backends/cuda/api/runtime.pyx
    ("training", "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorNoDevice: no CUDA-capable device is detected", "cuda_driver_init"),
    # cupy_backends/cuda/api/runtime.pyx
    ("training", "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version", "cuda_driver_init"),
    # cupy_backends/cuda/api/driver.pyx
    ("training", "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure", "cuda_launch_failure"),
    # cupy/cuda/memory.pyx OutOfMemoryError
    ("training", "cupy.cuda.memory.OutOfMemoryError: Out of memory allocating 1,073,741,824 bytes (allocated so far: 14,495,514,624 bytes).", "cuda_oom"),
    # cupy_backends/cuda/api/runtime.pyx
    ("training", "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorECCUncorrectable: uncorrectable ECC error encountered", "cuda_ecc_uncorrectable"),
    # numba/cuda/cudadrv/driver.py _check_ctypes_error
    ("training", "numba.cuda.cudadrv.driver.CudaAPIError: [700] Call to cuMemcpyDtoH results in CUDA_ERROR_ILLEGAL_ADDRESS", "cuda_illegal_memory_access"),
    # numba/cuda/cudadrv/driver.py
    ("training", "numba.cuda.cudadrv.driver.CudaAPIError: [2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY", "cuda_oom"),
    # numba/cuda/cudadrv/driver.py
    ("training", "numba.cuda.cudadrv.driver.CudaAPIError: [719] Call to cuCtxSynchronize results in UNKNOWN_CUDA_ERROR", "cuda_launch_failure"),
    # numba/cuda/cudadrv/driver.py _initialize
    ("training", "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_NO_DEVICE (100)", "cuda_driver_init"),
    # numba/cuda/cudadrv/driver.py _initialize
    ("training", "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: Call to cuInit results in CUDA_ERROR_UNKNOWN (999)", "cuda_driver_init"),
    # mxnet src/storage/pooled_storage_manager.h
    ("training", "mxnet.base.MXNetError: [10:11:12] src/storage/./pooled_storage_manager.h:157: cudaMalloc failed: out of memory", "cuda_oom"),
    # mshadow stream_gpu-inl.h MSHADOW_CUDA_CALL
    ("training", "[10:11:12] /work/mxnet/3rdparty/mshadow/mshadow/./stream_gpu-inl.h:62: Check failed: e == cudaSuccess: CUDA: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # mxnet CUDA_CALL
    ("training", "[10:11:13] src/engine/threaded_engine.cc:328: Check failed: e == cudaSuccess || e == cudaErrorCudartUnloading CUDA: unspecified launch failure", "cuda_launch_failure"),
    # caffe include/caffe/util/device_alternate.hpp CUDA_CHECK
    ("training", "F0412 10:11:12.345678  4242 syncedmem.cpp:71] Check failed: error == cudaSuccess (2 vs. 0)  out of memory", "cuda_oom"),
    # caffe CUDA_CHECK
    ("training", "F0412 10:11:12.345679  4242 math_functions.cu:79] Check failed: error == cudaSuccess (77 vs. 0)  an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # caffe CUDA_CHECK
    ("training", "F0412 10:11:12.345680  4242 im2col.cu:61] Check failed: error == cudaSuccess (8 vs. 0)  invalid device function", "cuda_launch_failure"),
    # caffe CUDA_CHECK
    ("training", "F0412 10:11:12.345681  4242 common.cpp:152] Check failed: error == cudaSuccess (35 vs. 0)  CUDA driver version is insufficient for CUDA runtime version", "cuda_driver_init"),
    # caffe CUDA_CHECK
    ("training", "F0412 10:11:12.345682  4242 common.cpp:152] Check failed: error == cudaSuccess (38 vs. 0)  no CUDA-capable device is detected", "cuda_driver_init"),
    # caffe CUBLAS_CHECK
    ("training", "F0412 10:11:12.345683  4242 math_functions.cu:26] Check failed: status == CUBLAS_STATUS_SUCCESS (13 vs. 0)  CUBLAS_STATUS_EXECUTION_FAILED", "cuda_launch_failure"),
    # caffe cudnn.hpp CUDNN_CHECK
    ("training", "F0412 10:11:12.345684  4242 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (4 vs. 0)  CUDNN_STATUS_INTERNAL_ERROR", "cuda_launch_failure"),
    # caffe CUDA_CHECK
    ("training", "F0412 10:11:12.345685  4242 syncedmem.cpp:71] Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable", "cuda_device_unavailable"),
    # THC THCGeneral.cpp __THCudaCheck
    ("training", "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=278 error=700 : an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # THC THCGeneral.cpp
    ("training", "RuntimeError: cuda runtime error (59) : device-side assert triggered at /pytorch/aten/src/THC/generic/THCTensorMath.cu:26", "cuda_launch_failure"),
    # ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_error
    ("training", "Mar 02 10:11:12 gpu-n3 llama-server[4410]: CUDA error: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # triton/runtime/driver (Triton Error [CUDA])
    ("training", "[rank1]: RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # triton
    ("training", "RuntimeError: Triton Error [CUDA]: out of memory", "cuda_oom"),
    # triton
    ("training", "RuntimeError: Triton Error [CUDA]: uncorrectable ECC error encountered", "cuda_ecc_uncorrectable"),
    # generic CHECK_EQ
    ("training", "Check failed: cudaSuccess == cudaStat (719 vs. 0) : unspecified launch failure", "cuda_launch_failure"),
    # NVIDIA samples helper_cuda.h / checkCudaErrors style
    ("training", "Cuda error in file 'src/kernel.cu' in line 88 : an illegal memory access was encountered.", "cuda_illegal_memory_access"),
    # cuda-samples Common/helper_cuda.h check()
    ("training", "CUDA error at /build/src/ops.cu:212 code=700(cudaErrorIllegalAddress) \"cudaDeviceSynchronize()\"", "cuda_illegal_memory_access"),
    # cuda-samples Common/helper_cuda.h check()
    ("training", "CUDA error at /build/src/ops.cu:212 code=2(cudaErrorMemoryAllocation) \"cudaMalloc(&d, n)\"", "cuda_oom"),
    # cuda-samples Common/helper_cuda.h check()
    ("training", "CUDA error at /build/src/ops.cu:212 code=100(cudaErrorNoDevice) \"cudaGetDeviceCount(&n)\"", "cuda_driver_init"),
    # cuda-samples Common/helper_cuda.h check()
    ("training", "CUDA error at /build/src/ops.cu:212 code=214(cudaErrorECCUncorrectable) \"cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost)\"", "cuda_ecc_uncorrectable"),
    # ---- lustre
    # lustre/ptlrpc/client.c ptlrpc_check_status
    ("kernel", "[ 9021.330120] LustreError: 11-0: work-MDT0000-mdc-ffff97a1c4d2e800: operation mds_connect to node 10.12.0.3@o2ib failed: rc = -16", "storage_remote_fs"),
    # lustre/ptlrpc/import.c ptlrpc_set_import_discon
    ("kernel", "[ 9022.330120] Lustre: work-OST0011-osc-ffff97a1c4d2e800: Connection to work-OST0011 (at 10.12.0.21@o2ib) was lost; in progress operations using this service will wait for recovery to complete", "storage_remote_fs"),
    # lustre/ptlrpc/import.c ptlrpc_import_recovery_state_machine
    ("kernel", "[ 9023.330120] LustreError: 167-0: work-OST0011-osc-ffff97a1c4d2e800: This client was evicted by work-OST0011; in progress operations using this service will fail.", "storage_remote_fs"),
    # lustre/ptlrpc/client.c ptlrpc_expire_one_request
    ("kernel", "[ 9024.330120] Lustre: 4120:0:(client.c:2315:ptlrpc_expire_one_request()) @@@ Request sent has timed out for slow reply: [sent 1712411021/real 1712411021]  req@ffff9a0b2c3d4e00 x1795111/t0(0) o4->work-OST0011-osc-ffff97a1c4d2e800@10.12.0.21@o2ib:6/4 lens 488/448 e 0 to 1 dl 1712411065 ref 2 fl Rpc:X/0/ffffffff rc 0/-1", "storage_remote_fs"),
    # lustre/ptlrpc/client.c
    ("kernel", "[ 9025.330120] Lustre: 4120:0:(client.c:2315:ptlrpc_expire_one_request()) @@@ Request sent has failed due to network error: [sent 1712411021/real 1712411021]  req@ffff9a0b2c3d4f00 x1795112/t0(0) o400->work-MDT0000-mdc-ffff97a1c4d2e800@10.12.0.3@o2ib:12/10 lens 224/224 e 0 to 1 dl 1712411065 ref 1 fl Rpc:XN/0/ffffffff rc 0/-1", "storage_remote_fs"),
    # lnet/klnds/o2iblnd/o2iblnd_cb.c
    ("kernel", "[ 9026.330120] LNetError: 3311:0:(o2iblnd_cb.c:3373:kiblnd_check_txs_locked()) Timed out tx: active_txs, 1 seconds", "storage_remote_fs"),
    # lnet/klnds/o2iblnd/o2iblnd_cb.c
    ("kernel", "[ 9027.330120] LNetError: 3311:0:(o2iblnd_cb.c:3448:kiblnd_check_conns()) Timed out RDMA with 10.12.0.21@o2ib (6): c: 0, oc: 0, rc: 8", "storage_remote_fs"),
    # lnet/lnet/lib-move.c
    ("kernel", "[ 9028.330120] LNetError: 3311:0:(lib-move.c:4152:lnet_handle_find_routed_path()) no route to 10.13.0.9@o2ib1 from <?>", "storage_remote_fs"),
    # lnet/klnds/o2iblnd/o2iblnd_cb.c
    ("kernel", "[ 9029.330120] LNet: 3311:0:(o2iblnd_cb.c:2110:kiblnd_peer_connect_failed()) Deleting messages for 10.12.0.21@o2ib: connection failed", "storage_remote_fs"),
    # lustre/ldlm/ldlm_request.c ldlm_expired_completion_wait
    ("kernel", "[ 9030.330120] LustreError: 5120:0:(ldlm_request.c:129:ldlm_expired_completion_wait()) ### lock timed out (enqueued at 1712411021, 300s ago), entering recovery for work-OST0011_UUID@10.12.0.21@o2ib ns: work-OST0011-osc-ffff97a1c4d2e800 lock: ffff9a0b11223344/0x8a1b2c3d4e5f6a7b lrc: 4/1,0 mode: --/PR", "storage_remote_fs"),
    # lustre/osc/osc_request.c
    ("kernel", "[ 9031.330120] LustreError: 5120:0:(osc_request.c:1790:osc_brw_redo_request()) @@@ redo for recoverable error -110  req@ffff9a0b2c3d5000 x1795140/t0(0) o4->work-OST0011-osc-ffff97a1c4d2e800@10.12.0.21@o2ib:6/4", "storage_remote_fs"),
    # lustre/llite/file.c
    ("kernel", "[ 9032.330120] LustreError: 5120:0:(file.c:4712:ll_inode_revalidate_fini()) work: revalidate FID [0x200000404:0x1a2b:0x0] error: rc = -108", "storage_remote_fs"),
    # ---- nfs
    # net/sunrpc/clnt.c call_timeout
    ("kernel", "[ 812.100200] nfs: server fs-vast-03 not responding, still trying", "storage_remote_fs"),
    # net/sunrpc/clnt.c call_timeout
    ("kernel", "[ 812.100201] nfs: server fs-vast-03 not responding, timed out", "storage_remote_fs"),
    # fs/nfs/nfs4state.c nfs4_state_manager
    ("kernel", "[ 812.100203] NFS: state manager: check lease failed on NFSv4 server fs-vast-03 with error 10022", "storage_remote_fs"),
    # fs/nfs/nfs4state.c
    ("kernel", "[ 812.100204] NFS: nfs4_reclaim_open_state: Lock reclaim failed!", "storage_remote_fs"),
    # fs/nfs/nfs4state.c
    ("kernel", "[ 812.100205] NFS: nfs4_reclaim_open_state: unhandled error -121", "storage_remote_fs"),
    # fs/nfs/nfs4state.c nfs4_handle_reclaim_lease_error
    ("kernel", "[ 812.100206] NFS: nfs4_discover_server_trunking unhandled error -512. Exiting with error EIO", "storage_remote_fs"),
    # fs/nfs/inode.c nfs_check_inode_attributes
    ("kernel", "[ 812.100207] NFS: server fs-vast-03 error: fileid changed", "storage_remote_fs"),
    # fs/nfs/nfs4state.c
    ("kernel", "[ 812.100208] NFS: Server fs-vast-03 reports our clientid is in use", "storage_remote_fs"),
    # net/sunrpc/clnt.c (lockd program)
    ("kernel", "[ 812.100211] lockd: server fs-vast-03 not responding, still trying", "storage_remote_fs"),
    # errno ESTALE (Python)
    ("kernel", "OSError: [Errno 116] Stale file handle: '/nfs/datasets/shard-0099.tar'", "storage_remote_fs"),
    # errno ESTALE (coreutils)
    ("kernel", "cp: cannot open '/nfs/run4/ckpt/model.pt' for reading: Stale file handle", "storage_remote_fs"),
    # errno ENOTCONN on FUSE mount (Python)
    ("kernel", "OSError: [Errno 107] Transport endpoint is not connected: '/mnt/s3/ckpt'", "storage_remote_fs"),
    # errno EHOSTDOWN (CIFS mount, Python)
    ("kernel", "OSError: [Errno 112] Host is down: '/mnt/smb/data/part-7.bin'", "storage_remote_fs"),
    # ---- ceph
    # net/ceph/messenger.c con_fault
    ("kernel", "[ 4410.220100] libceph: mon0 (1)10.20.0.5:6789 socket closed (con state CONNECTING)", "storage_remote_fs"),
    # net/ceph/mon_client.c
    ("kernel", "[ 4410.220101] libceph: mon1 (1)10.20.0.6:6789 session lost, hunting for new mon", "storage_remote_fs"),
    # net/ceph/messenger.c
    ("kernel", "[ 4410.220102] libceph: osd3 (1)10.20.0.11:6801 socket error on read", "storage_remote_fs"),
    # net/ceph/messenger.c
    ("kernel", "[ 4410.220103] libceph: osd5 (1)10.20.0.12:6805 socket error on write", "storage_remote_fs"),
    # fs/ceph/mds_client.c
    ("kernel", "[ 4410.220104] ceph: mds0 caps stale", "storage_remote_fs"),
    # fs/ceph/mds_client.c
    ("kernel", "[ 4410.220105] ceph: mds0 hung", "storage_remote_fs"),
    # net/ceph/messenger.c
    ("kernel", "[ 4410.220106] libceph: mon0 (1)10.20.0.5:6789 connect error", "storage_remote_fs"),
    # ceph src/mount/mount.ceph.c (older)
    ("kernel", "Mar 02 10:11:12 gpu-n3 mount[2201]: mount error: no mds server is up or the cluster is laggy", "storage_remote_fs"),
    # net/ceph/messenger_v1.c read_partial_msg_data
    ("kernel", "[ 4410.220109] libceph: osd2 (1)10.20.0.10:6803 bad crc/signature", "storage_remote_fs"),
    # net/ceph/osd_client.c
    ("kernel", "[ 4410.220116] libceph: osd4 down", "storage_remote_fs"),
    # fs/ceph/mds_client.c (6.x client-id prefix)
    ("kernel", "[ 4410.220117] ceph: [1c2d3e4f-aaaa-bbbb-cccc-0123456789ab 44551]: mds1 session blocklisted", "storage_remote_fs"),
    # ---- gpfs
    # GPFS mmfs.log (IBM Storage Scale problem determination)
    ("system", "2026-02-03_04:05:06.789+0000: [E] Node 10.30.0.17 (gpfs-c17) is being expelled due to expired lease.", "storage_remote_fs"),
    # GPFS mmfs.log
    ("system", "Feb 03 04:05:06 gpu-n17 mmfs[4412]: [E] Lost membership in cluster gpfs.prod. Unmounting file systems.", "storage_remote_fs"),
    # GPFS mmfs.log
    ("system", "2026-02-03_04:05:07.000+0000: [X] File System fs1 unmounted by the system with return code 217 reason code 0", "storage_remote_fs"),
    # GPFS mmfs.log
    ("system", "2026-02-03_04:05:08.000+0000: [E] Close connection to 10.30.0.2 gpfs-nsd02 <c0n3> (Connection timed out)", "storage_remote_fs"),
    # GPFS mmfs.log
    ("system", "Feb 03 04:05:06 gpu-n17 mmfs[4412]: [E] Unable to mount file system fs1 (Stale file handle)", "storage_remote_fs"),
    # ---- beegfs
    # beegfs client_module net/message/MessagingTk.c (Logger_logErrFormatted)
    ("kernel", "[ 5120.331100] beegfs: (1) Feb03 04:05:06 *python3(22714) [Messaging (RPC)] >> Communication error: Node: beegfs-storage st01 [ID: 101] (comm result: -110; message type: 2003)", "storage_remote_fs"),
    # beegfs MessagingTk.c (Log_WARNING)
    ("kernel", "[ 5120.331103] beegfs: (2) Feb03 04:05:06 *python3(22714) [Messaging (RPC)] >> Unable to connect to: beegfs-meta meta01 [ID: 1]", "storage_remote_fs"),
    # beegfs MessagingTk.c (Log_WARNING)
    ("kernel", "[ 5120.331104] beegfs: (2) Feb03 04:05:06 *python3(22714) [Messaging (RPC)] >> Receive timed out from beegfs-storage st01 [ID: 101] @ 10.40.0.11:8003", "storage_remote_fs"),
    # ---- object_store
    # botocore/exceptions.py ClientError
    ("training", "botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation (reached max retries: 4): Please reduce your request rate.", "storage_remote_fs"),
    # botocore ClientError / S3 RequestTimeout
    ("training", "botocore.exceptions.ClientError: An error occurred (RequestTimeout) when calling the UploadPart operation: Your socket connection to the server was not read from or written to within the timeout period. Idle connections will be closed.", "storage_remote_fs"),
    # S3 InternalError
    ("training", "botocore.exceptions.ClientError: An error occurred (InternalError) when calling the GetObject operation (reached max retries: 4): We encountered an internal error. Please try again.", "storage_remote_fs"),
    # S3 ServiceUnavailable
    ("training", "botocore.exceptions.ClientError: An error occurred (ServiceUnavailable) when calling the HeadObject operation: Service Unavailable", "storage_remote_fs"),
    # S3 503 on HEAD
    ("training", "botocore.exceptions.ClientError: An error occurred (503) when calling the HeadObject operation (reached max retries: 4): Slow Down", "storage_remote_fs"),
    # botocore/exceptions.py ReadTimeoutError
    ("training", "botocore.exceptions.ReadTimeoutError: Read timeout on endpoint URL: \"https://ml-ckpt.s3.us-west-2.amazonaws.com/run9/step_4000/shard_03.pt\"", "storage_remote_fs"),
    # botocore/exceptions.py ConnectTimeoutError
    ("training", "botocore.exceptions.ConnectTimeoutError: Connect timeout on endpoint URL: \"https://ml-ckpt.s3.us-west-2.amazonaws.com/run9/latest\"", "storage_remote_fs"),
    # botocore EndpointConnectionError
    ("training", "botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: \"https://minio.lab:9000/ckpt/run9/step_4000/\"", "storage_remote_fs"),
    # botocore/exceptions.py ResponseStreamingError
    ("training", "botocore.exceptions.ResponseStreamingError: An error occurred while reading from response stream: ('Connection broken: IncompleteRead(0 bytes read, 65536 more expected)', IncompleteRead(0 bytes read, 65536 more expected))", "storage_remote_fs"),
    # botocore/exceptions.py IncompleteReadError
    ("training", "botocore.exceptions.IncompleteReadError: 1048576 read, but total bytes expected is 4194304.", "storage_remote_fs"),
    # botocore ConnectionClosedError
    ("training", "botocore.exceptions.ConnectionClosedError: Connection was closed before we received a valid response from endpoint URL: \"https://ml-ckpt.s3.amazonaws.com/run9/x.pt\".", "storage_remote_fs"),
    # google-api-core exceptions
    ("training", "google.api_core.exceptions.ServiceUnavailable: 503 GET https://storage.googleapis.com/storage/v1/b/ml-ckpt/o/run9%2Fstep_4000?projection=noAcl: We encountered an internal error. Please try again.", "storage_remote_fs"),
    # google-api-core / GCS 429
    ("training", "google.api_core.exceptions.TooManyRequests: 429 POST https://storage.googleapis.com/upload/storage/v1/b/ml-ckpt/o?uploadType=multipart: The rate of change requests to the object run9/latest exceeds the rate limit. Please reduce the rate of create, update, and delete requests.", "storage_remote_fs"),
    # google-resumable-media common.py
    ("training", "google.resumable_media.common.InvalidResponse: ('Request failed with status code', 503, 'Expected one of', <HTTPStatus.OK: 200>, <HTTPStatus.PARTIAL_CONTENT: 206>)", "storage_io"),
    # gcsfs/retry.py HttpError
    ("training", "gcsfs.retry.HttpError: We encountered an internal error. Please try again., 503", "storage_remote_fs"),
    # fsspec/gcsfs re-raise as EIO
    ("training", "OSError: [Errno 5] Input/output error: 'gs://ml-ckpt/run9/step_4000/model.safetensors'", "storage_io"),
    # azure-core exceptions.py
    ("training", "azure.core.exceptions.ServiceResponseError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))", "storage_remote_fs"),
    # azure-storage-blob (ServerBusy 503)
    ("training", "azure.core.exceptions.HttpResponseError: Operation returned an invalid status 'Server Busy'", "storage_remote_fs"),
    # azure-storage-blob StorageErrorCode
    ("training", "ErrorCode:ServerBusy", "storage_remote_fs"),
    # azure-storage-blob StorageErrorCode
    ("training", "ErrorCode:OperationTimedOut", "storage_remote_fs"),
    # s3fs/errors.py translate_boto_error (SlowDown -> EBUSY)
    ("training", "s3fs.errors ... OSError: [Errno 16] Please reduce your request rate.", "storage_remote_fs"),
    # fsspec/exceptions.py
    ("training", "fsspec.exceptions.FSTimeoutError", "storage_remote_fs"),
    # ---- ckpt_errno
    # torch/distributed/checkpoint/api.py CheckpointException
    ("training", "torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([0, 3, 5])", "storage_io"),
    # safetensors/src/lib.rs SafeTensorError
    ("training", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", "storage_io"),
    # safetensors
    ("training", "[rank0]: safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: \"No space left on device\" })", "storage_space"),
    # safetensors
    ("training", "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer", "storage_io"),
    # errno ENOSPC
    ("training", "OSError: [Errno 28] No space left on device: '/ckpt/run9/step_4000/optim_07.pt'", "storage_space"),
    # errno EDQUOT
    ("training", "OSError: [Errno 122] Disk quota exceeded: '/home/u/ckpt/run9.pt'", "storage_space"),
    # errno EROFS
    ("training", "OSError: [Errno 30] Read-only file system: '/ckpt/run9/step_4000'", "storage_io"),
    # errno EREMOTEIO
    ("training", "OSError: [Errno 121] Remote I/O error", "storage_io"),
    # errno EIO
    ("training", "OSError: [Errno 5] Input/output error: '/ckpt/run9/step_4000/rng_state_3.pth'", "storage_io"),
    # ---- process
    # glibc malloc/malloc.c _int_free
    ("training", "[rank6]:double free or corruption (!prev)", "process_crash"),
    # glibc malloc.c
    ("training", "[rank6]:double free or corruption (out)", "process_crash"),
    # glibc malloc.c
    ("training", "[rank6]:double free or corruption (fasttop)", "process_crash"),
    # glibc malloc.c
    ("training", "free(): invalid pointer", "process_crash"),
    # glibc malloc.c
    ("training", "free(): invalid size", "process_crash"),
    # glibc malloc.c
    ("training", "free(): invalid next size (fast)", "process_crash"),
    # glibc malloc.c tcache
    ("training", "[rank6]:free(): double free detected in tcache 2", "process_crash"),
    # glibc malloc.c
    ("training", "free(): corrupted unsorted chunks", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): corrupted top size", "process_crash"),
    # glibc malloc.c
    ("training", "[rank6]:malloc(): memory corruption", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): unaligned tcache chunk detected", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): invalid size (unsorted)", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): smallbin double linked list corrupted", "process_crash"),
    # glibc malloc.c
    ("training", "malloc_consolidate(): invalid chunk size", "process_crash"),
    # glibc malloc.c unlink_chunk
    ("training", "corrupted size vs. prev_size", "process_crash"),
    # glibc malloc.c
    ("training", "corrupted size vs. prev_size while consolidating", "process_crash"),
    # glibc malloc.c
    ("training", "corrupted double-linked list", "process_crash"),
    # glibc malloc.c
    ("training", "munmap_chunk(): invalid pointer", "process_crash"),
    # glibc malloc.c
    ("training", "realloc(): invalid next size", "process_crash"),
    # glibc malloc.c
    ("training", "realloc(): invalid old size", "process_crash"),
    # glibc malloc.c
    ("training", "tcache_thread_shutdown(): unaligned tcache chunk detected", "process_crash"),
    # glibc <2.26 malloc_printerr
    ("training", "*** Error in `python3': double free or corruption (!prev): 0x000055d8c1a2b3c0 ***", "process_crash"),
    # glibc debug/stack_chk_fail.c
    ("training", "*** stack smashing detected ***: terminated", "process_crash"),
    # glibc <2.26 fortify_fail
    ("training", "*** stack smashing detected ***: <unknown> terminated", "process_crash"),
    # glibc debug/chk_fail.c
    ("training", "*** buffer overflow detected ***: terminated", "process_crash"),
    # glibc 2.37 __libc_assert_fail
    ("training", "Fatal glibc error: malloc.c:4376 (_int_malloc): assertion failed: (unsigned long) (size) >= (unsigned long) (nb)", "process_crash"),
    # glibc assert/assert.c __assert_fail
    ("training", "python3: malloc.c:2379: sysmalloc: Assertion `(old_top == initial_top (av) && old_size == 0) || ((unsigned long) (old_size) >= MINSIZE && prev_inuse (old_top) && ((unsigned long) old_end & (pagesize - 1)) == 0)' failed.", "process_crash"),
    # libstdc++ vterminate.cc
    ("training", "terminate called after throwing an instance of 'std::bad_alloc'", "process_crash"),
    # libstdc++ vterminate.cc
    ("training", "[rank1]:terminate called without an active exception", "process_crash"),
    # libstdc++ vterminate.cc
    ("training", "terminate called recursively", "process_crash"),
    # libstdc++ pure.cc __cxa_pure_virtual
    ("training", "pure virtual method called", "process_crash"),
    # CPython Modules/faulthandler.c
    ("training", "[rank0]:Fatal Python error: Segmentation fault", "segfault"),
    # CPython faulthandler.c
    ("training", "Fatal Python error: Bus error", "process_crash"),
    # CPython faulthandler.c
    ("training", "[rank0]:Fatal Python error: Aborted", "process_crash"),
    # CPython faulthandler.c
    ("training", "Fatal Python error: Illegal instruction", "process_crash"),
    # CPython faulthandler.c
    ("training", "Fatal Python error: Floating-point exception", "process_crash"),
    # CPython ceval.c
    ("training", "Fatal Python error: _Py_CheckRecursiveCall: Cannot recover from stack overflow.", "process_crash"),
    # bash siglist.c / jobs.c
    ("training", "[1]+  Segmentation fault      (core dumped) python3 eval.py", "segfault"),
    # bash
    ("training", "Bus error (core dumped)", "process_crash"),
    # bash
    ("training", "[2]+  Aborted                 (core dumped) python3 eval.py", "process_crash"),
    # bash
    ("training", "Floating point exception (core dumped)", "process_crash"),
    # bash
    ("training", "Illegal instruction (core dumped)", "process_crash"),
    # bash
    ("training", "[1]+  Killed                  python3 train.py --cfg big.yaml", "process_killed"),
    # bash jobs.c
    ("training", "/var/spool/slurmd/job771201/slurm_script: line 31: 118822 Killed                  torchrun --nproc_per_node 8 train.py", "process_killed"),
    # bash jobs.c
    ("training", "/var/spool/slurmd/job771201/slurm_script: line 31: 118822 Segmentation fault      (core dumped) python train.py", "segfault"),
    # bash jobs.c
    ("training", "/var/spool/slurmd/job771201/slurm_script: line 31: 118822 Bus error               (core dumped) python train.py", "process_crash"),
    # bash jobs.c
    ("training", "/var/spool/slurmd/job771201/slurm_script: line 31: 118822 Aborted                 (core dumped) python train.py", "process_crash"),
    # bash jobs.c
    ("training", "run.sh: line 12: 4411 Floating point exception(core dumped) ./bench", "process_crash"),
    # zsh jobs.c
    ("training", "zsh: segmentation fault (core dumped)  python train.py", "segfault"),
    # zsh jobs.c
    ("training", "zsh: killed     python train.py", "process_killed"),
    # CPython Lib/subprocess.py CalledProcessError.__str__
    ("training", "subprocess.CalledProcessError: Command '['python', 'preprocess.py']' died with <Signals.SIGKILL: 9>.", "process_killed"),
    # CPython subprocess.py
    ("training", "subprocess.CalledProcessError: Command '['python', 'preprocess.py']' died with <Signals.SIGSEGV: 11>.", "segfault"),
    # CPython subprocess.py
    ("training", "subprocess.CalledProcessError: Command '['python', 'preprocess.py']' died with <Signals.SIGABRT: 6>.", "process_crash"),
    # CPython subprocess.py
    ("training", "subprocess.CalledProcessError: Command '['torchrun', 'train.py']' returned non-zero exit status 1.", "process_exit_nonzero"),
    # CPython concurrent/futures/process.py
    ("training", "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending.", "process_killed"),
    # torch/multiprocessing/spawn.py
    ("training", "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGSEGV", "segfault"),
    # torch/multiprocessing/spawn.py
    ("training", "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGKILL", "process_killed"),
    # CPython Objects/exceptions.c
    ("training", "MemoryError", "oom_killer"),
    # numpy core/_exceptions.py _ArrayMemoryError
    ("training", "MemoryError: Unable to allocate 37.3 GiB for an array with shape (100000, 50000) and data type float64", "oom_killer"),
    # numpy core/_exceptions.py
    ("training", "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 37.3 GiB for an array with shape (100000, 50000) and data type float64", "oom_killer"),
    # torch/distributed/elastic/multiprocessing/api.py
    ("training", "E0301 10:11:12.131000 140211 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 2 (pid: 77112) of binary: /usr/bin/python3", "torch_elastic"),
    # torch/distributed/elastic/multiprocessing/errors/__init__.py
    ("training", "  exitcode  : -11 (pid: 77113)", "torch_elastic"),
    # torch elastic errors/__init__.py
    ("training", "  traceback : Signal 11 (SIGSEGV) received by PID 77113", "segfault"),
    # torch elastic errors/__init__.py
    ("training", "  traceback : Signal 9 (SIGKILL) received by PID 77112", "torch_elastic"),
    # torch elastic errors/__init__.py
    ("training", "  traceback : Signal 6 (SIGABRT) received by PID 77114", "process_crash"),
    # torch elastic errors/__init__.py
    ("training", "  traceback : Signal 7 (SIGBUS) received by PID 77115", "process_crash"),
    # torch elastic api.py _terminate_process_handler
    ("training", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 77100 got signal: 15", "torch_elastic"),
    # torch elastic agent/server/api.py
    ("training", "W0301 10:11:12.131000 140211 torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death signal, shutting down workers", "torch_elastic"),
    # torch elastic errors/__init__.py
    ("training", "train-worker-0: torch.distributed.elastic.multiprocessing.errors.ChildFailedError:", "torch_elastic"),
    # Open MPI orte/mca/errmgr help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 3 with PID 77120 on node gpu-n14 exited on signal 9 (Killed).", "process_killed"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 3 with PID 77120 on node gpu-n14 exited on signal 11 (Segmentation fault).", "segfault"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 3 with PID 77120 on node gpu-n14 exited on signal 6 (Aborted).", "process_crash"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 3 with PID 77120 on node gpu-n14 exited on signal 7 (Bus error).", "process_crash"),
    # PRRTE help-prte-errmgr-base.txt (Open MPI 5)
    ("training", "prterun noticed that process rank 5 with PID 0 on node gpu-n14 exited on signal 9 (Killed).", "process_killed"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 0 with PID 77121 on node gpu-n14 exited on signal 15 (Terminated).", "process_killed"),
    # Open MPI help-errmgr-base.txt
    ("training", "gpu-n14: mpirun detected that one or more processes exited with non-zero status, thus causing", "process_exit_nonzero"),
    # MPICH hydra pm/pmiserv
    ("training", "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", "process_exit_nonzero"),
    # MPICH hydra
    ("training", "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)", "segfault"),
    # MPICH hydra
    ("training", "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)", "process_killed"),
    # MPICH hydra
    ("training", "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Bus error (signal 7)", "process_crash"),
    # MPICH hydra
    ("training", "=   EXIT CODE: 139", "segfault"),
    # MPICH hydra
    ("training", "=   EXIT CODE: 9", "process_exit_nonzero"),
    # mm/oom_kill.c __oom_kill_process
    ("kernel", "[48211.101200] Out of memory: Killed process 88120 (python3) total-vm:98112400kB, anon-rss:81012300kB, file-rss:0kB, shmem-rss:20480kB, UID:1001 pgtables:170112kB oom_score_adj:0", "oom_killer"),
    # mm/oom_kill.c
    ("kernel", "[48211.101201] python3 invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0", "oom_killer"),
    # mm/oom_kill.c (memcg)
    ("kernel", "[48211.101202] Memory cgroup out of memory: Killed process 88120 (python3) total-vm:98112400kB, anon-rss:81012300kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:170112kB oom_score_adj:-997", "oom_killer"),
    # mm/oom_kill.c dump_oom_summary
    ("kernel", "[48211.101203] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,oom_memcg=/slurm/uid_1001/job_771201,task_memcg=/slurm/uid_1001/job_771201/step_0,task=python3,pid=88120,uid=1001", "oom_killer"),
    # mm/oom_kill.c oom_reap_task_mm
    ("kernel", "[48211.101204] oom_reaper: reaped process 88120 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB", "oom_killer"),
    # mm/oom_kill.c out_of_memory
    ("kernel", "[48211.101205] Out of memory and no killable processes...", "oom_killer"),
    # kubectl describe pod (ContainerStateTerminated reason)
    ("training", "    Last State:     Terminated\n      Reason:       OOMKilled", "oom_killer"),
    # kubectl describe pod
    ("training", "  Warning  OOMKilling  3m  kernel-monitor  Memory cgroup out of memory: Killed process 88120 (python3) total-vm:98112400kB, anon-rss:81012300kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:170112kB oom_score_adj:-997", "oom_killer"),
    # kubelet eviction manager helpers.go
    ("training", "  Warning  Evicted  2m  kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 84912Ki. Container trainer was using 61234512Ki, request is 0, has larger consumption of memory.", "oom_killer"),
    # kubelet eviction
    ("training", "  Warning  Evicted  2m  kubelet  The node was low on resource: ephemeral-storage. Threshold quantity: 10%, available: 1024Ki.", "storage_space"),
    # systemd src/core/unit.c unit_log_oom
    ("training", "Mar 01 10:11:12 gpu-n14 systemd[1]: trainer.service: A process of this unit has been killed by the OOM killer.", "oom_killer"),
    # systemd
    ("training", "Mar 01 10:11:12 gpu-n14 systemd[1]: trainer.service: Failed with result 'oom-kill'.", "oom_killer"),
    # systemd src/oom/oomd-util.c
    ("training", "Mar 01 10:11:12 gpu-n14 systemd-oomd[911]: Killed /system.slice/trainer.service due to memory pressure for /system.slice being 82.13% > 80.00% for > 20s with reclaim activity", "oom_killer"),
    # ---- transport
    # rdma-core libibverbs/enum_strs.c ibv_wc_status_str
    ("training", "ibv_poll_cq failed: status=transport retry counter exceeded (12), vendor_err=0x81, qp=0x1a2", "nccl_error"),
    # ibv_wc_status_str
    ("training", "RDMA write failed on QP 0x3f: remote access error", "nccl_error"),
    # libibverbs ibv_post_send errno
    ("training", "[E] rdma.cc:211 ibv_post_send failed: Cannot allocate memory", "nccl_error"),
    # libibverbs
    ("training", "ibv_open_device failed: No such device", "nccl_error"),
    # ucx src/uct/ib/base/ib_md.c via ucs_log
    ("training", "[1712411021.118273] [gpu-n14:77120:0]          ib_log.c:177  UCX  ERROR   ibv_reg_mr(address=0x7f11d4000000, length=268435456, access=0xf) failed: Bad address", "nccl_error"),
    # ucx src/uct/ib/mlx5/ib_mlx5_log.c
    ("training", "[1712411021.118274] [gpu-n14:77120:0]       ib_mlx5_log.c:177  UCX  ERROR   Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)", "nccl_error"),
    # ucx ib_mlx5_log.c uct_ib_mlx5_completion_with_err (error-handler form)
    ("training", "[gpu-n14:77120:0:77150] ib_mlx5_log.c:177  Local protection error on mlx5_2:1/IB (synd 0x4 vend 0x56 hw_synd 0/0)", "nccl_error"),
    # ucx src/ucs/debug/debug.c error handler
    ("training", "[gpu-n14:77120:0:77150] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)", "segfault"),
    # ucx debug.c
    ("training", "[gpu-n14:77120:0:77150] Caught signal 7 (Bus error: nonexistent physical address)", "process_crash"),
    # ucx ucs_status_string(UCS_ERR_UNREACHABLE)
    ("training", "ucp_ep_create() failed: Destination is unreachable", "nccl_error"),
    # ucx ucs_status_string(UCS_ERR_IO_ERROR)
    ("training", "UCX  ERROR   Input/output error", "nccl_error"),
    # ucx-py ucp/_libs/exceptions (ucs_status_string UCS_ERR_ENDPOINT_TIMEOUT)
    ("training", "UCXError: <ENDPOINT_TIMEOUT>: Endpoint timeout", "nccl_error"),
    # ucx-py (F7: UCS_ERR_CONNECTION_RESET names the peer, nccl_remote_peer)
    ("training", "ucp.exceptions.UCXConnectionReset: Connection reset by remote peer", "nccl_remote_peer"),
    # libfabric prov/efa/src/rdm/efa_rdm_pke.c efa_strerror
    ("training", "libfabric:4412:1712411021::efa:cq:efa_rdm_pke_handle_tx_error():315<warn> err: 5, message: Input/output error (5) prov_errno: 4101 Unreachable remote (4101)", "nccl_error"),
    # libfabric prov/efa
    ("training", "libfabric:4412:1712411021::efa:cq:efa_rdm_rxe_handle_error():412<warn> err: 110, message: Connection timed out (110) prov_errno: 4111 Receiver not ready (4111)", "nccl_error"),
    # aws-ofi-nccl nccl_ofi_rdma.c
    ("training", "NET/OFI Request 0x7f2c error: Input/output error (5) prov_errno: 4101 Unreachable remote (4101)", "nccl_error"),
    # libfabric fi_strerror (FI_ENODATA)
    ("training", "fi_getinfo failed: No data available(61)", "nccl_error"),
    # Open MPI ompi/errhandler errhandler_predefined.c
    ("training", "[gpu-n14:77120] *** An error occurred in MPI_Allreduce", "process_crash"),
    # Open MPI errhandler_predefined.c
    ("training", "[gpu-n14:77120] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,", "process_crash"),
    # MPICH src/mpi/errhan: the abort report heading the error stack ends the process (LABELS.md's MPICH row)
    ("training", "Abort(940175) on node 3 (rank 3 in comm 0): Fatal error in PMPI_Recv: Other MPI error, error stack:", "process_crash"),
    # MPICH error stack
    ("training", "MPIR_Wait_impl(41)..................: Communication error with rank 5", "nccl_error"),
    # Open MPI help-errmgr-base.txt
    ("training", "gpu-n01: ORTE has lost communication with a remote daemon.", "nccl_remote_peer"),
    # PRRTE
    ("training", "PRTE has lost communication with a remote daemon.", "nccl_remote_peer"),
    # ---- slurm
    # slurm src/srun/step_launch.c
    ("system", "srun: error: gpu-n14: task 3: Killed", "process_killed"),
    # slurm srun
    ("system", "srun: error: gpu-n14: task 0: Segmentation fault (core dumped)", "segfault"),
    # slurm srun
    ("system", "srun: error: gpu-n14: task 1: Exited with exit code 1", "process_exit_nonzero"),
    # slurm srun
    ("system", "srun: error: gpu-n14: task 2: Bus error", "process_crash"),
    # slurm srun
    ("system", "srun: error: gpu-n14: tasks 0-7: Aborted (core dumped)", "process_crash"),
    # slurm srun (node failure)
    ("system", "srun: error: Node failure on gpu-n14", "process_killed"),
    # slurm slurmstepd
    ("system", "slurmstepd: error: *** JOB 771201 ON gpu-n14 CANCELLED AT 2026-03-01T10:11:12 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***", "process_killed"),
    # slurm slurmstepd (Kill task failed)
    ("system", "slurmstepd: error: *** STEP 771201.0 STEPD TERMINATED ON gpu-n14 AT 2026-03-01T10:11:12 DUE TO JOB NOT ENDING WITH SIGNALS ***", "process_killed"),
    # slurm task/cgroup
    ("system", "slurmstepd: error: Detected 1 oom_kill event in StepId=771201.batch. Some of the step tasks have been OOM Killed.", "oom_killer"),
    # slurm slurmctld ping_nodes.c
    ("system", "[2026-03-01T10:11:12.000] error: Nodes gpu-n14 not responding, setting DOWN", "process_killed"),
    # slurm slurmctld node_mgr.c
    ("system", "[2026-03-01T10:11:12.001] Killing JobId=771201 on failed node gpu-n14", "process_killed"),
    # slurm slurmctld node_mgr.c
    ("system", "[2026-03-01T10:11:12.002] requeue job JobId=771201 due to failure of node gpu-n14", "process_killed"),
    # slurm slurmctld job_mgr.c
    ("system", "[2026-03-01T10:11:12.003] error: slurmd error running JobId=771201 on node(s)=gpu-n14: Kill task failed", "process_killed"),
    # slurm slurmd req.c _rpc_prolog
    ("system", "[2026-03-01T10:11:12.005] error: [job 771201] prolog failed status=1:0", "process_exit_nonzero"),
    # slurm slurmd
    ("system", "[2026-03-01T10:11:12.006] error: [job 771201] epilog failed status=1:0", "process_exit_nonzero"),
    # scontrol show node
    ("system", "NodeName=gpu-n14 Arch=x86_64 CoresPerSocket=48 State=IDLE+DRAIN Reason=Kill task failed [root@2026-03-01T10:11:12]", "process_killed"),
    # scontrol show node
    ("system", "NodeName=gpu-n14 State=DOWN+DRAIN Reason=Prolog error [root@2026-03-01T10:11:12]", "process_exit_nonzero"),
    # scontrol show node
    ("system", "NodeName=gpu-n14 State=DOWN Reason=Not responding [slurm@2026-03-01T10:11:12]", "process_killed"),
    # scontrol show node
    ("system", "NodeName=gpu-n14 State=IDLE+DRAIN Reason=batch job complete failure [slurm@2026-03-01T10:11:12]", "process_killed"),
    # scontrol show job
    ("system", "   JobState=NODE_FAIL Reason=NodeDown Dependency=(null)", "process_killed"),
    # sacct
    ("system", "771201       train.sh        gpu     ml-lab       512  NODE_FAIL      0:0", "process_killed"),
    # ---- cuda_frameworks2
    # pycuda src/cpp/cuda.hpp
    ("training", "pycuda._driver.MemoryError: cuMemAlloc failed: out of memory", "cuda_oom"),
    # pycuda cuda.hpp
    ("training", "pycuda._driver.LaunchError: cuCtxSynchronize failed: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # pycuda cuda.hpp
    ("training", "pycuda._driver.LogicError: cuInit failed: no CUDA-capable device is detected", "cuda_driver_init"),
    # pycuda cuda.hpp
    ("training", "pycuda._driver.RuntimeError: cuInit failed: unknown error", "cuda_driver_init"),
    # pycuda cuda.hpp
    ("training", "pycuda._driver.LaunchError: cuLaunchKernel failed: unspecified launch failure", "cuda_launch_failure"),
    # opencv core/cuda (Error::GpuApiCallError -217)
    ("training", "cv2.error: OpenCV(4.8.0) /opencv/modules/core/src/cuda/gpu_mat.cu:116: error: (-217:Gpu API call) out of memory in function 'allocate'", "cuda_oom"),
    # opencv
    ("training", "cv2.error: OpenCV(4.8.0) /opencv/modules/cudev/include/opencv2/cudev/grid/detail/transform.hpp:312: error: (-217:Gpu API call) an illegal memory access was encountered in function 'call'", "cuda_illegal_memory_access"),
    # opencv
    ("training", "cv2.error: OpenCV(4.8.0) /opencv/modules/core/src/cuda_info.cpp:73: error: (-217:Gpu API call) no CUDA-capable device is detected in function 'getCudaEnabledDeviceCount'", "cuda_driver_init"),
    # onnxruntime cuda_call.cc
    ("training", "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : CUDA failure 2: out of memory ; GPU=0 ; hostname=infer-7 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_allocator.cc ; line=47 ; expr=cudaMalloc((void**)&p, size);", "cuda_oom"),
    # onnxruntime
    ("training", "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while running Conv node. Name:'conv1' Status Message: CUDNN failure 4: CUDNN_STATUS_INTERNAL_ERROR ; GPU=0 ; hostname=infer-7 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc ; line=121 ; expr=cudnnConvolutionForward(...);", "cuda_launch_failure"),
    # onnxruntime
    ("training", "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : CUDA failure 999: unknown error ; GPU=0 ; hostname=infer-7 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_execution_provider.cc ; line=236 ; expr=cudaSetDevice(info_.device_id);", "cuda_launch_failure"),
    # onnxruntime
    ("training", "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : CUDA failure 100: no CUDA-capable device is detected ; GPU=0 ; hostname=infer-7 ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_execution_provider.cc ; line=236 ; expr=cudaSetDevice(info_.device_id);", "cuda_driver_init"),
    # TensorRT ILogger (ErrorCode kCUDA_ERROR)
    ("training", "[03/02/2026-10:11:12] [TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)", "cuda_oom"),
    # TensorRT
    ("training", "[03/02/2026-10:11:12] [TRT] [E] 1: [runner.cpp::execute::416] Error Code 1: Cuda Runtime (an illegal memory access was encountered)", "cuda_illegal_memory_access"),
    # TensorRT
    ("training", "[03/02/2026-10:11:12] [TRT] [E] 1: [checkMacros.cpp::catchCudaError::203] Error Code 1: Cuda Runtime (unspecified launch failure)", "cuda_launch_failure"),
    # TensorRT-LLM common/cudaUtils.h check_cuda_error
    ("training", "[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(ptr, n, mCudaStream->get()): out of memory (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmBuffers.h:125)", "cuda_oom"),
    # TensorRT-LLM
    ("training", "[TensorRT-LLM][ERROR] CUDA runtime error in cudaStreamSynchronize(stream): an illegal memory access was encountered (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/bufferManager.cpp:48)", "cuda_illegal_memory_access"),
    # caffe2/core/common_gpu.h CUDA_ENFORCE
    ("training", "RuntimeError: [enforce fail at context_gpu.cu:415] error == cudaSuccess. 2 vs 0. Error at: /pytorch/caffe2/core/context_gpu.cu:415: out of memory", "cuda_oom"),
    # caffe2 CUDA_ENFORCE
    ("training", "RuntimeError: [enforce fail at context_gpu.cu:415] error == cudaSuccess. 700 vs 0. Error at: /pytorch/caffe2/core/context_gpu.cu:415: an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # paddle/phi/core/enforce.h build_nvidia_error_msg
    ("training", "ExternalError: CUDA error(2), out of memory. ", "cuda_oom"),
    # paddle enforce.h
    ("training", "ExternalError: CUDA error(3), initialization error. ", "cuda_driver_init"),
    # paddle enforce.h
    ("training", "ExternalError: CUDA error(100), no CUDA-capable device is detected. ", "cuda_driver_init"),
    # paddle enforce.h
    ("training", "ExternalError: CUBLAS error(13), CUBLAS_STATUS_EXECUTION_FAILED. ", "cuda_launch_failure"),
    # paddle enforce.h
    ("training", "ExternalError: CUDNN error(4), CUDNN_STATUS_INTERNAL_ERROR. ", "cuda_launch_failure"),
    # paddle enforce.h
    ("training", "ExternalError: CUDA error(214), uncorrectable ECC error encountered. ", "cuda_ecc_uncorrectable"),
    # paddle/fluid/memory/allocation/allocator_facade / enforce
    ("training", "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.500000GB memory on GPU 0, 78.9GB memory has been allocated and available memory is only 512.0MB.", "cuda_oom"),
    # rmm include/rmm/detail/error.hpp RMM_CUDA_TRY_ALLOC
    ("training", "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: /opt/conda/include/rmm/mr/device/cuda_memory_resource.hpp:60: cudaErrorMemoryAllocation out of memory", "cuda_oom"),
    # cudf CUDF_CUDA_TRY
    ("training", "RuntimeError: CUDA error encountered at: /cudf/cpp/src/io/parquet/reader_impl.cpp:212: 700 cudaErrorIllegalAddress an illegal memory access was encountered", "cuda_illegal_memory_access"),
    # jax/_src/xla_bridge.py backends()
    ("training", "RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices. (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)", "cuda_driver_init"),
    # jax xla_bridge.py
    ("training", "RuntimeError: Unable to initialize backend 'cuda': INTERNAL: no supported devices found for platform CUDA (set JAX_PLATFORMS='' to automatically choose an available backend)", "cuda_driver_init"),
    # jax xla_bridge.py (logged)
    ("training", "E0302 10:11:12.131000   4411 xla_bridge.py:909] Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.", "cuda_driver_init"),
    # jax xla_bridge.py / jaxlib cuda_versions
    ("training", "CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built against version 12020, which is newer. The copy of CUDA that is installed must be at least as new as the version against which JAX was built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)", "cuda_driver_init"),
    # xla stream_executor
    ("training", "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to allocate 8589934592 bytes for new constant: CUDA_ERROR_OUT_OF_MEMORY: out of memory", "cuda_oom"),
    # torch/cuda/__init__.py _lazy_init (ROCm build)
    ("training", "RuntimeError: No HIP GPUs are available", "cuda_driver_init"),
    # c10/hip (hipified C10_CUDA_CHECK)
    ("training", "RuntimeError: HIP error: hipErrorNoDevice: no ROCm-capable device is detected", "cuda_driver_init"),
    # HIP runtime
    ("training", "RuntimeError: HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "cuda_launch_failure"),
    # ---- storage2
    # net/ceph/messenger_v1.c read_partial_message
    ("kernel", "[ 4410.220118] libceph: read_partial_message 00000000b1c2d3e4 data crc 3361928471 != exp. 1234567891", "storage_remote_fs"),
    # net/ceph/messenger_v1.c
    ("kernel", "[ 4410.220119] libceph: read_partial_message 00000000b1c2d3e4 signature check failed", "storage_remote_fs"),
    # GPFS error log entries in syslog (Error=MMFS_<code>)
    ("system", "Feb 03 04:05:06 gpu-n17 mmfs: Error=MMFS_PHOENIX, ID=0xAB429E38, Tag=4120431: Reason code 668 Failure Reason Lost membership in cluster gpfs.prod. Unmounting file systems.", "storage_remote_fs"),
    # GPFS error log
    ("system", "Feb 03 04:05:06 gpu-n17 mmfs: Error=MMFS_LONGDISKIO, ID=0x0D1F9C5A, Tag=4120432: Long disk I/O on nsd07", "storage_remote_fs"),
    # mountpoint-s3 src/fuse.rs (fuse_error! -> "<op> failed")
    ("system", "2026-03-02T10:11:12.131Z WARN mountpoint_s3::fuse: read failed with errno 5: get request failed: get object request failed: Client error: Unknown CRT error: CRT error 1051: aws-c-http: AWS_ERROR_HTTP_CONNECTION_CLOSED, The connection has closed or is closing.", "storage_remote_fs"),
    # Go os.PathError (ENOTCONN) on a FUSE mount
    ("system", "open /mnt/s3/ckpt/latest: transport endpoint is not connected", "storage_remote_fs"),
    # Go syscall.ESTALE
    ("system", "read /nfs/datasets/shard-0031.tar: stale NFS file handle", "storage_remote_fs"),
    # Go syscall.EIO
    ("system", "write /ckpt/run9/model.pt: input/output error", "storage_io"),
    # Go syscall.ENOSPC
    ("system", "write /ckpt/run9/model.pt: no space left on device", "storage_space"),
    # lustre/ldlm/ldlm_lib.c target_handle_connect
    ("kernel", "[ 9038.330120] LustreError: 137-5: work-OST0005_UUID: not available for connect from 10.12.0.77@o2ib (no target). If you are running an HA pair check that the target is mounted on the other server.", "storage_remote_fs"),
    # lustre/ptlrpc/import.c
    ("kernel", "[ 9039.330120] Lustre: work-MDT0000-mdc-ffff97a1c4d2e800: Evicted from work-MDT0000_UUID (at 10.12.0.3@o2ib) after server handle changed from 0x8a1b2c3d4e5f6a7b to 0x8a1b2c3d4e5f6a7c", "storage_remote_fs"),
    # fs/nfs/write.c nfs_writeback_result
    ("kernel", "[ 812.100213] NFS: Server wrote zero bytes, expected 4096.", "storage_remote_fs"),
    # ---- process2
    # glibc malloc.c
    ("training", "free(): invalid next size (normal)", "process_crash"),
    # glibc malloc.c
    ("training", "double free or corruption (top)", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): mismatching next->prev_size (unsorted)", "process_crash"),
    # glibc malloc.c
    ("training", "free(): unaligned chunk detected in tcache 2", "process_crash"),
    # glibc malloc.c
    ("training", "free(): too many chunks detected in tcache", "process_crash"),
    # glibc malloc.c
    ("training", "malloc(): unaligned fastbin chunk detected 2", "process_crash"),
    # glibc <2.26 malloc_printerr
    ("training", "*** glibc detected *** python: double free or corruption (fasttop): 0x0000000001e1f010 ***", "process_crash"),
    # gperftools src/tcmalloc.cc InvalidFree
    ("training", "src/tcmalloc.cc:333] Attempt to free invalid pointer 0x55d0c1a2b3c0 ", "process_crash"),
    # abseil failure_signal_handler.cc
    ("training", "*** SIGFPE received at time=1712411021 on cpu 3 ***", "process_crash"),
    # abseil failure_signal_handler.cc
    ("training", "*** SIGILL received at time=1712411021 on cpu 3 ***", "process_crash"),
    # abseil failure_signal_handler.cc
    ("training", "*** SIGSEGV received at time=1712411021 on cpu 3 ***", "segfault"),
    # glog signalhandler.cc
    ("training", "*** SIGBUS (@0x7f3a20001000) received by PID 77120 (TID 0x7f3a1d7fe700) from PID 538975232; stack trace: ***", "process_crash"),
    # glog signalhandler.cc
    ("training", "*** SIGFPE (@0x55d0c1a2b3c0) received by PID 77120 (TID 0x7f3a1d7fe700) from PID 1; stack trace: ***", "process_crash"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 2 with PID 0 on node gpu-n14 exited on signal 4 (Illegal instruction).", "process_crash"),
    # Open MPI help-errmgr-base.txt
    ("training", "mpirun noticed that process rank 2 with PID 0 on node gpu-n14 exited on signal 8 (Floating point exception).", "process_crash"),
    # MPICH/Intel MPI MPI_Abort
    ("training", "Abort(1) on node 3 (rank 3 in comm 0): application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3", "process_crash"),
    # c10/core/impl/alloc_cpu.cpp
    ("training", "RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.", "oom_killer"),
    # IDE / Python runner status
    ("training", "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)", "process_killed"),
    # ucx debug.c
    ("training", "[gpu-n14:77120:0:77150] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f3a20001000)", "segfault"),
    # valgrind coregrind/m_signals.c
    ("training", "==77120== Process terminating with default action of signal 11 (SIGSEGV)", "segfault"),
    # ---- transport2
    # Open MPI ompi/mca/pml/ucx/pml_ucx.c
    ("training", "[gpu-n14:77120] pml_ucx.c:419  Error: ucp_ep_create(proc=5) failed: Destination is unreachable", "nccl_error"),
    # Open MPI opal/mca/btl/tcp help-mpi-btl-tcp.txt peer hung up
    ("training", "An MPI communication peer process has unexpectedly disconnected.  This usually indicates a failure in the peer process (e.g., a crash or otherwise exiting without calling MPI_FINALIZE first).", "nccl_remote_peer"),
    # gloo transport/tcp/pair.cc
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.40.0.12]:31822", "nccl_remote_peer"),
    # gloo transport/tcp/pair.cc
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Read error [10.40.0.12]:4411: Connection reset by peer", "nccl_remote_peer"),
    # gloo transport/tcp/unbound_buffer.cc
    ("training", "RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete", "nccl_timeout"),
    # libibverbs ibv_reg_mr errno
    ("training", "ibv_reg_mr failed: Cannot allocate memory", "nccl_error"),
    # ucx src/uct/sm/mm/base/mm_ep.c
    ("training", "[1712411021.118276] [gpu-n14:77120:0]          mm_ep.c:155  UCX  ERROR mm ep failed to connect to remote FIFO id 0xc00000034000: Shared memory error", "nccl_error"),
    # ---- slurm2
    # scontrol show job (BOOT_FAIL)
    ("system", "   JobState=BOOT_FAIL Reason=NodeDown Dependency=(null)", "process_killed"),
    # sacct
    ("system", "771202       train.sh        gpu     ml-lab       512  BOOT_FAIL      0:0", "process_killed"),
    # ---- cuda3
    # NVIDIA Warp warp/native/cuda_util.cpp check_cuda_result
    ("training", "Warp CUDA error 700: an illegal memory access was encountered (in function wp_cuda_context_synchronize, /builds/warp/native/warp.cu:2350)", "cuda_illegal_memory_access"),
    # NVIDIA Warp
    ("training", "Warp CUDA error 2: out of memory (in function wp_alloc_device_default, /builds/warp/native/warp.cu:311)", "cuda_oom"),
    # taichi rhi/cuda/cuda_driver.h
    ("training", "[E 03/02/26 10:11:12.131 77120] [cuda_driver.h:operator()@92] CUDA Error CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered while calling stream_synchronize (cuStreamSynchronize)", "cuda_illegal_memory_access"),
    # cuda-python cuda.bindings driver enum repr
    ("training", "RuntimeError: CUDA error: CUresult.CUDA_ERROR_OUT_OF_MEMORY", "cuda_oom"),
    # numba/cuda/cudadrv/driver.py
    ("training", "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: CUDA driver library cannot be found.", "cuda_driver_init"),
    # c10/cuda/driver_api.h
    ("training", "RuntimeError: CUDA error: CUDA_ERROR_NVLINK_UNCORRECTABLE", "gpu_nvlink"),
    # tensorflow/tsl bfc_allocator.cc
    ("training", "W0302 10:11:12.131 tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory trying to allocate 4.00GiB (rounded to 4294967296)requested by op MatMul", "cuda_oom"),
    # ---- storage3
    # safetensors/src/tensor.rs SafeTensorError::MetadataIncompleteBuffer (0.4+ Display text)
    ("training", "safetensors_rust.SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered", "storage_io"),
    # mountpoint-s3 src/fuse.rs
    ("training", "2026-03-02T10:11:12.131Z WARN read{req=88 ino=41 fh=7 offset=0 size=131072 name=\"shard-7.bin\"}: mountpoint_s3::fuse: read failed with errno 5: get request failed: get object request failed: Client error: Unknown response error: Response { status: 503, headers: {} }", "storage_remote_fs"),
    # lnet/lnet/lib-msg.c
    ("kernel", "[ 9040.330120] LNetError: 3311:0:(lib-msg.c:481:lnet_handle_local_failure()) ni 10.12.0.77@o2ib added to recovery queue. Health = 900", "storage_remote_fs"),
    # lnet/klnds/socklnd
    ("kernel", "[ 9041.330120] LNetError: 11b-b: Connection to 10.12.0.21@tcp at host 10.12.0.21:988 took too long: that node may be hung or experiencing high load.", "storage_remote_fs"),
    # ---- process3
    # arch/x86/kernel/signal.c / kernel/signal.c show_unhandled_signals
    ("kernel", "[ 7001.118811] python3[77120]: potentially unexpected fatal signal 11.", "segfault"),
    # kernel show_unhandled_signals
    ("kernel", "[ 7001.118812] python3[77120]: potentially unexpected fatal signal 4.", "process_crash"),
    # kernel show_unhandled_signals
    ("kernel", "[ 7001.118813] python3[77120]: potentially unexpected fatal signal 8.", "process_crash"),
    # systemd src/core/service.c (SERVICE_FAILURE_SIGNAL)
    ("system", "Mar 02 10:11:12 gpu-n14 systemd[1]: trainer.service: Failed with result 'signal'.", "process_killed"),
    # systemd
    ("system", "Mar 02 10:11:12 gpu-n14 systemd[1]: trainer.service: Main process exited, code=killed, status=15/TERM", "process_killed"),
    # slurm srun
    ("system", "srun: error: gpu-n14: task 6: Terminated", "process_killed"),
    # kubectl get pods STATUS column
    ("system", "trainer-0   0/1   OOMKilled   3 (41s ago)   12m", "oom_killer"),
    # ---- transport3
    # libfabric fi_getinfo (fi_strerror FI_ENODATA)
    ("training", "fi_getinfo returned -61 (No data available)", "nccl_error"),
    # libfabric fi_av_insert
    ("training", "fi_av_insert returned error -5", "nccl_error"),
]

# (log source, line): INFO/notice siblings and no-fault endings from the same emitters
BENIGN: list[tuple[str, str]] = [
    # ---- cuda_frameworks
    # ggml-cuda.cu ggml_cuda_error context line
    ("training", "  current device: 1, in function ggml_backend_cuda_synchronize at /app/ggml/src/ggml-cuda/ggml-cuda.cu:2412"),
    # ---- cuda_benign
    # c10/cuda/CUDAException.cpp
    ("training", "[rank3]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect."),
    # c10/cuda/CUDAException.cpp
    ("training", "[rank3]: For debugging consider passing CUDA_LAUNCH_BLOCKING=1"),
    # c10/cuda/CUDAException.cpp
    ("training", "[rank3]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
    # tensorflow cuda_gpu_executor.cc
    ("training", "2024-05-06 07:08:09.101112: I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:975] successful NUMA node read from SysFS had negative value (-1), but there must be at least one NUMA node, so returning NUMA node zero"),
    # tensorflow gpu_device.cc
    ("training", "2024-05-06 07:08:09.101113: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1616] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 78911 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-80GB, pci bus id: 0000:07:00.0, compute capability: 8.0"),
    # tensorflow cuda_dnn.cc
    ("training", "2024-05-06 07:08:09.101114: I tensorflow/stream_executor/cuda/cuda_dnn.cc:384] Loaded cuDNN version 8600"),
    # tensorflow dso_loader.cc (W: CPU-only machines)
    ("training", "2024-05-06 07:08:09.101115: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory"),
    # tensorflow cudart_stub.cc
    ("training", "2024-05-06 07:08:09.101116: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
    # c10/cuda/CUDAException.cpp
    ("training", "Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information."),
    # cuda_runtime_api.h (status, not failure)
    ("training", "cudaErrorNotReady: device not ready"),
    # ---- lustre
    # lustre/ptlrpc/import.c (recovered)
    ("kernel", "[ 9033.330120] Lustre: work-MDT0000-mdc-ffff97a1c4d2e800: Connection restored to 10.12.0.3@o2ib (at 10.12.0.3@o2ib)"),
    # lustre/llite/llite_lib.c
    ("kernel", "[ 9034.330120] Lustre: Mounted work-client"),
    # lustre/ptlrpc/import.c ptlrpc_disconnect_idle_interpret (idle disconnect)
    ("kernel", "[ 9035.330120] Lustre: work-OST0011-osc-ffff97a1c4d2e800: disconnect after 23s idle"),
    # lustre/obdclass/class_obd.c
    ("kernel", "[ 9036.330120] Lustre: Lustre: Build Version: 2.15.4"),
    # lnet/lnet/api-ni.c
    ("kernel", "[ 9037.330120] LNet: Added LNI 10.12.0.77@o2ib [8/256/0/180]"),
    # ---- nfs
    # net/sunrpc/clnt.c call_decode
    ("kernel", "[ 812.100202] nfs: server fs-vast-03 OK"),
    # fs/nfs/nfs4proc.c
    ("kernel", "[ 812.100209] NFS: v4 server fs-vast-03 does not accept raw uid/gids. Reenabling the idmapper."),
    # fs/nfs/nfs4idmap.c
    ("kernel", "[ 812.100210] NFS: Registering the id_resolver key type"),
    # fs/nfs/inode.c nfs_update_inode (KERN_DEBUG)
    ("kernel", "[ 812.100212] NFS: nfs_update_inode: inode 8812331 mode changed, 0100644 to 040755"),
    # ---- ceph
    # net/ceph/mon_client.c
    ("kernel", "[ 4410.220110] libceph: mon0 (1)10.20.0.5:6789 session established"),
    # net/ceph/ceph_common.c
    ("kernel", "[ 4410.220111] libceph: client44551 fsid 1c2d3e4f-aaaa-bbbb-cccc-0123456789ab"),
    # fs/ceph/mds_client.c
    ("kernel", "[ 4410.220112] ceph: mds0 reconnect start"),
    # fs/ceph/mds_client.c
    ("kernel", "[ 4410.220113] ceph: mds0 reconnect success"),
    # fs/ceph/mds_client.c
    ("kernel", "[ 4410.220114] ceph: mds0 recovery completed"),
    # net/ceph/osd_client.c
    ("kernel", "[ 4410.220115] libceph: osd4 up"),
    # ---- gpfs
    # GPFS mmfs.log
    ("system", "2026-02-03_04:05:09.000+0000: [N] Connecting to 10.30.0.2 gpfs-nsd02 <c0n3>"),
    # GPFS mmfs.log
    ("system", "2026-02-03_04:05:10.000+0000: [I] Command: successful mount fs1"),
    # ---- beegfs
    # beegfs MessagingTk.c (Log_NOTICE: a retry)
    ("kernel", "[ 5120.331101] beegfs: (3) Feb03 04:05:07 *python3(22714) [Messaging (RPC)] >> Retrying communication with node: beegfs-meta meta01 [ID: 1]"),
    # beegfs client
    ("kernel", "[ 5120.331102] beegfs: (2) Feb03 04:05:08 Mount >> BeeGFS mount ready."),
    # ---- object_store
    # aiohttp (no storage named: not labelled)
    ("training", "aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected"),
    # urllib3 retry warning
    ("training", "WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='ml-ckpt.s3.amazonaws.com', port=443): Read timed out. (read timeout=60)\")': /run9/x.pt"),
    # botocore/credentials.py
    ("training", "INFO:botocore.credentials:Found credentials in environment variables."),
    # ---- ckpt_errno
    # errno EACCES (job's config)
    ("training", "PermissionError: [Errno 13] Permission denied: '/ckpt/run9'"),
    # errno ENOENT
    ("training", "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/run9/latest'"),
    # ---- process
    # torch elastic agent
    ("training", "[2026-03-01 10:11:12,131] torch.distributed.elastic.agent.server.api: [INFO] [default] Starting worker group"),
    # torch elastic
    ("training", "  exitcode  : 0 (pid: 77116)"),
    # Open MPI help text (continuation; the next line has the fault)
    ("training", "Primary job  terminated normally, but 3 processes returned"),
    # mm/oom_kill.c dump_tasks header
    ("kernel", "[48211.101206] Tasks state (memory values in pages):"),
    # mm/oom_kill.c dump_tasks header
    ("kernel", "[48211.101207] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name"),
    # ---- transport
    # rdma-core libibverbs/init.c (warning, benign)
    ("training", "libibverbs: Warning: couldn't open config directory '/etc/libibverbs.d'."),
    # ucx WARN
    ("training", "[1712411021.118275] [gpu-n14:77120:0]    ucp_worker.c:1781 UCX  WARN  failed to set affinity"),
    # libfabric info
    ("training", "libfabric:4412:1712411021::efa:core:efa_device_construct():118<info> Found EFA device"),
    # Open MPI errhandler continuation
    ("training", "[gpu-n14:77120] *** reported by process [3421765633,3]"),
    # Open MPI help-mpi-btl-openib.txt (warning: falls back to another BTL)
    ("training", "WARNING: There was an error initializing an OpenFabrics device."),
    # ---- slurm
    # slurm src/slurmd/slurmstepd/req.c
    ("system", "slurmstepd: error: *** STEP 771201.0 ON gpu-n14 CANCELLED AT 2026-03-01T10:11:12 DUE TO TIME LIMIT ***"),
    # slurm slurmstepd
    ("system", "slurmstepd: error: *** JOB 771201 ON gpu-n14 CANCELLED AT 2026-03-01T10:11:12 DUE TO PREEMPTION ***"),
    # slurm srun
    ("system", "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."),
    # slurm srun
    ("system", "srun: Force Terminated StepId=771201.0"),
    # slurm slurmctld (the reason line carries the cause)
    ("system", "[2026-03-01T10:11:12.004] drain_nodes: node gpu-n14 state set to DRAIN"),
    # sacct
    ("system", "771201       train.sh        gpu     ml-lab       512    TIMEOUT      0:0"),
    # sacct
    ("system", "771201       train.sh        gpu     ml-lab       512  PREEMPTED      0:0"),
    # sacct
    ("system", "771201       train.sh        gpu     ml-lab       512 CANCELLED+      0:0"),
    # scontrol
    ("system", "   JobState=PREEMPTED Reason=None Dependency=(null)"),
    # scontrol
    ("system", "   JobState=TIMEOUT Reason=TimeLimit Dependency=(null)"),
    # slurmctld
    ("system", "[2026-03-01T10:11:12.007] _job_complete: JobId=771201 WEXITSTATUS 0"),
    # ---- cuda_frameworks2
    # jax xla_bridge.py (warning: CPU fallback)
    ("training", "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu."),
    # TensorRT warning
    ("training", "[03/02/2026-10:11:12] [TRT] [W] CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory usage and speed up TensorRT initialization."),
    # TensorRT info
    ("training", "[03/02/2026-10:11:12] [TRT] [I] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 310, GPU 1046 (MiB)"),
    # onnxruntime warning
    ("training", "2026-03-02 10:11:12.000 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned to the preferred execution providers which may or may not have an negative impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf."),
    # ---- transport2
    # rdma-core libibverbs/dynamic_driver.c (warning)
    ("training", "libibverbs: Warning: couldn't load driver 'libmlx4-rdmav34.so': libmlx4-rdmav34.so: cannot open shared object file: No such file or directory"),
    # rdma-core libibverbs (warning)
    ("training", "libibverbs: Warning: no userspace device-specific driver found for /sys/class/infiniband_verbs/uverbs0"),
    # ucx WARN
    ("training", "[1712411021.118277] [gpu-n14:77120:0]     ucp_context.c:1418 UCX  WARN  UCP version is incompatible, required: 1.16, actual: 1.14 (release 1)"),
    # ---- slurm2
    # sacct
    ("system", "771203       train.sh        gpu     ml-lab       512  DEADLINE      0:0"),
    # scontrol
    ("system", "   JobState=CANCELLED Reason=None Dependency=(null)"),
    # sbatch (submission refused: no job ran)
    ("system", "sbatch: error: Batch job submission failed: Requested node configuration is not available"),
    # ---- cuda_frameworks2
    # jax xla_bridge.py (INFO while probing an absent platform)
    ("training", "I0302 10:11:12.131000 140211 xla_bridge.py:884] Unable to initialize backend 'rocm': NOT_FOUND: Could not find registered platform with name: \"rocm\". Available platform names are: CUDA Host"),
    # jax xla_bridge.py (INFO while probing an absent platform)
    ("training", "INFO:jax._src.xla_bridge:Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory"),
    # ---- storage3
    # mountpoint-s3 (the application's write pattern, not the store)
    ("training", "2026-03-02T10:11:12.131Z WARN write{req=52 ino=49 fh=3 offset=512 length=512 name=\"shard.bin\"}: mountpoint_s3::fuse: write failed: upload error: out of order write NOT supported by Mountpoint, aborting the upload; expected offset 0 but got 512"),
    # mountpoint-s3 (a missing key)
    ("training", "2026-03-02T10:11:12.131Z WARN lookup{req=12 ino=1 name=\"latest\"}: mountpoint_s3::fuse: lookup failed: inode error: file does not exist"),
    # net/ceph/osd_client.c (info: OSD out of the map)
    ("kernel", "[ 4410.220120] libceph: osd5 weight 0x0 (out)"),
    # net/ceph/osd_client.c
    ("kernel", "[ 4410.220121] libceph: osd5 weight 0x10000 (in)"),
    # ---- process3
    # mm/memcontrol.c mem_cgroup_print_oom_meminfo (context of the OOM report)
    ("kernel", "[ 7001.118814] memory: usage 83886080kB, limit 83886080kB, failcnt 1211"),
    # mm/memcontrol.c (context)
    ("kernel", "[ 7001.118815] Memory cgroup stats for /slurm/uid_1001/job_771201:"),
    # ---- transport3
    # libfabric (success)
    ("training", "fi_getinfo() returned 0, 2 providers found"),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_vendor_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_vendor_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize(("line", "action"), [
    ("[2026-05-01T02:03:04.000] error: Nodes gpu-q9 not responding, setting DOWN", "restart_app"),
    ("NodeName=gpu-q9 State=DOWN+DRAIN Reason=Prolog error [root@2026-05-01T02:03:04]", "restart_app"),
])
def test_a_slurm_node_failure_blames_the_node_but_takes_no_node(classifier: Classifier, line: str,
                                                              action: str) -> None:
    """Slurm has drained the node already: the fault counts against it, the action stays job-wide."""
    found = classifier.classify(line, "system")
    assert found is not None
    assert found.blame == "node"
    assert found.action == action


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
