"""Mentions a text rules out: neither the decision's target nor a conflicting one.

A term under a negation or a ruling-out in its own clause (``no need to search``, ``instead of the search box``,
``rather than Chrome``, ``不用搜``, ``不必点 X``, ``别点 X``, ``不是 X，是 Y``) or one a later predicate of its clause
rules out (``立即购买 is the wrong button``, ``搜索框不对``, ``the ad isn't the one``; a judgement making a clause of its
own rules out the clause before it: ``现在点 Find homes 只会得到默认列表，没意义``), a candidate asked about and refused
(``Open 相册 again? No — …``) and one granted and set aside (``I could re-enter to check, but …``) name what the agent
does *not* act on. :func:`mask_ruled_out` blanks those mentions (the same length, so every position stays valid) before
the decision and the contradiction readers read the text; a label of the screen that holds a ruling word
(``Not now``, ``Don't allow``, ``不用了``) is a name, never a ruling-out.

The ruling-out words themselves live here and nowhere else: :data:`RULING_ZH` and :data:`RULING_EN` (and the
groups they are made of), and the patterns the other readers build from them: :data:`CONTRAST` (where a clause
turns to what it does not act on), :data:`NEGATED_BEFORE` (a negation just before a verb), :data:`DENIED` (any
negation in a clause) and the after-the-decision sets :data:`EXCUSING_EN` / :data:`ACCOUNTING_EN`.

>>> mask_ruled_out("no need to search — just tap that product image").split()
['no', 'need', 'to', '—', 'just', 'tap', 'that', 'product', 'image']
>>> mask_ruled_out("别点搜索框，直接点商品图").replace(" ", "")
'别，直接点商品图'
>>> mask_ruled_out("The task is add to cart, so 立即购买 is the wrong button. Tap 加入购物车.").split()
['The', 'task', 'is', 'add', 'to', 'cart,', '.', 'Tap', '加入购物车.']
>>> mask_ruled_out("Tap Not now to close the prompt", ("Not now",))
'Tap Not now to close the prompt'
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator

from ..model import Step
from .quoting import mask_quotes
from .screen_text import element_texts, visible_elements

# The ruling-out words. Every reader of the checks that asks "is this named only to be ruled out?" builds its
# pattern from these (each a regular-expression alternation, to be spliced into a group).
NO_NEED_ZH = "不用|不必|无需|无须|没必要|不需要|用不着|用不上|犯不着"
"""Chinese "no need to": the step said after it is not taken (``不用搜``)."""
NOT_THIS_ZH = "而不是|而非|不是"
"""Chinese "not X (but Y)": what follows is contrasted with what is done (``点商城而不是 Chrome``)."""
DONT_ZH = "不要|先不|暂不|不点|不选|不去|别"
"""Chinese prohibitions and deferrals (``别点搜索框``, ``先不管``)."""
RULING_ZH = f"{NO_NEED_ZH}|{NOT_THIS_ZH}|{DONT_ZH}"
"""Every Chinese ruling-out word said before what it rules out."""
NO_NEED_EN = ("no need to|don't need to|do not need to|needn't|there's no need to|not necessary to|no reason to"
              "|there's no reason to")
"""English "no need to" (longer alternatives first: a pattern stops at the first that matches)."""
INSTEAD_EN = "instead of|rather than"
"""English "instead of X": what follows is contrasted with what is done."""
NOT_EN = "don't|do not|never|not|without"
"""English negations of the act."""
SKIP_EN = r"skip(?:ping)?|avoid(?:ing)?|ignor(?:e|ing)|leav(?:e|ing)(?=\s[^,.;\n]{1,40}?\s(?:alone|untouched|be)\b)"
"""English verbs that leave something out (``skip the ad``, ``leave 立即购买 alone``)."""
RULING_EN = f"{NO_NEED_EN}|{INSTEAD_EN}|{NOT_EN}|{SKIP_EN}"
"""Every English ruling-out said before what it rules out, lower case."""
RULING_EN_LEADING = "No need to|No reason to|Instead of|Rather than|Don't|Do not|Never|Not|Without|Skip|Avoid|Ignore"
"""The English ruling-outs that may lead a clause capitalised (``Not the ad: tap …``)."""

CONTRAST = re.compile(
    rf"\b(?:{INSTEAD_EN}|(?-i:not|never)|(?:^|(?<=[,;:—–-] )|(?<=[,;:—–-]))(?:Not|Never))\b|{RULING_ZH}|不去",
    re.I)  # "Do Not Disturb" is a label: a contrast is lower case, or leads its clause
"""Where a clause turns to what it does *not* act on: ``rather than Chrome``, ``not the top one``, ``而不是“取消”``.
Readers cut a clause's object, or a pronoun's antecedents, at its start."""
NEGATED_BEFORE = re.compile(
    rf"(?:不(?![过同错少久仅但])|{RULING_ZH}|勿|避免|没有)[^，,。]{{0,4}}$"
    rf"|\b(?:{NOT_EN}|{INSTEAD_EN}|won't|will not|shouldn't|should not|no need to|no|nothing|none)"
    r"\s+(?:\w+\s+){0,2}$", re.I)
"""A negation just before a verb (the text up to the verb ends with it): ``不用点``, ``don't tap``, ``no need to
even open``; the verb it governs is no decision."""
DENIED = re.compile(rf"不|没|{RULING_ZH}|\b(?:{NOT_EN}|instead|rather)\b", re.I)
"""Any negation in a clause (the widest set): a value said in a denied clause is not the value decided."""
EXCUSING_EN = "not|don't|never|won't|will not|can't"
"""The English ruling-outs that excuse a change said after a decision (``so it won't reload``: not reported);
the Chinese ones are :data:`RULING_ZH`."""
ACCOUNTING_EN = f"{EXCUSING_EN}|instead|rather|no need|unlike"
"""The English ruling-outs that account for a clause after the decision (``not the archived one``)."""

# a ruling-out before the term: what follows it, up to the end of its clause, is not acted on
_BEFORE = re.compile(
    rf"(?-i:\b(?:{RULING_EN})\b)"
    rf"|(?:^|(?<=[,;:—–.!?] )|(?<=\n))(?-i:(?:{RULING_EN_LEADING})\b)"
    rf"|(?<![是要])(?:{RULING_ZH})",
)
# ... unless it is no ruling-out at all: a doubt, a reminder, a condition, "not only", "whether or not"
_NOT_RULING = re.compile(
    r"(?:not|never) (?:sure|certain|only|just|yet|quite|too|very)\b|(?:don't|do not|never) forget\b"
    r"|(?:don't|do not) (?:know|see|think|have)\b|不是很|不是吗|不要忘|别忘|不用说|不是说|不是只", re.I)
_BEFORE_GUARD = re.compile(r"(?:\bif|\bwhether or|\bor|是否|要|是)\s*$")
# where the ruled-out stretch ends: the clause's end, or the turn to what is done instead
_SCOPE_END = re.compile(r"[,，;；。!?！？\n:：—–()（）→⇒]|->|=>|\.(?=\s|$)|\s-\s|(?-i:\b(?:but|just|and|instead|so|then)\b)"
                        r"|(?-i:\b(?:I|we)(?:'ll|'d|\s+will|\s+would|\s+can)\b)|\blet(?:'s|\s+me)\b"  # rather than X I'll tap Y
                        r"|而是|只|直接|就|改|还是|反而|，")
# a ruling-out after the term in its clause: the clause up to it names what is not acted on
_AFTER = re.compile(
    r"\b(?:is|are|'s|looks|seems) (?:the |a )?(?:wrong|incorrect|irrelevant|a distractor|a trap|not (?:it|the one|the right"
    r"|the target|what (?:I|we) (?:want|need)|needed|relevant))(?: (?:one|button|choice|option|control|link|tab|field|icon|item))?\b|\b(?:isn't|aren't) (?:it|the one|right|what|needed"
    r"|relevant)\b|\bwon't do\b|\b(?:is|are) not needed\b"
    r"|\b(?:isn't|aren't|is not|are not) (?:part of|in|what) (?:the |my |our )?(?:goal|task)\b"  # 立即购买 isn't part of the goal
    r"|不在(?:任务|目标)(?:的)?(?:范围)?(?:里|内|之内|中)?|不在范围(?:里|内|之内)|不是任务要的|任务没要求|目标没要求"
    r"|不对|是错的|选错|用不上|不相关|没用|不方便|不用管|先不管|不管它|不是目标|不是要(?:点|找|选|的)|不是我们?要(?:点|找|选)?的"
    # an option judged off (``返回也太早``, ``下拉快捷栏不符合要求``, ``going back now would be too early``)
    r"|(?:也|就|又|都|还)?(?:太早|太晚|太慢|太贵|太麻烦|太绕|太远|太宽泛?|太窄|太泛|反而(?:更)?慢|更慢|不符合(?:要求|目标|任务)?|没必要|不划算|不合适|意义不大|没意义)"
    r"|\b(?:is|'s|would be|will be|seems?)\s+(?:(?:a bit|way|far)\s+)?(?:too (?:early|soon|slow|late)|premature|slower|pointless)\b"
    # an option judged not needed (``going back to verify is optional``, ``going home isn't asked for``, ``再点别的都是多余``)
    r"|\b(?:is|are|'s|would be|seems?)\s+(?:purely\s+|just\s+|entirely\s+)?(?:optional|unnecessary|redundant|superfluous)\b"
    r"|\b(?:isn't|aren't|is not|are not)\s+(?:asked for|required|necessary)\b|(?:都|也|就)?(?:是)?多余"
    # a thing deferred, not a wait decided (``the color filter can wait``, ``颜色以后再说``)
    r"|\b(?:can|could|will have to|has to|must)\s+wait\b|(?:可以)?(?:先)?放一放|待会(?:儿)?再说|以后再说", re.I)
# a candidate asked about and refused (``Open 相册 again? No — …``, ``Re-open Settings to verify? Not required.``,
# ``再搜一次？没必要``), or granted and set aside (``I could re-enter to double-check, but it clearly showed On``)
_ASKED_NO = re.compile(r"[^?？。.!！\n]{1,100}[?？](?=\s*(?:No\b|Nope\b|Nah\b|Not\s+(?:needed|required|necessary)\b"
                       r"|Unnecessary\b|不用|没必要|不需要|不必|算了|不了))")
_GRANTED = re.compile(r"\b(?:I|we)\s+could\s+[^,.;!?]{1,60}(?=,\s*but\b)")
# a judgement that makes a clause of its own (``现在点 Find homes 只会得到默认列表，没意义``): of the clause before it
# (not one that goes on to what it judges: ``没必要再打字``)
_JUDGED_ALONE = re.compile(r"^\s*(?:现在|目前|暂时|还|也|都|就|其实|根本|完全|这里|此时|反正)*\s*$")
_CLAUSE_START = re.compile(r"[,，;；。!?！？\n:：—–()（）→⇒]|->|=>|\.(?=\s|$)")
_LIMIT = 48  # a ruling-out reaches at most this far
_RELATIVE = re.compile(r",\s*(?:which|that|whose)\b")  # a relative clause goes on naming what is ruled out


def _protected(text: str, labels: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``text`` names a label that holds a ruling word (``Not now``, ``不用了``)."""
    spans = []
    for label in labels:
        if len(label) >= 2 and (_BEFORE.search(label) or _AFTER.search(label)):
            spans += [(m.start(), m.end()) for m in re.finditer(re.escape(label), text)]
    return spans


def _leading_scopes(text: str, keep: list[tuple[int, int]]) -> Iterator[tuple[re.Match[str], int, int | None]]:
    """(the ruling word, where its scope ends, where a relative clause that goes on naming the same thing starts:
    ``not the top one, which belongs to #12``) of each ruling-out said before what it excludes, in ``text``
    (quotations masked); scopes that exclude nothing (``不用，…``) left out."""
    for m in _BEFORE.finditer(text):
        if any(a <= m.start() < b for a, b in keep) or _NOT_RULING.match(text, m.start()) \
                or _BEFORE_GUARD.search(text[max(0, m.start() - 12):m.start()]):
            continue
        stop = _SCOPE_END.search(text, m.end() + (1 if text[m.end():m.end() + 1].isspace() else 0))
        relative = _RELATIVE.match(text, stop.start()) if stop else None
        if relative:
            stop = _SCOPE_END.search(text, relative.end())
        elif stop and stop.start() == m.end():  # 不用，… / not, …: nothing ruled out
            continue
        yield m, stop.start() if stop else len(text), relative.start() if relative else None


def ruled_out_spans(text: str, labels: Iterable[str] = ()) -> list[tuple[int, int]]:
    """The stretches of ``text`` that name what a ruling-out in their clause excludes."""
    keep = _protected(text, labels)
    out: list[tuple[int, int]] = []
    text = mask_quotes(text)  # a ruling word inside a quotation (a typed reply, a label) rules nothing out
    for m, stop, _ in _leading_scopes(text, keep):
        out.append((m.end(), min(stop, m.end() + _LIMIT)))
    for m in _AFTER.finditer(text):
        if any(a <= m.start() < b for a, b in keep):
            continue
        start = max((c.end() for c in _CLAUSE_START.finditer(text, 0, m.start())), default=0)
        if start and text[start - 1] in "，," and _JUDGED_ALONE.match(text[start:m.start()]) \
                and re.match(r"\s*(?:了|的)?\s*(?:[，,。；;.!！]|$)", text[m.end():]):
            start = max((c.end() for c in _CLAUSE_START.finditer(text, 0, start - 1)), default=0)
        out.append((max(start, m.start() - _LIMIT), m.end()))
    out += [m.span() for m in (*_ASKED_NO.finditer(text), *_GRANTED.finditer(text))
            if not any(a <= m.start() < b for a, b in keep)]
    return out


def ruled_out_relatives(text: str) -> list[tuple[int, int]]:
    """The relative clauses of ``text`` that go on describing what a ruling-out excludes (``not 相机, which sits just
    below it``, ``not into the keyword box, which already has text``): of the thing set aside, not the action's result.

    >>> text = "Tap 相册. Not 相机, which sits just below it."
    >>> [text[a:b] for a, b in ruled_out_relatives(text)]
    [', which sits just below it']
    """
    if not isinstance(text, str):
        return []
    masked = mask_quotes(text)
    out = []
    for _, _, relative in _leading_scopes(masked, []):
        if relative is not None:
            end = _CLAUSE_START.search(masked, relative + 1)
            out.append((relative, end.start() if end else len(text)))
    return out


def mask_ruled_out(text: str, labels: Iterable[str] = ()) -> str:
    """``text`` with what its ruling-outs exclude blanked (spaces, the same length); ``labels``: the screen's
    labels, which stay names even when they hold a ruling word."""
    if not isinstance(text, str):
        return text
    chars = list(text)
    for start, end in ruled_out_spans(text, tuple(labels)):
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def unruled(text: str, step: Step) -> str:
    """:func:`mask_ruled_out` with ``step``'s visible labels and typed text kept as they are."""
    if not isinstance(text, str):
        return text
    kept = {t for e in visible_elements(step) for t in element_texts(e)} | {step.action.text or ""}
    return mask_ruled_out(text, kept)


__all__ = ["ACCOUNTING_EN", "CONTRAST", "DENIED", "EXCUSING_EN", "NEGATED_BEFORE", "RULING_EN", "RULING_ZH",
           "mask_ruled_out", "ruled_out_relatives", "ruled_out_spans", "unruled"]
