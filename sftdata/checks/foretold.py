"""The action's result told as certain before the decision: what the chosen action brings, said as a fact.

A deliberating writer weighs its options and commits at the end, and on the way it may tell what the chosen action
will bring as if it had seen it (``Tapping it flips the switch to On. → tap Dark theme.``, ``After picking Texas it
reads Texas.``, ``点一下 Bluetooth 就切换成 On 了。点 Bluetooth。``). The hindsight reader keeps a change told before the
decision for the step before's (``点了搜索，结果出来了。现在点第一个``), and reads a present tense after a gerund as an
expectation (``typing shows suggestions``). :func:`foretold` finds the three that tell this step's result:

- a sentence opening on an action of this step's kind (a gerund, ``after``/``once`` and a gerund, ``one more swipe``,
  ``the home key``) that goes on, in the present, with no hedge and no weighing (``but``, ``risks``), to a result
  naming what it brings: the call's value, ``On`` or ``Off``, a number, or a text of the current or the next screen
  (``puts the list into selection mode with a '1' counter``); a bare expectation (``typing shows suggestions``)
  names none;
- a change the hindsight reader finds before the decision, told after an action of this step's kind that is not
  narrated as done (``点一下…就…了``, ``按下后桌面出现``) and that names this step's target (or nothing, where the step
  before did another kind of action);
- the results of the search this step starts, told as certain and naming a result (``点 Search。搜索结果里第二个是
  Travel earbuds pro #2``), not planned (``然后在结果里数到第 19 条``);
- in Chinese, before the decision, an action of this step's kind and then its result told as done (``点右下的发送按钮，
  …发送成功了``, ``点下去申请就提交了``, ``选成 3 之后下拉框就显示 3 了``), with no hedge, condition or purpose between.

Either leaves the item unsure (``outcome_after_action``): a reader decides.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> dark = Element(0, (0, 300, 1080, 400), text="Dark theme", flags=("visible",))
>>> off = Element(1, (900, 300, 1080, 400), text="Off", flags=("visible",))
>>> ep = Episode("e", "m", "Turn on dark theme", [Step(0, shot, Action("open_app", app="Settings")),
...     Step(1, shot, Action("click", point=(540, 350), element=dark), elements=[dark, off]),
...     Step(2, shot, Action("done"))])
>>> foretold("Dark theme is Off. Tapping it flips the switch to On. → tap Dark theme.", ep, 1)
'Tapping it flips the switch to On'
>>> foretold("Dark theme is Off. Tapping it should flip the switch to On. → tap Dark theme.", ep, 1) is None
True
>>> foretold("显示 Off。点一下 Dark theme 就切换成 On 了。点 Dark theme。", ep, 1)
'点一下 Dark theme 就切换成 On 了'
"""
from __future__ import annotations

import re

from ..model import Episode, Step
from .agreement import COMPATIBLE
from .calls import element_label, function_name, normalize, target_element
from .decision import Decision, acting_kind, first_verb, stated_decision
from .english_past import en_past
from .hedges import (ASKING_ZH, CONDITION_ZH, EARLIER_ZH, ENOUGH_ZH, HABITUAL, HEDGE, LATER_ZH, PURPOSE_ZH, TRYING_ZH,
                     WANT_EN, WEIGHING_EN)
from .hindsight import SENTENCE, find_hindsight
from .screen_text import screen_texts
from .target_evidence import target_evidence

# an action opening the sentence: Tapping it …, After picking Texas …, One more swipe up …, The home key …
_OPENS_ACTING = re.compile(r"^\W*(?:(?:after|once)\s+)?(?:tapp|click|press|long-press|hold|hitt|open|choos|pick|select"
                           r"|switch|flipp|toggl|typ|enter|swip|scroll|confirm|sav)ing\b"
                           r"|^\W*(?:one more|another|a single|a further)\s+(?:\w+\s+)?(?:swipe|scroll|tap|click)\b"
                           r"|^\W*(?:the\s+)?(?:home|back)\s+(?:key|button)\b", re.I)
_AFTER = re.compile(r"^\W*(?:after|once)\b", re.I)  # After scrolling, …: perhaps the step before's
_PRESSING_KEY = re.compile(r"\W*(?:(?:after|once)\s+)?(?:press|hitt)ing\s+(?:it|that|the key|home|back)\b", re.I)
_AS_EXPECTED = re.compile(r"\bas\s+(?:expected|planned|intended|hoped)\b", re.I)  # a report, not a hedge
# the result told in the present: flips the switch to On, reads Texas, puts the list into …, after which … shows
_RESULT = re.compile(r"\b(?:flips|turns|switches|sets|reads|shows|displays|says|puts|restores|returns|saves|takes"
                     r"|brings|opens|shifts|scrolls|moves|lands|leaves|becomes|changes|loads|lists|reveals|starts"
                     r"|comes)\b", re.I)
