"""The acted-on element's state told after the decision: ``勾选复选框，勾选成功``, ``type 05/14 — the field shows
05/14``. What the element looks like after the action is on the next screen only, whatever the words.

Structural, not a list of result words: a clause after the decision that is not itself an action (nor a hedge
or a plan) and says again the call's typed value or option, the decision's own verb, or the target's label,
describes the element acted on as already changed. :func:`certify` leaves such an item ``unsure``
(``acted_element_state``).

>>> from sftdata.checks.decision import stated_decision
>>> text = "搜索框里填上 blue mugs，框里现在就是 blue mugs。"
>>> call = {"name": "type", "parameters": {"text": "blue mugs"}}
>>> acted_state(text, stated_decision(text), call)
'框里现在就是 blue mugs'
>>> text = "勾选“记住我”，勾选好了。"
>>> acted_state(text, stated_decision(text), {"name": "click", "parameters": {}})
'勾选好了'
>>> text = "搜索框里填上 blue mugs，然后点搜索。"
>>> acted_state(text, stated_decision(text), call) is None
True
"""
from __future__ import annotations

import re
from typing import Any

from .calls import CJK_CLASS, normalize, said_as_word
from .decision import Decision, action_clauses, mask_quotes
from .hedges import CONDITION_ZH, HEDGE, LATER_ZH, PURPOSE_ZH, WILL_ZH, now_sentences

_CLAUSE = re.compile(r"[^，,；;。.!！?？—–\n]+")
_HEDGE = re.compile(HEDGE.pattern + "|" + WILL_ZH + "|" + CONDITION_ZH + "|" + PURPOSE_ZH + "|" + LATER_ZH
                    + r"|看看|是否|\b(?:if|then|so that|to see|whether|hopefully|after|next|later)\b", re.I)


_WAY = re.compile(r"(?:up|down|left|right)(?:wards?)?|(?:向|往)?[上下左右](?:边|面|方)?", re.I)  # swipe left: the way, no state
_PRONOUN = re.compile(r"\s*(?:它|他|她|这|那|一下|一次|\b(?:it|this|that|them|once|again)\b)", re.I)


def _bare_repeat(clause: str, rest: str, verb: str, values: list[str]) -> bool:
    """``勾选成功``: the clause opens with the decision's own verb and follows it with a word or two that is no
    object (not a pronoun, nothing quoted, not the call's value, four characters at most)."""
    bare = rest.strip(" 了啦。.!！")
    return (normalize(clause).strip().startswith(normalize(verb)) and 0 < len(bare) <= 4
            and not _PRONOUN.match(bare) and not re.search(r"[“\"'‘「]", bare) and not _WAY.fullmatch(bare)
            and not any(normalize(bare) == normalize(v) for v in values))


def acted_state(text: str, decision: Decision, function: dict[str, Any]) -> str | None:
    """The first clause after ``decision`` that tells the acted-on element's new state (see the module doc)."""
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    verb = decision.after_verb[:len(decision.after_verb) - len(decision.rest)].strip() if decision.rest else ""
    short_verb = verb if verb and (len(verb) <= 4 or re.fullmatch(r"[A-Za-z]+", verb)) else ""
    values = [str(params.get(k)) for k in ("text", "value") if params.get(k)]
    words = values + ([short_verb] if short_verb else [])
    acting = [c.span for c in action_clauses(text)  # a clause that repeats the verb without an object is a state
              if not (short_verb and c.span[0] >= decision.span[1]
                      and _bare_repeat(c.clause, c.rest, short_verb, values))]
    start = decision.span[1]
    nows = now_sentences(mask_quotes(text), start)  # 键盘已经弹出，光标在输入框里: the screen as it is
    for m in _CLAUSE.finditer(text, start):
        at = (m.start(), m.end())
        clause = m.group()
        if any(a <= m.start() < b for a, b in nows):
            continue
        if decision.continuation and m.start() == start and re.match(r"\s*[:：]", clause) and any(
                normalize(v) in normalize(clause) for v in values):
            continue  # Fill in the destination: Denver into the To box: what the colon brings is the decision's object
        if not clause.strip() or _HEDGE.search(mask_quotes(clause)):
            continue
        if any(a < at[1] and at[0] < b for a, b in acting):
            continue  # another decision or a plan: not a state
        if function.get("name") in ("type", "input") and _HOLDS_IT.search(mask_quotes(clause)):
            return clause.strip()  # 框里已显示这几个词: the typed value, said by a pronoun, in the box
        said = [w for w in words if said_as_word(w, clause, shortest=4, shortest_cjk=2)]
        rest = normalize(clause)
        for w in said:
            rest = rest.replace(normalize(w).strip(), " ")
        if said and re.search(rf"[{CJK_CLASS}]|[a-z]{{2,}}", rest):  # a predicate beside it, not the value alone
            return clause.strip()
    return None


