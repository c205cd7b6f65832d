"""Read the decision a reasoning states: the action it takes *now*, in Chinese or English.

A reasoning mixes the decision with history (``上一步已经向下滑动``, ``I tapped Search earlier``), screen
description (``页面可以向下滚动``), conditions and alternatives (``如果没有就向下滑动``), negations (``不需要滑动``)
and plans for later steps (``然后再输入关键词``). The text is cut into clauses; each clause with an action verb
is a candidate unless it is history, a condition, a negation or a later plan; the decision is the candidate
with a decision marker (``所以``, ``需要``, ``接下来``, ``I'll``, ``so I``), else the last candidate. Quoted text
(UI labels, the goal) never supplies a verb.

>>> d = stated_decision("上一步已经向下滑动了。现在可以看到“蓝牙”，所以点击“蓝牙”进入设置，然后再打开开关。")
>>> d.verb, d.quotes
('click', ('蓝牙',))
>>> stated_decision("如果列表里没有，就向下滑动。") is None
True
>>> stated_decision("I scrolled down earlier; now I'll swipe up to reveal more rows.").direction
'up'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .action_verbs import VERB_RE
from .bare_target import bare_target_span
from .calls import CJK_CLASS
from .finger import FINGER_MOVES, finger_direction, finger_gloss  # noqa: F401 (read with the decision)
from .hedges import ALREADY_ZH
from .option_labels import ALTERNATIVES, CLOSING_LABEL, LIST_DONE, OPTIONS_LABEL, TASK_LABEL
from .plan_lists import planned_item
from .quoting import QUOTE, mask_quotes, quote, quotable, quotes_in  # noqa: F401 (read with the decision)
from .told_clause import option_listed_on, recounts, told_not_decided


_CLAUSE = re.compile(r"[^，,；;。！？!?\n：:]+|(?<=\w)\.(?=\s|$)")
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")

_ACTION_NOUN = re.compile(r"\s*(?:(?:one|a|an|another|two|three)\s+)?(?:more\s+)?(?:[\w-]+\s+)?(?:swipe|scroll|flick)s?\b", re.I)
# what a swipe goes back to in a viewer: the previous photo, not the previous page
_PREVIOUS_ITEM = re.compile(r"\s*(?:到|去)?\s*(?:上一张|前一张|上张|前张|上一屏|前一屏|上一页内容)|\s*(?:to\s+)?the\s+(?:previous|last|prior)\s+"
                            r"(?:photo|image|picture|shot|one|screenful)\b", re.I)
_NOT_NOUN = r"(?!(?:is|are|was|were|to|will|would|should|can|could|must|may|might|i|we|you|then|so|now|just|and|or|not|also|first|time|way|next)\b)"
_SUBJECT = re.compile(rf"^\s*(?:(?:the|this|that|its|their|these|those|both|all|new|more)\s+)?(?:{_NOT_NOUN}[a-z-]+\s+){{0,2}}"
                      rf"{_NOT_NOUN}(?!(?:this|his|is|was|has|does|as|us|yes|plus|thus|always|perhaps|its)\b)[a-z]{{2,}}s\s+$"
                      rf"|^\s*(?:the|this|that|its|their|a|an)\s+(?:{_NOT_NOUN}[A-Za-z0-9-]+\s+){{1,3}}$", re.I)
_NEED_FIRST = re.compile(rf"(?<=[{CJK_CLASS}])(?:就?得|需要|必须|要)先(?=[{CJK_CLASS}])")  # X 得先 Y: X is why, Y is what
CONDITION = re.compile(r"如果|假如|若是|要是|倘若|万一|否则|不然|一旦|若(?=[^，,]{0,8}(?:没|不|无))|是否"
                        r"|\b(?:if|unless|otherwise|in case|whether|or else|once(?! more| again)|as soon as)\b", re.I)
_LATER = re.compile(r"^[\s\d.)、）*•-]*(?:接下来(?=好|方便|便于|才|输入|打字|填|键入)|(?:好|方便|便于)(?=输入|打字|填|键入)|然后|之后|随后|再(?!次|[点按滑划]一[次下])|接着|最后|后面|稍后|到时候?|届时|待|等到|等(?=[^待一])|下一步再|接下来再|以后)"
                    r"|^[\s\d.)*•-]*(?:and\s+)?(?:then|after that|afterwards|later|next time|finally|once)\b"
                    r"|^[\s\d.)*•-]*(?:\d+[.)]\s*)?(?:next|after this|from there)\b(?!\s+(?:to|is|one|item|page|button|tab|link|result)\b)", re.I)
_LATER_INLINE = re.compile(r"(?:后|之后|以后)(?:再|就|会|才)|(?:完|好)再去?\s*$|(?:看|翻|滑|比|找|等|浏览|比较)[^，,。]{0,6}再\s*$|(?:才能|以便|方便|从而|便可|即可|就可以|就能|用来)(?:接下来|之后|随后|待会|稍后)?\s*$"
                           r"|\b(?:then|so that|in order to|to be able to|before|after)\s+$"
                           r"|\bso\s+(?:that\s+)?(?:I|we|you)\s+(?:can|could|will be able to|'ll be able to)\s+(?:\w+\s+)?$", re.I)
_LATER_AFTER = re.compile(r"\b(?:on|in|at|for) the (?:next|following) (?:step|screen|page)\b|\blater on\b|\bafterwards\b"
                          r"|^\s*(?:comes?|goes?|happens?|follows?)(?:\s+(?:after|later|next|afterwards|second))?\s*[.;!]?\s*$"  # Typing comes after
                          r"|\bafter (?:that|this|it)\s*[.;]?$"
                          r"|\bnext time\b|(?:下一步|稍后|之后|以后|等会儿?)再|放(?:到|在)?(?:后面|后边|最后)|^[^，,。]{0,30}?(?:之前|以前)(?=\s*(?:要|先|得|需要|应该|[，,。]|$))", re.I)  # I'll hit Reserve now on the next step
_NEXT_AFTER = re.compile(r"(?![^.;]*\b(?:so|can|then)\b)[^.;]*?(?<!\bthe )(?<!\ba )\b(?-i:next)\s*[.;!]?\s*$")
_STRONG = re.compile(r"所以|因此|因而|于是|决定|接下来|下一步|直接|这一步|本步|故而|我(?:还是)?(?:选择?|挑)|^\s*(?:→|=>|->)\s*$"
                     r"|\b(?:so|therefore|thus|next|I'll|I will|I'm going to|I am going to|let me|my next action"
                     r"|the next action)\b", re.I)
_PURPOSE = re.compile(r"^\s*(?:为了|要想|想要|为|目的是|目标是|任务是|任务要求|\b(?:to|in order to|the goal is to|the task is to)\b)",
                      re.I)
_MARKER = re.compile(r"所以|因此|因而|于是|故|需要|要|应该|应当|打算|决定|准备|直接|现在|此时|这时|接下来|下一步|先|首先|我将|将|就|该|得|可以|请"
                     r"|\b(?:so|therefore|thus|now|next|I'll|I will|I need to|I should|I must|I'm going to|I am going to"
                     r"|let me|let's|I have to|the next action|my next action|I)\b", re.I)

_BARE = re.compile(r"\s*(?:一下|一次)?\s*(?:去|来)?\s*(?:$|准备|以便|好|看看)")  # 点一下准备输入: no object of its own
_PRONOUN = re.compile(r"\s*(?:一下)?(?:它的|它|这个|这一项|这一条|这条|这款|该项|那个|\b(?:its|it|this|that|this one|that one)\b)", re.I)


@dataclass(frozen=True)
class Decision:
    """The action a reasoning takes now: ``verb`` a verb class (click, long_press, input, swipe, open_app, open,
    back (an in-app back control), back_key (the system back key), home, wait, done), the finger ``direction`` of a swipe (up/down/left/right, None when unsaid),
    ``quotes`` quoted after the verb (typed text, target labels, app names) and the clause ``phrase``."""

    verb: str
    direction: str | None
    quotes: tuple[str, ...]
    phrase: str
    after_verb: str  # the clause from the verb on (unquoted words of the target)
    rest: str = ""  # the clause after the verb itself (what the verb acts on)
    antecedent: str = ""  # what a pronoun after the verb points back to (``… looks good — tap its picture``)
    appendix: str = ""  # a verbless clause after it in the sentence (``Click the first result, Pro earbuds #1``)
    continuation: str = ""  # the rest of the line when the clause ends at a colon (``Type the reply: 明天见！``)
    span: tuple[int, int] = (0, 0)  # where the clause stands in the text (what comes after it follows the decision)
    follow: str = ""  # the rest of the clause's sentence (``输入 OK, 没问题 然后发送``: a value may hold a comma)
    marked: bool = False  # said as a conclusion (``所以``, ``so I``), not as the first or only candidate




def first_verb(masked: str) -> tuple[int, str, int] | None:
    """(start, verb class, end) of the first action verb in a masked clause."""
    hits = [(m.start(), kind, m.end()) for kind, pattern in VERB_RE for m in pattern.finditer(masked)]
    return min(hits, key=lambda h: (h[0], -(h[2] - h[0]))) if hits else None



_PURPOSE_FIRST = re.compile(r"^\s*(?:in order\s+)?to\s*$", re.I)  # To write the reply …
_SUBJECT_AFTER = re.compile(r"\b(?:I|we)\s+(?:first\s+|will\s+|'ll\s+|need to\s+|have to\s+|must\s+|should\s+)?")  # … I first
_MAY = re.compile(r"(?:也|本来|其实)?可以(?:直接|先|就|继续|再)?(?:在这里|在这儿|现在)?(?:去|来)?"  # 可以直接按 Home …
                  r"(?:[按点](?:一下|一次)?|[往向][上下左右前后回])?\s*$")  # 可以再按一次返回, 可以继续往左滑
_BUT = re.compile(r"[，,；;]\s*(?:但是?|不过|可是)")  # … 但我想先按返回键


@dataclass(frozen=True)
class _Candidate:
    verb: str
    clause: str
    masked: str
    start: int
    end: int
    marked: bool
    strong: bool
    purpose: bool
    lead: str  # the sentence before the verb (what a pronoun after the verb points back to)
    offset: int  # where the clause starts in the text
    follow: str  # the sentence after this clause
    line_rest: str  # the line after this clause
    after_dash: bool = False  # the clause follows a dash in its sentence (``go back one — swipe right``)


@lru_cache(maxsize=4096)
def _candidates(text: str) -> tuple[_Candidate, ...]:
    """The clauses of ``text`` that could be its decision (remembered: every check reads the same texts)."""
    return tuple(_find_candidates(text))


def _find_candidates(text: str) -> list[_Candidate]:
    masked_text = mask_quotes(text)
    out: list[_Candidate] = []
    seen_decision = False
    for sentence in _SENTENCE_END.split(masked_text):
        offset = masked_text.find(sentence) if sentence else -1
        if TASK_LABEL.match(sentence) or OPTIONS_LABEL.match(sentence):
            continue  # 目标：打开图库，翻几张照片 / Options: tap one now, or keep scrolling: not this step's decision
        if offset >= 0 and masked_text[offset + len(sentence):offset + len(sentence) + 1] in ("?", "？") \
                and ALTERNATIVES.search(sentence):
            continue  # 是直接点第一个 Lenovo，还是先往下翻看看？: the options asked, not the answer
        sentence_has = False
        conditional = False
        recounted = False
        listed = next((c.end() for c in re.finditer(r"[，,；;]", sentence) if OPTIONS_LABEL.match(sentence, c.end())), None)
        for m in re.finditer(r"(?:[^，,；;：:—–]|(?<=\d)[:：](?=\d)|(?<=\d),(?=\s?\d))+", sentence):  # June 11, 19:25
            masked = m.group()
            after_recount = recounted
            recounted = recounts(masked)  # Before that I long-pressed Project Team, hit 删除 and …
            if listed is not None and m.start() >= listed:
                continue  # 目标是在商城里搜耳机，可选的路子有：…: the options, listed after a label mid-sentence
            start = offset + m.start() if offset >= 0 else 0
            clause = text[start:start + len(masked)]
            cond, first = CONDITION.search(masked), first_verb(masked)
            if cond and (first is None or cond.start() < first[0]):  # "scroll up to check whether": not a condition
                conditional = True
                continue
            if conditional and re.match(r"\s*(?:就|则|便|那就|那么|then)", masked, re.I):
                continue  # the consequence of a condition
            conditional = False
            verb = first_verb(masked)
            need = _NEED_FIRST.search(masked)
            if need is not None and (verb is None or verb[0] < need.start()):  # 要打字得先点输入框: a purpose first
                later = first_verb(masked[need.end():])
                verb = (later[0] + need.end(), later[1], later[2] + need.end()) if later else None
            if verb is None:
                continue
            at, kind, end = verb
            main = _PURPOSE_FIRST.match(masked[:at]) and _SUBJECT_AFTER.search(masked, end)
            later = first_verb(masked[main.end():]) if main else None
            if later:  # To write the reply I first focus the 短信输入框: the purpose first, then what is done
                at, kind, end = later[0] + main.end(), later[1], later[2] + main.end()
            if after_recount and not masked[:at].strip() and re.match(r"(?:hit|set|put)\b", masked[at:], re.I):
                continue  # Searched X, opened Y, hit Add to cart: the same list of what was done
            if kind == "back" and re.match(r"back (?:button|arrow)", masked[at:end], re.I) and not masked[:at].strip() \
                    and sentence[:m.start()].strip():
                continue  # Search page: back arrow on the left, …: a control in a list, a noun
            if not masked[at:end].strip(" -–—→>*•") and sentence[:m.start()].strip(" -–—→>*•"):
                continue  # a label said as the imperative opens its sentence; in a list (店铺, 收藏, 加入购物车) it is a name
            colon = re.match(r"\s*[:：]", masked_text[start + len(masked):])
            if colon and (re.match(r"(?:start|begin) with\b", masked[at:end], re.I) or (len(masked.strip()) <= 4 and first_verb(
                    masked_text[start + len(masked) + colon.end():].split("\n")[0]) is not None)):
                continue  # Start with the location: type Chicago … / 翻页：点 Next page: what the colon brings decides
            before, after = masked[:at], masked[end:]
            if _SUBJECT.search(before) and not _MARKER.search(before):
                continue  # results open with …, the Color select shows …: a subject and what it does, no decision
            if kind == "click" and _ACTION_NOUN.match(after):
                kind = "swipe"  # going with one more leftward swipe: the chosen thing is an action
            if (re.match(r"(?:完(?:之?后|以后)?|后|之后|以后)", after) and (first_verb(after) is None or re.match(
                    r"(?:后|之后|以后)\s*(?:就|便)?(?:回到|进入|来到|跳到|到了)", after)) and re.search(r"在|是|有|了|回到|进入|来到|跳到", after)
                    and not re.search(r"会|应该|应当|可能|大概|也许|将|能|可以|再|要", after)):
                continue  # 打开后已加入购物车在最上方 / 返回后回到设置主页: when, then what is so or where it lands; no decision
            if told_not_decided(kind, before, masked[at:end], after) or option_listed_on(before, sentence[:m.start()]):
                continue  # history, an outcome, the goal's wording, a control's state, an option: told, not decided
            if not before.strip() and ((re.search(r"(?:键|按钮|按键)\s*$", masked[at:end]) and re.match(
                    r"\s*(?:有时|往往|通常|一般|总是|只会|只能|可能|会|能|可以|一定|就会|也会|肯定)", after))
                    or re.match(r"\s*(?:不一定|未必|不见得|不能|没法|无法)", after)):
                continue  # 返回键有时只会回到上一级页面 / Home 键一定回桌面 / 返回不一定能退出应用: what a key does
            if re.search(r"(?:和|跟|与|同)\s*$", before) and re.search(r"差不多|一样|类似|相同", after):
                continue  # 和按 Home 差不多: the action compared with, not decided
            if re.search(r"(?:也|都)(?:行|可以|不错|没问题|成)\s*$", after) and _BUT.match(masked_text[start + len(masked):]):
                continue  # 现在就选 Nike 也行，但多看看再挑不吃亏: an option granted, then set aside
            if _MAY.search(before) and (_BUT.match(masked_text[start + len(masked):]) or re.search(
                    r"或者|或是|[也还]可以|\bor\b", masked_text[start:offset + len(sentence)] if offset >= 0 else masked, re.I)):
                continue  # 可以直接按 Home，但我想先按返回键 / 可以点搜索，或者联想词: options weighed, not the decision
            if (seen_decision or sentence_has) and (_LATER.match(masked) or _NEXT_AFTER.match(after)):
                continue  # Type jazz …; I'll set Tickets to 2 next: after a decision, what comes next
            if _LATER_INLINE.search(before) or _LATER_AFTER.search(after):
                continue
            if re.search(r"剩(?:下)?(?:的)?(?:就是|是|了)?[^，,。]*[和、跟与及]", before):
                continue  # 接下来就剩州和勾选条款: what is left after this step, listed
            clause_end = start + len(masked)
            if kind == "swipe" and masked[at:end] == "翻页" and (first_verb(masked_text[clause_end:offset + len(sentence)])
                                                              or (0, ""))[1] == "click":
                continue  # 剩下的就是翻页，点 Next page: the click says how the page turns
            lead = text[offset:start + at] if offset >= 0 else ""
            if LIST_DONE.match(masked_text[clause_end:]):
                continue  # 打开相册、左右翻看照片、回主屏幕，三件事都做完: a list of what is done
            sentence_end = offset + len(sentence) if offset >= 0 else clause_end
            line_end = text.find("\n", clause_end)
            out.append(_Candidate(kind, clause, masked, at, end, bool(_MARKER.search(before)) or at <= 1,
                                  bool(_STRONG.search(before) or CLOSING_LABEL.search(masked_text[max(0, start - 16):start])),
                                  bool(_PURPOSE.search(before)), lead, start,
                                  text[clause_end:sentence_end], text[clause_end:line_end if line_end >= 0 else None],
                                  start > offset >= 0 and masked_text[start - 1] in "—–"))
            sentence_has = True
            seen_decision = True
    return out


def stated_decision(text: str) -> Decision | None:
    """The decision of ``text`` (see the module docstring), None when it states none."""
    if not isinstance(text, str) or not text.strip():
        return None
    candidates = _candidates(text)
    if not candidates:
        return _bare_decision(text)
    strong = [c for c in candidates if c.strong and not c.purpose]
    marked = [c for c in candidates if c.marked and not c.purpose]
    planned = planned_item(text, [c.offset for c in candidates])  # 1. 输入 … 2. 点 Search: the plan's first item
    chosen = (strong or ([candidates[planned]] if planned is not None else []) or marked or candidates[-1:])[0]
    at = candidates.index(chosen)
    if at + 1 < len(candidates) and candidates[at + 1].after_dash and candidates[at + 1].verb == "swipe":
        chosen = candidates[at + 1]  # Let me go back one — swipe right: the dash says how
    elif (at > 0 and chosen.verb == "back" and _PREVIOUS_ITEM.match(chosen.masked[chosen.end:])
          and candidates[at - 1].verb == "swipe" and finger_direction(candidates[at - 1].clause)
          and not _SENTENCE_END.search(text, candidates[at - 1].offset + len(candidates[at - 1].clause), chosen.offset)):
        chosen = candidates[at - 1]  # 手指向右划，退回上一张: back to the previous photo is what the swipe does
    tail = chosen.clause[chosen.start:]
    direction = finger_direction(chosen.clause) if chosen.verb == "swipe" else None
    said_finger = FINGER_MOVES.search(mask_quotes(chosen.follow)) if chosen.verb == "swipe" else None
    if said_finger and not FINGER_MOVES.search(mask_quotes(chosen.clause)):  # Keep scrolling up — finger up again:
        direction = finger_direction(chosen.follow)  # the finger said in so many words is the swipe's way
    if chosen.verb == "swipe" and direction is None:  # 往回滑一点，手指向下: the finger said in a gloss of its own
        direction = finger_gloss(re.split(r"[，,；;]", chosen.follow.lstrip("，,；; "))[0] if chosen.follow else "")
    if chosen.verb == "swipe" and direction is None:  # 手指往下拖一点，往回翻一些: one swipe said twice in a sentence
        said = {finger_direction(c.clause) for c in candidates if c.verb == "swipe" and c is not chosen
                and not _SENTENCE_END.search(text, *sorted((c.offset + len(c.clause), chosen.offset)))}
        direction = said.pop() if len(said) == 1 else None
    quotes = quotes_in(tail)
    pronoun = (_PRONOUN.match(chosen.masked[chosen.end:]) is not None
               or (_BARE.match(chosen.masked[chosen.end:]) is not None and chosen.lead.strip(" ，,") != chosen.clause[:chosen.start].strip(" ，,")))
    if not quotes and pronoun:  # 点击它 / tap it: the thing named just before
        quotes = quotes_in(chosen.lead)[-1:]
    continuation = ""
    if re.match(r"\s*[：:]", chosen.line_rest):
        continuation = re.sub(r"^\s*[：:]\s*", "", chosen.line_rest)
    return Decision(chosen.verb, direction, tuple(quotes), chosen.clause.strip(), tail,
                    chosen.clause[chosen.end:], chosen.lead if pronoun else "",
                    "" if quotes or continuation else _appendix(chosen.follow), continuation,
                    (chosen.offset, chosen.offset + len(chosen.clause)), chosen.follow, chosen.marked)


def _bare_decision(text: str) -> Decision | None:
    """A tap on the target said alone, with no verb (``Delete, top right.``, ``Now the Home button``): the press of a
    key when the target is one."""
    span = bare_target_span(text)
    if span is None:
        return None
    clause = text[span[0]:span[1]]
    verb = first_verb(mask_quotes("tap " + clause))
    end = _SENTENCE_END.search(text, span[1])
    return Decision(verb[1] if verb else "click", None, tuple(quotes_in(clause)), clause.strip(), clause, clause, span=span,
                    follow=text[span[1]:end.start() if end else None], marked=True)


@dataclass(frozen=True)
class ActionClause:
    """A clause that could be the decision: its ``verb`` class, the ``clause``, its ``span`` in the text, the
    words after the verb (``rest``) and whether a decision marker (or nothing) stands before the verb."""

    verb: str
    clause: str
    span: tuple[int, int]
    rest: str
    marked: bool


def action_clauses(text: str) -> list[ActionClause]:
    """Every clause that could be the decision (an action verb, not history, a condition, a negation or a later
    plan), in text order.

    >>> [c.verb for c in action_clauses("先点击“设置”，然后再输入密码。向下滑动查看更多。")]
    ['click', 'swipe']
    """
    if not isinstance(text, str) or not text.strip():
        return []
    return [ActionClause(c.verb, c.clause, (c.offset, c.offset + len(c.clause)), c.clause[c.end:], c.marked)
            for c in _candidates(text)]


# the decision verb an acting word stands for: a gerund (``scrolling``), an action noun (``one more swipe``), a key
_ACTING_KIND = ((re.compile(r"swip|scroll", re.I), "swipe"), (re.compile(r"typ|enter", re.I), "input"),
                (re.compile(r"home", re.I), "home"), (re.compile(r"back", re.I), "back_key"),
                (re.compile(r"long-press|hold", re.I), "long_press"))


def acting_kind(words: str) -> str:
    """The decision verb that ``words`` (a gerund, an action noun, a key) stand for; ``click`` for any other.

    >>> acting_kind("Holding"), acting_kind("after scrolling"), acting_kind("the home key"), acting_kind("tapping")
    ('long_press', 'swipe', 'home', 'click')
    """
    return next((kind for said, kind in _ACTING_KIND if said.search(words)), "click")


# the sides of a thing (Chinese after it, English before it), and SPATIAL: any place said relative to another
SIDES_ZH = r"旁边|附近|下方|上方|下面|上面|左边|右边|左侧|右侧"
SIDES_EN = r"next to|below|above|beside|under|underneath|beneath|over|near|left of|right of"
SPATIAL = re.compile(SIDES_ZH + r"|之间|对面|隔壁|\b(?:" + SIDES_EN + r"|between)\b", re.I)
RELATION = re.compile(SPATIAL.pattern + r"|而不是|不(?![锈同错少久仅但过])|没|别|无需|但|不过|稍后|再|然后|是|在|比"
                      r"|\b(?:instead|not|no|don't|but|rather|then|later|is|are|was|than)\b", re.I)


_APPOSITION = re.compile(r"^\s*(?:也就是|也即|即|就是|\bi\.e\.\s*|\bnamely\b|\bthat is\b)\s*", re.I)


_TOLD_DONE = re.compile(ALREADY_ZH + r"|\balready\b|了\s*$", re.I)


def _appendix(follow: str) -> str:
    """The verbless clause right after a comma that opens ``follow`` (an appositive naming the target); nothing
    when it has a verb, a relation to something else (``旁边``, ``below``), a quotation or a state told as done
    (``已经``, ``already``, a closing ``了``), or is over 40 characters."""
    m = re.match(r"[，,]([^，,；;]+)", follow)
    part = _APPOSITION.sub("", m.group(1)) if m else ""
    limit = 64 if re.match(r"\s*the (?:one|card|row|button)\b", part, re.I) else 40  # the one lower down in the middle …
    if not part or first_verb(mask_quotes(part)) or RELATION.search(part) or QUOTE.search(part) or len(part) > limit:
        return ""
    if _TOLD_DONE.search(part):  # 点 Search 按钮，关键词和 Electronics 分类都已经选好了: what holds, no appositive
        return ""
    return part
