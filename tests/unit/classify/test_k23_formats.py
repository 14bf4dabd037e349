"""Brief K23: holdout23's false alarms and the vocabularies of the components behind its misses.

Part 1 checks the benign notices of the communication and monitoring stack that the K23 guards keep out (NCCL/RCCL
WARNs that announce a fallback, give host advice or carry a debug print, the RAS client socket that NCCL does
without, rdma-core symbol probes, DCGM's own logger levels, plugin discovery and GPM sampling refusals, the NVIDIA
crash-dump request, UCX DEBUG capability probes) next to the fault lines of the same components they must not
swallow. Every line follows the documented or source-code format of its emitter (cited in the guard's or rule's
note), with made-up hosts, ids and numbers. None is a copy of a line of the real corpus (checked below without
printing any corpus line).
"""

from __future__ import annotations

import json

import pytest

from streams.classify.classifier import Classifier
from tests.bench.classify_real import DEFAULT_CORPUS

# ---- Part 1: benign notices (K23 false alarms) ...
BENIGN: list[tuple[str, str]] = [
    ("nccl", "gpu-q2:4410:4471 [0] transport.cc:391 NCCL WARN Cannot initialize CollNet, using point-to-point network "
             "instead"),
    ("nccl", "trn-4:9011:9090 [2] graph/search.cc:1020 NCCL WARN Could not find a path for pattern 2, falling back to "
             "simple order"),
    ("nccl", "node-5:771:771 [0] /opt/rocm/share/rccl/src/init.cc:118 NCCL WARN NUMA auto balancing enabled which can "
             "lead to variability in the RCCL performance! Disable by \"sudo sysctl kernel.numa_balancing=0\""),
    ("nccl", "[3] /home/dev/rccl/src/misc/proxy_trace/proxy_trace.cc:70 NCCL WARN [dbg] posted 12, trans 12, flush 0, "
             "done 9"),
    ("nccl", "trainer-3:2210:2210 [1] ras/client_support.cc:176 NCCL WARN Call to bind failed: Address already in use"),
    ("nccl", "dlvsym failed on mlx5dv_get_data_direct_sysfs_path - /usr/lib/x86_64-linux-gnu/libmlx5.so.1: undefined "
             "symbol: mlx5dv_get_data_direct_sysfs_path, version MLX5_1.25"),
    ("nccl", "gpu-q2:4410:4410 [0] NCCL INFO dlvsym failed on ibv_reg_dmabuf_mr - /lib64/libibverbs.so.1: undefined "
             "symbol: ibv_reg_dmabuf_mr, version IBVERBS_1.12"),
    ("system", "2025-10-02 11:04:17.208 DEBUG [5120:5120] [[pcie]] External command stdout: Could not exec "
               "'/usr/libexec/datacenter-gpu-manager-4/plugins/cuda13/BwChecker_13'. Error: (2) No such file or "
               "directory"),
    ("system", "2025-10-02 11:04:17.301 INFO  [5120:5120] Detected 0 NVLinks for GPU 3 "
               "[/builds/dcgm/dcgm/dcgmlib/src/DcgmCacheManager.cpp:1280] [DcgmCacheManager::InitializeNvLinkCount]"),
    ("system", "Error: Cannot load plugins. Unable to change to the plugin dir "
               "'/usr/libexec/datacenter-gpu-manager-4/plugins/cuda11/': 'No such file or directory'"),
    ("system", "ERROR [1:57] Got nvml st 4 from nvmlGpmMigSampleGet(). [/workspaces/dcgm/dcgmlib/src/DcgmGpmManager.cpp:"
               "158] [DcgmGpmManagerEntity::MaybeFetchNewSample]"),
    ("system", "ERROR [1:57] Got nvml st 3 from nvmlGpmSampleGet(). [/workspaces/dcgm/dcgmlib/src/DcgmGpmManager.cpp:"
               "161] [DcgmGpmManagerEntity::MaybeFetchNewSample]"),
    ("kernel", "[ 9021.440012] NVRM: A GPU crash dump has been created. If possible, please run"),
    ("kernel", "Jun  3 04:05:06 dgx-7 kernel: [ 9021.440013] NVRM: nvidia-bug-report.sh as root to collect this data "
               "before"),
    ("kernel", "[ 9021.440014] NVRM: the NVIDIA kernel module is unloaded."),
    ("nccl", "[1716900000.100200] [gpu7:4410:0]    ib_mlx5dv_md.c:98   UCX  DEBUG mlx5dv_devx_obj_create(CREATE_MKEY, "
             "mode=KSM) failed, syndrome 0x3e5f2a: Remote I/O error"),
    ("nccl", "[1716900000.100300] [gpu7:4410:0]          uct_md.c:101  UCX  DEBUG failed to query rc_verbs resources: No "
             "such device"),
]

