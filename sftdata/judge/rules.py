"""The offline ``rules`` judge: the alignment check (:func:`sftdata.checks.check.check_items`) and the hindsight
finder turned into verdicts. Deterministic, free, and the baseline the LLM judge and people are compared with.

- ``aligned`` fails on a function or parameter that is not the ground truth's, a reasoning whose stated decision
  contradicts its call (``reasoning_contradicts_action``), a missing/misplaced ``done``, a wrong item count, a
  malformed item or an empty reasoning;
- ``hindsight`` on ``hindsight``, ``future_screen_text`` (a word only a later screen shows) and ``mentions_marks``;
- ``grounded`` on ``target_not_grounded`` (the named target is not the element's own label), ``names_absent_text``
  (quoted text on no screen so far, not in the goal nor typed) and ``memory_contradicts_history`` (the memory's
  counts or done actions are not the history's, :mod:`sftdata.checks.memory_check`);
- ``target_unambiguous`` on ``missing_target``, ``target_not_chinese`` and ``ambiguous_target`` (the tapped
  element's label is shared by other visible elements and no ordinal or position singles it out, or a wrong one
  does; :mod:`sftdata.judge.screen_rules`);
- ``score`` is 5 less a penalty per failing field (3 aligned, 2 hindsight, 2 grounded, 1 target, 1 for any other
  reason such as ``reasoning_not_chinese``), at least 1; ``why`` names the reasons;
- ``certification``: what :func:`sftdata.checks.certify` says of the item. An ``unsure`` item (no positive
  evidence, or something the checks cannot place) is not failed: the rules cannot tell, so ``aligned`` is None
  and ``why`` says what was missing; export holds it back unless an LLM judge or a reviewer passes it.

Per episode: ``task_completed`` is whether the recording ends in ``done``, None for a recording without a final
screen (a web recording such as Mind2Web: nothing shows the end state); ``goal_matches`` is None (rules cannot
tell). Web episodes are checked with the browser's functions (:mod:`sftdata.checks.calls`).

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "annotated", "返回", [Step(0, shot, Action("back")), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "当前页面不是目标页面，需要先返回上一页。", "function": {"name": "press_back", "parameters": {}}},
...          {"reasoning": "已经回到目标页面，任务完成。", "function": {"name": "done", "parameters": {}}}]
>>> verdicts, episode = rules_verdict(ep, items)
>>> [(v.aligned, v.score, v.certification) for v in verdicts], episode.task_completed
([(True, 5, 'certified'), (True, 5, 'certified')], True)
>>> items[0]["reasoning"] = "这是第 1 步，共 2 步，需要返回。"
>>> v = rules_verdict(ep, items)[0][0]
>>> v.hindsight, v.score, "共 2 步" in v.why
(True, 3, True)
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..model import Episode
from ..checks.certify import Certification, certify_items
from ..checks.check import Failure, check_items
from ..checks.memory_check import memory_problems
from ..checks.hindsight import find_hindsight
from .screen_rules import absent_names, ambiguous_target
from .verdict import EpisodeVerdict, ItemVerdict

RULES_VERSION = "rules_v3"

ALIGNMENT = frozenset({"bad_item", "item_count_mismatch", "missing_done", "multiple_done", "done_not_last",
                       "unexpected_done", "function_mismatch", "input_text_mismatch", "select_value_mismatch",
                       "app_mismatch", "swipe_direction_mismatch", "scroll_direction_mismatch", "url_mismatch",
                       "empty_reasoning", "schema_invalid", "reasoning_contradicts_action"})
HINDSIGHT = frozenset({"hindsight", "mentions_marks", "future_screen_text"})
UNGROUNDED = frozenset({"target_not_grounded", "names_absent_text", "memory_contradicts_history"})
AMBIGUOUS = frozenset({"missing_target", "target_not_chinese", "ambiguous_target"})
PENALTY = {"aligned": 3, "hindsight": 2, "grounded": 2, "target_unambiguous": 1}


def _field_of(reason: str) -> str:
    if reason in ALIGNMENT:
        return "aligned"
    if reason in HINDSIGHT:
        return "hindsight"
    if reason in UNGROUNDED:
        return "grounded"
    if reason in AMBIGUOUS:
        return "target_unambiguous"
    return reason


def _why(failures: list[Failure], item: dict) -> str:
    if not failures:
        return "对齐检查与后见之明检查均通过。"
    parts = []
    for f in failures:
        detail = f.detail
        if f.reason == "hindsight" and isinstance(item, dict) and isinstance(item.get("reasoning"), str):
            phrases = find_hindsight(item["reasoning"])
            detail = "、".join(f"“{p}”" for p in phrases) or detail
        parts.append(f"{f.reason}（{' '.join(str(detail).split())[:120]}）")
    return "未通过：" + "；".join(parts) + "。"


def item_verdict(index: int, failures: list[Failure], item: dict,
                 certification: Certification | None = None) -> ItemVerdict:
    """The verdict of one item from its check failures (those with this index, plus whole-list ones) and its
    certification (an unsure item without failures: ``aligned`` None, nothing failed)."""
    fields = {_field_of(f.reason) for f in failures}
    penalty = sum(PENALTY.get(name, 1) for name in fields)
    outcome = certification.outcome if certification is not None else None
    if outcome == "unsure" and not failures:
        why = "检查无法确认（unsure）：" + "；".join(f"{r.code}（{r.detail[:100]}）" for r in certification.reasons) + "。"
        return ItemVerdict(index=index, aligned=None, grounded=True, hindsight=False, target_unambiguous=True,
                           score=5, why=why, certification=outcome)
    if outcome == "unsure":
        outcome = "rejected"  # the judge's own screen rules failed it
    return ItemVerdict(index=index, aligned="aligned" not in fields, grounded="grounded" not in fields,
                       hindsight="hindsight" in fields, target_unambiguous="target_unambiguous" not in fields,
                       score=max(1, 5 - penalty), why=_why(failures, item), certification=outcome)


def screen_failures(item: Any, episode: Episode, index: int) -> list[Failure]:
    """What the judge adds to the check: an ambiguous target, quoted names from nowhere the agent could see, and
    a memory that contradicts the history."""
    if index >= len(episode.steps):
        return []
    out = []
    why = ambiguous_target(item, episode.steps[index])
    if why:
        out.append(Failure(index, "ambiguous_target", why))
    absent = absent_names(item, episode, index)
    if absent:
        out.append(Failure(index, "names_absent_text", "names text on no screen so far: "
                           + "、".join(f"“{a}”" for a in absent[:3])))
    memory = item.get("memory") if isinstance(item, dict) else None
    problems = memory_problems(memory, episode, index) if isinstance(memory, str) else []
    if problems:
        out.append(Failure(index, "memory_contradicts_history", "; ".join(problems[:3])))
    return out


def rules_verdict(episode: Episode, items: list) -> tuple[list[ItemVerdict], EpisodeVerdict]:
    """Verdicts for every item of an annotation (a whole-list failure, such as a wrong count, fails each)."""
    by_index: dict[int | None, list[Failure]] = defaultdict(list)
    failures = check_items(items, episode)
    for f in failures:
        by_index[f.index].append(f)
    for i, item in enumerate(items):
        by_index[i] += screen_failures(item, episode, i)
    certs = certify_items(items, episode, failures=failures)
    common = by_index.get(None, [])
    verdicts = [item_verdict(i, common + by_index.get(i, []), item, certs[i] if i < len(certs) else None)
                for i, item in enumerate(items)]
    ends_done = bool(episode.steps) and episode.steps[-1].action.type == "done"
    completed = ends_done if episode.ends_with_done else None  # no final screen: nothing shows the end state
    return verdicts, EpisodeVerdict(task_completed=completed, goal_matches=None, suggested_goal=None)
