"""Sentences after a decision that describe the screen as it is, told apart by the screens rather than by wording.

A writer who states the decision first often goes on to describe what is on the screen now (``The keyboard is up and
the cursor sits in the box``, ``底部有分享、编辑、收藏、删除``, ``Below it are the 小米 Max and the Apple Pro``). The outcome and
after-decision readers cannot tell such a sentence from a told result by its words alone. The episode can: a
sentence that names no word only a later screen shows and no number no screen so far shows, says no change
(``opens``, ``jumps``, ``弹出来了``) and no state the current screen does not show (``now``, ``已经``, ``On``, ``选中``, the
step before's result ``弹出了``, a value ``still`` held: :mod:`.screen_state` checks them against it), nor the value
the call types, no other sameness or return (``stays``, ``back``, ``没变``), no choice of the writer's (``I'll take``,
``我选``), nothing inside what the action opens (``Its …``) and nothing of the chosen one (``It has the 限时特价 tag``:
which one it is, for the evidence to read), tells no hindsight and takes no action, says nothing the agent could not
see before acting. A change said not to have come yet, or what was done so far (``nothing has gone in yet``,
``还没发出去``, ``so far I've only gone left``), is the screen and the history before acting, whatever it names (but
the typed value, a later screen's word or a number no screen shows). :func:`described_sentences` finds them; certification reads an item left unsure with them once
more without them (the agreement and hindsight checks have read the whole text first).

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> box = Element(0, (0, 100, 1080, 200), text="搜索框", flags=("visible", "editable"))
>>> key = Element(1, (0, 2000, 200, 2100), text="空格", flags=("visible",))
>>> results = Element(2, (0, 300, 1080, 400), text="Anker 保温杯 Pro", flags=("visible",))
>>> ep = Episode("e", "m", "搜索保温杯", [Step(0, shot, Action("type", text="保温杯", element=box), elements=[box, key]),
...                                      Step(1, shot, Action("done"), elements=[results])])
>>> text = "输入保温杯。键盘在下面，有空格键。结果里有 Anker 保温杯 Pro。"
>>> [text[a:b] for a, b in described_sentences(text, (0, 5), ep, 0)]
['键盘在下面，有空格键。']
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import Episode
from .after_decision import CHANGE, acts
from .calls import element_label, normalize, target_element
from .decision import mask_quotes
from .future_text import known_texts, later_screen_words
from .hindsight import SENTENCE, find_hindsight
from .history_said import AFTER_EARLIER, JUST_DONE_ZH, OPENS_AFTER_EARLIER, earlier_done, first_claim
from .screen_state import (current_state_said, keyboard_said, named_quotes, previous_result, said_empty, still_held,
                           value_shown, without_states)
from .shown_now import shown_now
from .target_evidence import names_rival, place_fits, target_evidence

_CLAUSE = re.compile(r"(?:[^，,；;：:—–]|(?<=\d)[:：](?=\d))+[，,；;：:—–]?")  # not inside a time (17:51)
_ASIDE_END = re.compile(r"^[^(（]*?[)）]")  # the end of an aside opened before the clause: (middle left, shows Off)
# a clause, or its part before an English ``and``: I opened the 17:51 shot | and it's full-screen with …
_HISTORY_PIECE = re.compile(r"(?:[^，,；;：:—–]|(?<=\d)[:：](?=\d))+?(?:[，,；;：:—–]|(?=\s+and\s)|$)")
# a state an element is in (a toggle's, a row's): the acted-on element's may be what the action brings
_STATE = re.compile(r"\b(?:on|off|enabled|disabled|checked|unchecked|selected|active|highlighted|filled|open|opened"
                    r"|closed|expanded|collapsed|toggled|saved|added|sent|deleted|removed|set|done|ready|finished|complete|wraps? up)\b"
                    r"|\b(?:detail|details|result|results|confirmation|next|new)\s+(?:page|screen|view|list)\b"
                    r"|开启|关闭|(?<!现在)(?<!当前)(?<!目前)打开(?!着?的(?:是|就是))|开着|关着|选中|勾选|勾上|高亮|展开|收起|保存|加入|添加|发送|删除|删掉", re.I)


# a change told in the present or the perfective (the page jumps down, 键盘弹出来了): what happens, not what is
# (not an order of work: the query goes in first, the agreement comes before Reserve)
_MOVES = re.compile(r"\b(?:jump|scroll|move|slide|shift|drop|rise|expand|collapse|refresh|reload|load|appear|vanish"
                    r"|disappear|pop|open|close|switch|chang|turn|go|come|land|lead|take|bring|return|clear|updat|becom"
                    r"|empt|fill|show up)(?:s|es|ed|ing|e|ied|y)?\b(?!\s+(?:in\s+)?(?:first|before)\b)|\bempty\b|\bblank\b"
                    r"|(?<![为除])了(?![解吗])|被|出来|出现|弹出|跳|滚|移|刷新|加载|变|切换|回到|进入|消失|清空|空了", re.I)
# what a description of the screen as it is does not say: sameness or return (what the action leaves or brings
# back), a choice of the writer's, the inside of what the action opens
_NOT_SAID = re.compile(r"\b(?:still|stays?|remains?|same|unchanged|again|back|after|afterwards|once|when|so|which|thus"
                       r"|then|i'll|i will|i'm going to"
                       r"|let me|we'll|i'd|i want|i pick|i choose|i take|the one)\b"
                       r"|^\s*(?:its|their|inside|in it|it|it's|this(?! is\b| (?:page|screen)\b)|that|this one|that one)\b"
                       r"|还是|仍|依然|照旧|没变|不变|变化|一样|回来|回到|之后|以后|后|[点输填选按打滑删敲]完|然后|(?<!搜索)(?<!查询)结果(?!列表|页|里|中|从|列|现在|目前)|于是|我(?:要|选|挑|就|来|会|想)|(?<![筛复多单可精候])选(?![中项框])|挑"
                       r"|^\s*(?:它|这个|那个|这款|那款|这张|那张|这条|那条|里面|进去)", re.I)


_TOLD_PAST = re.compile(r"已经|\balready\b|\b(?:earlier|previously)\b|上一步|刚才|" + JUST_DONE_ZH + r"|之前"  # said done, in so many words
                        r"|都(?:已经?)?(?:填|设|选|勾|输)(?:好|完|上)", re.I)
_PAGE = re.compile(r"\b(?:list|page|screen|menu|home|launcher)\b|列表|页面|主页|首页|界面|桌面", re.I)
# a part of the task said finished: ``Press back; the toggle is done`` (an earlier step's, when the history holds it)
_DONE_CLAIM = re.compile(r"\b(?:is|are|'s)\s+(?:now\s+|already\s+|all\s+)?(?:done|finished|complete)\b|(?:完成|做完|搞定)了", re.I)
# a clause that opens on sameness, of the row the decision names: ``现在还是默认的 Alabama``, ``it still reads Any``
_STILL_OPENS = re.compile(r"\s*(?:and\s+)?(?:现在|目前|当前|it|this)?\s*(?:still\b|还是|仍是|仍然是|依然是|还显示|仍显示)", re.I)
# which one the decided element is, said of it (``open #13, it's the thirteenth show``, ``就是目标要保存的那套``)
_IDENTITY = re.compile(r"\s*(?:and\s+)?(?:(?:it|that|this|which)(?:'s|\s+is)\s+(?:the|a|an|my|our)\b"
                       r"|(?:这|那|它)?(?:就是|也就是|正是)|(?:这|那|它)是)", re.I)
# where the decided one is, said of it (``X 的链接就在列表正中``, ``在左上方第二个位置``), naming it by its evidence
_PLACED = re.compile(r"^[^，,。；;]{0,40}?(?:就|正|刚好)?在\s*[^，,。；;]{0,16}?(?:[上下左右中]|正中|中间|中央|位置|那条|那行|那个|那张)"
                     r"[^，,。；;了]{0,3}[，,。；;]?\s*$")
_PLACED_EN = re.compile(r"^\s*(?:the\s+)?(?:(?:top|bottom|upper|lower|middle|centre|center|left|right|far|mid)"
                        r"(?:[\s-]+|$)){1,3}(?:button|one|link|tab|icon|row|field|box|item|entry|corner)?\s*[.,;]?\s*$", re.I)
_ASIDE = re.compile(r"[(（][^()（）]{1,48}[)）]")
# a control an earlier step chose, said to be chosen already: ``the Concerts section is already selected``
_ALREADY = re.compile(r"\b(?:is|are|'s)\s+already\s+(?:selected|chosen|open|active|highlighted|checked|on)\b"
                      r"|已经(?:选中|选上|选好|打开|开着|勾上)", re.I)


def _chosen_before(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` say a control is chosen already, naming one an earlier step tapped (its label)?"""
    if not _ALREADY.search(said):
        return False
    tapped = {(element_label(s.action.element) or "").strip().lower() for s in episode.steps[:index]
              if s.action.type == "click" and s.action.element is not None}
    return any(len(label) >= 2 and label in said.lower() for label in tapped)
