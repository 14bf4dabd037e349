"""NVIDIA Xid knowledge the simulator needs: driver message text, category, fatality.

Texts follow the NVRM kernel message format of recent data-center drivers
(``NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.``).
Categories follow TAXONOMY.md. ``fatal`` means the process using the GPU dies.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class XidInfo:
    """What one Xid number looks like and does."""

    text: str
    category: str
    fatal: bool
    cuda_error: str = "unspecified launch failure"
    with_pid: bool = True


_ECC = "uncorrectable ECC error encountered"
_ILLEGAL = "an illegal memory access was encountered"

CATALOG: dict[int, XidInfo] = {
    13: XidInfo("Graphics SM Warp Exception on (GPC 4, TPC 1, SM 0): Out Of Range Address",
                "gpu_graphics_engine_fault", True, _ILLEGAL),
    31: XidInfo("Ch 00000010, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_3 faulted "
                "@ 0x7f3a_8c000000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ",
                "gpu_graphics_engine_fault", True, _ILLEGAL),
    43: XidInfo("Ch 00000010", "gpu_graphics_engine_fault", True, _ILLEGAL),
    48: XidInfo("An uncorrectable double bit error (DBE) has been detected on GPU in the "
                "framebuffer at partition 6, subpartition 0.", "gpu_memory_ecc", True, _ECC),
    63: XidInfo("Row Remapper: New row (0x00000000000e3c2a) marked for remapping, reset gpu "
                "to activate.", "gpu_memory_ecc", False),
    64: XidInfo("Row Remapper: Failed to remap row (0x00000000000e3c2a), reset gpu to "
                "activate.", "gpu_memory_ecc", True, _ECC),
    69: XidInfo("Class Error: ChId 0010, Class 0000c7c0, Offset 000001b4, Data 00000000, "
                "ErrorCode 0000000d", "gpu_graphics_engine_fault", True, _ILLEGAL),
    74: XidInfo("NVLink: fatal error detected on link 3(0x0, 0x0, 0x0, 0x10000, 0x0, 0x0, "
                "0x0)", "gpu_nvlink", True, "unspecified launch failure"),
    79: XidInfo("GPU has fallen off the bus.", "gpu_fallen_off_bus", True, "unknown error"),
    92: XidInfo("High single-bit ECC error rate", "gpu_memory_ecc", False),
    94: XidInfo("Contained: SM (0x1). RST: No, D-RST: No", "gpu_memory_ecc", True, _ECC),
    95: XidInfo("Uncontained: FBHUB. RST: Yes, D-RST: No", "gpu_memory_ecc", True, _ECC),
    119: XidInfo("Timeout after 6s of waiting for RPC response from GPU0 GSP! Expected "
                 "function 76 (GSP_RM_CONTROL) (0x20800a4c 0x4).", "gpu_gsp_timeout", True,
                 "unknown error"),
    120: XidInfo("GSP task exception: Task 1 raised error code 0x5 for reason 0x0 at 0x1ce8 "
                 "(0 more errors skipped)", "gpu_gsp_error", True, "unknown error"),
    154: XidInfo("GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)",
                 "gpu_reset_required", False, with_pid=False),
}

_NVLINK5 = range(144, 151)


def info(xid: int) -> XidInfo:
    """The catalog entry of ``xid``; unknown numbers get a generic, non-fatal entry."""
    if xid in CATALOG:
        return CATALOG[xid]
    if xid in _NVLINK5:
        return XidInfo(f"NVLink: link fault detected (Xid {xid}), link 5", "gpu_nvlink", False)
    return XidInfo("Xid event reported by the GPU (see the NVIDIA Xid catalog)",
                   "gpu_xid_other", False)


def bus_id(gpu: int) -> str:
    """The PCI bus id (hex, two digits) of GPU ``gpu`` on an HGX-style board."""
    known = ("18", "2a", "3a", "5d", "9a", "ab", "ba", "db")
    return known[gpu] if gpu < len(known) else f"{(0xe0 + gpu) % 256:02x}"


def line(xid: int, gpu: int, pid: int | None) -> str:
    """The NVRM kernel line for ``xid`` on GPU ``gpu`` raised in process ``pid`` (or none)."""
    entry = info(xid)
    head = f"NVRM: Xid (PCI:0000:{bus_id(gpu)}:00): {xid}"
    if not entry.with_pid:
        return f"{head}, {entry.text}"
    who = f"pid={pid}, name=python" if pid is not None else "pid='<unknown>', name=<unknown>"
    return f"{head}, {who}, {entry.text}"
