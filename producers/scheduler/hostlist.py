"""Slurm hostlist expressions: ``node[01-04,07],gpu-a[1-2]-b[1-2]`` -> the node names, in order.

The same expansion as ``scontrol show hostnames`` (zero padding kept, several bracket groups
per name expanded left to right), without needing the Slurm client on the machine.
"""

from __future__ import annotations


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets; ValueError on unbalanced brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
            if depth > 1:
                raise ValueError(f"nested '[' in hostlist {text!r}")
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced ']' in hostlist {text!r}")
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise ValueError(f"unclosed '[' in hostlist {text!r}")
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _range(item: str) -> list[str]:
    lo, sep, hi = item.partition("-")
    if not lo.isdigit() or (sep and not hi.isdigit()):
        raise ValueError(f"bad range {item!r} in hostlist")
    if not sep:
        return [lo]
    if int(hi) < int(lo):
        raise ValueError(f"descending range {item!r} in hostlist")
    width = len(lo) if lo.startswith("0") or len(lo) == len(hi) else 0
    return [str(n).zfill(width) for n in range(int(lo), int(hi) + 1)]


def _expand_one(name: str) -> list[str]:
    open_at = name.find("[")
    if open_at < 0:
        return [name]
    close_at = name.index("]", open_at)
    head, body, tail = name[:open_at], name[open_at + 1:close_at], name[close_at + 1:]
    values = [v for item in body.split(",") if item.strip() for v in _range(item.strip())]
    return [f"{head}{v}{rest}" for v in values for rest in _expand_one(tail)]


def expand_hostlist(text: str) -> list[str]:
    """The node names of a hostlist expression, in order; ValueError when it is malformed."""
    names = [n for part in _split_top(text) for n in _expand_one(part)]
    if len(names) > 1_000_000:
        raise ValueError("hostlist expands to more than a million names")
    return names
