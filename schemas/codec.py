"""Wire codec: ``encode(model) -> bytes`` and ``decode(bytes) -> model | DeadLetter``.

``decode`` never raises, whatever it is given (any size, any nesting depth, any bytes):
anything that is not UTF-8 JSON, has no known ``schema``, belongs to another topic, or fails
validation comes back as a :class:`DeadLetter` carrying the raw bytes (base64, at most
:data:`MAX_RAW_BYTES` of them, plus the full length and SHA-256), the reason naming the
field, and the stage (``decode`` or ``validate``).

Validation is strict (the contract says what a field is): JSON is validated straight from
the bytes into the model (pydantic's JSON mode, no intermediate dict), with no coercion:
numbers are not timestamps, ``1`` is not ``true``, ``1.0`` is not an integer, ``NaN`` and
infinities are rejected, times must carry an offset.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import UTC, datetime

from pydantic import ValidationError

from schemas.derived import DeadLetter, DeadLetterStage
from schemas.envelope import Event
from schemas.ids import derived_id
from schemas.registry import BY_NAME, EVENT_KINDS

MAX_RAW_BYTES = 256 * 1024
"""Bytes of an undecodable value kept in its dead letter (base64: ~342 KB), far below the
broker's default 1 MB message limit however large the original was."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""Event time of a dead letter whose source gave no time (deterministic, unlike 'now')."""

SCHEMA_MEMBER = re.compile(rb'"schema"\s*:\s*"([^"\\]{1,64})"')
"""The first ``schema`` member, found without parsing the whole value (dispatch before validation;
``schemas.mirror`` dispatches with it too, so both decoders pick the same model for the same bytes)."""
_CLUSTER = re.compile(rb'"cluster"\s*:\s*"([^"\\]{1,200})"')


def encode(event: Event) -> bytes:
    """The UTF-8 JSON bytes of ``event`` with wire field names."""
    return event.model_dump_json(by_alias=True).encode("utf-8")


def dead_letter(
    raw: bytes,
    *,
    source_topic: str,
    stage: DeadLetterStage,
    error: str,
    partition: int = -1,
    offset: int = -1,
    key: str | None = None,
    cluster: str = "unknown",
    event_time: datetime | None = None,
) -> DeadLetter:
    """A dead-letter event for ``raw``.

    Its id is derived from where the message came from (topic, partition, offset), the stage
    and the hash of its bytes, so processing the same message again gives the same id.
    ``event_time`` defaults to the epoch: pass the message's timestamp when there is one.
    """
    digest = hashlib.sha256(raw).hexdigest()
    return DeadLetter(
        event_id=derived_id("dead_letter", source_topic, stage, partition, offset, digest),
        event_time=event_time or EPOCH,
        cluster=cluster,
        source_topic=source_topic,
        partition=partition,
        offset=offset,
        stage=stage,
        error=error[:2000],
        raw=base64.b64encode(raw[:MAX_RAW_BYTES]).decode("ascii"),
        key=key,
        raw_bytes=len(raw),
        raw_sha256=digest,
    )


def decode(
    raw: bytes | str,
    *,
    source_topic: str = "",
    partition: int = -1,
    offset: int = -1,
    key: str | None = None,
    topic: str | None = None,
    event_time: datetime | None = None,
) -> Event | DeadLetter:
    """Decode one message value into its v1 model, or a DeadLetter saying why not.

    ``topic`` (a registry name) restricts the accepted kinds to those the topic carries.
    ``source_topic``/``partition``/``offset``/``key``/``event_time`` only describe the
    message for its dead letter.
    """
    # bytes are immutable: only another buffer type is copied (an exact bytes is the hot path)
    data = raw if type(raw) is bytes else raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)

    def letter(stage: DeadLetterStage, error: str) -> DeadLetter:
        found = _CLUSTER.search(data)
        cluster = found.group(1).decode("utf-8", "replace") if found else "unknown"
        return dead_letter(data, source_topic=source_topic, stage=stage, error=error, partition=partition,
                           offset=offset, key=key, cluster=cluster, event_time=event_time)

    found = SCHEMA_MEMBER.search(data)
    name = found.group(1).decode("utf-8", "replace") if found else None
    model = EVENT_KINDS.get(name) if name else None
    if model is None:
        return letter("decode", _undecodable(data, name))
    if topic is not None and topic in BY_NAME and model not in BY_NAME[topic].kinds:
        return letter("validate", f"schema {name!r} does not belong on topic {topic!r}")
    try:  # the model's validator itself: ``model_validate_json`` only adds a Python call per message
        event: Event = model.__pydantic_validator__.validate_json(data, strict=True)
        return event
    except ValidationError as exc:
        stage: DeadLetterStage = "decode" if _is_json_error(exc) else "validate"
        return letter(stage, f"{model.schema_name()}: {exc.error_count()} error(s): {_summary(exc)}")
    except (ValueError, RecursionError, MemoryError) as exc:  # defensive: the contract is "never raises"
        return letter("decode", f"{type(exc).__name__}: {exc}")


def _undecodable(data: bytes, name: str | None) -> str:
    """Why a value without a known schema is bad: not JSON, not an object, or an unknown kind."""
    if name is not None:
        return f"unknown schema {name!r}"
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return f"{type(exc).__name__}: {str(exc)[:300]}"
    if not isinstance(obj, dict):
        return f"expected a JSON object, got {type(obj).__name__}"
    return f"unknown schema {obj.get('schema')!r}"


def _is_json_error(exc: ValidationError) -> bool:
    return any(e["type"] == "json_invalid" for e in exc.errors())


def _summary(exc: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in e['loc']) or '<value>'}: {e['msg']}" for e in exc.errors()[:5]]
    return "; ".join(parts)
