"""state_record: a large state is split into parts of bounded size, and read back whole.

Issue 16, point 3: no changelog value above 1 MB, whatever the job's size; parts written only
when they changed; records written before parts existed still load.
"""

from __future__ import annotations

import base64
import json
import random
import uuid
import zlib
from typing import Any

import pytest

from streams.state_record import (
    MAX_VALUE_BYTES,
    PART_MAX_RAW_BYTES,
    SINGLE_MAX_RAW_BYTES,
    MissingPart,
    decode,
    encode,
    pack_state,
    part_key,
    part_owner,
    split,
    storage_key,
)


def held_event(rng: random.Random, second: float) -> dict[str, Any]:
    """An event as the reorder buffer holds it (wire form, ~400 bytes of JSON)."""
    return {"schema": "collective_progress/v1", "event_id": str(uuid.UUID(int=rng.getrandbits(128))),
            "event_time": f"2026-11-22T00:01:{second:06.3f}Z", "cluster": "cap", "job_id": "job-0000",
            "node_id": f"node-{rng.randrange(1024):04d}", "rank": rng.randrange(8192), "comm_group": "tp",
            "last_enqueued_seq": rng.randrange(10_000), "last_completed_seq": rng.randrange(10_000),
            "in_flight_op": "allreduce", "in_flight_since": None}


def job_like_state(events: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    return {"buffer": {"held": [held_event(rng, i * 60 / events) for i in range(events)]},
            "stages": [{"ranks": {str(r): [rng.random() for _ in range(4)] for r in range(64)}}]}


def written(parts: dict[str, bytes], encoded: Any) -> dict[str, bytes]:
    """The table's parts once ``encoded`` is written over ``parts``."""
    return {**parts, **encoded.new_parts}


def test_a_small_state_is_one_value_laid_out_as_before() -> None:
    record = encode({"n": 1}, {"in#0": 4})
    assert record.parts == () and record.new_parts == {}
    assert record.head == pack_state({"state": {"n": 1}, "offsets": {"in#0": 4}})  # what older workers read


def test_a_record_tells_the_length_of_its_state_json_in_either_layout() -> None:
    """What ``StateTable``'s snapshot cadence weighs the input read since a snapshot against."""
    for state in ({"n": 1}, job_like_state(4_000)):
        assert encode(state, {"in#0": 4}).state_bytes == len(json.dumps(state, separators=(",", ":")))


def test_a_large_state_is_split_and_read_back_whole() -> None:
    state = job_like_state(4_000)
    record = encode(state, {"in#0": 7, "in#1": 9})
    assert len(record.parts) > 1 and set(record.parts) == set(record.new_parts)
    back = decode(record.head, record.new_parts.get)
    assert back.state == state and back.offsets == {"in#0": 7, "in#1": 9} and back.parts == record.parts



def test_a_lower_single_value_limit_splits_a_smaller_state() -> None:
    state = job_like_state(400)
    size = len(json.dumps(state, separators=(",", ":")))
    assert encode(state, {"in#0": 1}).parts == ()
    record = encode(state, {"in#0": 1}, single_max_bytes=size - 1)
    assert len(record.parts) == 1  # under the part maximum: one part behind a head
    assert decode(record.head, record.new_parts.get).state == state

def test_no_value_exceeds_the_bound_for_a_1024_node_sized_state() -> None:
    state = job_like_state(230_000)  # ~70 MB of JSON, as a 1,024-node job's state (13 MB packed)
    text_bytes = len(json.dumps(state, separators=(",", ":")))
    record = encode(state, {"in#0": 1})
    values = [record.head, *record.new_parts.values()]
    assert text_bytes > 65e6 and max(len(v) for v in values) <= MAX_VALUE_BYTES
    assert decode(record.head, record.new_parts.get).state == state


def test_incompressible_text_without_boundaries_still_respects_the_bound() -> None:
    rng = random.Random(3)
    state = {"blob": "".join(rng.choice("0123456789abcdefghijklmnopqrstuvwxyz") for _ in range(3 * PART_MAX_RAW_BYTES))}
    record = encode(state, {})
    assert len(record.parts) >= 3 and max(len(v) for v in record.new_parts.values()) <= MAX_VALUE_BYTES
    assert decode(record.head, record.new_parts.get).state == state


def test_cuts_depend_on_content_so_a_local_change_rewrites_only_nearby_parts() -> None:
    before = job_like_state(8_000)
    after = json.loads(json.dumps(before))
    after["buffer"]["held"].insert(4_000, held_event(random.Random(9), 30.0))
    first = encode(before, {"in#0": 1})
    second = encode(after, {"in#0": 2}, stored=first.parts)
    assert len(second.parts) >= 8 and 1 <= len(second.new_parts) <= 2
    assert decode(second.head, written(first.new_parts, second).get).state == after


def test_pieces_concatenate_to_the_text_and_respect_the_maximum() -> None:
    text = json.dumps(job_like_state(6_000)).encode()
    pieces = list(split(text))
    assert b"".join(pieces) == text and max(len(p) for p in pieces) <= PART_MAX_RAW_BYTES
    assert len(text) > SINGLE_MAX_RAW_BYTES and len(pieces) > 1


def legacy_value(data: Any) -> bytes:
    """A value as workers before 2026-11-26 wrote it: base64 text, quoted by Faust's JSON serializer."""
    return json.dumps(base64.b64encode(zlib.compress(json.dumps(data).encode(), 1)).decode()).encode()


def test_records_of_every_earlier_layout_load() -> None:
    for pack in (pack_state, legacy_value):
        single = decode(pack({"state": {"n": 3}, "offsets": {"in#0": 5}}), {}.get)
        assert (single.state, single.offsets, single.parts) == ({"n": 3}, {"in#0": 5}, ())
        bare = decode(pack({"n": 2}), {}.get)  # written before offsets were kept with the state
        assert (bare.state, bare.offsets) == ({"n": 2}, {})
    assert decode(None, {}.get).state is None


def test_a_head_whose_part_is_missing_raises() -> None:
    record = encode(job_like_state(4_000), {})
    with pytest.raises(MissingPart):
        decode(record.head, {}.get)


@pytest.mark.parametrize("key", ["job-1", "a\x1f0123456789abcdef", "\x1f", "x\x1f\x1e", ""])
def test_part_keys_never_equal_a_real_keys_storage_key(key: str) -> None:
    assert part_owner(storage_key(key)) is None
    assert part_owner(part_key(key, "0123456789abcdef")) == (storage_key(key), "0123456789abcdef")
    assert part_key(key, "0123456789abcdef") != storage_key("a\x1f0123456789abcdef")
