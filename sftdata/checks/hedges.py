"""Words that make a statement an expectation, a plan or a condition rather than a report of what happened.

``Tapping Save should close the form`` expects, ``再点保存`` plans, ``如果弹窗出现`` supposes, ``this usually brings up a
menu`` states a habit of apps: none of them tells what the next screen shows, so none is hindsight, and a change
said after the decision under one of them is excused. The hindsight reader, the outcome reader, the reader of what
follows the decision and the acted-state reader each build their pattern from the groups below, and these words
live here and nowhere else:

- :data:`HABITUAL`: how such a screen usually behaves (``usually``, ``通常``, ``往往``);
- :data:`HEDGE`: an expectation that carries to the end of its sentence (``should``, ``will``, ``应该``, ``可能``);
- :data:`WILL_ZH`: ``将`` as a future (not ``将其``, ``将它``: the object marker);
- :data:`PURPOSE_ZH`, :data:`CONDITION_ZH`, :data:`TRYING_ZH`, :data:`LATER_ZH`: a purpose, a condition, a try, a
  later step; :data:`WANT_EN`, their English (``if``, ``so that``, ``hope``); :data:`ASKING_ZH`, a question to the
  screen (``能不能``, ``是否``);
- :data:`WEIGHING_EN`: an option weighed against another (``but``, ``risks``, ``faster``);
- :func:`now_sentences`: a sentence after the decision's that says the screen as it is now (``当前是 …``).

>>> bool(HEDGE.search("Tapping Save should close the form"))
True
>>> bool(HEDGE.search("会员中心"))
False
>>> bool(re.search(HABITUAL, "this usually brings up a menu"))
True
"""
from __future__ import annotations

import re

HABITUAL = r"通常|往往|一般(?:来说|而言|会|都)|\b(?:usually|typically|normally|generally|often|tends? to)\b"
EXPECT_ZH = r"应该|应当|会(?![话议员计场儿])|预计|预期|期望|希望|可能|也许|或许|大概|估计"
EXPECT_EN = r"should|will|would|may|might|could|expect|expected|likely|probably"
HEDGE = re.compile(EXPECT_ZH + r"|\b(?:" + EXPECT_EN + r")\b|'ll\b", re.I)
WILL_ZH = r"将(?![其它他她之])"
PURPOSE_ZH = r"以便|以免|为了|便于"
CONDITION_ZH = r"如果|假如|要是|一旦"
TRYING_ZH = r"看看|看是否|试试"
LATER_ZH = r"然后|再|之后|接下来|稍后|下一步"
ENOUGH_ZH = r"就行|即可|就好"
"""Chinese "that is enough" (``输入 jazz 就行``): a judgement of the step, never part of what it types or reports."""
WANT_EN = (r"can|if|whether|want|wants|need|needs|try|hope|hopefully|presumably|so that|in order|aim|meant|supposed"
           r"|ought")
ASKING_ZH = r"能不能|是否|有没有|看一下|看下"
WEIGHING_EN = r"but|though|although|risks?|faster|quicker|slower|better|worse"
ALREADY_ZH = r"已经|(?<![不未])已(?![知售])"
"""Chinese "already" (``已经选好了``, ``已选``), not ``不已`` nor ``已知`` (known) or ``已售`` (sold)."""
EARLIER_ZH = r"上一步|之前|先前"
"""Chinese "before now" (``上一步已经选好``, ``之前滑过``): each reader of the past adds its own markers to these."""
AFTER_ACTING = r"后|[点输填选按打滑划删敲翻]完|\b(?:after|once)\b"
"""A change placed after an action (``滑完``, ``点完后``, ``once it loads``): what the action brings, not the screen now."""

# a judgement of an option, not what the screen shows: ``which is fine``, ``Home is the reliable choice``, ``更稳``
JUDGEMENT = re.compile(r"\b(?:is|are|'s|seems?|looks?|sounds?)\s+(?:\w+\s+)?(?:fine|good|ok|okay|enough|better|best|ideal"
                       r"|reasonable|sensible|safer|safest|simpler|simplest|quicker|quickest|faster|fastest|cleaner|cheaper"
                       r"|cheapest|pointless|unnecessary|useless|irrelevant|risky|riskier|overkill"
                       r"|the (?:\w+ )?(?:choice|move|option|way|bet|pick|route)|a (?:\w+ )?(?:choice|move|option|way|bet|pick|route))\b"
                       r"|\b(?:avoids?|beats?|trumps?|preferable)\b"
                       r"|\b(?:matches|fits)\s+(?:the|my|our)\s+(?:query|goal|task|request|search|keywords?|brief)\b|更好|更稳|更合适|更方便|更省事|更直接|更快|更像"
                       r"|最合适|最稳妥|最直接|最快|没意义|没必要|不划算|不靠谱|更靠谱|比较稳|稳妥|划算", re.I)
