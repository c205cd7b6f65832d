"""Content-keyed caches under ``RUN/cache/``: LLM replies (so a killed run pays for no request twice) and
encoded annotator images (so retries and reruns do not redraw them).

A request key hashes everything that decides the answer: model, endpoint, prompt version, the request body with
each image replaced by its sha256, and the ground truth of the window. It never includes the API key.

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

from ..io import read_json, write_bytes_atomic, write_json_atomic

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
        try:
            return read_json(self._path(key))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None  # written atomically, so only a foreign file lands here: ask again

    def put(self, key: str, record: dict[str, Any]) -> None:
        # atomic (a kill leaves the old state or the new one), but no fsync: it is a cache, not a ledger
        write_json_atomic(self._path(key), record, fsync=False)


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
