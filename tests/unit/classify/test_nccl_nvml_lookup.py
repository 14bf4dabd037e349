"""NCCL's own NVML lookups (misc/nvmlwrap.cc): a bus id NVML does not find is a device-mapping
mismatch (containers, VMs), not a lost GPU (blind fleet oracle D2: peers printing it had a
healthy node replaced and drained; NVIDIA/nccl#1066)."""

from __future__ import annotations

from streams.classify.classifier import Classifier


def test_nccl_nvml_handle_not_found_is_an_nccl_warning_not_a_lost_gpu(classifier: Classifier) -> None:
    found = classifier.classify("hostA:2211:2290 [1] misc/nvmlwrap.cc:181 NCCL WARN "
                                "nvmlDeviceGetHandleByPciBusId() failed: Not Found", "nccl")
    assert found is not None and (found.category, found.blame) == ("nccl_error", "network")


def test_nvml_reporting_the_gpu_lost_still_takes_the_gpu(classifier: Classifier) -> None:
    lost = classifier.classify("hostA:2211:2290 [1] misc/nvmlwrap.cc:181 NCCL WARN "
                               "nvmlDeviceGetHandleByPciBusId() failed: GPU is lost", "nccl")
    assert lost is not None and lost.blame == "node"
    tool = classifier.classify("Error: nvmlDeviceGetHandleByUUID(): Not Found", "system")
    assert tool is not None and tool.category == "gpu_unavailable"