_NOW = re.compile(r"\b(?:right now|currently|at the moment|at present)\b|目前|当前|此刻", re.I)
_SO_FAR = re.compile(r"\bso far\b|\bup to now\b|到现在|到目前为止|目前为止|至今|(?:目前|现在)才", re.I)  # what was done
# a change said not to have come yet, or what was done so far (``nothing has gone in yet``, ``首页还没出来``, ``so far
# I've only gone left``, ``目前才看了两张``): the screen and the history before acting, never what the action brings
_NOT_YET = re.compile(r"(?:\bnot|n't|\bnothing|\bno|\bnone)\b[^.;,!?]{0,40}?\byet\b|还没|尚未|还未|仍未|"
                      + _SO_FAR.pattern, re.I)
# a state of the decided row, its subject a pronoun or left out: ``它现在显示 Off``, ``It still shows Alabama``,
# ``点 Dark theme，现在是 Off``
_ROW_PRONOUN = re.compile(r"^(\s*(?:and\s+)?)(?:它|这一?[行项个]|it|this(?:\s+(?:row|one|switch|toggle|option))?)\s*"
                          r"(?=现在|目前|当前|还|仍|依然|显示|是|(?:now|currently|still|is|shows?|reads?|says?)\b)", re.I)
_BARE_STATE = re.compile(r"^(\s*)(?=(?:现在|目前|当前)(?:还|仍)?(?:是|显示)[^，,。；;、：:]{1,16}[，,。；;]?\s*$)")
_ROW_VALUE = re.compile(r"\b(?:on|off|still)\b|开启|关闭|开着|关着|还是|仍", re.I)  # what such a clause says of the row


