"""A contradiction that the text also answers: it names another element, action, direction, typed text or
"task complete", but it names what the call does too (a dialog's title beside its button, a plan's later step,
``Nothing more to do here — press the system Back key``).

The contradiction rules read one decision per text; when they find something else but the text also gives the
call's own evidence (:func:`call_evidence`: its target's label in a clause that acts, its typed value or option,
its app, "back" or "home" for those calls, a direction said in view words that the call's direction reads the other
way round), the text says both, and a reader must decide: :func:`certify` leaves it ``unsure``
(``conflicting_decision``) instead of rejecting it. A contrast (``not X``), a purpose and a landmark are no
evidence; a text whose decision names only something else stays rejected.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> yes = Element(0, (0, 0, 10, 10), text="删除", flags=("visible",))
>>> step = Step(0, Screenshot("0" * 64, "x.png", 10, 10), Action("click", point=(5, 5), element=yes), elements=[yes])
>>> call = {"name": "click", "parameters": {"target_element": "“删除”按钮"}}
>>> decision_names_call("the dialog 'Delete this chat?' is up: press its 删除 on the right", call, step)
'删除'
>>> decision_names_call("点取消。", call, step) is None
True
>>> call_evidence("前面都处理好了，没别的事 —— 点删除。", call, step, done_claim=True)
'删除'
>>> call_evidence("前面都处理好了，点取消。", call, step, done_claim=True) is None
True
>>> swipe = {"name": "swipe", "parameters": {"direction": "UP"}}
>>> call_evidence("keep scrolling up the list", swipe, step), call_evidence("swipe down the list", swipe, step)
('up (read the other way round)', None)
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .agreement import BACK_CONTROL, COMPATIBLE
from .ruled_out import CONTRAST
from .calls import grounding_label, normalize, said_as_word
from .decision import action_clauses, finger_direction, mask_quotes, quotes_in, stated_decision
from .finger import FINGER_EN, FINGER_MOVES, FINGER_ZH
from .evidence import decision_evidence, said_whole


_PURPOSE = re.compile(r"\b(?:to|so that|in order to|for)\b|以便|为了|好让|来(?=[找看查打进])|去(?=[找看查])|找|^\s*(?:查看|看看|浏览)", re.I)
_LANDMARK = re.compile(r"[^\s，,。“”\"']{1,12}(?:旁边|旁|附近|边上|下方|上方)的?|\b(?:next to|beside|near|below|above) (?:the )?\S+(?: \S+)?",
                       re.I)  # 搜索框旁边的 / next to the search box: a landmark, not the target


def decision_names_call(text: str, function: dict[str, Any], step: Step, other: str = "") -> str | None:
    """The call's target label when the decision of ``text`` names it (its clause before any contrast or
    purpose, a verbless clause after it, a colon's continuation, or the clause a pronoun points back to); None
    otherwise. ``other``: the other element's name the contradiction found (the target's name inside it, or
    beside it as a landmark, ``搜索框旁边的“拍照搜索”``, is not the target named)."""
    decision = stated_decision(text) if isinstance(text, str) else None
    if decision is None:
        return None
    own = decision.after_verb
    contrast = (CONTRAST.search(mask_quotes(own)) or _PURPOSE.search(mask_quotes(own)))
    if contrast is not None:  # 点“删除”而不是“取消” / tap X to find Y: what follows is not the target
        own = own[:contrast.start()]
    antecedent = re.split(r"[。.!?！？\n]", decision.antecedent)[-1] if decision.antecedent else ""
    appendix = "" if _PURPOSE.match(decision.appendix) else decision.appendix
    said = " ".join((own, appendix, decision.continuation, antecedent))
    if other:
        said = re.sub(re.escape(normalize(other)), " ", normalize(said))
    said = _LANDMARK.sub(" ", said)
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    names = [grounding_label(step) or ""] + quotes_in(str(params.get("target_element") or ""))
    return next((n for n in names if n and said_as_word(n, said)), None)


_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _acting_parts(text: str) -> list[tuple[int, str]]:
    """Each action clause of ``text`` (not history, a condition, a negation or a later plan) to its sentence's
    end, cut at a contrast or a purpose and without landmarks: what the text decides, one clause at a time."""
    out = []
    for clause in action_clauses(text):
        stop = _SENTENCE_END.search(text, clause.span[1])
        part = text[clause.span[0]:stop.start() if stop else len(text)]
        masked = mask_quotes(part)
        cut = [m.start() for m in (CONTRAST.search(masked), _PURPOSE.search(masked, len(clause.clause) // 2 + 1)) if m]
        out.append((clause.span[0], _LANDMARK.sub(" ", part[:min(cut)] if cut else part)))
    return out


def _view_worded(text: str) -> bool:
    """The text's direction is said in view words (scroll, 翻, page) and nowhere in the finger's (swipe, 滑,
    finger): which way the content or the finger goes is the writer's convention."""
    masked = mask_quotes(text)
    return not any(p.search(masked) for p in (FINGER_EN, FINGER_MOVES, FINGER_ZH))


def call_evidence(text: str, function: dict[str, Any], step: Step, other: str | None = None,
                  done_claim: bool = False) -> str | None:
    """What of the call ``text`` names besides the decision the contradiction rules read (the words, short), or
    None: for another element, :func:`decision_names_call`; else an action clause (not history, a condition, a
    negation or a later plan) whose own evidence certifies the call (its target, value, app, direction; going
    back, home or waiting by the verb), or the typed value or option said in such a clause; else a direction said
    in view words only that is the call's read the other way round."""
    if not isinstance(text, str) or not text.strip():
        return None
    if other is not None:  # another element: the decision's own clause (or its pronoun's) must name the target
        return decision_names_call(text, function, step, other)
    first = stated_decision(text)
    name = str(function.get("name") or "")
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    parts = _acting_parts(text)
    for start, part in parts:
        if first is not None and start == first.span[0] and not done_claim:
            continue  # the decision the contradiction is about
        decision = stated_decision(part)
        if decision is None or decision.verb not in COMPATIBLE.get(name, ()):
            continue
        if name in ("press_back", "go_back") and BACK_CONTROL.search(decision.phrase):
            return decision.phrase.strip()[:40]  # hit the Back key: the verb is a tap, its object the back key
        found, missing = decision_evidence(part, function, step, decision)
        if not missing and (len(found) > 1 or name in ("press_back", "go_back", "press_home", "wait")):
            return found[-1].words
    value = str(params.get("value") or "") if name == "select" else ""
    if value and any(said_whole(value, p) for _, p in parts):  # the option said with another verb (下拉里选 X)
        return value
    want = str(params.get("direction") or "").lower()
    if name in ("swipe", "scroll") and want and _view_worded(text):  # the decision's own direction first (Keep
        said = (finger_direction(text[first.span[0]:first.span[1]]) if first is not None else None) or \
            finger_direction(text)  # scrolling up, or scroll back down? … so scroll back down to it)
        if said and (said if name == "swipe" else _OPPOSITE[said]) == _OPPOSITE[want]:
            return f"{want.lower()} (read the other way round)"
    return None


__all__ = ["call_evidence", "decision_names_call"]
