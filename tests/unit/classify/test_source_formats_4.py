"""Brief F4 (issue 15 point 6): knowledge-base coverage from the vendors' own format strings, round 4.

Each case instantiates a failure message as the software that prints it formats it (the comment names the emitter
and its source file): distributed-training frameworks' own failure messages (torch.distributed.elastic rendezvous
and agent, the c10d store and Gloo, DeepSpeed's launcher and loss scaler, Megatron-LM, torch clip_grad_norm_ and
autograd anomaly mode, PyTorch Lightning, Horovod, Ray / Ray Train, JAX's coordination service, TensorFlow's
multi-worker runtime); Kubernetes and its training operators as a training job sees them (kubelet evictions and
container states, the Job controller, Kueue, Kubeflow PyTorchJob / MPIJob conditions); checkpoint I/O as the
frameworks report it (torch.save / torch.load's inline_container, torch.distributed.checkpoint, Python errno, the
Hugging Face Hub); Python-level endings (MemoryError, RecursionError, faulthandler). Benign look-alikes are the
INFO/notice siblings from the same sources and the scheduler's own no-fault endings (preemption, deadlines,
SIGTERM requeue). Hosts, ids, paths and numbers are made up. No line is a copy of a corpus line (checked below
without printing any).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# (log source, line, expected category); the comment names the emitter and its source file
FORMATS: list[tuple[str, str, str]] = [
    # torch.elastic: torch/distributed/elastic/rendezvous/dynamic_rendezvous.py
    ('training', 'torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/rendezvous/dynamic_rendezvous.py
    ('training', '[rank3]: torch.distributed.elastic.rendezvous.api.RendezvousClosedError', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py
    ('training', '[rank6]: torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py
    ('training', 'torch.distributed.elastic.rendezvous.api.RendezvousStateError: The state object is corrupt. See inner exception for details.', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/rendezvous/etcd_rendezvous.py
    ('training', 'torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError: Rendezvous timeout', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', '[2024-06-01 10:11:12,345] torch.distributed.elastic.agent.server.api: [WARNING] [default] Worker group FAILED. 2/3 attempts left; will restart worker group', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', 'I0601 10:11:12.345000 140012345 torch/distributed/elastic/agent/server/api.py:870] [default] Worker group FAILED. 0/0 attempts left; will restart worker group', 'torch_elastic'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', 'torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit barrier. Elapsed: 300.12 seconds', 'torch_elastic'),
    # c10d: torch/csrc/distributed/c10d/TCPStoreLibUvBackend.cpp / TCPStore.cpp
    ('training', '[W601 10:11:12.345678 TCPStore.cpp:131] [c10d] recvValue failed on SocketImpl(fd=43, addr=[gpu-node-03]:51234, remote=[gpu-node-00]:29500): Connection closed by peer', 'nccl_error'),
    # c10d: torch/csrc/distributed/c10d/Utils.hpp
    ('training', 'torch.distributed.DistNetworkError: Connection reset by peer', 'nccl_error'),
    # c10d: torch/csrc/distributed/c10d/TCPStore.cpp
    ('training', '[rank5]: torch.distributed.DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0', 'nccl_error'),
    # gloo: third_party/gloo/gloo/transport/tcp/pair.cc
    ('training', '[rank2]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.1.2.3]:40177', 'nccl_remote_peer'),
    # gloo: third_party/gloo/gloo/transport/tcp/pair.cc
    ('training', 'RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Read error [10.1.2.4]:23113: Connection reset by peer', 'nccl_remote_peer'),
    # gloo: third_party/gloo/gloo/transport/tcp/unbound_buffer.cc
    ('training', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete', 'nccl_timeout'),
    # gloo: third_party/gloo/gloo/transport/tcp/unbound_buffer.cc
    ('training', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:137] Timed out waiting 1800000ms for send operation to complete', 'nccl_timeout'),
    # gloo: third_party/gloo/gloo/transport/tcp/pair.cc (F7: a refused connect names the peer, nccl_remote_peer)
    ('training', 'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.1.2.5]:61122: Connection refused', 'nccl_remote_peer'),
    # gloo: torch/csrc/distributed/c10d/ProcessGroupGloo.cpp
    ('training', '[E601 10:11:14.000003 ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error', 'nccl_error'),
    # deepspeed: deepspeed/launcher/launch.py
    ('training', "[2024-06-01 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=5', '--deepspeed'] exits with return code = 1", 'process_exit_nonzero'),
    # deepspeed: deepspeed/launcher/launch.py
    ('training', "[2024-06-01 10:11:12,345] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=2'] exits with return code = -11", 'segfault'),
    # deepspeed: deepspeed/launcher/multinode_runner.py (pdsh)
    ('training', 'pdsh@gpu-node-01: gpu-node-02: ssh exited with exit code 1', 'process_exit_nonzero'),
    # deepspeed: deepspeed/runtime/fp16/loss_scaler.py
    ('training', 'Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.', 'process_crash'),
    # megatron: megatron/core/distributed/param_and_grad_buffer.py
    ('training', 'AssertionError: Rank 12: found NaN in local grad norm in backward pass before data-parallel communication collective. Device: 4, node: gpu-node-09', 'process_crash'),
    # megatron: megatron/training/training.py
    ('training', 'AssertionError: found NaN in local grad norm for bucket #0 in backward pass before data-parallel communication collective. Device: 1, node: gpu-node-21', 'process_crash'),
    # torch: torch/nn/utils/clip_grad.py
    ('training', 'RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`', 'process_crash'),
    # lightning: lightning/pytorch/utilities/... (detect_nan_parameters)
    ('training', 'ValueError: Detected nan and/or inf values in `model.layer.3.weight`. Check your forward pass for numerically unstable operations.', 'process_crash'),
    # horovod: horovod/common/exceptions.py / operations.cc (a peer's failure stopped the job: nccl_remote_peer since K28)
    ('training', 'horovod.common.exceptions.HorovodInternalError: Horovod has been shut down. This was caused by an exception on one of the ranks or an attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished execution.', 'nccl_remote_peer'),
    # horovod: horovod/runner/gloo_run.py
    ('training', 'Process 3 exit with status code 1.', 'process_exit_nonzero'),
    # ray: python/ray/exceptions.py ActorDiedError
    ('training', '[rank6]: ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.', 'process_killed'),
    # ray: src/ray/gcs/gcs_server/gcs_node_manager.cc
    ('training', '(raylet) The node with node id: 5f3a9c1e2b and address: 10.2.3.4 and node name: 10.2.3.4 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, etc.)', 'process_killed'),
    # ray: python/ray/exceptions.py ObjectStoreFullError
    ('training', 'ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff0100000001e1f505 in object store because it is full. Object size is 2147483648 bytes.', 'oom_killer'),
    # ray: python/ray/exceptions.py
    ('training', 'ray.exceptions.RayActorError: The actor died because of an error raised in its creation task, ray::RayTrainWorker.__init__() (pid=4242, ip=10.2.3.5)', 'process_crash'),
    # ray: python/ray/train/base_trainer.py
    ('training', 'ray.train.base_trainer.TrainingFailedError: The Ray Train run failed. Please inspect the previous error messages for a cause.', 'process_exit_nonzero'),
    # ray: src/ray/raylet/worker_pool.cc
    ('training', '(raylet) Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.', 'process_killed'),
    # jax: xla/pjrt/distributed/client.cc
    ('training', '[rank6]: jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:', 'torch_elastic'),
    # jax: xla/tsl/distributed_runtime/coordination/coordination_service.cc
    ('training', 'E0601 10:11:12.345678 2342 coordination_service.cc:480] /job:jax_worker/replica:0/task:3 has been set to ERROR in coordination service: ABORTED: Task /job:jax_worker/replica:0/task:3 heartbeat timeout. This indicates that the remote task has failed, got preempted, or crashed unexpectedly.', 'torch_elastic'),
    # jax: xla/tsl/distributed_runtime/coordination/coordination_service.cc
    ('training', 'jax.errors.JaxRuntimeError: UNAVAILABLE: The following tasks are unhealthy (stopped sending heartbeats):', 'torch_elastic'),
    # jax: xla/pjrt/distributed/client.cc
    ('training', 'F0601 10:11:12.345678 2342 client.cc:98] Terminating process because the JAX distributed service detected fatal errors. This most likely indicates that another task died; see the other task logs for more details.', 'torch_elastic'),
    # jax: xla/tsl/distributed_runtime/coordination/coordination_service_agent.cc
    ('training', 'E0601 10:11:12.345678 2342 coordination_service_agent.cc:332] Polled an error from coordination service (this can be an error from this or another task).', 'torch_elastic'),
    # tensorflow: tensorflow/python/framework/errors_impl.py
    ('training', 'tensorflow.python.framework.errors_impl.UnavailableError: Socket closed', 'nccl_remote_peer'),
    # tensorflow: tensorflow/python/framework/errors_impl.py
    ('training', 'tensorflow.python.framework.errors_impl.UnavailableError: Collective ops is aborted by: failed to connect to all addresses', 'nccl_remote_peer'),
    # tensorflow: tensorflow/python/distribute/collective_all_reduce_strategy.py
    ('training', 'ERROR:tensorflow:Cluster check alive failed, /job:worker/replica:0/task:2 is down, aborting collectives: Deadline Exceeded', 'nccl_remote_peer'),
    # kubernetes: kubectl get pods (container state reason)
    ('system', 'llm-worker-5   0/1     OOMKilled   3 (2m ago)   41m', 'oom_killer'),
    # kubernetes: pkg/kubelet/eviction/helpers.go
    ('system', 'Warning  Evicted  3m  kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container trainer was using 61Gi, request is 32Gi, has larger consumption of memory.', 'oom_killer'),
    # kubernetes: pkg/kubelet/eviction/helpers.go
    ('system', 'Message: Pod ephemeral local storage usage exceeds the total limit of containers 20Gi.', 'storage_space'),
    # kubernetes: pkg/kubelet/kuberuntime
    ('system', 'Warning  BackOff  2m (x14 over 9m)  kubelet  Back-off restarting failed container trainer in pod llm-worker-3_ml(2c1f)', 'process_exit_nonzero'),
    # kubernetes: pkg/controller/job/job_controller.go
    ('system', 'Warning  BackoffLimitExceeded  1m  job-controller  Job has reached the specified backoff limit', 'process_exit_nonzero'),
    # kubeflow: training-operator pkg/controller.v1/common/job.go
    ('system', 'Warning  PyTorchJobFailed  2m  pytorchjob-controller  PyTorchJob ml/llama-ft is failed because 1 Worker replica(s) failed.', 'process_exit_nonzero'),
    # kubeflow: mpi-operator pkg/controller/mpi_job_controller.go
    ('system', 'Warning  MPIJobFailed  2m  mpi-job-controller  MPIJob ml/bert-mpi is failed because 1 Launcher replica(s) failed.', 'process_exit_nonzero'),
    # kubernetes: kubectl get pods
    ('system', 'llm-worker-2   0/1     CrashLoopBackOff   5 (40s ago)   12m', 'process_exit_nonzero'),
    # torch.save: caffe2/serialize/inline_container.cc
    ('training', 'RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 2876233728 vs 2876233616', 'storage_io'),
    # torch.save: caffe2/serialize/inline_container.cc
    ('training', 'RuntimeError: [enforce fail at inline_container.cc:764] . PytorchStreamWriter failed writing file data/71: file write failed', 'storage_io'),
    # torch.load: caffe2/serialize/inline_container.cc
    ('training', '[rank6]: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory', 'storage_io'),
    # torch.load: caffe2/serialize/inline_container.cc
    ('training', 'RuntimeError: PytorchStreamReader failed reading file data/12: invalid header or archive is corrupted', 'storage_io'),
    # dcp: torch/distributed/checkpoint/utils.py
    ('training', 'torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([0, 5])', 'storage_io'),
    # python: errno ENOSPC via open()
    ('training', "OSError: [Errno 28] No space left on device: '/ckpt/run3/global_step1200/mp_rank_00_model_states.pt'", 'storage_space'),
    # python: errno EDQUOT
    ('training', "OSError: [Errno 122] Disk quota exceeded: '/home/u/ckpt/step_400'", 'storage_space'),
    # python: errno EROFS
    ('training', "OSError: [Errno 30] Read-only file system: '/ckpt/run3/step_1600'", 'storage_io'),
    # python: errno ESTALE
    ('training', "OSError: [Errno 116] Stale file handle: '/shared/ckpt/run3/latest'", 'storage_remote_fs'),
    # hf_hub: huggingface_hub/utils/_http.py
    ('training', 'huggingface_hub.errors.HfHubHTTPError: 504 Server Error: Gateway Time-out for url: https://huggingface.co/api/models/meta-llama/Llama-3-8B/revision/main', 'storage_remote_fs'),
    # transformers: transformers/utils/hub.py
    ('training', "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like meta-llama/Llama-3-8B is not the path to a directory containing a file named config.json.", 'storage_remote_fs'),
    # cpython: Objects/exceptions.c MemoryError
    ('training', 'MemoryError', 'oom_killer'),
    # cpython: Python/ceval.c
    ('training', 'RecursionError: maximum recursion depth exceeded while calling a Python object', 'process_crash'),
    # cpython: Python/faulthandler.c
    ('training', '[rank6]: Fatal Python error: Segmentation fault', 'segfault'),
    # cpython: Python/faulthandler.c
    ('training', '[rank6]: Fatal Python error: Aborted', 'process_crash'),
    # cpython: Python/faulthandler.c
    ('training', 'Fatal Python error: Bus error', 'process_crash'),
    # cpython: Python/faulthandler.c
    ('training', 'Fatal Python error: Floating point exception', 'process_crash'),
    # cpython: Python/faulthandler.c
    ('training', 'Fatal Python error: Illegal instruction', 'process_crash'),
    # cpython: Python/ceval.c
    ('training', 'Fatal Python error: Cannot recover from stack overflow.', 'process_crash'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', '[2024-06-02 01:02:03,004] torch.distributed.elastic.agent.server.api: [INFO] [default] Received Signals.SIGTERM death signal, shutting down workers', 'torch_elastic'),
    # c10d: torch/csrc/distributed/c10d/ProcessGroupGloo.cpp monitoredBarrier
    ('training', 'RuntimeError: [Rank 0]: Ranks 3, 7 failed to pass monitoredBarrier in 1800000 ms', 'nccl_remote_peer'),
    # c10d: torch/csrc/distributed/c10d/ProcessGroupGloo.cpp monitoredBarrier
    ('training', 'RuntimeError: Rank 5 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.', 'nccl_remote_peer'),
    # torch.mp: torch/multiprocessing/spawn.py
    ('training', 'torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGKILL', 'process_killed'),
    # torch.mp: torch/multiprocessing/spawn.py
    ('training', 'torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with exit code 1', 'process_exit_nonzero'),
    # lightning: lightning/pytorch/strategies/launchers/subprocess_script.py _ChildProcessObserver
    ('training', '[rank: 0] Child process with PID 81234 terminated with code 1. Forcefully terminating all other processes to avoid zombies 🧟', 'process_exit_nonzero'),
    # lightning: lightning/pytorch/strategies/launchers/subprocess_script.py _ChildProcessObserver
    ('training', 'Child process with PID 81235 terminated with code -9. Forcefully terminating all other processes to avoid zombies 🧟', 'process_killed'),
    # accelerate: accelerate/commands/launch.py
    ('training', "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py', '--bf16']' returned non-zero exit status 1.", 'process_exit_nonzero'),
    # deepspeed: deepspeed/launcher/launch.py
    ('training', "[2024-06-02 01:02:03,004] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'pretrain.py', '--local_rank=7'] exits with return code = -9", 'process_killed'),
    # horovod: horovod/runner/gloo_run.py
    ('training', 'RuntimeError: Horovod detected that one or more processes exited with non-zero status, thus causing the job to be terminated. The first process to do so was:', 'process_exit_nonzero'),
    # megatron: megatron/core/rerun_state_machine.py with reruns disabled raises the rejected result (fatal)
    ('training', "RuntimeError: Rank 5, node gpu-node-12, device 5, iteration 1200: Unexpected result nan (message='found NaN in local grad norm for bucket #0 in backward pass before data-parallel communication collective')", 'process_crash'),
    # megatron: megatron/core/distributed/param_and_grad_buffer.py
    ('training', 'AssertionError: Rank 9: found Inf in local grad norm in backward pass before data-parallel communication collective. Device: 1, node: gpu-node-33', 'process_crash'),
    # jax: xla/pjrt/distributed/client.cc key-value store
    ('training', 'jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: GetKeyValue() timed out with key: cuda:local_topology/cuda/3 and duration: 5m', 'torch_elastic'),
    # ray: python/ray/exceptions.py ObjectLostError
    ('training', 'ray.exceptions.ObjectLostError: Failed to retrieve object 7a1b2c3d. All copies of 7a1b2c3d have been lost due to node failure. Check cluster logs (`/tmp/ray/session_latest/logs`) for more information about the failure.', 'process_killed'),
    # object_store (Rust): object_store/src/client/retry.rs
    ('training', 'Generic S3 error: Error after 10 retries in 31.2s, max_retries:10, retry_timeout:180s, source:error sending request for url (https://bkt.s3.us-east-1.amazonaws.com/ckpt/shard-00012.bin)', 'storage_remote_fs'),
    # hf_hub: huggingface_hub/file_download.py
    ('training', 'huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.', 'storage_remote_fs'),
    # datasets: datasets/load.py
    ('training', "ConnectionError: Couldn't reach 'allenai/c4' on the Hub (ConnectTimeout)", 'storage_remote_fs'),
    # containerd: containerd / runc (nvidia-container-runtime hook)
    ('system', "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy' nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown", 'gpu_container_init'),
    # containerd: containerd / runc
    ('system', 'Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "torchrun": executable file not found in $PATH: unknown', 'process_exit_nonzero'),
    # torch.elastic: torch/distributed/elastic/multiprocessing/api.py
    ('training', 'torch.distributed.elastic.multiprocessing.api.SignalException: Process 90211 got signal: 15', 'torch_elastic'),
    # jax: xla/stream_executor/gpu BFC allocator / pjrt
    ('training', 'jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 21474836480 bytes.', 'cuda_oom'),
    # jax: xla/service/gpu (buffer assignment)
    ('training', 'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for 12.00GiB (12884901888B) on device ordinal 3', 'cuda_oom'),
    # tensorflow: tensorflow/core/framework/op_kernel.cc
    ('training', 'tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[8192,8192] and type float on /job:worker/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc', 'cuda_oom'),
    # python: errno EREMOTEIO
    ('training', "OSError: [Errno 121] Remote I/O error: '/lustre/ckpt/step_300/optim.pt'", 'storage_io'),
    # python: errno ENOTCONN (dead FUSE mount)
    ('training', "OSError: [Errno 107] Transport endpoint is not connected: '/mnt/s3/data/shard-0007.tar'", 'storage_remote_fs'),
    # python: errno EHOSTDOWN
    ('training', "OSError: [Errno 112] Host is down: '/nfs/ckpt/run9'", 'storage_remote_fs'),
    # systemd: src/core/mount.c
    ('system', 'mnt-lustre.mount: Mount process exited, code=exited, status=32/n/a', 'storage_io'),
    # systemd: src/core/job.c
    ('system', 'Failed to mount /mnt/lustre.', 'storage_io'),
    # kubernetes: pkg/kubelet/volumemanager
    ('system', 'Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume "ckpt-pv" : mount failed: exit status 32', 'storage_remote_fs'),
]

# (log source, line): benign siblings from the same sources
BENIGN: list[tuple[str, str]] = [
    # megatron rerun_state_machine.py validate_result, first run: the rejected result only requests a rerun of the
    # iteration (its diagnosis follows in later lines), no fault yet (K30, holdout30's label)
    ('training', "Unexpected result nan on rank 5 at iteration #1200 invocation #1 (message='found NaN in local grad norm for bucket #0 in backward pass before data-parallel communication collective')"),
    # torch.elastic: torch/distributed/elastic/rendezvous/api.py
    ('training', 'RendezvousGracefulExitError: Rendezvous is closed, exiting'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', '[2024-06-01 10:11:12,345] torch.distributed.elastic.agent.server.api: [INFO] [default] Rendezvous complete for workers. Result:'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', '[2024-06-01 10:11:12,345] torch.distributed.elastic.agent.server.api: [INFO] [default] Detected 1 new nodes from group_rank=0; will restart worker group'),
    # torch.elastic: torch/distributed/elastic/agent/server/api.py
    ('training', '[2024-06-01 10:11:12,345] torch.distributed.elastic.agent.server.api: [INFO] [default] worker group successfully finished. Waiting 300 seconds for other agents to finish.'),
    # torch.elastic: torch/distributed/elastic/rendezvous/dynamic_rendezvous.py
    ('training', "INFO:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'gpu-node-07_41234_0' has closed the rendezvous 'job-8812'."),
    # c10d: torch/csrc/distributed/c10d/socket.cpp
    ('training', '[W601 10:11:12.000001 socket.cpp:755] [c10d] The client socket has failed to connect to [gpu-node-00]:29500 (errno: 111 - Connection refused).'),
    # c10d: torch/csrc/distributed/c10d/TCPStore.cpp
    ('training', '[W601 10:11:13.000002 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate to host gpu-node-00:29500 - retrying (try=0, timeout=1800000ms, delay=496ms): Connection refused'),
    # deepspeed: deepspeed/launcher/launch.py
    ('training', '[2024-06-01 10:11:12,345] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 81234'),
    # deepspeed: deepspeed/launcher/launch.py
    ('training', '[2024-06-01 10:11:12,345] [INFO] [launch.py:351:main] Process 81234 exits successfully.'),
    # deepspeed: deepspeed/runtime/fp16/loss_scaler.py
    ('training', '[2024-06-01 10:11:12,345] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768'),
    # deepspeed: deepspeed/runtime/zero/stage3.py
    ('training', '[2024-06-01 10:11:12,345] [WARNING] [stage3.py:1991:step] 3 pytorch allocator cache flushes since last step. this happens when there is high memory pressure and is detrimental to performance. if this is happening frequently consider adjusting settings to reduce memory consumption.'),
    # deepspeed: deepspeed/runtime/engine.py
    ('training', '[2024-06-01 10:11:12,345] [WARNING] [engine.py:2763:load_checkpoint] Unable to find latest file at /ckpt/run7/latest, if trying to load latest checkpoint please ensure this file exists or pass an explicit checkpoint tag when loading a checkpoint.'),
    # megatron: megatron/training/checkpointing.py
    ('training', 'WARNING: could not find the metadata file /ckpt/gpt/latest_checkpointed_iteration.txt'),
    # megatron: megatron/training/checkpointing.py
    ('training', '    will not load any checkpoints and will start from random'),
    # megatron: megatron/training/training.py
    ('training', 'exiting program after receiving SIGTERM.'),
    # lightning: lightning/pytorch/callbacks/early_stopping.py
    ('training', 'Monitored metric val_loss = nan is not finite. Previous best value was 0.412. Signaling Trainer to stop.'),
    # lightning: lightning/fabric/plugins/environments/slurm.py / signal_connector
    ('training', '[rank: 13] Received SIGTERM: 15'),
    # lightning: lightning/pytorch/trainer/connectors/signal_connector.py
    ('training', 'Handling auto-requeue signal: 12'),
    # ray: src/ray/object_manager/plasma
    ('training', '(raylet) Spilled 4096 MiB, 12 objects, write throughput 812 MiB/s. Set RAY_verbose_spill_logs=0 to disable this message.'),
    # jax: xla/tsl/distributed_runtime/coordination/coordination_service.cc
    ('training', 'I0601 10:11:12.345678 2342 coordination_service.cc:614] /job:jax_worker/replica:0/task:1 has connected to coordination service. Incarnation: 123456789'),
    # kubernetes: pkg/controller/job/job_controller.go
    ('system', 'Warning  DeadlineExceeded  1m  job-controller  Job was active longer than specified deadline'),
    # kubernetes: pkg/scheduler
    ('system', 'Warning  FailedScheduling  12s  default-scheduler  0/16 nodes are available: 16 Insufficient nvidia.com/gpu. preemption: 0/16 nodes are available: 16 No preemption victims found for incoming pod.'),
    # kubernetes: pkg/scheduler preemption
    ('system', 'Normal  Preempted  30s  default-scheduler  Preempted by ml/high-prio-job-0 on node gpu-node-11'),
    # kueue: pkg/scheduler/preemption/preemption.go
    ('system', 'Normal  Preempted  40s  kueue-admission  Preempted to accommodate a workload (UID: 5f1c, JobUID: 77aa) due to prioritization in the ClusterQueue'),
    # kubeflow: training-operator pkg/controller.v1/common/job.go
    ('system', 'Normal  PyTorchJobSucceeded  1m  pytorchjob-controller  PyTorchJob ml/llama-ft successfully completed.'),
    # kubernetes: kubelet prober
    ('system', 'Warning  Unhealthy  1m (x3 over 2m)  kubelet  Liveness probe failed: Get "http://10.4.5.6:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)'),
    # cpython: KeyboardInterrupt
    ('training', 'KeyboardInterrupt'),
    # cpython: Python/faulthandler.c
    ('training', 'Current thread 0x00007f3a9c7ff640 (most recent call first):'),
    # cpython: Python/faulthandler.c
    ('training', 'Thread 0x00007f3a9d1fe640 (most recent call first):'),
    # cpython: Python/faulthandler.c dump_traceback_later
    ('training', 'Timeout (0:30:00)!'),
    # tensorboard: torch/utils/tensorboard/summary.py
    ('training', 'NaN or Inf found in input tensor.'),
    # kubernetes: pkg/kubelet/nodeshutdown
    ('system', 'Message: Pod was terminated in response to imminent node shutdown.'),
    # cpython: Python/faulthandler.c
    ('training', 'Extension modules: numpy.core._multiarray_umath, torch._C, torch._C._fft, yaml._yaml (total: 24)'),
    # cpython: Python/faulthandler.c
    ('training', '  File "/opt/conda/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2501 in all_reduce'),
    # systemd: src/core/mount.c
    ('system', 'Mounted /mnt/lustre.'),
    # python: errno EMFILE
    ('training', "OSError: [Errno 24] Too many open files: '/data/shards/shard-1234.bin'"),
    # lines the F4 rules must not take: the Hub's client-side 4xx, a clean launcher exit
    ("training", "huggingface_hub.errors.HfHubHTTPError: 404 Client Error: Not Found for url: https://huggingface.co/api/models/org/none"),
    ("training", "Process 2 exit with status code 0."),
]


@pytest.mark.parametrize(("source", "line", "category"), FORMATS)
def test_framework_format_is_classified(classifier: Classifier, source: str, line: str, category: str) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_framework_look_alike_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found and found.rule_id, line)


@pytest.mark.parametrize("line", [
    "AssertionError: Rank 3: found NaN in local grad norm in backward pass before data-parallel communication collective. Device: 3, node: gpu-a12",
    "Message: Pod ephemeral local storage usage exceeds the total limit of containers 8Gi.",
    "tensorflow.python.framework.errors_impl.UnavailableError: Stream removed",
])
def test_a_job_or_peer_failure_takes_no_node(classifier: Classifier, line: str) -> None:
    """Divergence, a full pod disk and a lost peer are the job's or a cascade: never a node action."""
    found = classifier.classify(line, "training")
    assert found is not None
    assert found.blame != "node"
    assert found.action == "restart_app"


def test_no_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, _c in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
