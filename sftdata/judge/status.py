"""What the judge decided about the annotations in use: per episode id, the last judgement of exactly its current
items (a judgement of an earlier annotation does not count), read with the ``min_score`` that judgement used.

Export, review and the report all read the judge through here, so they agree on which verdict counts and on
its threshold: an item fails when a flag is against it or its score is under the judgement's ``min_score``; a
failed episode vetoes its failing steps (all its steps when no single item failed: an episode-level failure).

>>> import tempfile, pathlib, json
>>> run = pathlib.Path(tempfile.mkdtemp())
>>> items = [{"reasoning": "点。", "function": {"name": "click", "parameters": {}}},
...          {"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}]
>>> from sftdata.judge.verdict import annotation_digest
>>> line = {"id": "7", "backend": "rules", "model": "rules_v1", "prompt_version": "rules_v1", "passed": False,
...         "reasons": ["judge_score"], "min_score": 4, "annotation": {"digest": annotation_digest(items)},
...         "items": [{"index": 0, "score": 3}, {"index": 1, "score": 5}]}
>>> _ = (run / "judgements.jsonl").write_text(json.dumps(line) + "\\n")
>>> status = judge_status(run, {"7": {"items": items}, "8": {"items": items}})
>>> sorted(status), status["7"].judge, status["7"].vetoed(2), [v.passed for v in status["7"].verdicts]
(['7'], 'rules:rules_v1:rules_v1', {0}, [False, True])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..io import iter_jsonl
from ..rundir import JUDGEMENTS
from .digest import annotation_digest

DEFAULT_MIN_SCORE = 3  # what a judgement written before min_score was recorded used


@dataclass(frozen=True)
class Verdict:
    """One item's verdict as recorded (flags the backend could not tell are None) and the threshold it is read
    with.

    >>> v = Verdict.from_item({"aligned": True, "grounded": True, "hindsight": False, "target_unambiguous": True,
    ...                        "score": 5, "why": "点击了目标", "extra": 1})
    >>> v.passed, v.text()
    (True, 'aligned ✓ · grounded ✓ · no hindsight ✓ · target unambiguous ✓ · score 5 — 点击了目标')
    """

    aligned: bool | None
    grounded: bool | None
    hindsight: bool | None
    target_unambiguous: bool | None
    score: float | None
    why: str
    min_score: float = DEFAULT_MIN_SCORE

    @classmethod
    def from_item(cls, item: Any, min_score: float = DEFAULT_MIN_SCORE) -> "Verdict":
        item = item if isinstance(item, dict) else {}
        flag = lambda k: item[k] if isinstance(item.get(k), bool) else None  # noqa: E731
        score = item.get("score")
        score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None
        return cls(flag("aligned"), flag("grounded"), flag("hindsight"), flag("target_unambiguous"), score,
                   item.get("why") if isinstance(item.get("why"), str) else "", min_score)

    @property
    def passed(self) -> bool:
        """No flag against the item and a score of at least the judgement's ``min_score`` (a flag the judge left
        out fails nothing)."""
        return (self.aligned is not False and self.grounded is not False and self.hindsight is not True
                and self.target_unambiguous is not False and (self.score is None or self.score >= self.min_score))

    def text(self) -> str:
        mark = lambda v, good: "?" if v is None else ("✓" if v == good else "✗")  # noqa: E731
        score = "?" if self.score is None else f"{self.score:g}"
        out = (f"aligned {mark(self.aligned, True)} · grounded {mark(self.grounded, True)} · "
               f"no hindsight {mark(self.hindsight, False)} · target unambiguous {mark(self.target_unambiguous, True)}"
               f" · score {score}")
        return f"{out} — {self.why}" if self.why else out


@dataclass(frozen=True)
class JudgeStatus:
    """The judgement that counts for an episode's current annotation."""

    passed: bool
    judge: str  # backend:model:prompt_version
    reasons: list[str]
    min_score: float
    verdicts: list[Verdict | None] = field(default_factory=list)  # by item index; None where an item has none

    def model_passed(self) -> set[int]:
        """The items a judge model (not the offline rules) passed: it decides the ones the checks left unsure."""
        if self.judge.startswith("rules:"):
            return set()
        return {i for i, v in enumerate(self.verdicts) if v is not None and v.passed}

    def vetoed(self, steps: int) -> set[int]:
        """The steps the judge vetoes: none when it passed the episode; else its failing items, or every step
        when no item failed (the episode failed as a whole)."""
        if self.passed:
            return set()
        failing = {i for i, v in enumerate(self.verdicts[:steps]) if v is not None and not v.passed}
        return failing or set(range(steps))


def judge_label(record: dict[str, Any]) -> str:
    """``backend:model:prompt_version`` of a judgement: which judge passed (or failed) an episode."""
    return f"{record.get('backend')}:{record.get('model')}:{record.get('prompt_version')}"


def _verdicts(record: dict[str, Any], min_score: float) -> list[Verdict | None]:
    items = record.get("items")
    if not isinstance(items, list):
        return []
    verdicts: list[Verdict | None] = [None] * len(items)
    for position, item in enumerate(items):  # an item's "index" (0-based) places it, else its position
        index = item.get("index") if isinstance(item, dict) else None
        index = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else position
        verdicts.extend([None] * (index + 1 - len(verdicts)))
        verdicts[index] = Verdict.from_item(item, min_score)
    return verdicts


def judge_status(run_path: str | Path, annotations: dict[str, dict]) -> dict[str, JudgeStatus]:
    """The :class:`JudgeStatus` of every judged episode among ``annotations`` (episode id -> annotation record)."""
    path = Path(run_path) / JUDGEMENTS
    if not path.exists():
        return {}
    digests: dict[str, str] = {}
    out: dict[str, JudgeStatus] = {}
    for record in iter_jsonl(path):
        if not isinstance(record, dict):
            continue
        eid = str(record.get("id", record.get("episode_id")))
        if eid not in annotations:
            continue
        if eid not in digests:
            digests[eid] = annotation_digest(annotations[eid].get("items", []))
        if (record.get("annotation") or {}).get("digest") != digests[eid]:
            continue
        min_score = record.get("min_score")
        min_score = min_score if isinstance(min_score, (int, float)) and not isinstance(min_score, bool) \
            else DEFAULT_MIN_SCORE
        out[eid] = JudgeStatus(record.get("passed") is True, judge_label(record),
                               list(record.get("reasons") or []), min_score, _verdicts(record, min_score))
    return out
