"""What the judge decided about the annotations export is about to use: per episode id, the last judgement of
exactly its current items (a judgement of an earlier annotation does not count).

>>> import tempfile, pathlib
>>> run = pathlib.Path(tempfile.mkdtemp())
>>> items = [{"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}]
>>> from sftdata.judge.verdict import annotation_digest
>>> line = {"id": "7", "backend": "rules", "model": "rules_v1", "prompt_version": "rules_v1", "passed": False,
...         "reasons": ["judge_aligned"], "annotation": {"digest": annotation_digest(items)}}
>>> _ = (run / "judgements.jsonl").write_text(__import__("json").dumps(line) + "\\n")
>>> judge_status(run, {"7": {"items": items}, "8": {"items": items}})
{'7': {'passed': False, 'judge': 'rules:rules_v1:rules_v1', 'reasons': ['judge_aligned']}}
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..io import iter_jsonl
from .verdict import annotation_digest

JUDGEMENTS = "judgements.jsonl"


def judge_label(record: dict[str, Any]) -> str:
    """``backend:model:prompt_version`` of a judgement: which judge passed (or failed) an episode."""
    return f"{record.get('backend')}:{record.get('model')}:{record.get('prompt_version')}"


def judge_status(run_path: str | Path, annotations: dict[str, dict]) -> dict[str, dict[str, Any]]:
    """``{episode id: {"passed", "judge", "reasons"}}`` for the judged episodes among ``annotations``."""
    path = Path(run_path) / JUDGEMENTS
    if not path.exists():
        return {}
    digests: dict[str, str] = {}
    out: dict[str, dict[str, Any]] = {}
    for record in iter_jsonl(path):
        eid = str(record.get("id"))
        if eid not in annotations:
            continue
        if eid not in digests:
            digests[eid] = annotation_digest(annotations[eid].get("items", []))
        if (record.get("annotation") or {}).get("digest") != digests[eid]:
            continue
        out[eid] = {"passed": record.get("passed") is True, "judge": judge_label(record),
                    "reasons": list(record.get("reasons") or [])}
    return out
