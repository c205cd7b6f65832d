"""What a decision names besides the call's own target: another numbered card, another control of the card, another
typed value in quotes. Each leaves the item unsure (a reader decides); none rejects it.

- :func:`other_numbered_card`: the decision names a card by its number (``点 #20 那一行的 Save recipe``) that a card
  of the screen other than the call's carries: the words of the target's row (``Save recipe``) are the same on
  every card, the number says which;
- :func:`other_card_control`: the decision names, whole, another control of the target's card (``右边的 Add to
  cart`` when the call taps the card's title) and not the target itself;
- :func:`other_quoted_value`: a quoted value that holds the call's typed value, or is held by it, yet differs
  (``Put 'Chicago, IL' in the location field`` when the call types ``Chicago``).

>>> other_quoted_value("Put 'Chicago, IL' in the location field.", {"name": "type", "parameters": {"text": "Chicago"}})
'Chicago, IL'
>>> other_quoted_value("Type 'Chicago' in the location field.", {"name": "type", "parameters": {"text": "Chicago"}})
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .calls import element_label, normalize, target_element
from .decision import SIDES_EN, SIDES_ZH, Decision
from .ruled_out import CONTRAST
from .screen_text import element_texts, visible_elements
from .target_group import card_of, group_of, is_control, own_texts

_NUMBER = re.compile(r"#\s?(\d{1,4})(?!\d)")
_QUOTED = re.compile(r"“([^”]{1,80})”|「([^」]{1,80})」|『([^』]{1,80})』|\"([^\"\n]{1,80})\"|‘([^’]{1,80})’"
                     r"|(?<![A-Za-z])'([^'\n]{1,80})'(?![A-Za-z])")
_EDGES = " \t.,;:!?。，；：！？"
_TYPING = ("type", "input", "fill", "enter", "select", "set_value")


def _named(decision: Decision) -> str:
    """The decision's own words: its clause (an object may come before the verb: ``右边的 Add to cart 点掉``) and a
    verbless appendix, less a ruling-out."""
    said = f"{decision.phrase} {decision.appendix}"
    contrast = CONTRAST.search(said)
    return said[:contrast.start()] if contrast else said


def _card(step: Step):
    target = target_element(step)
    if target is None:
        return None, [], []
    visible = visible_elements(step)
    group = group_of(step, target, visible)
    return target, group, [e for e in card_of(step, target, visible) if e not in group]


def other_numbered_card(decision: Decision, step: Step) -> str | None:
    """``#N`` when the decision names a card number that the call's card does not carry and another visible
    element of the screen does; None otherwise."""
    return numbered_elsewhere(_named(decision), step)


def numbered_elsewhere(said: str, step: Step) -> str | None:
    """``#N`` when ``said`` names a card number that the call's card does not carry and another visible element
    of the screen does (``Save recipe on the #20 row`` for #19's Save); None otherwise."""
    target, group, card = _card(step)
    if target is None:
        return None
    own = " ".join(t for e in group + card for t in element_texts(e))
    others = [t for e in visible_elements(step) if e not in group and e not in card for t in element_texts(e)]
    for m in _NUMBER.finditer(said):
        number = re.compile(rf"#\s?{m.group(1)}(?!\d)")
        if not number.search(own) and any(number.search(t) for t in others):
            return m.group().replace(" ", "")
    return None


def other_card_control(decision: Decision, step: Step, text: str = "") -> str | None:
    """The label of another control of the target's card that the decision names whole, when neither it nor
    ``text`` (the whole reasoning) names the target's own label; None otherwise."""
    target, group, card = _card(step)
    if target is None:
        return None
    own_label = normalize(element_label(target))
    away = _points_away(decision, own_label)
    if len(own_label) >= 3 and own_label in normalize(text) and not away:
        return None
    # Save recipe next to #19, click that: the antecedent counts, unless the decision points away from the title
    said = normalize(_named(decision) if away else f"{_named(decision)} {decision.antecedent}")
    visible = visible_elements(step)
    mine = [t for e in group for t in own_texts(e, target, group, visible)]  # a row's text less its other controls
    if any(t and t in said for t in mine):
        return None
    for e in card:
        label = normalize(element_label(e))
        if len(label) >= 3 and is_control(e) and label in said and not any(label in t for t in mine):
            rest = said.replace(label, " ")
            if not any(len(t) >= 3 and t in rest for c in card if c is not e for t in element_texts(c)):
                return element_label(e)
    return None


def _points_away(decision: Decision, own_label: str) -> bool:
    """The target's label is said before the decision, and the decision itself points from it to something beside
    it: ``第 13 个是 X，点它右边那个 Buy tickets 按钮``, ``X is the one; tap the Buy button next to it``."""
    phrase = normalize(_named(decision))
    return own_label not in phrase and bool(_BESIDE_IT.search(phrase))


_BESIDE_IT = re.compile(r"[它他她其这那](?:的)?(?:" + SIDES_ZH + r")"
                        r"|\b(?:" + SIDES_EN + r")\s+(?:it|that|this one|that one)\b"
                        r"|\b(?-i:its)\s+(?!own\b)\w|它的", re.I)  # click its Add to cart: a control of the card named


def other_quoted_value(text: str, function: dict[str, Any], goal: str = "") -> str | None:
    """A quoted value of ``text`` that holds the call's typed value or is held by it, but differs from it (not the
    ``goal`` quoted, nor a sentence that holds the value among much else)."""
    if not isinstance(text, str) or function.get("name") not in _TYPING:
        return None
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    value = next((str(params[k]) for k in ("text", "value") if params.get(k)), "")
    wanted = normalize(value).strip(_EDGES)
    if len(wanted) < 2:
        return None
    for m in _QUOTED.finditer(text):
        quoted = next(g for g in m.groups() if g is not None)
        said = normalize(quoted).strip(_EDGES)
        if len(said) >= 2 and said != wanted and (wanted in said or said in wanted) and said not in normalize(goal) \
                and len(said) <= 2 * len(wanted) + 8:
            return quoted
    return None


__all__ = ["other_card_control", "other_numbered_card", "other_quoted_value"]
