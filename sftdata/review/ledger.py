"""The review ledger ``RUN/reviews.jsonl``: one record per reviewer decision on one step, append-only.

A record: ``key`` (what makes it unique: task, annotation, its update time and the step), ``episode_id``,
``step``, ``decision`` (accept / edit / reject), ``item`` (the item this decision stands for: the generated one
for accept and reject, the edited one for edit), ``applied`` (False for an edit that failed the check),
``failures`` (the check's, for such an edit), ``original_passed_rules`` and ``provenance``
(``{"by": "human", "reviewer", "time"}``).

Resolution of a step with several records: the latest record of each reviewer counts; a reject by anyone drops
the step; otherwise the latest applied edit replaces the item; otherwise an accept keeps it. Reviewers whose
decisions (or edited texts) differ are a ``disagreement``, kept and flagged, never merged away.

>>> recs = [{"episode_id": "e", "step": 0, "decision": "accept", "applied": True, "item": {"reasoning": "a"},
...          "provenance": {"by": "human", "reviewer": "r1", "time": "1"}},
...         {"episode_id": "e", "step": 0, "decision": "reject", "applied": True, "item": {"reasoning": "a"},
...          "provenance": {"by": "human", "reviewer": "r2", "time": "2"}}]
>>> s = resolve(recs)[("e", 0)]
>>> s.outcome, s.disagreement, s.reviewers
('reject', True, ['r1', 'r2'])
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..io import iter_jsonl

from ..rundir import REVIEWS  # noqa: F401 (the run's file name, re-exported)


def record_key(task_id: Any, annotation_id: Any, time: str, step: int) -> str:
    """A stable key of one decision: importing the same export again finds every key already there."""
    raw = json.dumps([task_id, annotation_id, time, step], default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


@dataclass
class StepReview:
    episode_id: str
    step: int
    outcome: str  # accept | edit | reject | unresolved (only failed edits)
    item: dict | None  # the item export uses (the edited one for edit)
    reviewers: list[str] = field(default_factory=list)
    disagreement: bool = False
    provenance: dict | None = None  # of the record that decided the outcome
    original_passed_rules: bool | None = None


def load_reviews(run_path: Path) -> list[dict]:
    return [r for r in iter_jsonl(Path(run_path) / REVIEWS) if isinstance(r, dict)]


def resolve(records: Iterable[dict]) -> dict[tuple[str, int], StepReview]:
    """(episode id, step) -> the step's resolved review (see the module doc)."""
    latest: dict[tuple[str, int], dict[str, dict]] = {}
    for r in records:
        who = r.get("provenance", {}).get("reviewer", "unknown")
        per = latest.setdefault((str(r["episode_id"]), int(r["step"])), {})
        if who not in per or str(r["provenance"].get("time", "")) >= str(per[who]["provenance"].get("time", "")):
            per[who] = r
    out: dict[tuple[str, int], StepReview] = {}
    for (eid, step), per in latest.items():
        recs = sorted(per.values(), key=lambda r: str(r["provenance"].get("time", "")))
        opinions = {(r["decision"], json.dumps(r.get("item"), sort_keys=True, ensure_ascii=False) if
                     r["decision"] == "edit" else "") for r in recs if r.get("applied", True)}
        review = StepReview(eid, step, "unresolved", None, sorted(per), len(opinions) > 1,
                            original_passed_rules=recs[-1].get("original_passed_rules"))
        rejects = [r for r in recs if r["decision"] == "reject"]
        edits = [r for r in recs if r["decision"] == "edit" and r.get("applied", True)]
        accepts = [r for r in recs if r["decision"] == "accept"]
        for outcome, group in (("reject", rejects), ("edit", edits), ("accept", accepts)):
            if group:
                review.outcome, review.item, review.provenance = outcome, group[-1].get("item"), \
                    group[-1]["provenance"]
                break
        out[(eid, step)] = review
    return out
