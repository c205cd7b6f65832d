"""Which element a tap's decision acts on, read from its object: the words after the verb, less what follows a
contrast (``not the one for #24``) or a purpose (``to run the search``, ``进入详情``), and for a pronoun (``点它``,
``Tap it``) the sentence it points back to. Every action clause of the step that the call allows is read: one
must single out the target (:func:`sftdata.checks.target_evidence.target_evidence`) and none another element.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> from sftdata.checks.decision import stated_decision
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> rows = [Element(i, (0, 300 + 120 * i, 1080, 400 + 120 * i), text=t, flags=("visible", "clickable"))
...         for i, t in enumerate(["Airplane mode", "Bluetooth", "Connected devices"])]
>>> step = Step(0, shot, Action("click", point=(540, 350), element=rows[0]), elements=rows)
>>> text = "Airplane mode is back in view, between Bluetooth and Connected devices. Tap it to turn it on."
>>> [e.kind for e in click_evidence(text, stated_decision(text), {"name": "click"}, step)[0]]
['name']
"""
from __future__ import annotations

import re
from typing import Any, Callable

from ..model import Step
from .agreement import COMPATIBLE
from .calls import CJK, CJK_CLASS, target_element
from .neighbours import ABOVE_BELOW, Beside, beside, neighbours
from .screen_text import visible_elements
from .ruled_out import CONTRAST
from .decision import SPATIAL, Decision, first_verb, action_clauses, mask_quotes, quotes_in
from .target_evidence import Evidence, head_names_other, names_rival, target_evidence
from .twin_places import twin_place_conflict

_PRONOUN = re.compile(r"(?<![A-Za-z])(?:it|its|this one|that one|this|that|them|their|these|those|her|his"
                      r"|the same (?:one|button|row|line|card)|(?:this|that) (?:row|line|card))(?![A-Za-z])"
                      r"|(?:这|那|同)一?(?:行|排|栏|张卡片)|它|她|他|这个|那个|这条|那条|这款|那款|这张|那张|这一项|这一条|该项|这一个|那一个|这家|那家|这本|那本",
                      re.I)
_PURPOSE_EN = re.compile(
    r"\s(?:(?:in order |so as )?to|so that|and then|then|so|because|since|for the|which)\s+(?:run|open|see|start|go|get|submit|confirm|select"
    r"|add|make|save|view|check|find|search|enter|turn|toggle|reveal|load|show|bring|return|finish|complete|begin"
    r"|continue|proceed|apply|book|reserve|send|delete|remove|switch|move|close|leave|pick|choose|focus|put|activate"
    r"|trigger|launch|expand|collapse|display|access|look|read|compare|filter|sort|type|fill|pull|reach|land|jump"
    r"|enable|disable|mark|set|begin|kick|call|dismiss|exit|clear|start)\b.*", re.I)
_PURPOSE_ZH = re.compile(r"(?:来|以|去|好)?(?:发起|开始|进行|执行|触发|完成)(?:搜索|查询|检索|购买|下单|预订)")  # 点它发起搜索
_SENTENCES = re.compile(r"(?:[^。！？!?\n.]|\.(?!\s|$))+(?:[。！？!?\n]|\.(?=\s|$)|$)")


def _cut(rest: str) -> str:
    """The object of a verb: ``rest`` up to a contrast, a purpose or (Chinese) the next verb."""
    masked = mask_quotes(rest)
    m = CONTRAST.search(masked)
    end = m.start() if m else len(rest)
    m = _PURPOSE_EN.search(masked[:end]) or _PURPOSE_ZH.search(masked[:end])
    end = m.start() if m and masked[:m.start()].strip() else end
    verb = first_verb(masked[:end])
    if verb is not None and masked[:verb[0]].strip(" 一下的了") and CJK.search(masked[verb[0]:verb[2]]):
        end = verb[0]  # 点它进入: the object ends where the next verb starts
    later = _LATER_STEP.search(masked[:end])
    end = later.start() if later and masked[:later.start()].strip() else end  # 点进去再找手机类目: a later step
    return _without_anchor(rest[:end])


