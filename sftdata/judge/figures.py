"""Alignment figures of a judged run, for the manifest and the report: the share of items the judge found
aligned and of items that passed every field, per run, per source and per action type, and the worst items
(lowest score first) with their reasoning and screenshot.

>>> rate(3, 4), rate(0, 0)
(0.75, None)
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from ..model import Episode
from .verdict import ItemVerdict, item_fails

WORST = 10


def rate(good: int, total: int) -> float | None:
    return round(good / total, 4) if total else None


class _Tally:
    def __init__(self) -> None:
        self.items = self.aligned = self.passed = 0

    def add(self, aligned: bool, passed: bool) -> None:
        self.items += 1
        self.aligned += aligned
        self.passed += passed

    def to_dict(self) -> dict[str, Any]:
        return {"items": self.items, "aligned": self.aligned, "aligned_rate": rate(self.aligned, self.items),
                "passed": self.passed, "passed_rate": rate(self.passed, self.items)}


def alignment_figures(episodes: Iterable[Episode], judgements: dict[str, dict], annotations: dict[str, dict],
                      worst: int = WORST) -> dict[str, Any]:
    """Figures over the episodes that have a judgement (``judgements``: id -> the record of its current items)."""
    run, by_source, by_action = _Tally(), defaultdict(_Tally), defaultdict(_Tally)
    episodes_passed = episodes_judged = 0
    low: list[dict[str, Any]] = []
    for ep in episodes:
        record = judgements.get(ep.id)
        if record is None:
            continue
        episodes_judged += 1
        episodes_passed += bool(record.get("passed"))
        min_score = record.get("min_score", 3)
        items = annotations.get(ep.id, {}).get("items", [])
        for raw in record.get("items", []):
            v = ItemVerdict(**raw)
            if not 0 <= v.index < len(ep.steps):
                continue
            aligned, passed = v.aligned is not False, not item_fails(v, min_score)
            step = ep.steps[v.index]
            for tally in (run, by_source[ep.source], by_action[step.action.type]):
                tally.add(aligned, passed)
            if not passed or v.score < 5:
                item = items[v.index] if v.index < len(items) and isinstance(items[v.index], dict) else {}
                low.append({"id": ep.id, "index": v.index, "source": ep.source, "action": step.action.type,
                            "score": v.score, "fails": item_fails(v, min_score), "why": v.why,
                            "reasoning": item.get("reasoning"), "function": item.get("function"),
                            "screenshot": step.screenshot.path, "judge": f"{record.get('backend')}:{record.get('model')}"})
    low.sort(key=lambda x: (x["score"], -len(x["fails"]), x["id"], x["index"]))
    return {"episodes": episodes_judged, "episodes_passed": episodes_passed,
            "episode_pass_rate": rate(episodes_passed, episodes_judged), **run.to_dict(),
            "by_source": {k: t.to_dict() for k, t in sorted(by_source.items())},
            "by_action": {k: t.to_dict() for k, t in sorted(by_action.items())}, "worst": low[:worst]}
