"""Brief K30: the vocabularies of the components behind holdout30's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: DeepSeek 3FS's storage/management client log header and status codes, the JuiceFS CSI
driver's mount-pod check and kubelet's gRPC link to a remote-FS CSI plugin socket, RAFT / cuML's NCCL_TRY report
by NCCL result code, Kaldi's job runners, pynvml's NVMLError_* classes, the Hopper FSP boot call in an NV_CHECK_OK
report, and Megatron's rerun state machine (its first "Unexpected result" is a detection, no fault). Half B: JuiceFS's
FATAL log level and its upload retries (one failed attempt is no fault), kubelet's volume-manager event by its
unmounted list, the zh_CN ENOTCONN text, 3FS's RDMA socket, an InfiniBand sysfs read that returns EIO, ixgbe's
transmit-hang reset and a launcher's exit code 134 (128 + SIGABRT). Step C (brief point 2, components of the split
beyond its misses): the batch schedulers' own kill reasons (LSF TERM_*, PBS MOM kills, flux job-exec exceptions,
submitit's UncompletedJobError / FailedJobError), where memory-limit kills and node failures are faults and run-time
limits, cancels and timeouts are not.

Each new rule states its action: none takes a node for a peer, a warning or a lone diagnostic read (restart_app or
none); only NVML's own explicit codes (library/driver mismatch, reset required) and the FSP boot failure keep their
categories' node actions, as the existing rules for the same messages do.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # 3FS progress at INFO / WARN, and its zone fallback (an existing guard)
    ("system", "[2025-07-01T02:03:04.556677889+00:00 hf3fs_fuse_main:5151 StorageClientImpl.cc:640 INFO] "
               "batch read of 16 ops done in 12ms"),
    ("system", "[2025-07-01T02:03:04.556677889+00:00 Fuse:77 MgmtdClient.cc:288 WARN] routing info version 9 is "
               "older than the cached one, keep the cache"),
    # JuiceFS CSI: the mount point came up; kubelet registering the plugin
    ("system", 'I0704 05:06:07.080910       9 pod_mount.go:411] "Mount point is ready" podName="juicefs-n3-pvc-aa11"'),
    ("system", "I0704 05:06:07.080910    2020 csi_plugin.go:101] kubernetes.io/csi: Trying to validate a new CSI "
               "Driver with name: csi.juicefs.com endpoint: /var/lib/kubelet/csi-plugins/csi.juicefs.com/csi.sock "
               "versions: 1.0.0"),
    # Kaldi's runner hints and progress
    ("training", "queue.pl: probably you forgot to put JOB=1:$nj in your script."),
    ("training", "steps/nnet3/chain/train.py: Training iteration 14/300"),
    # Megatron rerun state machine: a rejected result on the first run requests a rerun (diagnosis follows)
    ("training", "ERROR:megatron.core.rerun_state_machine:Unexpected result nan on rank 40 at iteration #2201 "
                 "invocation #1 (message='found NaN in local grad norm for bucket #1 in backward pass before "
                 "data-parallel communication collective')"),
    ("training", "WARNING:megatron.core.rerun_state_machine:Result validation enabled"),
    # JuiceFS: one failed upload attempt that the chunk store retries
    ("system", "2025/07/04 05:06:07.080910 juicefs[9090] <WARNING>: Upload chunks/3/3001/3001222_1_4194304: Put "
               "\"https://s3.example.net/vol/chunks/3/3001/3001222_1_4194304\": read tcp 10.1.1.2:4411->10.9.9.9:443: "
               "read: connection reset by peer (try 1) [upload@cached_store.go:431]"),
    ("system", "2025/07/04 05:06:07.080910 juicefs[9090] <INFO>: Mounting volume vol at /jfs ... "
               "[mount_unix.go:281]"),
    # kubelet: only the service-account token volume is pending
    ("system", "  Warning  FailedMount  44s (x2 over 2m)  kubelet  Unable to attach or mount volumes: unmounted "
               "volumes=[kube-api-access-b8k2m], unattached volumes=[kube-api-access-b8k2m]: timed out waiting for "
               "the condition"),
    # an InfiniBand attribute that does not exist is no device failure
    ("system", "cat: /sys/class/infiniband/mlx5_7/ports/2/link_layer: No such file or directory"),
    # ixgbe bringing the link up again
    ("kernel", "ixgbe 0000:5e:00.0 ens1f0: NIC Link is Up 10 Gbps, Flow Control: RX/TX"),
    # RAFT reporting NCCL success paths / other logs
    ("training", "[W] [12:01:02.334455] raft::comms: initialized NCCL communicator with 8 ranks"),
    # pynvml: an unsupported query is no GPU failure
    ("training", "pynvml.NVMLError_NotSupported: Not Supported"),
    # step C: schedulers' limits, cancels and progress
    ("system", "Fri Jul  4 05:06:07: Completed <exit>; TERM_RUNLIMIT: job killed after reaching LSF run time limit."),
    ("system", "TERM_ADMIN: job killed by root or LSF administrator."),
    ("system", "=>> PBS: job killed: walltime 43210 exceeded limit 43200"),
    ("system", "=>> PBS: job killed: cput 90010 exceeded limit 90000"),
    ("training", "0.731s: job.exception type=timeout severity=0 resource allocation expired"),
    ("training", "submitit.core.utils.UncompletedJobError: Job 9001_4 (task: 0) with path /exp/logs/9001_4_0_result.pkl "
                 "has not produced any output (state: TIMEOUT)"),
    ("training", "submitit.core.utils.UncompletedJobError: Job 9001_4 (task: 0) with path /exp/logs/9001_4_0_result.pkl "
                 "has not produced any output (state: CANCELLED by 5012)"),
    ("training", "submitit WARNING (2025-07-04 05:06:07,080) - Bypassing signal SIGCONT"),
    # NVRM FSP register dump (context of a failure headline)
    ("kernel", "[  301.551122] NVRM: kfspDumpDebugState_GH100: NV_PFSP_FALCON_COMMON_SCRATCH_GROUP_2(1) = 0x11"),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # half A: 3FS storage client (StorageClientImpl.cc) and management client status codes
    ("system", "[2025-07-01T02:03:04.556677889+00:00 hf3fs_fuse_main:5151 StorageClientImpl.cc:1490 ERROR] #3/4 "
               "Failed batchWrite operation 0x7f2a00013340 with id RequestId(12), routing target: ChainId(900200007)"
               "@ChainVersion(4), status: StorageClient::Timeout(7003)", "storage_remote_fs",
     "storage.3fs_client.k30", "restart_app"),
    ("system", "[2025-07-01T02:03:04.556677889+08:00 SvrProc2:9001 StorageClientImpl.cc:1180 ERROR] Give up retrying "
               "2/2 ops 0x7f2a000144c0 after #4 retries, elapsed time: 45010ms, max retry time: 45000ms",
     "storage_remote_fs", "storage.3fs_client.k30", "restart_app"),
    ("training", "hf3fs.usrbio: read failed, error: 6004(MgmtdClient::RoutingInfoNotReady)", "storage_remote_fs",
     "storage.3fs_client.k30", "restart_app"),
    # JuiceFS CSI driver pod check and kubelet's gRPC reconnect to the plugin socket
    ("system", 'E0704 05:06:07.080910       9 reconciler.go:158] "Driver check pod error, will retry" err="mount '
               'point is not ready eventually, mountpod: juicefs-n3-pvc-aa11" logger="reconciler-controller"',
     "storage_remote_fs", "storage.juicefs_csi.k30", "restart_app"),
    ("system", 'Jul 04 05:06:07 gpu-n3 kubelet[2020]: W0704 05:06:07.080910    2020 logging.go:59] [core] '
               '[Channel #5512 SubChannel #5513] grpc: addrConn.createTransport failed to connect to {Addr: '
               '"/var/lib/kubelet/csi-plugins/csi.juicefs.com/csi.sock", ServerName: "localhost", }. Err: connection '
               'error: desc = "transport: Error while dialing: dial unix /var/lib/kubelet/csi-plugins/csi.juicefs.com/'
               'csi.sock: connect: connection refused"', "storage_remote_fs", "storage.juicefs_csi.k30", "restart_app"),
    # RAFT_NCCL_TRY by NCCL result code
    ("training", "raft::logic_error: NCCL error encountered at: file=/conda/include/raft/comms/detail/std_comms.hpp "
                 "line=441: call='ncclReduce(sendbuff, recvbuff, count, dt, op, root, nccl_comm_, stream)', "
                 "Reason=4:invalid argument", "nccl_user_error", "nccl.raft_reason_user.k30", "restart_app"),
    ("training", "NCCL error encountered at: file=/conda/include/raft/comms/detail/std_comms.hpp line=300: "
                 "call='ncclCommInitRank(&nccl_comm, size, id, rank)', Reason=1:unhandled cuda error",
     "nccl_cuda_error", "nccl.raft_reason_cuda.k30", "restart_app"),
    ("training", "NCCL error encountered at: file=/conda/include/raft/comms/detail/std_comms.hpp line=455: "
                 "call='ncclAllGather(sendbuff, recvbuff, count, dt, nccl_comm_, stream)', Reason=6:remote process "
                 "exited or there was a network error", "nccl_remote_peer", "nccl.raft_reason_remote.k30",
     "restart_app"),
    # Kaldi job runners
    ("training", "run.pl: job failed, log is in exp/tri3b/log/align.1.log", "process_exit_nonzero",
     "process.kaldi_runner.k30", "restart_app"),
    ("training", "ssh.pl: 2 / 40 failed, log is in exp/nnet3/tdnn/egs/log/get_egs.*.log", "process_exit_nonzero",
     "process.kaldi_runner.k30", "restart_app"),
    # pynvml NVMLError_* classes
    ("training", "gpustat: pynvml.NVMLError_Unknown: Unknown Error", "gpu_unavailable",
     "gpu.pynvml_unavailable.k30", "restart_app"),
    ("training", "pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.",
     "gpu_driver_init", "gpu.pynvml_mismatch.k30", "reboot_node"),
    ("training", "pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found", "gpu_container_init",
     "gpu.pynvml_library.k30", "restart_app"),
    # Hopper FSP boot call under NV_CHECK_OK (existing rule gpu.fsp.k24, its action unchanged)
    ("kernel", "[  301.550001] NVRM: nvCheckOkFailedNoLog: Check failed: Invalid state [NV_ERR_INVALID_STATE] "
               "(0x00000040) returned from kfspSendBootCommands_HAL(pGpu, pKernelFsp) @ kernel_gsp_gh100.c:760",
     "gpu_driver_init", "gpu.fsp.k24", "reboot_node"),
    # half B: JuiceFS FATAL and the upload give-up
    ("system", "2025/07/04 05:06:07.080910 juicefs[9090] <FATAL>: The mount point is not ready in 10 seconds "
               "(mount process is not started yet), exit it [checkMountpoint@mount_unix.go:250]",
     "storage_remote_fs", "storage.juicefs_fatal.k30", "restart_app"),
    ("system", "2025/07/04 05:06:07.080910 juicefs[9090] <WARNING>: flush inode:77 indx:2  (max tries) upload block "
               "chunks/4/4100/4100333_2_4194304: Put \"https://s3.example.net/vol/chunks/4/4100/4100333_2_4194304\": "
               "EOF (after 3 tries) [flush@writer.go:231]", "storage_remote_fs", "storage.juicefs_fatal.k30",
     "restart_app"),
    # kubelet volume manager: a data volume among the unmounted ones
    ("system", "  Warning  FailedMount  7m (x5 over 30m)  kubelet  Unable to attach or mount volumes: unmounted "
               "volumes=[dataset], unattached volumes=[dataset shm kube-api-access-b8k2m]: timed out waiting for the "
               "condition", "storage_remote_fs", "storage.volume_event.k30", "restart_app"),
    # zh_CN ENOTCONN
    ("system", "ls: 无法访问 '/mnt/juicefs/ckpt': 传输端点尚未连接", "storage_remote_fs",
     "storage.enotconn_localized.k30", "restart_app"),
    # 3FS RDMA socket
    ("system", "[2025-07-01T02:03:04.556677889+00:00 SvrConn1:  412 IBSocket.cc:745 CRITICAL] IBSocket "
               "RDMA://10.2.3.4:8000/mlx5_4:1/88 accept timeout, port {mlx5_4:1, ETHERNET, ACTIVE}",
     "storage_remote_fs", "storage.3fs_client.k30", "restart_app"),
    # InfiniBand sysfs read returning EIO
    ("system", "cat: '/sys/bus/pci/devices/0000:c1:00.0/infiniband/mlx5_2/ports/1/phys_state': Input/output error",
     "ib_hca_fault", "ib.sysfs_eio.k30", "restart_app"),
    # ixgbe transmit hang reset (existing rule net.link_down, action none like the other recoverable hangs)
    ("kernel", "[ 9911.224455] ixgbe 0000:5e:00.1: ens1f1: tx hang 3 detected on queue 11, resetting adapter",
     "net_link_down", "net.link_down", "none"),
    # a launcher's exit code 134 = 128 + SIGABRT (existing rule process.crash)
    ("system", "nid001122.hsn.example.org: rank 17 exited with code 134", "process_crash", "process.crash",
     "restart_app"),
    # step C: the schedulers' own kill reasons (memory limit, node failure, a failed run)
    ("system", "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", "oom_killer",
     "sched.memlimit_kill.k30", "restart_app"),
    ("system", "=>> PBS: job killed: pmem 8500000kb exceeded limit 8388608kb", "oom_killer", "sched.memlimit_kill.k30",
     "restart_app"),
    ("training", "submitit.core.utils.UncompletedJobError: Job 9001_5 (task: 1) with path /exp/logs/9001_5_1_result.pkl "
                 "has not produced any output (state: OUT_OF_MEMORY)", "oom_killer", "sched.memlimit_kill.k30",
     "restart_app"),
    ("training", "3.004s: job.exception type=node-failure severity=2 lost contact with job shell on gpu-n21 (shell "
                 "rank 3)", "process_killed", "sched.node_failure.k30", "restart_app"),
    ("training", "submitit.core.utils.UncompletedJobError: Job 9001_6 (task: 0) with path /exp/logs/9001_6_0_result.pkl "
                 "has not produced any output (state: NODE_FAIL)", "process_killed", "sched.node_failure.k30",
     "restart_app"),
    ("training", "submitit.core.utils.UncompletedJobError: Job 9001_7 (task: 0) with path /exp/logs/9001_7_0_result.pkl "
                 "has not produced any output (state: FAILED)", "process_exit_nonzero", "sched.submitit_failed.k30",
     "restart_app"),
    ("training", "submitit.core.utils.FailedJobError: Job (task=0) failed during processing with trace:",
     "process_crash", "sched.submitit_trace.k30", "restart_app"),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    expect_benign(classifier, source, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id", "action"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None, action: str) -> None:
    expect_format(classifier, source, line, category, rule_id, action)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    assert corpus_copies([line for _s, line, *_rest in FORMATS] + [line for _s, line in BENIGN]) == 0


NODE_ACTIONS_KEPT = {"gpu.pynvml_mismatch.k30", "gpu.pynvml_reset.k30"}


def test_k30_rules_take_no_node_for_peers_warnings_or_diagnostics(classifier: Classifier) -> None:
    """Only NVML's explicit codes keep a node action (as the existing rules for the same messages); the rest do not."""
    actions = fit_rule_actions(classifier, ".k30")
    assert len(actions) == 18
    assert {rid for rid, action in actions.items() if action not in ("restart_app", "none")} == NODE_ACTIONS_KEPT
