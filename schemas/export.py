"""JSON Schema export of every v1 event to ``schemas/jsonschema/<kind>.v1.json``.

Run ``python -m schemas.export`` after changing a model; a unit test fails while the
committed files differ from what the models generate.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from schemas.registry import EVENT_KINDS

OUT_DIR = Path(__file__).parent / "jsonschema"


def render() -> dict[str, str]:
    """File name -> JSON text of every event's schema, in wire (alias) form."""
    files: dict[str, str] = {}
    for schema_name, model in sorted(EVENT_KINDS.items()):
        body = model.model_json_schema(by_alias=True, mode="serialization")
        body["$id"] = f"https://faultline.dev/schemas/{schema_name}.json"
        body["properties"]["schema"]["const"] = schema_name
        files[f"{model.KIND}.v{model.VERSION}.json"] = json.dumps(body, indent=2, sort_keys=True) + "\n"
    return files


def write(out_dir: Path = OUT_DIR) -> list[Path]:
    """Write every schema file and remove stale ones; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = render()
    for stale in set(p.name for p in out_dir.glob("*.json")) - set(files):
        (out_dir / stale).unlink()
    for name, text in files.items():
        (out_dir / name).write_text(text, encoding="utf-8")
    return [out_dir / name for name in files]


if __name__ == "__main__":
    for path in write():
        print(path, file=sys.stderr)