def described_sentences(text: str, decision_span: tuple[int, int], episode: Episode,
                        index: int) -> list[tuple[int, int]]:
    """The spans of the sentences of ``text`` after the one holding the decision (``decision_span``) that describe
    the screen as it is (see the module doc)."""
    known = "\x00".join(known_texts(episode, index))
    label = _decided_label(episode, index)
    out = _told_in_own_sentence(text, decision_span, known, episode, index, label)
    out += [m.span() for m in _ASIDE.finditer(text, decision_span[0], decision_span[1])  # Set Guests to 3 (it shows 1
            if shown_now(m.group(), episode, index)]  # now): an aside inside the decision's clause, as the screen shows
    for m in _sentences_after(text, decision_span):
        if _describes(_of_decided_row(m.group(), episode, index, label), known, episode, index):
            out.append(m.span())
            continue
        # 底部有分享、编辑，这些都用不上，继续翻下一张: the clauses that describe, less the mark that ends the sentence
        # (blanked, the clauses before the one described would run on into the next sentence)
        for c in _CLAUSE.finditer(m.group()):
            if _describes(_of_decided_row(c.group(), episode, index, label), known, episode, index):
                end = m.start() + c.start() + len(c.group().rstrip("。！？!?.\n"))
                out.append((m.start() + c.start(), end))
    return out


