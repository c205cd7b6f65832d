"""The judge's notes for the repair loop: what ``sftdata annotate --repair-judged`` tells the annotator about
the episodes the judge failed (the last judgement of each episode's current items).

>>> print(repair_note({0: "judge_hindsight：推理描述了点击之后的页面。"}, 0, 3))
上一版标注没有通过评审，请重写并改正这些问题：
- 截图 1 (judge_hindsight)：推理描述了点击之后的页面。
"""
from __future__ import annotations

from pathlib import Path

from ..io import iter_jsonl
from .status import JUDGEMENTS
from .verdict import ItemVerdict, annotation_digest, item_fails


def judge_notes(run_path: str | Path, annotations: dict[str, dict]) -> dict[str, dict[int, str]]:
    """``{episode id: {item index: "judge_<field>：why"}}`` for every episode whose current items the judge failed."""
    path = Path(run_path) / JUDGEMENTS
    latest: dict[str, dict] = {}
    for record in iter_jsonl(path) if path.exists() else ():
        eid = str(record.get("id"))
        if eid in annotations and (record.get("annotation") or {}).get("digest") == \
                annotation_digest(annotations[eid].get("items", [])):
            latest[eid] = record
    notes: dict[str, dict[int, str]] = {}
    for eid, record in latest.items():
        if record.get("passed"):
            continue
        items = {}
        for raw in record.get("items", []):
            v = ItemVerdict(**raw)
            fails = item_fails(v, record.get("min_score", 3))
            if fails:
                items[v.index] = f"{'、'.join('judge_' + f for f in fails)}：{v.why}"
        if items:
            notes[eid] = items
    return notes


def repair_note(notes: dict[int, str] | None, start: int, end: int) -> str | None:
    """The user text listing the judge's notes on screenshots ``[start, end)`` (None when there are none)."""
    lines = []
    for index in sorted(notes or {}):
        if start <= index < end:
            reason, _, why = notes[index].partition("：")
            lines.append(f"- 截图 {index + 1} ({reason})：{why}")
    if not lines:
        return None
    return "上一版标注没有通过评审，请重写并改正这些问题：\n" + "\n".join(lines)
