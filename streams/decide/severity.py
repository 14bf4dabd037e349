"""How much a fault can explain, as the policy reads it: recommended action, tier, lost GPU (pure).

The policy needs two facts about every fault, both read from the fault alone:

- its recommended action (``fault.action``, TAXONOMY.md "Recommended action"), normalised to
  ``none``, ``restart_app``, ``reset_gpu``, ``reboot_node``, ``replace_node`` or
  ``contact_support``. The knowledge base may still carry NVIDIA's raw resolution bucket
  (``RESTART_BM``, ``IGNORE``...) or nothing; both are mapped here so the stage never depends
  on which version of the knowledge base produced the fault;
- its *tier*: which kind of fault may be the root cause of an incident when several are
  present. Lower tiers win; inside a tier the earliest ``first_seen`` wins.

This is a copy of ``streams.incident.severity`` (the detector packages are independent of
each other, so they cannot share a module); tests/unit/incident checks that the two agree.
The policy adds what only it needs: which faults mean the GPU is gone or the job is dead.
"""

from __future__ import annotations

from typing import Final

from schemas import Fault

ACTIONS: Final = frozenset({"none", "restart_app", "reset_gpu", "reboot_node", "replace_node", "contact_support"})

_BUCKETS: Final[dict[str, str]] = {
    # NVIDIA Xid catalog resolution buckets (xid_catalog.yaml) -> TAXONOMY.md actions.
    "ignore": "none",
    "check_uvm": "restart_app",
    "workflow_xid_45": "restart_app",
    "restart_bm": "reboot_node",
    "restart_vm": "reboot_node",
    "workflow_xid_48": "reset_gpu",
    "workflow_nvlink_err": "reset_gpu",
    "workflow_nvlink5_err": "reset_gpu",
    "check_mechanicals": "contact_support",
    "update_swfw": "contact_support",
}

CASCADE: Final = frozenset({
    "torch_elastic", "process_exit_nonzero", "process_killed", "nccl_remote_peer",
})
"""Consequences printed by every surviving rank or by the launcher: never a root cause while
anything else explains the incident, and never a reason to stop a job."""

NETWORK_SYMPTOMS: Final = frozenset({"nccl_error", "nccl_timeout"})
"""What ranks report when a collective fails: a network fault only if nothing else explains it."""

WEAK_JOB: Final = frozenset({"cuda_launch_failure", "process_crash"})
"""Job-blamed errors that peers print as a consequence ("unspecified launch failure" after a
GPU fault, "terminate called" after an NCCL error): the job's own only when nothing else is there.
A fault of these categories that the knowledge base blames on the node (CUDA's ``unknown error``,
which a GPU that fell off the bus or a firmware timeout leaves the ranks of that node) is ranked by
its blame and action like any node fault: contained when its action is ``restart_app``."""

TIER_PRIMARY: Final = 0
"""An actionable infrastructure fault (blame node, network or storage; action takes something)."""
TIER_CONTAINED: Final = 1
"""A contained node error (action ``restart_app``): explains a crash, takes no node."""
TIER_JOB: Final = 2
"""The job's own error (OOM, illegal address, segfault, NCCL invalid usage...)."""
TIER_SYMPTOM: Final = 3
"""Collective failures seen by ranks (NCCL errors and watchdog timeouts)."""
TIER_WEAK_JOB: Final = 4
"""A job-blamed error that is usually a consequence (:data:`WEAK_JOB`)."""
TIER_CASCADE: Final = 5
"""Generic consequences (launcher ChildFailedError, rank exit codes, remote peer gone)."""
TIER_NOTE: Final = 6
"""Corrected or informational errors (action ``none``): they explain nothing."""


def action_of(fault: Fault) -> str:
    """The fault's recommended action, one of :data:`ACTIONS`.

    Without a usable ``action`` the rule id decides for corrected-error rules (``none``) and
    the level for the rest (``fault`` -> ``replace_node``, ``error`` -> ``reboot_node``), which
    is what the policy did before actions existed.
    """
    raw = (fault.action or "").strip().lower()
    if raw in ACTIONS:
        return raw
    if raw in _BUCKETS:
        return _BUCKETS[raw]
    rule = fault.rule_id.lower()
    if "corrected" in rule and "uncorrected" not in rule:
        return "none"
    return "replace_node" if fault.level == "fault" else "reboot_node"


def is_note(fault: Fault) -> bool:
    """A corrected/informational fault: it counts against its node and explains nothing."""
    return fault.blame != "job" and action_of(fault) == "none"


def tier_of(fault: Fault) -> int:
    """The fault's rank as a root cause (lower explains more), see the ``TIER_*`` constants."""
    if fault.category in CASCADE:
        return TIER_CASCADE
    if fault.category in NETWORK_SYMPTOMS:
        return TIER_SYMPTOM
    if fault.category in WEAK_JOB and fault.blame == "job":
        return TIER_WEAK_JOB
    if fault.blame == "job":
        return TIER_JOB
    if is_note(fault):
        return TIER_NOTE
    if fault.blame == "node" and action_of(fault) == "restart_app":
        return TIER_CONTAINED
    return TIER_PRIMARY


LOST_GPU_CATEGORIES: Final = frozenset({
    "gpu_fallen_off_bus", "gpu_unavailable", "gpu_driver_init", "cuda_ecc_uncorrectable",
    "gpu_gsp_timeout", "gpu_gsp_error", "gpu_nvlink",
})
"""GSP timeouts and errors (Xid 119/120) leave the GPU's firmware unresponsive: RPCs to it time
out, nvidia-smi and health checks hang until the GPU is reset (NVIDIA driver release notes;
open-gpu-kernel-modules issues), so the copies a checkpoint needs would hang too."""
LOST_GPU_XIDS: Final = frozenset({48, 74, 79, 95})
"""Xid 79 (off the bus), 48 (double-bit ECC) and 95 (uncontained ECC) end the CUDA context; a
fatal NVLink error (Xid 74, the NVLink5 Xids 144-150 and SXids that say Fatal,
cudaErrorNvlinkUncorrectable: category ``gpu_nvlink``; a line that says it is non-fatal takes no
node and so asks for no checkpoint) fails the job's NVLink transfers until the GPU is reset
(NVIDIA's Xid documentation), so the collectives a checkpoint needs would fail too."""

DEATH_CATEGORIES: Final = CASCADE | frozenset({
    "segfault", "process_crash", "oom_killer", "dataloader_worker_killed",
})
"""Faults that mean a rank's process already died: the attempt can no longer checkpoint."""


def loses_gpu(category: str, xid: int | None) -> bool:
    """True when the fault means a GPU is gone: a checkpoint could not be honoured."""
    return category in LOST_GPU_CATEGORIES or (xid is not None and xid in LOST_GPU_XIDS)