def _told_in_own_sentence(text: str, decision_span: tuple[int, int], known: str, episode: Episode,
                          index: int, label: str) -> list[tuple[int, int]]:
    """The spans of the clauses after the decision in its own sentence that describe the screen as it is and say so
    in so many words: what an earlier step did, as the history holds it (``输入 City Hospital，起点那边已经是 Union
    Station``), or what is so right now (``the box is empty right now``). Any other clause there may be the decision's
    outcome (``Click Search, the results show …``)."""
    own = next((m for m in SENTENCE.finditer(text) if m.start() < decision_span[1] <= m.end()), None)
    out = []
    rest = text[decision_span[1]:own.end()] if own else ""
    for start, end in _own_clauses(rest):
        said = rest[start:end]
        told = (_TOLD_PAST.search(said) or _DONE_CLAIM.search(said)) and earlier_done(mask_quotes(said), episode,
                                                                                     index) is not None
        shown = keyboard_said(said, episode, index) or (not _PAGE.search(said) and value_shown(said, episode, index))
        # 键盘已经弹出; 蓝牙那一行已经是 On 了; Battery Saver reads On now: a value the named row shows now (not what a
        # page shows: Press back; the main Settings list now reports Dark theme On)
        context = text[decision_span[0]:decision_span[1] + end]  # 在 State 下拉里选 Texas，现在还是默认的 Alabama:
        held = still_held(context, episode, index) if _STILL_OPENS.match(said) else None  # the value the row
        held = held if held is not None and len(held) == len(context) else None  # decided on holds still
        read = held[len(held) - len(said):] if held is not None else _of_decided_row(said, episode, index, label)
        placed = _PLACED.match(said) is not None  # 在左上方第二个位置: where the decided one is, its subject left out
        identity = (_IDENTITY.match(said) is not None or placed) and (
            bool(target_evidence(said, episode.steps[index])) or (placed and said.lstrip().startswith("在"))) or (
            _PLACED_EN.match(said) is not None and place_fits(said, episode.steps[index]))  # , the bottom-centre button
        checked = said_empty(said, episode, index) or _chosen_before(said, episode, index)  # the form is empty
        marked = told or _NOW.search(said) or _NOT_YET.search(said) or shown or held is not None or read != said
        if shown_now(said, episode, index) or (marked or identity or checked) and _describes(read, known, episode, index):
            out.append((decision_span[1] + start, decision_span[1] + end))
    return out


def _own_clauses(rest: str) -> Iterator[tuple[int, int]]:
    """The spans of the clauses of ``rest`` (the decision's sentence after it), the end of an aside that opened
    before it ending one (``Tap the Wi-Fi row (upper left, shows Off) to switch it on``: `` shows Off)``, `` to
    switch it on``)."""
    for c in _CLAUSE.finditer(rest):
        aside = _ASIDE_END.match(c.group())
        if aside is None or aside.end() == len(c.group()):
            yield c.span()
        else:
            yield c.start(), c.start() + aside.end()
            yield c.start() + aside.end(), c.end()


def _decided_label(episode: Episode, index: int) -> str:
    """The label of the element step ``index`` acts on ('' when it acts on none)."""
    target = target_element(episode.steps[index])
    return (element_label(target) or "").strip() if target is not None else ""


def _of_decided_row(said: str, episode: Episode, index: int, label: str) -> str:
    """``said`` with the decided row's ``label`` for its subject when that is a pronoun or left out (``它现在显示 Off``:
    ``Bluetooth 现在显示 Off``), so that the state readers check the value against that row; ``said`` otherwise."""
    m = _ROW_PRONOUN.match(said)
    if m is None and (m := _BARE_STATE.match(said)) is not None and names_rival(said, episode.steps[index]):
        return said  # 现在是 Wi-Fi 那一行: it names its own subject
    if m is None or len(label) < 2 or not _ROW_VALUE.search(said):
        return said  # a clause that says no value of the row (``this is the last step``) stays as it is
    return f"{said[:m.end(1)]}{label} {said[m.end():]}"