# a row said by the row above or below it: ``the row just above Battery`` is another row than Battery's (a control
# beside a name, ``the Apply right of Bold job #10``, ``它右边的 Save``, is that row's own: its card is evidence)
_ABOVE_BELOW = re.compile(ABOVE_BELOW + r"(?!(?:the\s+)?(?:top|bottom|screen|page|header|title|search|tab|tool|nav)\b)"
                          r"[^,，.;:；。!?]*", re.I)


def _without_anchor(said: str) -> str:
    """``said`` less a neighbouring row named as its place: ``the row just above Battery`` -> ``the row``; a place
    of the screen (``below the top bar``) is kept.

    >>> _without_anchor("the row just above Battery to get in").strip()
    'the row'
    """
    return _ABOVE_BELOW.sub(" ", said)


_LATER_STEP = re.compile(r"[，,]?\s*(?:再|然后|之后(?!的)|接着)(?!次)|\b(?:and then|then|after that)\b", re.I)


_COPULA = re.compile(r".*(?:是|有|就是|叫|\bis\b|\bare\b|\bcalled\b|\b(?:want|need)\b)", re.I)  # we want 家居, so tap that one


def _antecedents(text: str, start: int, whole: bool = False,
                 names: Callable[[str], bool] = lambda s: False) -> list[str] | str:
    """What a pronoun at ``start`` may point back to, nearest first: what the last clause before it introduces
    (``分类标签里有家居`` -> ``家居``), that clause, and its whole sentence; contrasts (``不是它``) and places
    (``between Bluetooth and …`` is where, not what) left out. ``whole``: the last clause's parts together (a
    subject and what a copula says of it: ``Save at the top right is the one next to #3``), as one text.
    ``names``: does a subject name an element of the screen? Then what the copula places it by is where it is
    (``Dark theme is right there under Display``), not what it is (``vegan stuff is under Healthy``)."""
    before = text[:start]
    sentences = [before[m.start():m.end()] for m in _SENTENCES.finditer(mask_quotes(before))  # 那条“…？”: one
                 if m.group().strip(" ，,。.;；:：—–")]
    if not sentences:
        return "" if whole else []
    last = sentences[-1]
    if not re.search(rf"[A-Za-z{CJK_CLASS}]{{2}}", mask_quotes(last).rstrip(" ，,;；")) and len(sentences) > 1:
        last = sentences[-2] + last
    parts, tails = [], []
    for part in re.split(r"[，,；;—–]", last):
        m = _COPULA.match(mask_quotes(part))  # … is 蓝牙 / 分类标签里有家居: what the clause introduces
        tail = part[m.end():] if m else ""
        where = SPATIAL.search(mask_quotes(tail))  # Dark theme is right there under Display: where it is, not what
        tail = tail[:where.start()] if where and not CJK.search(where.group()) and names(part[:m.end()]) else tail
        if tail.strip():
            tails.append(tail)
        masked = mask_quotes(part)
        m = CONTRAST.search(masked)
        part = part[:m.start()] if m else part
        m = SPATIAL.search(mask_quotes(part))
        part = part[:m.start()] if m and not CJK.search(m.group()) else part
        if _CONTENT.search(mask_quotes(part)):
            parts.append(part)
    if whole:
        return " ".join(parts)
    earlier = [" ".join(sentences[-k:]) for k in (2, 3) if len(sentences) >= k]  # its, said of what came before
    return [p for p in (tails[-1:] + parts[-1:] + [" ".join(parts)] + earlier) if p.strip()]


def _uncontrasted(said: str) -> str:
    """``said`` less its contrasted parts (``…, not the top one, which …``)."""
    kept = []
    for part in re.split(r"(?<=[，,；;])", said):
        m = CONTRAST.search(mask_quotes(part))
        kept.append(part[:m.start()] if m else part)
    return "".join(kept)


