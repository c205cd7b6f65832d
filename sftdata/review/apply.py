"""What export takes from human review: each reviewed episode's annotation record with the edited items in
place, ``human_rejected`` (the step indices whose samples are dropped) and ``review`` (per reviewed step: the
outcome and its provenance ``{"by": "human", "reviewer", "time"}``). A run without reviews.jsonl is unchanged.

>>> rec = {"id": "e", "items": [{"reasoning": "a"}, {"reasoning": "b"}]}
>>> reviews = [{"episode_id": "e", "step": 1, "decision": "edit", "applied": True, "item": {"reasoning": "c"},
...             "provenance": {"by": "human", "reviewer": "r1", "time": "t"}}]
>>> out = with_reviews({"e": rec}, reviews)["e"]
>>> [i["reasoning"] for i in out["items"]], out["human_rejected"], out["review"]["1"]["outcome"]
(['a', 'c'], [], 'edit')
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .ledger import load_reviews, resolve


def with_reviews(annotations: dict[str, dict], reviews: list[dict]) -> dict[str, dict]:
    """``annotations`` (episode id -> record) with the resolved reviews applied; the records are copied."""
    if not reviews:
        return annotations
    out = dict(annotations)
    for (eid, step), r in sorted(resolve(reviews).items()):
        record = out.get(eid)
        items = record.get("items") if record else None
        if not isinstance(items, list) or step >= len(items) or r.outcome == "unresolved":
            continue
        if record is annotations.get(eid):  # copy on first change
            record = out[eid] = {**record, "items": list(items), "human_rejected": [], "review": {}}
        if r.outcome == "edit" and isinstance(r.item, dict):
            record["items"][step] = r.item
        elif r.outcome == "reject":
            record["human_rejected"].append(step)
        record["review"][str(step)] = {"outcome": r.outcome, "disagreement": r.disagreement, **(r.provenance or {})}
    return out


def reviewed_annotations(run_path: Path, annotations: dict[str, dict]) -> dict[str, dict]:
    """:func:`with_reviews` with the run's ``reviews.jsonl``."""
    return with_reviews(annotations, load_reviews(Path(run_path)))


def review_counts(annotations: dict[str, Any]) -> dict[str, int]:
    """Reviewed steps by outcome over the records export used (for its manifest)."""
    counts = {"accept": 0, "edit": 0, "reject": 0}
    for record in annotations.values():
        for r in (record.get("review") or {}).values():
            counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    return counts
