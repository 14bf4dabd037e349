"""How a key's state record is laid out in its changelog: one value, or a head and its parts.

A record is a detector's dumped state plus the input offsets it reflects (``StateTable``).
Its JSON text is compressed (zlib) into a changelog value (raw bytes; values written before
2026-11-26 are base64 text in a JSON string, and still read). A record whose
state JSON is at most :data:`SINGLE_MAX_RAW_BYTES` is one value under the key, as it always
was. A larger one (a 1,024-node job holds ~70 MB of JSON) is cut into *parts* of at most
:data:`PART_MAX_RAW_BYTES` of JSON text each, every part compressed on its own and stored under
a sub-key named by its content hash, plus a small *head* under the key itself listing the
parts in order and holding the offsets. So no changelog value exceeds :data:`MAX_VALUE_BYTES`
(1 MB), whatever the state's size.

Cut points are content-defined (a hash of the bytes before a JSON element boundary), so a
change in one place of the state changes the parts around it only: the parts already stored
are not written again. This module is pure: ``StateTable`` (``streams.state_table``) does the I/O.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_VALUE_BYTES = 1_000_000
"""No changelog value of a state table is larger (issue 16: "no changelog value above 1 MB")."""
SINGLE_MAX_RAW_BYTES = 512 * 1024
"""A state whose JSON text is at most this long is written as one value (as before parts existed)."""
PART_MIN_RAW_BYTES = 64 * 1024
"""No content-defined cut is made closer than this to the previous one."""
PART_MAX_RAW_BYTES = 512 * 1024
"""Longest JSON text of one part: a cut is forced here. Even incompressible text packs into
``n + n/1000 + 64`` bytes (zlib's worst case): 525 KB < 1 MB."""
CUT_MASK = (1 << 9) - 1
"""A boundary whose hash has these bits clear is a cut: one boundary in 512 past the minimum
(a job state has one per ~300 bytes of JSON: its parts average ~220 KB of JSON, ~30 KB packed)."""
CUT_WINDOW_BYTES = 128
"""Bytes around a boundary that its hash covers: the last quarter before it, the rest after (an
array element's beginning, e.g. an event's id, varies more than its end)."""
PART_SEPARATOR = "\x1f"
"""Between a key and a part's hash in the part's sub-key; escaped in real keys (:func:`storage_key`)."""
_ESCAPED_SEPARATOR = "\x1f\x1e"
_HASH_CHARS = 16
_BOUNDARY = re.compile(rb"[}\]],")
"""The end of a JSON array element or object member that is itself an object or an array."""


Value = bytes | str
"""A changelog value as the table holds it: bytes; text (base64) only in values of older workers."""


def pack_state(data: Any) -> bytes:
    """A JSON-ready value as a compact changelog value (deflated JSON)."""
    return pack_bytes(json.dumps(data, separators=(",", ":")).encode())


def unpack_state(value: Value) -> Any:
    """Inverse of :func:`pack_state`; also reads the base64 values of older workers."""
    return json.loads(unpack_bytes(value))


def pack_bytes(raw: bytes) -> bytes:
    """``raw`` deflated (level 1: ~5x on job state JSON, and fast: a snapshot blocks its worker)."""
    return zlib.compress(raw, 1)


def unpack_bytes(value: Value) -> bytes:
    """Inverse of :func:`pack_bytes`. Older workers wrote base64 text, which Faust's JSON value
    serializer put in quotes: such a value (text, or bytes opening with a quote, which a zlib
    stream never does) is unquoted and base64-decoded first."""
    if isinstance(value, bytes) and value[:1] == b'"':
        value = str(json.loads(value))
    return zlib.decompress(base64.b64decode(value) if isinstance(value, str) else value)


def storage_key(key: str) -> str:
    """The changelog key of a real key: itself, unless it holds :data:`PART_SEPARATOR`, which is
    escaped (followed by ``\\x1e``) so that no real key's storage key ever equals a part key
    (a part key has the separator followed by a hex digit)."""
    return key.replace(PART_SEPARATOR, _ESCAPED_SEPARATOR) if PART_SEPARATOR in key else key


def part_key(key: str, digest: str) -> str:
    """The changelog key of the part ``digest`` of real key ``key``."""
    return f"{storage_key(key)}{PART_SEPARATOR}{digest}"


def part_owner(stored_key: str) -> tuple[str, str] | None:
    """(storage key of the owner, part hash) if ``stored_key`` is a part key, else None."""
    if len(stored_key) <= _HASH_CHARS or stored_key[-_HASH_CHARS - 1] != PART_SEPARATOR:
        return None
    digest = stored_key[-_HASH_CHARS:]
    return (stored_key[:-_HASH_CHARS - 1], digest) if _is_hex(digest) else None


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


@dataclass(frozen=True)
class Encoded:
    """A record ready to be written: its head (the value under the key), the ordered hashes
    of its parts (empty: the head is the whole record) and the packed values of the parts
    that were not already stored (hash -> value)."""

    head: bytes
    parts: tuple[str, ...] = ()
    new_parts: dict[str, bytes] = field(default_factory=dict)
    state_bytes: int = 0
    """Length of the state's JSON text (what taking the snapshot serialised and packed)."""

    def written_bytes(self) -> int:
        """Bytes of the values this record writes (head and new parts; keys excluded)."""
        return len(self.head) + sum(len(v) for v in self.new_parts.values())


def encode(state: Any, offsets: Mapping[str, int], stored: Iterable[str] = (),
           single_max_bytes: int = SINGLE_MAX_RAW_BYTES) -> Encoded:
    """The record of ``state`` (JSON-ready) and ``offsets``: one value while its JSON is at most
    ``single_max_bytes``, else a head and parts; a part whose hash is in ``stored`` (the parts
    already in the changelog for this key) is referenced, not packed again."""
    text = json.dumps(state, separators=(",", ":")).encode()
    offsets_text = json.dumps(dict(offsets), separators=(",", ":")).encode()
    if len(text) <= single_max_bytes:  # the layout records always had: {"state":..., "offsets":...}
        return Encoded(pack_bytes(b'{"state":' + text + b',"offsets":' + offsets_text + b"}"), state_bytes=len(text))
    known = set(stored)
    order: list[str] = []
    new_parts: dict[str, bytes] = {}
    for chunk in split(text):
        digest = hashlib.sha256(chunk).hexdigest()[:_HASH_CHARS]
        order.append(digest)
        if digest not in known and digest not in new_parts:
            new_parts[digest] = pack_bytes(chunk)
    return Encoded(pack_state({"offsets": dict(offsets), "parts": order}), tuple(order), new_parts, len(text))


def split(text: bytes) -> Iterator[bytes]:
    """``text`` cut into pieces of at most :data:`PART_MAX_RAW_BYTES`, at content-defined
    JSON element boundaries where there are some (their concatenation is ``text``)."""
    start = 0
    while len(text) - start > PART_MAX_RAW_BYTES:
        end = _cut(text, start)
        yield text[start:end]
        start = end
    yield text[start:]


def _cut(text: bytes, start: int) -> int:
    """Where the piece starting at ``start`` ends: the first boundary past the minimum length
    whose surrounding :data:`CUT_WINDOW_BYTES` hash to a cut, else the maximum length."""
    limit = start + PART_MAX_RAW_BYTES
    for match in _BOUNDARY.finditer(text, start + PART_MIN_RAW_BYTES, limit):
        end = match.end()
        if zlib.crc32(text[end - CUT_WINDOW_BYTES // 4:end + CUT_WINDOW_BYTES * 3 // 4]) & CUT_MASK == 0:
            return end
    return limit


@dataclass(frozen=True)
class Decoded:
    """A record read back: the dumped state (None: no record), the offsets it reflects and the
    hashes of the parts its head references."""

    state: Any
    offsets: dict[str, int]
    parts: tuple[str, ...] = ()


class MissingPart(LookupError):
    """A head references a part that is not in the table (never written, or lost)."""


def decode(head: Value | None, read_part: Callable[[str], Value | None]) -> Decoded:
    """The record whose head value is ``head``; ``read_part(hash)`` returns a part's value.
    Reads every layout written so far: a split head, one ``{"state", "offsets"}`` value, and
    a bare state (written before offsets were kept with the state). Raises
    :class:`MissingPart` if a referenced part is missing."""
    record = unpack_state(head) if head else None
    if isinstance(record, dict) and "parts" in record and "offsets" in record and "state" not in record:
        parts = tuple(str(p) for p in record["parts"])
        return Decoded(json.loads(b"".join(_read(read_part, p) for p in parts)), _offsets(record), parts)
    if isinstance(record, dict) and "state" in record and "offsets" in record:
        return Decoded(record["state"], _offsets(record))
    return Decoded(record if record else None, {})  # no record (None), or a bare legacy state


def _read(read_part: Callable[[str], Value | None], digest: str) -> bytes:
    value = read_part(digest)
    if value is None:
        raise MissingPart(f"state part {digest} is not in the table")
    return unpack_bytes(value)


def _offsets(record: dict[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in record["offsets"].items()}
