"""Judge verdicts: the records of ``RUN/judgements.jsonl``, parsing a judge's reply, and pass/fail.

One line per episode::

    {"id", "backend", "model", "prompt_version", "items": [{"index", "aligned", "grounded", "hindsight",
     "target_unambiguous", "score", "why"}], "episode": {"task_completed", "goal_matches", "suggested_goal"},
     "passed", "reasons", "annotation", "usage"}

``index`` is 0-based in the record (the item's place in the annotation); the judge model sees and answers
1-based step numbers. A boolean is None when the backend cannot tell (the rules backend cannot see whether the
goal matches); None never fails an episode.

>>> v = ItemVerdict(0, aligned=True, grounded=True, hindsight=False, target_unambiguous=True, score=4, why="好")
>>> failed_fields([v], min_score=3), failed_fields([v], min_score=5)
([], ['score'])
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..annotate.parse import ReplyError, extract_json
from ..schemas import validator
from .digest import annotation_digest  # noqa: F401 (re-exported)

# the fields that fail an item, in the order a reject names the first: judge_<field>
FAIL_ORDER = ("aligned", "hindsight", "grounded", "target_unambiguous", "score")


@dataclass
class ItemVerdict:
    index: int
    aligned: bool | None
    grounded: bool | None
    hindsight: bool | None
    target_unambiguous: bool | None
    score: int
    why: str
    certification: str | None = None  # the checks' outcome for the item (certified, unsure, rejected), when known

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        if self.certification is None:
            del out["certification"]
        return out


@dataclass
class EpisodeVerdict:
    task_completed: bool | None = None
    goal_matches: bool | None = None
    suggested_goal: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def item_fails(v: ItemVerdict, min_score: int) -> list[str]:
    """The fields of one verdict that fail it, in :data:`FAIL_ORDER`."""
    bad = {"aligned": v.aligned is False, "hindsight": v.hindsight is True, "grounded": v.grounded is False,
           "target_unambiguous": v.target_unambiguous is False, "score": v.score < min_score}
    return [name for name in FAIL_ORDER if bad[name]]


def failed_fields(items: list[ItemVerdict], min_score: int) -> list[str]:
    """Every field that fails some item, in :data:`FAIL_ORDER` (empty: the episode passes)."""
    found = {name for v in items for name in item_fails(v, min_score)}
    return [name for name in FAIL_ORDER if name in found]


REFUSALS = ("i can't", "i cannot", "i'm sorry", "i am sorry", "unable to", "我无法", "无法协助", "抱歉", "不能提供")


def parse_verdict(text: str, count: int, first: int = 1) -> tuple[list[ItemVerdict], EpisodeVerdict]:
    """The verdicts in a judge reply for ``count`` steps numbered from ``first`` (1-based); a
    :class:`ReplyError` (``judge_refused``, ``unparseable_reply``, ``judge_schema_invalid``,
    ``judge_item_count_mismatch``) when it is not one.

    >>> text = '```json\\n{"items": [{"index": 1, "aligned": true, "grounded": true, "hindsight": false,'\\
    ...        ' "target_unambiguous": true, "score": 5, "why": "理由充分。"}],'\\
    ...        ' "episode": {"task_completed": true, "goal_matches": true}}\\n```'
    >>> items, ep = parse_verdict(text, 1)
    >>> items[0].index, items[0].score, ep.goal_matches
    (0, 5, True)
    """
    try:
        value = extract_json(text)
    except ReplyError as exc:
        if exc.reason == "unparseable_reply" and any(p in text.lower() for p in REFUSALS):
            raise ReplyError("judge_refused", " ".join(text.split())[:200]) from None
        raise
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value) \
            and "items" not in value[0]:  # a bare list of item verdicts: no episode verdict
        value = {"items": value}
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    errors = sorted(validator("judge").iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        err = errors[0]
        where = ".".join(str(p) for p in err.absolute_path) or "reply"
        raise ReplyError("judge_schema_invalid", f"{where}: {err.message[:200]}")
    raw = value["items"]
    indexes = [v["index"] for v in raw]
    wanted = list(range(first, first + count))
    if sorted(indexes) != wanted:
        raise ReplyError("judge_item_count_mismatch", f"verdicts for steps {indexes}, expected {wanted}")
    items = [ItemVerdict(index=v["index"] - 1, aligned=v["aligned"], grounded=v["grounded"],
                         hindsight=v["hindsight"], target_unambiguous=v["target_unambiguous"], score=v["score"],
                         why=" ".join(v["why"].split())) for v in sorted(raw, key=lambda v: v["index"])]
    ep = value["episode"]
    suggested = ep.get("suggested_goal")
    return items, EpisodeVerdict(ep["task_completed"], ep["goal_matches"],
                                 suggested.strip() or None if isinstance(suggested, str) else None)


@dataclass
class Judgement:
    id: str
    backend: str
    model: str
    prompt_version: str
    items: list[ItemVerdict]
    episode: EpisodeVerdict
    min_score: int
    annotation: dict[str, Any]
    usage: dict[str, int]

    @property
    def reasons(self) -> list[str]:
        return [f"judge_{name}" for name in failed_fields(self.items, self.min_score)]

    @property
    def passed(self) -> bool:
        return not self.reasons

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "backend": self.backend, "model": self.model, "prompt_version": self.prompt_version,
                "items": [v.to_dict() for v in self.items], "episode": self.episode.to_dict(),
                "passed": self.passed, "reasons": self.reasons, "min_score": self.min_score,
                "annotation": self.annotation, "usage": self.usage}
