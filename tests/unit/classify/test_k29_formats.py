"""Brief K29: the vocabularies of the components behind holdout29's misses, with their benign siblings.

Every line follows the documented or source-code format of its emitter (cited in the rule's note), with made-up
hosts, paths, ids and numbers; none is a copy of a line of the real corpus (checked below without printing any
corpus line). Half A: SkyPilot's job summary, TensorFlow's table block reader and checkpoint writes, mscclpp's IB
connection, MPICH's abort report (Cray MPICH's GTL check), node health checks that report Xids (LBNL NHC site
checks, the AKS node-problem-detector plugin) and NHC check_hw_ib's older wording, nvidia-persistenced start-up,
ollama's CUDA library probe, SGLang disaggregation transfers that name a dead peer, and Mooncake's start-up
"Local segment descriptor not found" (no fault). Half B: Cray PALS rank exits by signal, Cray MPICH's short abort
report, NVIDIA SHARP's client-library log prefixes, the kernel's modpost check on NVIDIA driver builds, SGLang /
Mooncake memory registration and BeeGFS client units under systemd. Step C (brief point 2, components of the split
beyond its misses): SkyPilot lists whose failing code encodes a signal (137, 139), and LBNL NHC's hardware-inventory
checks (memory or CPUs below the node's configuration, a missing network interface).

Each new rule states its action: none takes a node (restart_app or none), since each reports a job, library,
monitoring-check summary, peer or start-up condition whose headline line carries any node action.
"""

from __future__ import annotations

import pytest

from streams.classify.classifier import Classifier
from tests.unit.classify.format_cases import corpus_copies, expect_benign, expect_format, fit_rule_actions

# siblings of the new vocabulary that report nothing
BENIGN: list[tuple[str, str]] = [
    # half A: SkyPilot status lines
    ("system", "Job finished (status: SUCCEEDED)."),
    ("system", "(task, pid=5151) I 04-05 06:07:08 log_lib.py:431] Job 4 failed with return code list: [0, 0]"),
    # TensorFlow restore notices
    ("training", "I tensorflow/core/util/tensor_bundle/tensor_bundle.cc:1090] Restored 1203 tensors from /ckpt/m.ckpt-7"),
    # mscclpp INFO
    ("training", "MSCCLPP INFO IBConnection flushing connection"),
    # Cray MPICH continuation lines after the abort headline
    ("training", " (Other MPI error)"),
    ("training", "aborting job:"),
    # node health checks that found nothing
    ("system", "No recent GPU XID errors found in system logs"),
    ("system", "SUCCESS:  nhc:  Health check passed:  check_xid_errors: no Xid events"),
    # nvidia-persistenced start-up chatter
    ("system", "Mar 02 10:11:12 gpu-a01 nvidia-persistenced[2215]: Started (2215)"),
    ("system", "Mar 02 10:11:12 gpu-a01 nvidia-persistenced[2215]: Verbose syslog connection opened"),
    ("system", "Mar 02 10:11:12 gpu-a01 nvidia-persistenced[2215]: device 0000:41:00.0 - persistence mode enabled."),
    # ollama on a host without GPUs: cudaErrorNoDevice
    ("training", 'time=2025-03-01T10:00:00.000Z level=DEBUG source=gpu.go:600 msg="Unable to load cudart library '
                 '/usr/lib/ollama/libcudart.so.12.8.90: cudart init failure: 100"'),
    ("training", 'time=2025-03-01T10:00:00.000Z level=INFO source=gpu.go:377 msg="no compatible GPUs were discovered"'),
    # TensorFlow's OOM keeps its own rule; a saved checkpoint is no fault
    ("training", "I tensorflow/core/kernels/save_v2_op.cc:90] Saved checkpoint /ckpt/run3/model.ckpt-42"),
    # Mooncake: a peer asked for this engine's segment before it registered one (logged at ERROR on start-up)
    ("training", "E0302 08:09:10.111213  4410 transfer_metadata.cpp:991] Local segment descriptor not found"),
    # half B: PALS on a clean exit, MPICH's non-abort lines
    ("system", "x1000c0s1b0n0.hsn.cm.example.org: rank 3 exited with code 0"),
    ("training", "MPICH WARNING: OFI is failing to make progress on posting a send. MPICH will retry"),
    # SHARP progress lines
    ("nccl", "[gpu-c06:0:30911 - context.c:580] INFO job (ID: 4242) resource request quota: ( osts:0 "
             "user_data_per_ost:0 max_groups:0 max_qps:1 max_group_channels:1, num_trees:1)"),
    ("nccl", "[gpu-c06:0:30911 unique id 5512300918273645] WARN sharp_coll_init: SHARP is disabled by user"),
    # modpost's build progress and a non-NVIDIA module's unresolved symbol
    ("system", "  MODPOST /tmp/nv/kernel/Module.symvers"),
    ("system", 'WARNING: modpost: "foo_helper" [drivers/misc/example.ko] undefined!'),
    # Mooncake registration that worked
    ("training", "[2025-09-01 10:11:12 TP3] Registered 4 native buffers (61.25 GiB) with mooncake"),
    # BeeGFS client unit coming up
    ("system", "Mar 03 10:11:12 cn05 systemd[1]: Started BeeGFS Client."),
    ("system", "Mar 03 10:11:12 cn05 systemd[1]: beegfs-client.service: Succeeded."),
    # step C: NHC inventory checks that report configuration, not hardware
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_physmem:  Actual RAM size (1056000000 kB) greater than "
               "maximum allowed (1040000000 kB)."),
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_swap:  Actual SWAP size (0 kB) less than minimum allowed "
               "(1024 kB)."),
    # SGLang: a request the client aborted
    ("training", "[2025-10-11 12:13:14 TP0] Decode transfer failed for request rank=0 decode_req.req.rid='ab9' "
                 "decode_req.req.bootstrap_room=77 with exception KVTransferError(bootstrap_room=77): Aborted by "
                 "AbortReq."),
]