def history_clauses(text: str, decision_span: tuple[int, int], episode: Episode,
                    index: int) -> list[tuple[int, int]]:
    """The spans of the clauses of ``text`` after the decision (``decision_span``) that say what earlier steps did as
    the episode's history holds it (``I opened the gallery and tapped the 10:34 shot``, ``筛选条件都齐了``): how the
    screen got here, not this step's result (:func:`.history_said.earlier_done`)."""
    out = []
    for m in _sentences_after(text, decision_span):
        if OPENS_AFTER_EARLIER.match(m.group()) and earlier_done(mask_quotes(m.group()), episode, index) is not None:
            out.append(m.span())  # 上滑之后，这一项到了屏幕中间: the whole sentence tells the earlier swipe's result
            continue
        told = ""  # the history clauses of the sentence so far: a clause that goes on with them shares their doer
        for c in _HISTORY_PIECE.finditer(m.group()):  # from its first claim on: reopen 相册 to check we flipped enough
            said = mask_quotes(c.group())
            if earlier_done(said, episode, index) is not None:
                whole = AFTER_EARLIER.search(said) is not None  # back at the top after my swipe down: all of it
                out.append((m.start() + c.start() + (0 if whole else first_claim(said) or 0), m.start() + c.end()))
                told += said
            elif told and first_claim(told + said, len(told)) is not None \
                    and earlier_done(told + said, episode, index) is not None:
                out.append((m.start() + c.start(), m.start() + c.end()))  # Before that I long-pressed it, hit 删除
                told += said
            else:
                told = ""
    return out


def _sentences_after(text: str, decision_span: tuple[int, int]) -> Iterator[re.Match[str]]:
    """The sentences of ``text`` after the one holding the decision (``decision_span``)."""
    return (m for m in SENTENCE.finditer(text) if m.start() >= decision_span[1])


def _describes(said: str, known: str, episode: Episode, index: int) -> bool:
    """Does ``said`` (a sentence or a clause) describe the screen as it is (see the module doc)? Read with what it
    says of earlier steps set aside, else as it stands (``#25 is saved and the view now shows #26``: the screen)."""
    if shown_now(said, episode, index):
        return True  # 现在是 1 / I'm on photo 6 of 30 / Apple and Lenovo are visible now: as the screen shows it
    if _GOAL_SAID.match(said) and not find_hindsight(said):
        return True  # 目标就是切换它这一项 / the goal asks for two: the task restated, nothing of what the action brings
    if _NOT_YET.search(said) and not ((acts(said) and not _SO_FAR.search(said)) or _unknown_number(said, known)
                                      or find_hindsight(said) or later_screen_words(said, episode, index)
                                      or _typed_value_said(said, episode, index)):
        return True  # The cart still reads 0 件, so nothing has gone in yet: before the change, whatever it names
    masked = named_quotes(said, episode, index)  # Keywords box already shows 'data analyst': a name it shows
    arrived = previous_result(masked, episode, index)  # 弹出了确认框: the step before's result, shown now
    masked, plain = (masked, said) if arrived is None else (arrived, arrived)
    masked = still_held(masked, episode, index) or masked  # Job type still says Any: a value the screen shows
    history = earlier_done(masked, episode, index)  # 照片已经翻过了: what an earlier step did
    if history is not None and (not re.search(r"\w", history)
                                or _rest_describes(said, history, history, arrived, known, episode, index)):
        return True
    return _rest_describes(said, masked, plain, arrived, known, episode, index)


def _rest_describes(said: str, masked: str, plain: str, arrived: str | None, known: str, episode: Episode,
                    index: int) -> bool:
    """:func:`_describes` of ``said`` once its quoted names, the step before's result, a value still held and (in
    ``masked`` and ``plain``) perhaps its history are read."""
    if _BUBBLE.search(said) and any(len(v) >= 2 and v in said.lower() for v in _typed_before(episode, index)):
        return False  # The 收到，谢谢 bubble sits under …: a value typed earlier, shown as sent
    if not re.search(r"\w", masked) or (_unknown_number(masked, known) or _not_said(masked, episode, index) or acts(masked)
                                        or _typed_value_said(said, episode, index)
                                        or (arrived is None and not said_empty(masked, episode, index)
                                            and find_hindsight(plain))
                                        or later_screen_words(said, episode, index)):
        return False
    if not (CHANGE.search(normalize(plain)) or _STATE.search(masked) or _MOVES.search(masked)):
        return True
    told = without_states(masked, episode, index)
    if CHANGE.search(normalize(told)) or _STATE.search(re.sub(r"\bon\b", " ", told)) or _MOVES.search(told):
        return False
    return current_state_said(masked, episode, index)  # described when the current screen shows it: Bluetooth (Off)


