"""Wire codec: ``encode(model) -> bytes`` and ``decode(bytes) -> model | DeadLetter``.

``decode`` never raises on bad input: anything that is not UTF-8 JSON, has no known
``schema`` or fails validation comes back as a :class:`DeadLetter` carrying the raw bytes
(base64), the reason and the stage (``decode`` or ``validate``).
"""

from __future__ import annotations

import base64
import json
import uuid
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from schemas.derived import DeadLetter, DeadLetterStage
from schemas.envelope import Event
from schemas.registry import EVENT_KINDS


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
    """A dead-letter event for ``raw``; its id is derived from where the message came from."""
    where = f"{source_topic}/{partition}/{offset}" if offset >= 0 else uuid.uuid4().hex
    return DeadLetter(
        event_id=uuid.uuid5(uuid.NAMESPACE_URL, f"faultline:deadletter:{stage}:{where}").hex,
        event_time=event_time or datetime.now(UTC),
        cluster=cluster,
        source_topic=source_topic,
        partition=partition,
        offset=offset,
        stage=stage,
        error=error[:2000],
        raw=base64.b64encode(raw).decode("ascii"),
        key=key,
    )


def _parse(raw: bytes) -> dict[str, Any]:
    obj = json.loads(raw.decode("utf-8"))
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    return obj


def decode(
    raw: bytes | str,
    *,
    source_topic: str = "",
    partition: int = -1,
    offset: int = -1,
    key: str | None = None,
) -> Event | DeadLetter:
    """Decode one message value into its v1 model, or a DeadLetter saying why not.

    A ``DeadLetter`` is returned (never raised) for invalid UTF-8, invalid JSON, a value that
    is not an object, an unknown or missing ``schema``, and any validation failure.
    """
    data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)

    def letter(stage: DeadLetterStage, error: str, cluster: str = "unknown") -> DeadLetter:
        return dead_letter(data, source_topic=source_topic, stage=stage, error=error, partition=partition,
                           offset=offset, key=key, cluster=cluster)

    try:
        obj = _parse(data)
    except (UnicodeDecodeError, ValueError) as exc:
        return letter("decode", f"{type(exc).__name__}: {exc}")
    given = obj.get("cluster")
    cluster = given if isinstance(given, str) and given else "unknown"
    model = EVENT_KINDS.get(str(obj.get("schema")))
    if model is None:
        return letter("decode", f"unknown schema {obj.get('schema')!r}", cluster)
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        return letter("validate", f"{model.schema_name()}: {exc.error_count()} error(s): {_summary(exc)}", cluster)


def _summary(exc: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]]
    return "; ".join(parts)