_HEDGED = re.compile(HEDGE.pattern + "|" + HABITUAL + rf"|\b(?:{WANT_EN}|{WEIGHING_EN})\b", re.I)  # … or weighed:
# saves a step but risks …
# the results a search brings, told as they are: 搜索结果里第二个是 …, the results list … first
_RESULTS = re.compile(r"结果(?:里|中|页里|页上|列表里|第|会|列出|显示)|\bresults?\s+(?:page\s+|list\s+)?(?:shows?"
                      r"|lists?|has|have|includes?|are|is|starts?|opens?|puts|comes?)\b"
                      r"|\b(?:first|second|third|top)\s+result\s+is\b|\bin\s+the\s+results\b", re.I)
_SEARCHES = re.compile(r"search|\bfind\b|\bgo\b|submit|搜索|查询|查找|搜", re.I)
_HEDGED_ZH = re.compile("|".join((PURPOSE_ZH, CONDITION_ZH, TRYING_ZH, ASKING_ZH)))
# a plan for the results, not a report of them: 然后在结果里数到第 19 条
_PLANNED = re.compile(LATER_ZH + r"|\b(?:then|next|later|afterwards|I'll|I will|let me)\b", re.I)
_STATE_WORD = re.compile(r"\b(?:on|off)\b|\d", re.I)
_PERFECTIVE = re.compile(r"^\s*(?:了|过)")


def foretold(text: str, episode: Episode, index: int) -> str | None:
    """The first phrase of ``text`` that tells step ``index``'s result as certain (see the module doc), else None."""
    if not isinstance(text, str) or not text.strip():
        return None
    decision = stated_decision(text)
    return _told_in_present(text, episode, index) or _results_told(text, episode, index) or (
        (_told_before(text, decision, episode, index) or _done_told_zh(text, decision, episode, index))
        if decision is not None else None)


def _told_in_present(text: str, episode: Episode, index: int) -> str | None:
    """``Tapping it flips the switch to On``: an action opening a sentence, then its result in the present, naming
    what it brings."""
    names = _names_brought(episode, index)
    step = episode.steps[index]
    kinds = COMPATIBLE.get(function_name(step.action, episode.web), ())
    for s in SENTENCE.finditer(text):
        sentence = s.group()
        opening = _OPENS_ACTING.search(sentence)
        kind = acting_kind(opening.group()) if opening is not None else None
        if kind == "click" and _PRESSING_KEY.match(sentence, opening.start()):
            kind = next((k for k in ("home", "back_key", "back") if k in kinds), kind)  # After pressing it, on a
            # home step: the key pressed
        if opening is None or kind not in kinds:
            continue  # After scrolling, the list shows …, then a tap: the step before's result
        result = _RESULT.search(sentence, opening.end())
        if result is None or re.search(r"[—–;；:：]|\s-+\s", sentence[opening.end():result.start()]):
            continue  # Home key now — Bluetooth reads On: the result is another clause's
        if _AFTER.match(opening.group()) and _same_kind_before(episode, index) and not (
                target_evidence(sentence[:result.start()], step) or _value_said(sentence[:result.start()], step)):
            continue  # After scrolling, the visible part starts at …, a swipe after a swipe: the step before's
        clause = re.split(r"\s+[—–-]+\s+|[;；]|,\s*so\b|\bso\s+(?:I|I'll|let|tap|click|press|select|choose|open)\b",
                          sentence[result.start():])[0]
        told = sentence[:result.start()] + clause
        if _HEDGED.search(_AS_EXPECTED.sub(" ", told)):  # … as expected: a report, not a hedge
            continue
        named = normalize(clause[len(result.group()):])
        if _STATE_WORD.search(named) or any(n in named for n in names):
            return told.strip(" ,.;—–")
    return None


def _same_kind_before(episode: Episode, index: int) -> bool:
    """Did the step before ``index`` do the kind of action step ``index`` does (as its decision would be read)?"""
    if index == 0:
        return False
    now = COMPATIBLE.get(function_name(episode.steps[index].action, episode.web), set())
    return bool(now & COMPATIBLE.get(function_name(episode.steps[index - 1].action, episode.web), set()))


def _value_said(said: str, step: Step) -> bool:
    """Does ``said`` name the value step's action types or picks (``After picking Texas``)?"""
    value = normalize(step.action.text or "")
    return bool(value) and value in normalize(said)


def _results_told(text: str, episode: Episode, index: int) -> str | None:
    """``点 Search。搜索结果里第二个是 Travel earbuds pro #2``: the results of the search this step starts, told as
    certain, naming a result (a number or a text of the current or the next screen)."""
    step = episode.steps[index]
    target = target_element(step)
    if step.action.type != "click" or target is None or not _SEARCHES.search(element_label(target) or ""):
        return None
    names = _names_brought(episode, index)
    for s in SENTENCE.finditer(text):
        sentence = s.group()
        said = _RESULTS.search(sentence)
        if said is None or _HEDGED.search(sentence) or _HEDGED_ZH.search(sentence) or _PLANNED.search(sentence):
            continue
        named = normalize(sentence[said.start():])
        if re.search(r"\d", named) or any(n in named for n in names):
            return sentence.strip(" ,.;。，")
    return None


