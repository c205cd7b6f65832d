"""The judge's verdicts as review reads them: ``RUN/judgements.jsonl``, the last record of an episode winning,
and per item only ``aligned``, ``grounded``, ``hindsight``, ``target_unambiguous``, ``score`` and ``why``.

>>> v = Verdict.from_item({"aligned": True, "grounded": True, "hindsight": False, "target_unambiguous": True,
...                        "score": 5, "why": "点击了目标", "extra": 1})
>>> v.passed, v.text()
(True, 'aligned ✓ · grounded ✓ · no hindsight ✓ · target unambiguous ✓ · score 5 — 点击了目标')
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..io import iter_jsonl

JUDGEMENTS = "judgements.jsonl"
MIN_SCORE = 3  # the judge's default --min-score


@dataclass(frozen=True)
class Verdict:
    aligned: bool | None
    grounded: bool | None
    hindsight: bool | None
    target_unambiguous: bool | None
    score: float | None
    why: str

    @classmethod
    def from_item(cls, item: Any) -> "Verdict":
        item = item if isinstance(item, dict) else {}
        flag = lambda k: item[k] if isinstance(item.get(k), bool) else None  # noqa: E731
        score = item.get("score")
        score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None
        return cls(flag("aligned"), flag("grounded"), flag("hindsight"), flag("target_unambiguous"), score,
                   item.get("why") if isinstance(item.get("why"), str) else "")

    @property
    def passed(self) -> bool:
        """No flag the judge set against the item, and a score of at least :data:`MIN_SCORE` (as the judge
        itself decides; a flag it left out fails nothing)."""
        return (self.aligned is not False and self.grounded is not False and self.hindsight is not True
                and self.target_unambiguous is not False and (self.score is None or self.score >= MIN_SCORE))

    def text(self) -> str:
        mark = lambda v, good: "?" if v is None else ("✓" if v == good else "✗")  # noqa: E731
        score = "?" if self.score is None else f"{self.score:g}"
        out = (f"aligned {mark(self.aligned, True)} · grounded {mark(self.grounded, True)} · "
               f"no hindsight {mark(self.hindsight, False)} · target unambiguous {mark(self.target_unambiguous, True)}"
               f" · score {score}")
        return f"{out} — {self.why}" if self.why else out


def load_judgements(run_path: Path) -> dict[str, list[Verdict | None]]:
    """Episode id -> its items' verdicts by item index (None where an item has none; empty when the run has no
    judgements.jsonl)."""
    out: dict[str, list[Verdict | None]] = {}
    path = Path(run_path) / JUDGEMENTS
    if not path.exists():
        return out
    for record in iter_jsonl(path):
        if not isinstance(record, dict):
            continue
        eid = record.get("id", record.get("episode_id"))
        items = record.get("items")
        if eid is None or not isinstance(items, list):
            continue
        verdicts: list[Verdict | None] = [None] * len(items)
        for position, item in enumerate(items):  # an item's "index" (0-based) places it, else its position
            index = item.get("index") if isinstance(item, dict) else None
            index = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else position
            verdicts.extend([None] * (index + 1 - len(verdicts)))
            verdicts[index] = Verdict.from_item(item)
        out[str(eid)] = verdicts
    return out
