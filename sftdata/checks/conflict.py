"""A contradiction that the decision itself does not make: the text names the call's target *in its decision*
and another element elsewhere (a dialog's title, a plan's later step, the card it describes).

The contradiction rules read one decision per text; when they find another element of the screen but the
decision's own clause (or what its pronoun stands for) names the call's target, the text says both, and a reader
must decide: :func:`certify` leaves it ``unsure`` (``conflicting_decision``) instead of rejecting it. A wrong
verb, direction, typed text or option is never softened so.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> yes = Element(0, (0, 0, 10, 10), text="删除", flags=("visible",))
>>> step = Step(0, Screenshot("0" * 64, "x.png", 10, 10), Action("click", point=(5, 5), element=yes), elements=[yes])
>>> call = {"name": "click", "parameters": {"target_element": "“删除”按钮"}}
>>> decision_names_call("the dialog 'Delete this chat?' is up: press its 删除 on the right", call, step)
'删除'
>>> decision_names_call("点取消。", call, step) is None
True
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .agreement_target import _CONTRAST
from .calls import grounding_label, normalize
from .decision import mask_quotes, quotes_in, stated_decision


_PURPOSE = re.compile(r"\b(?:to|so that|in order to|for)\b|以便|为了|好让|来(?=[找看查打进])|去(?=[找看查])|找|^\s*(?:查看|看看|浏览)", re.I)
_LANDMARK = re.compile(r"[^\s，,。“”\"']{1,12}(?:旁边|旁|附近|边上|下方|上方)的?|\b(?:next to|beside|near|below|above) (?:the )?\S+(?: \S+)?",
                       re.I)  # 搜索框旁边的 / next to the search box: a landmark, not the target


def _said(text: str, name: str) -> bool:
    flat, said = normalize(name).strip(), normalize(text)
    if not flat:
        return False
    edge = r"(?<![A-Za-z0-9])" if flat[0].isalnum() and flat[0].isascii() else ""
    tail = r"(?![A-Za-z0-9])" if flat[-1].isalnum() and flat[-1].isascii() else ""
    return re.search(edge + re.escape(flat) + tail, said) is not None


def decision_names_call(text: str, function: dict[str, Any], step: Step, other: str = "") -> str | None:
    """The call's target label when the decision of ``text`` names it (its clause before any contrast or
    purpose, a verbless clause after it, a colon's continuation, or the clause a pronoun points back to); None
    otherwise. ``other``: the other element's name the contradiction found (the target's name inside it, or
    beside it as a landmark, ``搜索框旁边的“拍照搜索”``, is not the target named)."""
    decision = stated_decision(text) if isinstance(text, str) else None
    if decision is None:
        return None
    own = decision.after_verb
    contrast = (_CONTRAST.search(mask_quotes(own)) or _PURPOSE.search(mask_quotes(own)))
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
    return next((n for n in names if n and _said(said, n)), None)


__all__ = ["decision_names_call"]