def _dashed(text: str, end: int) -> str:
    """A verbless aside between dashes right after the clause (``I'll open it first — Max earbuds #2 — …``)."""
    m = re.match(r"\s*[—–-]+\s*([^—–.。;；]+)", text[end:])
    if not m or first_verb(mask_quotes(m.group(1))):
        return ""
    part = m.group(1)
    c = CONTRAST.search(mask_quotes(part))
    return part[:c.start()] if c else part


_PLACED_BY = re.compile(r"\s(?:next to|beside|by|for|of|in|on|under|below|above|inside|within|at|from|near"
                        r"|(?:that |which )?belongs? to|belonging to)\s", re.I)
_CONTENT = re.compile(rf"[A-Za-z0-9{CJK_CLASS}]")


def object_head(said: str) -> str:
    """What an object names as the thing acted on when it also names where that thing is: after the last ``的``
    (``它那一行右边的 Save 按钮`` -> ``Save 按钮``), before a relation (``the Add to cart next to #4`` -> ``the Add to
    cart``), after a possessive (``#4's Save`` -> ``Save``); '' when the object has no such modifier.

    >>> object_head("它那一行右边的 Save 按钮"), object_head("the Add to cart next to #4"), object_head("Save")
    (' Save 按钮', 'the Add to cart', '')
    """
    masked = mask_quotes(said)
    cuts = [m for m in re.finditer("的", masked)]
    possessive = [m for m in re.finditer(r"(?<=\w)'s\s", masked)]
    relation = _PLACED_BY.search(masked)
    if cuts:
        head, placed = said[cuts[-1].end():], said[:cuts[-1].start()]
    elif possessive:
        head, placed = said[possessive[-1].end():], said[:possessive[-1].start()]
    elif relation:
        head, placed = said[:relation.start()], said[relation.end():]
    else:
        return ""
    return head if _CONTENT.search(mask_quotes(placed).replace("□", "x")) and _CONTENT.search(head) else ""


_DEMONSTRATIVE = re.compile(r"(?:那个|这个|那颗|这颗|那枚|这枚|\b(?:that|this)\b)\s*", re.I)


def demonstrative_head(said: str) -> str:
    """What an object names after the demonstrative it opens with, a place at most before it (``中间右侧那个 Buy
    tickets`` -> ``Buy tickets``, ``that Save recipe directly`` -> ``Save recipe directly``): the thing acted on,
    whatever the demonstrative points back to; '' when there is none or no name follows it.

    >>> demonstrative_head("中间右侧那个 Buy tickets"), demonstrative_head("that one"), demonstrative_head("Save")
    ('Buy tickets', 'one', '')
    """
    masked = mask_quotes(said)
    found = _DEMONSTRATIVE.search(masked)
    if found is None or not re.fullmatch(rf"[\s{CJK_CLASS}]{{0,8}}", masked[:found.start()]):
        return ""  # only a place may come before it (中间右侧那个), not a name or a verb (its title brings that card)
    head = said[found.end():]
    return head if _CONTENT.search(mask_quotes(head)) else ""


def _topic(text: str, span: tuple[int, int]) -> str:
    """The object said before the verb in its own clause (``网格第三行中间那张点开``, ``右上角那个加号点一下``): the clause's
    words before its first verb, when they hold no verb, history or condition of their own."""
    clause = text[span[0]:span[1]]
    masked = mask_quotes(clause)
    verb = first_verb(masked)
    lead = clause[:verb[0]] if verb else ""
    if not CJK.search(lead) or re.search(r"已|了|如果|要是|\b(?:if|when)\b", mask_quotes(lead), re.I):
        return ""
    return lead


def _placed_head(said: str, step: Step) -> str:
    """``said``'s head when a neighbour in the target's row places it (``Find a recipe 旁边的 Search``: the head
    names the target, its neighbour is a place), ``said`` otherwise."""
    placed = _row_place(said, step)
    return placed.head if placed is not None else said