CONCLUSION = re.compile(
    r"^\s*(?:and\s+)?(?:so|thus|therefore|hence|which is why)\s+(?:(?:now|next|here|first|instead)\s+)?(?:"
    r"(?:i|we)\s+(?:(?:just|simply|first|now|then)\s+)?(?!(?:see|saw|get|got|am|was|were|land|landed|end|ended|find|found"
    r"|have|had|can|could|should|will|would|may|might|must)\b)[a-z]+\b(?<!ed)"
    r"|(?:i'm|i am|we're|we are)\s+(?!(?:back|on|in|at|now|done|seeing|getting|landing)\b)[a-z]+ing\b"
    r"|it(?:'s| is) time to\b|all that (?:remains|is left)\b|what remains\b|(?:the\s+)?only thing (?:left|remaining)\b"
    r"|(?:just\s+|simply\s+)?(?:run|confirm|submit|proceed|continue|paginate|search|save|tap|click|press|hit|type|enter|open"
    r"|start|go ahead|move on|finish|send|add|pick|choose|select|fill|book|reserve|apply|leave|exit|delete|toggle)\b"
    r"(?!\s+(?:is|are|was|were|has|had|will|would|should|does|did)\b)"
    r"|[^,.;]{1,40}?\b(?:is|'s|are|seems?)\s+(?:the\s+)?(?:right|wrong|sensible|obvious|correct|logical|natural|only|best)\s+"
    r"(?:move|button|one|choice|call|step|thing|option|action|control|link)\b"
    r"|[^,.;]{1,40}?\bis (?:needed|required|necessary|the way to go)\b|[^,.;]{1,40}?\bit is\s*[.!]?\s*$"
    r"|(?:the|my|this)\s+(?:[\w-]+\s+){0,2}(?:goes|can go)\s+in(?:to\b[^,.;]{0,30})?(?:\s+(?:now|first|here))?\s*[.!]?\s*$)", re.I)
"""The writer's conclusion after a justification, the decision said again as the writer's own doing or judged
(``so I run the search``, ``so run the search``, ``so it's time to submit``, ``so 归档 beside it is the wrong button``, ``so 删除 it is``,
``so the keyword goes in now``): why the step is
taken, never what the screen does after it (not: ``so I see the results``, ``so I landed on the detail page``).

>>> [bool(CONCLUSION.match(t)) for t in ("so now I submit", "so I see the results", "so I'm using the #13 row")]
[True, False, True]
"""

__all__ = ["ALREADY_ZH", "ASKING_ZH", "CONCLUSION", "CONDITION_ZH", "ENOUGH_ZH", "EXPECT_EN", "EXPECT_ZH", "HABITUAL", "HEDGE", "JUDGEMENT", "LATER_ZH",
           "PURPOSE_ZH", "TRYING_ZH", "WANT_EN", "WEIGHING_EN", "WILL_ZH"]


# a sentence of its own after the decision's that says the screen as it is now (当前是搜索页, Current view: …, The
# query is already in the box), not a change told as done (结果已经出来了)
_NOW_SENTENCE = re.compile(r"\s*(?:(?:现在|当前|目前|此刻)(?:还|仍|已经?)?(?:是|在|显示|停在|这一?屏)|当前(?:页面|屏幕|这屏)|这一?屏(?:是|有)"
                          r"|[^，,。]{0,16}(?:已经|都已|已)(?:填好|设好|选好|勾上|弹出|在|是|回到)|[^，,。]{0,60}都(?:已经?)?(?:设置|填|设|选|勾|翻)(?:好|过)"
                          r"|(?![^.;,]{0,40}\b(?:detail|details|result|results|next|new|its|their)\b)"  # not: the detail page shows …
                           r"(?:the |this |that )?[^.;,]{0,30}\b(?:list|home screen|grid|form|header|popup|dialog|feed) (?:shows|lists|has|reads)\b"
                          r"|current(?:ly)?\b|right now\b|(?:we're|we are|i'm|i am) (?:on|in|looking at)\b"
                          r"|(?:the )?current (?:view|screen|page)\b|[^.;,]{0,40}\bis already\b)", re.I)
_SENTENCE = re.compile(r"(?:[^。！？!?\n.]|\.(?!\s|$))+")
_ACTED_AFTER = re.compile(r"[点选输按滑划填翻]完|[点选按]一下就|点下去|成功|生效")
_PERFECT_END = re.compile(r"了\s*$")


def now_sentences(text: str, after: int) -> list[tuple[int, int]]:
    """The spans of the sentences that begin after ``after`` (the decision's end) and open by saying the screen as
    it is now (``当前是 6月12日 17:51 的大图``, ``Current view: …``, ``The query is already in the box``): a
    description, not the action's outcome, unless the sentence ends as a change done (``…了``).

    >>> text = "点相册。当前是主屏幕，第一行是商城。"
    >>> [text[a:b] for a, b in now_sentences(text, 3)]
    ['当前是主屏幕，第一行是商城']
    """
    out = []
    for m in _SENTENCE.finditer(text):
        if m.start() <= after or not text[after:m.start()].strip(" "):
            continue  # the decision's own sentence
        first = re.split(r"[，,；;：:]", m.group(), maxsplit=1)[0]
        own = m.group()
        cut = re.search(r"[；;]", own)
        if cut and _ACTED_AFTER.search(own, cut.end()):  # 现在是 Off；点完就变成 On: what follows the semicolon
            own = own[:cut.start()]  # tells what the action brings, no longer the screen now
        if _NOW_SENTENCE.match(first) and not _PERFECT_END.search(own):
            out.append((m.start(), m.start() + len(own)))
    return out
