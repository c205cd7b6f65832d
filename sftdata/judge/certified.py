"""What the judge model reads: the checks (:func:`sftdata.checks.certify`) decide the certified and the rejected
items; the model reads the episodes that hold an ``unsure`` item, and its verdicts count for those items (the
checks' verdicts stand for the others). ``--judge-all`` sends every episode and keeps every model verdict, to
compare the model with the checks.

>>> from sftdata.judge.verdict import ItemVerdict
>>> model = [ItemVerdict(0, False, True, False, True, 2, "模型"), ItemVerdict(1, True, True, False, True, 5, "好")]
>>> checks = [ItemVerdict(0, True, True, False, True, 5, "检查", "certified"),
...           ItemVerdict(1, None, True, False, True, 5, "?", "unsure")]
>>> [(v.aligned, v.why, v.certification) for v in merged(model, checks)]
[(True, '检查', 'certified'), (True, '好', 'unsure')]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Iterable

from ..checks.certify import OUTCOMES, certify_items
from ..model import Episode
from .verdict import ItemVerdict


def has_unsure(episode: Episode, items: list) -> bool:
    """Does the checks' reading leave an item of this annotation unsure (so a judge model must read it)?"""
    return len(items) == len(episode.steps) and any(c.outcome == "unsure" for c in certify_items(items, episode))


def merged(model: list[ItemVerdict], checks: list[ItemVerdict]) -> list[ItemVerdict]:
    """The model's verdict for every item the checks left unsure, the checks' verdict for the others."""
    by_index = {v.index: v for v in model}
    return [replace(by_index[v.index], certification="unsure") if v.certification == "unsure" and v.index in by_index
            else v for v in checks]


def outcome_counts(pairs: Iterable[tuple[Episode, list]]) -> dict:
    """Items certified, unsure and rejected over ``(episode, items)`` pairs, and the unsure ones by their first
    reason (``unsure_by_reason``)."""
    counts: dict = {o: 0 for o in OUTCOMES}
    why: Counter = Counter()
    for episode, items in pairs:
        if isinstance(items, list) and len(items) == len(episode.steps):
            for c in certify_items(items, episode):
                counts[c.outcome] += 1
                if c.outcome == "unsure":
                    why[c.first] += 1
    counts["unsure_by_reason"] = dict(why.most_common())
    return counts
