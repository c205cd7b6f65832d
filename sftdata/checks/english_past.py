"""English past tense: does a clause report a change as done (``the list scrolled``, ``it showed Texas``)?

The hindsight reader asks it of the clauses that follow an action, and the reader of a result foretold asks it of
a result told before the decision. The agent's own taps (``I've tapped``), an item's properties (``the pinned
chat``, ``a checked box``) and a wish (``the switch the goal wants toggled``) are not reports.

>>> en_past("the results page showed Lenovo first"), en_past("the pinned chat is at the top")
(True, False)
"""
from __future__ import annotations

import re

# a change told as done, in the past (the hindsight reader's patterns build on it too)
EN_RESULT = (r"(?:showed|shown|displayed|appeared|opened|revealed|popped up|brought up|returned|switched|changed"
             r"|became|loaded|navigated|went|took (?:me|us) to|led to|turned|disappeared|jumped|landed|expanded"
             r"|collapsed|closed|dismissed|refreshed|updated|flipped|filtered|started|launched|triggered|slid)")

_RESULT_WORD = re.compile(rf"\b{EN_RESULT}\b", re.I)
_EN_IRREGULAR = re.compile(r"\b(?:went|took|brought|led|became|froze|slid|rose|fell|came|began|sent|hid|drew|grew|swung"
                           r"|shown|showed|popped|got)\b|\b(?:was|were|has been|have been)\s+\w+ed\b", re.I)
_EN_REGULAR = re.compile(r"\b(\w+)\s+([a-z]{3,}ed)\b", re.I)
_NOT_PAST = {"is", "are", "be", "been", "being", "am", "the", "a", "an", "my", "this", "that", "these", "those", "its",
             "your", "get", "gets", "has", "have", "had", "i", "already", "not", "of", "and", "when", "if"}
# a property said of an item, not a change: the selected tab, a checked box, the numbered card
_ED_WORDS = {"tapped", "pressed", "typed", "clicked", "swiped", "scrolled", "selected", "needed", "based",
             "called", "named", "labeled", "labelled", "required", "expected", "limited", "detailed", "speed", "embed",
             "hundred", "indeed", "focused", "checked", "unchecked", "enabled", "disabled", "highlighted", "pinned",
             "touched", "dimmed", "greyed", "grayed", "unread", "related", "used", "saved",
             "dated", "titled", "stamped", "counted", "priced", "rated", "tagged", "captioned", "sized", "numbered",
             "timestamped",
             "included", "excluded", "intended", "preferred", "spelled", "capitalized", "capitalised"}
# the agent's own perfect, which tells its history: I've only moved one screen (so far)
_OWN_PERFECT = re.compile(r"\b(?:I|we)(?:'ve|\s+have)\s+(?:(?:only|already|also)\s+)?(?=[a-z]{3,}ed\b)", re.I)
# a wish, or a constraint on a typed value (``with no punctuation added``): no report
_WISHED = re.compile(r"\b(?:wants?|wanted|needs?|needed|would like|asks? for)\s+(?:[\w'-]+\s+){0,3}?[\w-]+ed\b"
                     r"|\b(?:no|without)\s+(?:[\w'-]+\s+){0,2}?(?:added|included|appended|inserted)\b", re.I)

# a present passive of a verb of doing (``that's where Bluetooth is switched``, ``the list gets filtered here``): a
# habit, not a report (a state's, ``the listings are loaded``, still tells a result)
_PRESENT_PASSIVE = re.compile(r"\b(?:is|are|gets?|be|being)\s+(?:\w+ly\s+)?(?:switched|turned|changed|filtered|updated"
                              r"|launched|started|triggered)\b(?!\s+(?:now|already|just)\b)", re.I)


def en_past(clause: str) -> bool:
    """Does an English clause report something in the past tense (not the agent's own taps, not adjectives, not a
    wish: ``the switch the goal wants toggled``)?"""
    clause = _WISHED.sub(" ", _OWN_PERFECT.sub("have ", clause))
    results = _PRESENT_PASSIVE.sub(" ", clause)  # where Bluetooth is switched: what is done there, no report
    if _EN_IRREGULAR.search(clause) or _RESULT_WORD.search(results):
        return True
    return any(m.group(1).lower() not in _NOT_PAST and m.group(2).lower() not in _ED_WORDS
               for m in _EN_REGULAR.finditer(clause))


__all__ = ["EN_RESULT", "en_past"]
