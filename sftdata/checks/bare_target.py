"""A decision said as its target alone, with no verb: the thing to tap and where it is.

Writers who decide first often open with the target and its place (``Delete, top right.``, ``Apply on #10 (middle
right), not #11 below it.``, ``搜索框，顶部正中。``), and after a marker they name it without a verb (``Action: the
delete option at the far right``, ``Now the Home button``). Such a text is a tap on what it names; read only when
the text has no clause with an action verb.

>>> bare_target_span("Delete, top right. The selection bar shows 1 item.")
(0, 17)
>>> bare_target_span("Thought: BoC is selected. Action: the delete option at the far right of the top bar.")
(34, 83)
>>> bare_target_span("Results are listed, top to bottom.") is None
True
"""
from __future__ import annotations

import re

from .calls import CJK_CLASS

_PLACE_EN = (r"(?:(?:at|in|on)\s+the\s+)?(?:(?:far|upper|lower|top|bottom|middle|centre|center|left|right)(?:[- ]|\s*/\s*)?){1,3}"
             r"(?:\s+(?:corner|edge|side|half|area|of the (?:screen|page|dialog|bar|list|row)))?")
_PLACE_ZH = r"(?:[左右][上下]角?|顶部|底部|正中|中间|中部|居中|下方|上方|左侧|右侧|右边|左边|中上|中下)(?:正中|偏[左右上下]|中间|居中|方|角)?"
# the target, then its place after a comma or in brackets, opening the text: ``Next page link, lower centre``
_OPENING = re.compile(rf"^[\s\-–—→>*•]*(?P<name>[^,，.;。；:：()（）\n!?！？]{{2,48}}?)\s*(?:[,，]\s*|[(（]\s*)"
                      rf"(?:{_PLACE_EN}|{_PLACE_ZH})\s*[)）]?\s*(?=[.,;:：。，；—–!！]|\s*$|\s+(?:not|rather|instead)\b)", re.I)
# a marker, then the target as a noun: ``Action: the delete option at the far right``, ``Now the Home button``
_MARKED = re.compile(r"(?:^|(?<=[.。!?！？\n]))\s*(?:action|next|now|so|decision|answer|then|→|->)\s*[:：]?\s*"
                     r"(?P<name>the\s+[^,.;:\n]{1,48}?\b(?:button|link|tab|option|icon|key|entry|toggle|switch|chip|suggestion)\b"
                     r"[^,.;:\n]{0,40}?)\s*(?=[.,;—–!]|$)", re.I)
# a verb or a state in the name: a description (``Results are listed``), not a target
_NOT_A_NAME = re.compile(r"\b(?:is|are|was|were|has|have|had|shows?|lists?|reads?|says?|looks?|seems?|stays?|sits?|gets?"
                         r"|i|we|it|this|that|there|top|bottom)\b|'s\b|是|有|在|了|显示|[" + CJK_CLASS + r"]{17,}", re.I)


def bare_target_span(text: str) -> tuple[int, int] | None:
    """Where ``text`` names the target it taps with no verb, and its place when said right after it (see the module
    doc); None when it does not."""
    m = _OPENING.match(text)
    if m and not _NOT_A_NAME.search(m["name"]) and len(m["name"].split()) <= 6:
        return m.start("name"), m.end()
    m = _MARKED.search(text)
    if m and not re.search(r"\b(?:is|are|was|were|has|have|shows?|will|would|should|could)\b", m["name"], re.I):
        return m.start("name"), m.end()
    return None


__all__ = ["bare_target_span"]