# ... and the fault lines of the same components that must stay faults
FORMATS: list[tuple[str, str, str, str | None]] = [
    ("nccl", "gpu-q2:4410:4471 [0] misc/shmutils.cc:91 NCCL WARN Call to open failed: No such file or directory",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] include/socket.h:361 NCCL WARN Call to bind failed : Address already in use",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] ras/rasnet.cc:700 NCCL WARN Call to connect failed : Connection refused",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] transport/net_ib.cc:1701 NCCL WARN NET/IB : Got completion from peer "
             "10.0.0.7<40123> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) len=0 vendor_err=129",
     "nccl_error", None),
    ("nccl", "gpu-q2:4410:4471 [0] transport/nvls.cc:420 NCCL WARN Cuda failure 'out of memory' falling back to "
             "the ring algorithm", "cuda_oom", None),
    ("nccl", "gpu-q2:4410:4471 [0] misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
             "Operation not supported", "nccl_error", None),
    ("nccl", "[1643390000.100000] [node4:1290:0]           ib_md.c:381  UCX  DEBUG ibv_reg_mr(address=0x7f10e0000000, "
             "length=4194304, access=0xf) failed: Cannot allocate memory", "nccl_error", None),
    ("nccl", "[1716900000.100400] [gpu7:4410:0]      ib_mlx5dv_md.c:98   UCX  ERROR mlx5dv_devx_obj_create(CREATE_MKEY)"
             " failed, syndrome 0x3e5f2a: Remote I/O error", "nccl_error", None),
    ("system", "2025-10-02 11:04:17.208 ERROR [5231:5273] [[NvSwitch]] ReadNvSwitchStatusAllSwitches() returned Object "
               "is in an undefined state [/builds/dcgm/modules/nvswitch/DcgmNvSwitchManager.cpp:300]", "gpu_nvlink",
     None),
    ("kernel", "[ 9021.440010] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
               "the bus.", "gpu_fallen_off_bus", None),
    ("kernel", "[  812.100000] blk_update_request: I/O error, dev sdb, sector 2048 op 0x0:(READ) flags 0x0 phys_seg 1 "
               "prio class 0", "storage_local_disk", None),
    ("training", "OSError: [Errno 5] Input/output error: '/ckpt/step_100.pt'", "storage_io", None),
]


@pytest.mark.parametrize(("source", "line"), BENIGN)
def test_benign_sibling_stays_benign(classifier: Classifier, source: str, line: str) -> None:
    found = classifier.classify(line, source)
    assert found is None, (found.rule_id if found else None, line)


@pytest.mark.parametrize(("source", "line", "category", "rule_id"), FORMATS)
def test_format_is_classified(classifier: Classifier, source: str, line: str, category: str,
                              rule_id: str | None) -> None:
    found = classifier.classify(line, source)
    assert found is not None, line
    assert found.category == category, (found.rule_id, line)
    if rule_id is not None:
        assert found.rule_id == rule_id, (found.rule_id, line)


def test_no_format_line_is_a_copy_of_a_corpus_line() -> None:
    corpus = {json.loads(raw)["line"].strip() for raw in DEFAULT_CORPUS.read_text(encoding="utf-8").splitlines()
              if raw.strip()}
    ours = {line.strip() for _s, line, *_rest in FORMATS} | {line.strip() for _s, line in BENIGN}
    clash = len(ours & corpus)  # a count only: corpus lines of held-out splits must never be printed
    assert clash == 0