# a field said to hold a value now: "the Email box now shows jane@…", "框里已经是 blue mugs"
_HOLDS = re.compile(r"\b(?:now\s+)?(?:shows?|showing|reads?|displays?|contains?|holds?|has)\b|\bfilled(?: in)? with\b"
                    r"|(?:里|中|上)(?:现在)?(?:已经)?(?:是|有|显示)|显示(?:着|为|的是)?|已(?:经)?填(?:好|上|入)?", re.I)
# the field said to hold what is typed, by a pronoun: ``框里已显示这几个词``, ``the box now shows them``
_HOLDS_IT = re.compile(r"(?:框|栏)[^，,。；;]{0,4}?(?:已经?|现在|就)?(?:显示|是|有)(?:了|着)?(?:这几个词|这些字|这个词|这几个字|这串字?|它们?)"
                       r"|\b(?:box|field|input)\s+(?:now\s+)?(?:shows|reads|holds|contains|has)\s+(?:them|those words"
                       r"|these words|the (?:query|words|keyword|text) (?:now|already))\b", re.I)
_SENTENCE_PART = re.compile(r"(?:[^，,；;。!！?？—–\n.]|\.(?!\s|$))+")  # a value's own dots (jane@example.com) stay
_TYPED_NOW = re.compile(r"\b(?:typed|entered|filled) (?:it|that|this|the \w+)\b|(?:输|填|打)好了", re.I)


def typed_state_before(text: str, decision: Decision, function: dict[str, Any], shown: list[str]) -> str | None:
    """A clause before the decision that tells the field already holding the value the call types, when the screen
    shows that value nowhere (``the Email address box now shows jane@example.com`` before ``Action: type …``): the
    state after the action, told ahead of it; ``shown``: the screen's texts (normalised)."""
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    value = str(params.get("text") or "")
    if function.get("name") not in ("type", "input") or not value.strip() \
            or any(normalize(value) in t for t in shown):
        return None
    for m in _SENTENCE_PART.finditer(text, 0, decision.span[0]):
        clause = m.group()
        at = normalize(clause).find(normalize(value))
        if at < 0 or _HEDGE.search(mask_quotes(clause)) or not said_as_word(value, clause, shortest=4, shortest_cjk=2):
            continue
        if _HOLDS.search(normalize(clause)[:at]) or _TYPED_NOW.search(text[max(0, m.start() - 40):m.start()]):
            return clause.strip()
    return None


def held_value(text: str, value: str, shown: list[str]) -> str | None:
    """The clause that says a field holds ``value`` (``Check-in now displays 06/02``, ``the box shows Lisbon``) when
    the screen (``shown``) shows it nowhere: with no decision of its own, the text tells the typing done."""
    if not value.strip() or any(normalize(value) in t for t in shown):
        return None
    for m in _SENTENCE_PART.finditer(text):
        clause = m.group()
        at = normalize(clause).find(normalize(value))
        if at >= 0 and not _HEDGE.search(mask_quotes(clause)) and _HOLDS.search(normalize(clause)[:at]):
            return clause.strip()
    return None


__all__ = ["acted_state", "held_value", "typed_state_before"]