# the components' own fault formats: (source, line, category, rule id or None, action)
FORMATS: list[tuple[str, str, str, str | None, str]] = [
    # half A: skypilot log_lib / agent
    ("system", "ERROR: Job 9 failed with return code list: [1, 137] (A Worker failed with return code 1, SkyPilot "
               "cleaned up the processes on other nodes with return code 137)", "process_exit_nonzero",
     "process.skypilot_rc.k29", "restart_app"),
    ("system", "ERROR: Job 1 failed with return code list: [3]", "process_exit_nonzero", "process.skypilot_rc.k29",
     "restart_app"),
    # tensorflow/core/lib/io/format.cc through the restore op
    ("training", "W tensorflow/core/framework/op_kernel.cc:1828] OP_REQUIRES failed at save_restore_v2_ops.cc:222 : "
                 "DATA_LOSS: block checksum mismatch: expected 812, got 913", "storage_io",
     "storage.tf_table_block.k29", "restart_app"),
    ("training", "tensorflow.python.framework.errors_impl.DataLossError: truncated block read [Op:RestoreV2]",
     "storage_io", "storage.tf_table_block.k29", "restart_app"),
    # TF 1.x saver and tensor_bundle writes on a full file system
    ("training", "InternalError (see above for traceback): Error writing (tmp) checkpoint file: "
                 "/scratch/u7/ckpt/model.ckpt-12.tempstate55: Resource exhausted: /scratch/u7/ckpt/model.ckpt-12."
                 "tempstate55", "storage_space", "storage.tf_checkpoint_space.k29", "restart_app"),
    ("training", "W tensorflow/core/util/tensor_bundle/tensor_bundle.cc:120] Resource exhausted: "
                 "/data/ckpt/model.ckpt-900_temp/part-00000-of-00001.data-00000-of-00001.tempstate44",
     "storage_space", "storage.tf_checkpoint_space.k29", "restart_app"),
    # mscclpp connection.cc / ib.cc
    ("training", "  what():  a work item failed: status 4 (Ib failure: Interrupted system call)", "nccl_error",
     "comm.mscclpp_ib.k29", "restart_app"),
    ("training", "mscclpp::IbError: ibv_reg_mr failed (errno 14) (Ib failure: Bad address)", "nccl_error",
     "comm.mscclpp_ib.k29", "restart_app"),
    ("training", "mscclpp::Error: pollCq timed out: waited for 30.000000 seconds. Expected 4 signals", "nccl_timeout",
     "comm.mscclpp_poll_timeout.k29", "restart_app"),
    # MPICH MPID_Abort as Cray MPICH prints it
    ("training", "MPICH ERROR [Rank 5] [job id 4401.3] [Wed Apr  2 11:12:13 2025] [x1002c3s4b0n1] - Abort(-1) "
                 "(rank 5 in comm 0): MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not "
                 "linked", "process_crash", "process.mpich_abort.k29", "restart_app"),
    ("training", "MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked", "process_crash",
     "process.mpich_abort.k29", "restart_app"),
    ("training", "Abort(805421583) (rank 3 in comm 0): Fatal error in internal_Init: Other MPI error, error stack:",
     "process_crash", "process.mpich_abort.k29", "restart_app"),
    # node health checks: Xid summaries (the catalog names the category; action none, the NVRM line decides)
    ("system", "Found XID errors: 48", "gpu_memory_ecc", "gpu.nhc_xid_found.k29", "none"),
    ("system", "Found XID errors: 79", "gpu_fallen_off_bus", "gpu.nhc_xid_found.k29", "none"),
    ("system", "XID error-codes found: 64, 63. FaultCode: NHC2001", "gpu_memory_ecc", "gpu.nhc_xid_found.k29", "none"),
    ("system", "ERROR:  nhc:  Health check failed:  Check check_gpu_xid returned 1", "gpu_device_unhealthy",
     "gpu.nhc_xid_check.k29", "none"),
    # NHC ww_hw.nhc check_hw_ib, old wording without a port name (existing rule, its reboot_node action unchanged)
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port is ACTIVE (LinkUp, 200 Gb/sec).",
     "ib_link", "ib.nhc_port_inactive", "reboot_node"),
    # nvidia-persistenced.c wait_for_init_complete
    ("system", "Mar 02 10:11:12 gpu-a01 nvidia-persistenced[2210]: nvidia-persistenced failed to initialize. Check "
               "syslog for more details.", "gpu_driver_init", "gpu.persistenced_init.k29", "restart_app"),
    # ollama gpu_info_cudart.c / gpu_info_nvcuda.c
    ("training", 'time=2025-03-01T10:00:00.000Z level=DEBUG source=gpu.go:600 msg="Unable to load cudart library '
                 '/usr/lib/ollama/libcudart.so.12.8.90: cudart init failure: 802"', "cuda_driver_init",
     "cuda.ollama_cudart_init.k29", "restart_app"),
    ("training", 'level=INFO source=gpu.go:620 msg="unable to load cuda driver library" '
                 'library=/usr/lib/x86_64-linux-gnu/libcuda.so.570.86.15 error="nvcuda init failure: 999"',
     "cuda_driver_init", "cuda.ollama_cudart_init.k29", "restart_app"),
    # sglang disaggregation/mooncake/conn.py: the named peer instance
    ("training", "[2025-10-11 12:13:14 TP3] Prefill transfer failed for request rank=3 req.rid='c0ffee' "
                 "req.bootstrap_room=4242 with exception KVTransferError(bootstrap_room=4242): Decode instance could "
                 "be dead, remote mooncake session 10.3.2.1:16001 is not alive", "nccl_remote_peer",
     "comm.sglang_disagg_peer.k29", "restart_app"),
    ("training", "[2025-10-11 12:13:14 TP1] Decode transfer failed for request rank=1 decode_req.req.rid='bead' "
                 "decode_req.req.bootstrap_room=4243 with exception KVTransferError(bootstrap_room=4243): Failed to get "
                 "kvcache from prefill instance, it might be dead", "nccl_remote_peer", "comm.sglang_disagg_peer.k29",
     "restart_app"),
    # half B: HPE Cray PALS rank exits (the signal names the category)
    ("system", "x1000c0s1b0n0.hsn.cm.example.org: rank 4 died from signal 9", "process_killed",
     "process.pals_signal_killed.k29", "restart_app"),
    ("system", "x1000c0s1b0n0.hsn.cm.example.org: rank 0 died from signal 11 and dumped core", "segfault",
     "process.pals_signal_segv.k29", "restart_app"),
    ("system", "x1000c0s1b0n0.hsn.cm.example.org: rank 2 died from signal 6 and dumped core", "process_crash",
     "process.pals_signal_crash.k29", "restart_app"),
    # Cray MPICH MPID_Abort without a communicator
    ("training", "MPICH ERROR [Rank 0] [job id 0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5] [Thu Jun  6 09:10:11 2024] "
                 "[x1000c0s1b0n0] - Abort(2): Internal error", "process_crash", "process.mpich_abort.k29",
     "restart_app"),
    # libsharp_coll's two log prefixes
    ("nccl", "[gpu-c07:3:41177 unique id 5512300918273645] ERROR sharp_get_local_data: error retrieving local data "
             "for process number 3", "nccl_error", "comm.sharp_log.k29", "restart_app"),
    ("nccl", "[gpu-c06:0:30911 - comm.c:374] ERROR Failed to lock SAT tree(ID:0x12 ret:0x4)", "nccl_error",
     "comm.sharp_log.k29", "restart_app"),
    # scripts/mod/modpost.c on NVIDIA modules
    ("system", "ERROR: modpost: GPL-incompatible module nvidia-uvm.ko uses GPL-only symbol '__rcu_read_lock'",
     "gpu_driver_init", "gpu.modpost_nvidia.k29", "restart_app"),
    ("system", "FATAL: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol 'lockdep_init_map'",
     "gpu_driver_init", "gpu.modpost_nvidia.k29", "restart_app"),
    ("system", 'ERROR: modpost: "drm_gem_prime_fd_to_handle" [/tmp/nv/kernel/nvidia-drm.ko] undefined!',
     "gpu_driver_init", "gpu.modpost_nvidia.k29", "restart_app"),
    # sglang / Mooncake register_memory callers
    ("training", "[2025-09-01 10:11:12 TP3] Mooncake memory registration failed.", "nccl_error",
     "comm.mooncake_register.k29", "restart_app"),
    ("training", "RuntimeError: Mooncake memory registration failed for request id req-77, uuid 5.", "nccl_error",
     "comm.mooncake_register.k29", "restart_app"),
    ("training", "RuntimeError: TransferEngine initialization failed with ret_value: -1", "nccl_error",
     "comm.mooncake_register.k29", "restart_app"),
    ("training", "E0901 10:11:12.131415  5120 rdma_context.cpp:210] Failed to register memory 0x7f1200000000: Bad "
                 "address [14]", "nccl_error", "comm.mooncake_register.k29", "restart_app"),
    # step C: SkyPilot lists judged by the failing worker's code
    ("system", "ERROR: Job 5 failed with return code list: [139, 137] (A Worker failed with return code 139, SkyPilot "
               "cleaned up the processes on other nodes with return code 137)", "segfault",
     "process.skypilot_rc_segv.k29", "restart_app"),
    ("system", "ERROR: Job 6 failed with return code list: [0, 137]", "process_killed",
     "process.skypilot_rc_killed.k29", "restart_app"),
    # step C: mej/nhc lbnl_hw.nhc / ww_hw.nhc inventory checks
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_physmem:  Actual RAM size (394921344 kB) less than minimum "
               "allowed (515000000 kB).", "hardware_mce", "host.nhc_hw_inventory.k29", "none"),
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_cpuinfo:  Actual CPU core count (94) does not match "
               "expected (96).", "hardware_mce", "host.nhc_hw_inventory.k29", "none"),
    ("system", "ERROR:  nhc:  Health check failed:  check_hw_eth:  Ethernet device ib0 not detected.", "net_link_down",
     "net.nhc_eth_missing.k29", "restart_app"),
    # systemd's summary of a failed BeeGFS client unit (storage.remote_fs, extended)
    ("system", "Job for beegfs-client.service failed because the control process exited with error code.",
     "storage_remote_fs", "storage.remote_fs", "restart_app"),
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


def test_no_k29_rule_takes_a_node(classifier: Classifier) -> None:
    """Every rule this brief added reports a job, library, check summary, peer or start-up condition."""
    actions = fit_rule_actions(classifier, ".k29")
    assert len(actions) == 21
    assert set(actions.values()) <= {"restart_app", "none"}, actions