_BUBBLE = re.compile(r"\bbubbles?\b|气泡|\bin the (?:thread|conversation|chat)\b|(?:对话|聊天|会话)(?:里|中|记录)", re.I)


def _typed_before(episode: Episode, index: int) -> list[str]:
    """The values the steps before step ``index`` typed and no tap has sent since, and their parts between marks
    (lower case)."""
    steps = episode.steps[:index]
    return [p.strip().lower() for k, s in enumerate(steps) if s.action.text  # and its parts (明天见！See you …)
            and not any(later.action.type == "click" for later in steps[k + 1:])  # not sent since
            for p in [s.action.text, *re.split(r"[，,。！!？?]", s.action.text)]]


def _typed_value_said(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` hold the value step ``index`` types (what the typing brings into the box), not as what the
    goal asks for?"""
    typed = (episode.steps[index].action.text or "").strip().lower()
    return bool(typed) and typed in said.lower() and not _goal_wants(said, typed, episode)


_GOAL_SAID = re.compile(r"\s*(?:and\s+|so\s+|but\s+|while\s+)?(?:the\s+)?(?:goal|task)\s+(?:is|asks|wants|says|needs|names)\b"
                        r"|\s*(?:而|所以|但)?(?:目标|任务)(?:就|也)?(?:是|要|要求|里)", re.I)
_GOAL = re.compile(r"\b(?:goal|task|asks?|wants?|needs?|requires?)\b|目标|任务|题目|要求|需要|要的是", re.I)


def _goal_wants(said: str, typed: str, episode: Episode) -> bool:
    """Does ``said`` name the value the call types as what the goal asks for (``the goal wants business class``,
    ``目标是 3 位客人``): a value the goal holds, said after a word for the goal, not what the typing brings?"""
    at = said.lower().find(typed)
    return typed in (episode.goal or "").lower() and _GOAL.search(said[:at]) is not None


_OF_IT = re.compile(r"^\s*(?:its|it|it's|this one|that one|它|这个|那个|这款|那款|这张|那张|这条|那条)", re.I)


def _not_said(masked: str, episode: Episode, index: int) -> re.Match[str] | None:
    """The first word of :data:`_NOT_SAID` in ``masked``, past an opening ``it`` (``它``) when what follows it names
    the call's target by its own words and no other element (``它属于 Daily house bold #25``: the chosen one,
    said of itself as the screen shows it)."""
    m = _NOT_SAID.search(masked)
    if m is None or not _OF_IT.match(m.group()):
        return m
    step = episode.steps[index]
    rest = masked[m.end():]
    if target_evidence(rest, step) and not names_rival(rest, step):
        return _NOT_SAID.search(masked, m.end())
    return m


def _unknown_number(masked: str, known: str) -> bool:
    """Does ``masked`` say a number no screen so far, the goal or the history shows (``order #4411``)?"""
    return any(n not in known for n in re.findall(r"\d+(?:[.:/]\d+)*", masked))


def without_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span blanked to spaces (offsets kept)."""
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


def previous_result_sentences(before: str, episode: Episode, index: int) -> list[tuple[int, int]]:
    """The spans of the sentences of ``before`` (a text before its decision) that tell what the step before brought
    or took away, as the screens show (``往下滑了一屏，…，Airplane mode 已经滚到上面看不见了``: that swipe's result, seen
    now), and tell no more."""
    return [m.span() for m in SENTENCE.finditer(before) if (blanked := previous_result(m.group(), episode, index))
            is not None and not find_hindsight(blanked)]


__all__ = ["described_sentences", "history_clauses", "previous_result_sentences", "without_spans"]