def _row_place(said: str, step: Step) -> Beside | None:
    """The neighbour in the target's row that ``said`` places its head by, where the screen bears it out."""
    placed = beside(said, target_element(step), visible_elements(step))
    return placed if placed is not None and placed.holds else None


# a verb alone, that a control is named by: ``Send it.``
_OWN_VERB = re.compile(r"\s*(send|submit|save|delete|confirm)(?:\s+(?:it|this|the (?:message|reply|text|sms|form)))?\s*[.!]?\s*",
                       re.I)


def click_evidence(text: str, decision: Decision, function: dict[str, Any], step: Step) -> tuple[list[Evidence], bool]:
    """(the evidence that an action clause singles out the call's target, whether one names another element)."""
    own = quotes_in(str((function.get("parameters") or {}).get("target_element") or ""))
    allowed = COMPATIBLE.get(str(function.get("name") or ""), set())
    rest = decision.rest
    if decision.verb == "open_app":  # 切换到 Contacts 应用找到 Alice Chen: the app is what is tapped
        m = re.search(r"应用|软件|程序|\bapp\b", rest, re.I)
        rest = rest[:m.end()] if m else rest
    objects = [(" ".join(p for p in (_cut(rest), decision.appendix, decision.continuation) if p), decision.span)]
    objects += [(_cut(c.rest), c.span) for c in action_clauses(text) if c.span != decision.span and c.verb in allowed]
    found: list[Evidence] = []
    heads = [_cut(rest)] + [_cut(c.rest) for c in action_clauses(text) if c.span != decision.span and c.verb in allowed]
    heads = [_placed_head(said, step) for said in heads]  # #19 右边的 Save recipe: the head names the target
    if any(head_names_other(object_head(said) or demonstrative_head(said), step) for said in heads):
        return [], True
    for said, span in objects:
        row = _row_place(said, step)  # Family recipe travel #19 右边的 Save recipe: that row's, wherever it sits
        said = row.head if row is not None else said
        if names_rival(said, step):
            return [], True
        bare = not _CONTENT.search(re.sub(  # 点一下准备开听: a purpose is no object
            r"一下|一次|再|就|了|进去|过去|^\s*去|(?:准备|以便|好让|好|看看)[^，,。]*$", "", said))
        pronoun = bare or _PRONOUN.search(mask_quotes(said))
        named = target_evidence(said, step, own)  # #19 这一行: the demonstrative goes with a name of the target's
        if not named:  # an aside after a dash, and what a pronoun points back to
            for context in [_dashed(text, span[1]), _topic(text, span)] + (
                    _antecedents(text, span[0], names=lambda s: bool(target_evidence(s, step, own))
                                 or names_rival(s, step)) if pronoun else []):
                if context and target_evidence(f"{said} {context}", step, own):
                    said = f"{said} {context}"
                    break
        placed = f"{said} {_antecedents(text, span[0], whole=True)}" if pronoun and not named else said  # its subject
        if names_rival(said, step) or (row is None and twin_place_conflict(_uncontrasted(placed), step)):
            return [], True
        if not found:
            found = target_evidence(said, step, own) or ([Evidence("neighbour", f"beside {row.anchor}")] if row else [])
    bare_verb = _OWN_VERB.fullmatch(decision.after_verb)
    if not found and bare_verb:
        found = target_evidence(bare_verb[1], step, own)  # Send it.: the verb names the one Send button
    if not found:  # the row just above Hotels: the target by its neighbour, where the screen bears it out
        placed = neighbours(decision.rest, target_element(step), visible_elements(step))
        if any(not n.holds for n in placed):
            return [], True
        found = [Evidence("neighbour", f"{n.side} {n.anchor}") for n in placed[:1]]
    return found, False


__all__ = ["click_evidence", "demonstrative_head", "object_head"]
