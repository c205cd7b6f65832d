"""Which annotation a judgement holds for: a digest of its items (kept apart from the verdict parser, so the
readers of the judge's verdicts, export among them, import nothing of the checks).

>>> annotation_digest([{"reasoning": "完成。"}]) == annotation_digest([{"reasoning": "完成。"}])
True
"""
from __future__ import annotations

import hashlib
import json


def annotation_digest(items: list[dict]) -> str:
    """A short hash of an annotation's items: a judgement holds for exactly the items it judged."""
    canonical = json.dumps(items, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]
