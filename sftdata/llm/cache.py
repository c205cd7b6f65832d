"""Content-keyed caches under ``RUN/cache/``: LLM replies (so a killed run pays for no request twice) and
encoded annotator images (so retries and reruns do not redraw them).

A request key hashes everything that decides the answer: model, endpoint, prompt version, the request body with
each image replaced by its sha256, and the ground truth of the window. It never includes the API key, and the
endpoint in it is the redacted one (no userinfo, no ``?api_key=``): see :func:`sftdata.llm.backends.redact_url`.

>>> import tempfile
>>> cache = ReplyCache(tempfile.mkdtemp())
>>> k = request_key({"model": "m", "messages": []}, ground_truth=[{"type": "done"}], prompt_version="v1")
>>> cache.get(k) is None
True
>>> cache.put(k, {"text": "[]"}); cache.get(k)["text"]
'[]'
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ..io import read_json, write_bytes_atomic

_DATA_URL = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")


def _digest(value: Any) -> Any:
    """``value`` with every image data URL replaced by its sha256 (keys stay small and cheap to compute)."""
    if isinstance(value, str):
        if value.startswith("data:image/"):
            return "sha256:" + hashlib.sha256(value.encode("ascii", "replace")).hexdigest()
        if "data:image/" in value:  # e.g. an earlier reply quoted in a repair turn
            return _DATA_URL.sub(lambda m: "sha256:" + hashlib.sha256(m.group(0).encode()).hexdigest(), value)
        return value
    if isinstance(value, dict):
        return {k: _digest(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_digest(v) for v in value]
    return value


def request_key(body: dict[str, Any], *, ground_truth: list[dict], prompt_version: str, endpoint: str = "") -> str:
    canonical = json.dumps({"body": _digest(body), "ground_truth": ground_truth, "prompt_version": prompt_version,
                            "endpoint": endpoint}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ReplyCache:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached reply (``text``, ``finish_reason``, ``model``, ``usage``), or None: a missing entry, or a
        file that is not one (written atomically, so only a foreign or older file lands here: ask again)."""
        try:
            record = read_json(self._path(key))
        except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            return None
        if not (isinstance(record, dict) and isinstance(record.get("text"), str)):
            return None
        fields = {"finish_reason": "stop", "model": ""}
        return {**record, **{k: record[k] if isinstance(record.get(k), str) else v for k, v in fields.items()},
                "usage": record.get("usage") if isinstance(record.get("usage"), dict) else {}}

    def put(self, key: str, record: dict[str, Any]) -> None:
        # atomic (a kill leaves the old state or the new one), but no fsync: it is a cache, not a ledger.
        # allow_nan=False: a NaN would make the file invalid JSON (usage is checked before it gets here)
        data = json.dumps(record, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
        write_bytes_atomic(self._path(key), data.encode("utf-8"), fsync=False)


class ImageCache:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def get_or_make(self, key: str, make) -> bytes:
        path = self.root / key[:2] / key
        try:
            return path.read_bytes()
        except FileNotFoundError:
            pass
        data = make()
        write_bytes_atomic(path, data, fsync=False)
        return data