def _names_brought(episode: Episode, index: int) -> list[str]:
    """The call's value and the texts of the current and the next screen (three letters at least), lower case."""
    step = episode.steps[index]
    shown = [*screen_texts(step), *(screen_texts(episode.steps[index + 1]) if index + 1 < len(episode.steps) else [])]
    return [t for t in {normalize(x) for x in [step.action.text or "", *shown]} if len(t) >= 3]


_BACK = {"back_key": "back"}  # the back key and an in-app back: going back either way
_AGAIN = re.compile(r"\b(?:one more|another|again)\b|再|继续", re.I)  # this step's action, said as one more


def _acts_as_decided(verb: tuple[int, str, int], said: str, decision: Decision) -> bool:
    """Is ``verb`` (found in ``said``) the decided action's kind? Going back by key or in the app is one kind, and
    a press (``按下后桌面出现``) is the home or back key pressed on a home or back step."""
    kind, decided = (_BACK.get(v, v) for v in (verb[1], decision.verb))
    pressed = kind == "click" and decided in ("home", "back") and said[verb[0]:verb[2]].startswith("按")
    return kind == decided or pressed


def _the_step_befores(named: str, said: str, step: Step) -> bool:
    """After a step of this step's kind: a result naming nothing of this step's target or value (nor ``another
    swipe``, ``再点``) is the step before's."""
    return not target_evidence(named, step) and not _AGAIN.search(said)


def _told_before(text: str, decision: Decision, episode: Episode, index: int) -> str | None:
    """``点一下 Bluetooth 就切换成 On 了。点 Bluetooth。``: a change the hindsight reader finds before the decision, told
    after an action of this step's kind, not narrated as done, naming this step's target (or nothing, where the step
    before did another kind of action)."""
    before = text[:decision.span[0]]
    step = episode.steps[index]
    same_before = _same_kind_before(episode, index)
    for phrase in find_hindsight(before) if before.strip() else []:
        at = before.find(phrase)
        own = next((m for m in SENTENCE.finditer(before) if m.start() <= at < m.end()), None)
        if at < 0 or own is None:
            continue
        verb = first_verb(before[own.start():at + len(phrase)])
        if verb is None or not _acts_as_decided(verb, before[own.start():], decision):
            continue
        if _PERFECTIVE.match(before[own.start() + verb[2]:]) or en_past(phrase):
            continue  # 点了搜索，结果出来了 / Scrolling brought up nothing: what an earlier step did
        if same_before and _the_step_befores(before[own.start() + verb[2]:at + len(phrase)], before[own.start():at],
                                             step):
            continue
        return phrase
    return None


# the result told as done: 就…了, 成功了, 提交了, 任务到此结束 (not 就行了, 就好了: the step judged enough)
_DONE_ZH = re.compile(r"(?:就|便)(?!行|好|可以|够)[^，,。；;！!？?]{1,24}?了(?![吗吧呢])"
                      r"|(?:成功|完成|提交|发出去|发送出去|填完|结束)了|任务(?:到此|就)?(?:结束|完成)")
_UNSURE_ZH = re.compile("|".join((HEDGE.pattern, PURPOSE_ZH, CONDITION_ZH, TRYING_ZH, ASKING_ZH, ENOUGH_ZH,
                                  r"想|要是|能|可以|估计|看是不是|等")))
_PAST_ZH = re.compile(r"已经|刚才|刚刚|前面|" + EARLIER_ZH)


def _done_told_zh(text: str, decision: Decision, episode: Episode, index: int) -> str | None:
    """``点右下的发送按钮，消息就出现在对话右侧，发送成功了。所以点发送。``: before the decision, an action of this step's
    kind, not narrated as done, then its result told as done, with no hedge, condition or purpose between."""
    before = text[:decision.span[0]]
    step = episode.steps[index]
    same_before = _same_kind_before(episode, index)
    sentences = list(SENTENCE.finditer(before))
    for n, s in enumerate(sentences):
        sentence = s.group()
        verb = first_verb(sentence)
        if verb is None or not _acts_as_decided(verb, sentence, decision):
            continue
        done = _DONE_ZH.search(sentence, verb[2])
        if done is None or _PERFECTIVE.match(sentence[verb[2]:]) or _PAST_ZH.search(sentence[:done.start()]) \
                or _UNSURE_ZH.search(sentence[verb[0]:done.end()]):
            continue  # 点了搜索，结果就出来了 / 点一下就行了 / 点一下应该就打开了: no result told
        named = (sentences[n - 1].group() if n else "") + sentence[verb[2]:done.start()]  # 它的 Apply 在右上方。点下去…
        if same_before and _the_step_befores(named, sentence, step):
            continue
        return sentence[verb[0]:done.end()]
    return None


__all__ = ["foretold"]
