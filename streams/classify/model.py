"""The knowledge-base model: typed, immutable records built by ``kb.load_kb``.

Pure: imports only the standard library. The classifier compiles these records; nothing
here touches files or the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["error", "fault"]
Blame = Literal["node", "network", "job", "storage"]
LEVELS: tuple[str, ...] = ("error", "fault")
BLAMES: tuple[str, ...] = ("node", "network", "job", "storage")
ACTIONS: tuple[str, ...] = ("none", "restart_app", "reset_gpu", "reboot_node", "replace_node", "contact_support")
"""Recommended actions (TAXONOMY.md "Recommended action and corrected errors"), mildest first."""

# The category names of TAXONOMY.md v1 (part of the event contract): the KB must define all.
TAXONOMY_CATEGORIES: tuple[str, ...] = (
    "gpu_fallen_off_bus", "gpu_memory_ecc", "gpu_nvlink", "gpu_graphics_engine_fault",
    "gpu_reset_required", "gpu_device_unhealthy", "gpu_unavailable", "gpu_gsp_timeout",
    "gpu_gsp_error", "gpu_driver_init", "gpu_driver_error", "gpu_xid_other", "nccl_timeout",
    "nccl_error", "ib_link", "net_link_down", "cuda_oom", "cuda_illegal_memory_access",
    "cuda_ecc_uncorrectable", "cuda_launch_failure", "cuda_driver_init",
    "cuda_device_unavailable", "oom_killer", "process_killed", "segfault", "process_crash",
    "process_exit_nonzero", "dataloader_worker_killed", "torch_elastic", "storage_io",
    "hardware_mce", "pcie_aer",
)


@dataclass(frozen=True, slots=True)
class Category:
    """A TAXONOMY.md category with its default family, level and blame."""

    name: str
    family: str
    level: Level
    blame: Blame
    action: str = "restart_app"
    """The recommended action (one of :data:`ACTIONS`) when neither rule nor Xid says otherwise."""


@dataclass(frozen=True, slots=True)
class XidEntry:
    """One NVIDIA Xid catalog row mapped to a category; ``level``/``blame`` override the category's.

    ``action`` is the catalog's resolution bucket verbatim (``RESTART_APP``, ``WORKFLOW_XID_48``...);
    ``fault_action`` is the recommended action it maps to (one of :data:`ACTIONS`), resolved at load.
    """

    xid: int
    mnemonic: str
    description: str
    action: str
    category: str
    level: Level | None = None
    blame: Blame | None = None
    fault_action: str | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One knowledge-base rule (see the header of ``kb.yaml`` for the meaning of each field)."""

    id: str
    category: str
    keywords: tuple[str, ...]
    patterns: tuple[str, ...]
    unless: tuple[str, ...] = ()
    level: Level | None = None
    blame: Blame | None = None
    xid: bool = False
    sources: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    benign: tuple[str, ...] = ()
    note: str = ""
    action: str | None = None
    """Overrides the category's recommended action (an Xid line's catalog action wins over both)."""
    line_actions: tuple[tuple[str, str], ...] = ()
    """``(regex, action)`` pairs tried in order on the matched line; the first hit sets the action
    (e.g. Xid 154's own "Node Reboot Required"). They win over every other source of the action."""


@dataclass(frozen=True, slots=True)
class Guard:
    """A benign guard: when it matches, the line is benign whatever rule matched."""

    id: str
    keywords: tuple[str, ...]
    patterns: tuple[str, ...]
    unless: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class KnowledgeBase:
    """The whole knowledge base: categories, the Xid catalog, guards and rules in priority order."""

    version: int
    categories: dict[str, Category]
    xids: dict[int, XidEntry]
    guards: tuple[Guard, ...]
    rules: tuple[Rule, ...]
    problems: tuple[str, ...] = field(default=())
    """Structural problems found while loading (reported by ``check_kb``, never raised)."""


@dataclass(frozen=True, slots=True)
class Classification:
    """What one line is: the matched rule and the resolved category, level and blame.

    ``pci`` (``"0000:3b:00"``) and ``gpu_index`` are set when the line names the GPU;
    ``action`` is the recommended action, one of :data:`ACTIONS` (always set by the classifier):
    the line's own recovery action if a rule reads one, else the Xid catalog's resolution bucket
    mapped to an action, else the rule's, else the category's.
    """

    rule_id: str
    category: str
    family: str
    level: Level
    blame: Blame
    xid: int | None = None
    pci: str | None = None
    gpu_index: int | None = None
    action: str | None = None
