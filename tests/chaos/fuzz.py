"""Fuzzed inputs: random mutations of valid events (seeded, so a failing input can be re-made).

Each mutation keeps a message under the broker's 1 MB limit. Whether an input must be
dead-lettered is decided by ``schemas.decode`` itself: what it rejects, every consumer must
dead-letter; what it accepts must be processed without crashing anything.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from tests.hostile import over_kafka

Message = tuple[str, bytes]
"""(logical topic, value)."""
HUGE_BYTES = 300_000
WEIRD_VALUES: tuple[Any, ...] = ([], {}, "x", True, -1, 2**70, 1e308, None, [[[]]], {"a": {"b": 1}}, "\u0000\ud7ff")


def _flip(rng: random.Random, value: bytes, _: dict[str, Any]) -> bytes:
    data = bytearray(value)
    for _i in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _truncate(rng: random.Random, value: bytes, _: dict[str, Any]) -> bytes:
    return value[: rng.randrange(len(value))]


def _wrong_type(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    key = rng.choice([k for k in obj if k != "schema"] or ["x"])
    obj[key] = rng.choice(WEIRD_VALUES)
    return json.dumps(obj).encode()


def _nan(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    numeric = [k for k, v in obj.items() if isinstance(v, int | float) and not isinstance(v, bool)]
    obj[rng.choice(numeric or ["x"])] = rng.choice([float("nan"), float("inf"), float("-inf")])
    return json.dumps(obj).encode()  # json.dumps writes NaN/Infinity, which strict JSON forbids


def _deep(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    depth = rng.choice([100, 1_000, 20_000])
    nested = "[" * depth + "]" * depth
    key = rng.choice(list(obj))
    return json.dumps(obj).replace(f'"{key}": ', f'"{key}": {nested}, "_was_{key}": ', 1).encode()


def _huge(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    strings = [k for k, v in obj.items() if isinstance(v, str) and k != "schema"]
    obj[rng.choice(strings or ["x"])] = "\u00e9" * rng.randint(1_000, HUGE_BYTES // 2)
    return json.dumps(obj, ensure_ascii=False).encode()


def _schema(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    obj["schema"] = rng.choice(["nope/v1", "log_line/v2", "gpu_sample/v1", "decision/v1", "fault/v1", "", None, 7,
                                "step_progress/v1", "job_event/v1", "stack_sample/v1"])
    return json.dumps(obj).encode()


def _drop_field(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    if obj:
        del obj[rng.choice(list(obj))]
    return json.dumps(obj).encode()


def _extra_field(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    obj[f"unknown_{rng.randrange(1000)}"] = rng.choice(WEIRD_VALUES)
    return json.dumps(obj).encode()


def _time(rng: random.Random, _: bytes, obj: dict[str, Any]) -> bytes:
    obj["event_time"] = rng.choice(["2026-11-22T08:00:00", "yesterday", 1.7e9, "9999-12-31T23:59:59Z",
                                    "0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "1970-01-01T00:00:00+14:00"])
    return json.dumps(obj).encode()


Mutator = Callable[[random.Random, bytes, dict[str, Any]], bytes]
MUTATORS: tuple[Mutator, ...] = (_flip, _truncate, _wrong_type, _nan, _deep, _schema, _drop_field,
                                 _extra_field, _time, _wrong_type, _flip)
"""Weighted by repetition; ``_huge`` is rarer (size) and added separately."""


def fuzz(valid: Sequence[Message], topics: Sequence[str], count: int, seed: int = 79) -> list[Message]:
    """``count`` hostile messages: mutations of ``valid`` ones, valid ones on a wrong topic, and the
    fixed hostile corpus (tests/hostile.py), spread over ``topics``."""
    rng = random.Random(seed)
    hostile = over_kafka()
    out: list[Message] = []
    for i in range(count):
        topic, value = rng.choice(valid)
        roll = rng.random()
        if roll < 0.03:
            out.append((rng.choice(topics), hostile[i % len(hostile)]))
        elif roll < 0.10:
            out.append((rng.choice([t for t in topics if t != topic] or list(topics)), value))  # wrong topic
        elif roll < 0.12:
            out.append((topic, _huge(rng, value, json.loads(value))))
        else:
            out.append((topic, rng.choice(MUTATORS)(rng, value, json.loads(value))))
    return out
