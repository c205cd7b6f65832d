"""Does the reasoning decide the action its function call performs? (reason ``reasoning_contradicts_action``)

The function is compared with the ground truth elsewhere (:mod:`sftdata.checks.check`); this module compares the
*text* with the call: the decision the reasoning states (:func:`sftdata.checks.decision.stated_decision`) must
have a compatible verb, the swipe direction of the call (the finger's; a web scroll's is the view's), the typed
text and the app it names, and a target that is not another element of the current screen. A text that says the
task is already complete must come with ``done``; a ``done`` must not decide a further action. Silence is never
a contradiction: a text with no decision passes.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> wifi = Element(0, (0, 300, 1080, 400), text="WLAN", flags=("visible", "clickable"))
>>> bt = Element(1, (0, 400, 1080, 500), text="蓝牙", flags=("visible", "clickable"))
>>> step = Step(0, shot, Action("click", point=(540, 350), element=wifi), elements=[wifi, bt])
>>> call = {"name": "click", "parameters": {"target_element": "“WLAN”选项"}}
>>> contradictions("向下滚动页面，查看下方更多的选项。", call, step)
['the reasoning decides to swipe (“向下滚动页面”), the call is click']
>>> contradictions("要打开无线网络设置，所以点击“蓝牙”。", call, step)
['the reasoning names “蓝牙”, another element of this screen; the call targets “WLAN”']
>>> contradictions("上一步已经向下滚动，现在点击“WLAN”进入无线设置。", call, step)
[]
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .agreement_target import before_contrast, leading_words, names_label, same_text, shorten, target_problem
from .app_names import same_app
from .calls import CJK_CLASS, longest_first, normalize, target_element
from .completion import claims_complete
from .hedges import ENOUGH_ZH
from .decision import Decision, finger_direction, quotes_in, stated_decision
from .ruled_out import CONTRAST, unruled
from .screen_text import element_texts, visible_elements
from .spoken_calls import spoken_calls

# function name -> verb classes a reasoning may state for it
COMPATIBLE = {
    "click": {"click", "open", "back", "home", "open_app"},
    "long_press": {"long_press"},
    "input": {"input"},
    "type": {"input", "click"},
    "select": {"click"},  # typing into a list is not choosing from it
    "swipe": {"swipe"},
    "scroll": {"swipe"},
    "open_app": {"open_app", "open", "click"},
    "press_back": {"back", "back_key", "click"},
    "go_back": {"back", "back_key", "click"},
    "press_home": {"home"},
    "wait": {"wait"},
    "go_to_url": {"open", "input"},
    "new_tab": {"open", "click"},
    "done": {"done"},
}
_VERB_WORDS = {"click": "click", "open": "open", "back": "go back", "home": "go home", "open_app": "open an app",
               "long_press": "long-press", "input": "type", "back_key": "press the back key", "swipe": "swipe", "wait": "wait", "done": "finish"}


BACK_CONTROL = re.compile(r"返回|后退|向上导航|navigate up|\bback\b|arrow|箭头|<|←", re.I)


def _verb_problem(decision: Decision, name: str) -> str | None:
    allowed = COMPATIBLE.get(name)
    if name in ("press_back", "go_back") and decision.verb == "click" and not BACK_CONTROL.search(decision.phrase):
        allowed = allowed - {"click"}  # tapping a back control is going back; tapping anything else is not
    if allowed is None or decision.verb in allowed:
        return None
    return (f"the reasoning decides to {_VERB_WORDS.get(decision.verb, decision.verb)} (“{shorten(decision.phrase)}”), "
            f"the call is {name}")


def _direction_problem(decision: Decision, name: str, params: dict[str, Any]) -> str | None:
    if decision.verb != "swipe" or name not in ("swipe", "scroll") or decision.direction is None:
        return None
    want = str(params.get("direction", "")).lower()
    said = decision.direction if name == "swipe" else {"up": "down", "down": "up", "left": "right",
                                                         "right": "left"}[decision.direction]
    if not want or said == want:
        return None
    whose = "finger" if name == "swipe" else "view"
    return f"the reasoning moves the {whose} {said} (“{shorten(decision.phrase)}”), the call's direction is {want.upper()}"


_OPTION = re.compile(r"^\s*(?:choose|choosing|select|selecting|pick|picking|set)\s+(?!the\b|a\b|an\b|it\b|this\b)"
                     r"(?P<en>[A-Za-z0-9][\w .'&-]{0,30}?)\s+(?:from|in|on|for|as|under)\b"
                     r"|^\s*(?:选择|选中|选)\s*(?P<zh>[A-Za-z0-9][\w .'&-]{0,30}?)\s*(?:[，,。；;]|$|作为)"
                     r"|^\s*(?:set|change|switch)\s+(?:the\s+)?[\w .'&-]{1,30}?\s+to\s+(?P<to>[A-Za-z0-9][\w .'&-]{0,30}?)"
                     r"\s*(?:[,.;]|$|\s(?:first|now|next|then|before|so|since|because)\b)"  # Set Job type to Part-time
                     r"|^\s*(?:choose|choosing|select|selecting|pick|picking|go(?:ing)? with)\s+(?P<num>\d{1,4})(?![\d/:.,]\d)"
                     r"(?!\s*(?:st|nd|rd|th|of|or|and|to\s+\d+|items?|options?|rows?|steps?|more|times|down|up|would|is|are|was|isn't|won't)\b)\b",
                     re.I)  # pick 3 to be safe


def _value_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
    """A select whose decision quotes an option other than the call's value (the field's own label aside)."""
    if name != "select":
        return None
    value = str(params.get("value") or "")
    own = [normalize(t) for e in ([target_element(step)] if target_element(step) else []) for t in element_texts(e)]
    own += [normalize(q) for q in quotes_in(str(params.get("target_element") or ""))]
    quotes = list(decision.quotes)
    if not quotes and (m := _OPTION.match(decision.after_verb or "")):  # Choose Tennessee from the State list
        quotes = [next(g for g in m.groups() if g)]
    options = [q for q in quotes if not any(normalize(q) == o for o in own)]
    if not options or any(same_text(q, value) for q in options):
        return None
    return f"the reasoning selects “{shorten(options[-1])}”, the call selects “{shorten(value)}”"


_TYPED_AS = re.compile(r"^\s*(?:type|enter|input|key in|fill in|set)\s+(?:the\s+|a\s+|my\s+)?\w+(?:\s\w+)?\s+as\s+"
                       r"(?!(?:the|a|an|my|your|its)\b)(?P<as>[^\s\"“'‘].*?)\s*(?:\s(?:in|into|on|for)\s+the\b.*)?[.。]?$", re.I)
_UNQUOTED_TYPED = re.compile(
    r"^\s*(?:type|enter|input|key in|fill in)\s+(?!(?:it|that|this|them|these|those)\s)(?P<en>[^\s\"“'‘].*?)\s+(?:into|in|on|as|for)\b"
    r"|^\s*(?:输入|填写|填入|键入|填上|录入|填|(?:打|敲)(?:上|入|进)?)(?![到进在至])\s*(?:[" + CJK_CLASS + r"]{1,6}\s*)?(?P<zh>[A-Za-z0-9@][\w@.+\-/:]*(?:\s[\w@.+\-/:]+)*)\s*(?:[，,。；;]|$)"
    r"|^\s*(?:type|enter|input|输入|填写|键入)[^:：\n]{0,20}[:：]\s*(?P<colon>[^\s\"“'‘].*?)\s*[。.]?$", re.I)


_JUDGED_AFTER = re.compile(rf"(?<=[A-Za-z0-9])(?:更快|更好|更稳|更省事|更方便|最快|最好|最稳|比较快|比较好|方便|{ENOUGH_ZH})$")
_BA_TYPED = re.compile(r"把\s*(?P<value>[^，,。；;把]{1,60}?)\s*(?:输入|填写|键入|录入|填|打|敲)(?:到|进|在|入)")
_LITERAL = re.compile(r"[A-Za-z0-9@]")  # a value written out (vegan lasagna, 555-0134), not described (关键词)
_QUOTE_EDGES = re.compile(r"^[\"“'‘「]|[\"”'’」]$")


def _typed_as(said: str, typed: str) -> bool:
    """``said`` is the typed text exactly, with or without the quotation marks around it."""
    return _exact(said, typed) or _exact(_QUOTE_EDGES.sub("", said), typed)


def _plain(text: str) -> str:
    """``text`` less case and runs of whitespace: a full-width comma stays one (``收到，谢谢`` is not ``收到,谢谢``)."""
    return " ".join(text.split()).lower()


def _exact(a: str, b: str) -> bool:
    """The same text, but for case, runs of whitespace (control characters included) and the sentence's end
    punctuation around it; width counts, as the typed characters differ. A text that is nothing but such characters
    (``!``, ``。``, a tab: any typed text is kept) is compared whole, so the template's own quote of it agrees with it.

    >>> _exact("ABC。", "abc"), _exact("！", "！"), _exact("", "。"), _exact("", "\t\x0b"), _exact("a,b", "a，b")
    (True, True, False, True, False)
    """
    a, b = _plain(a), _plain(b)
    bare_a, bare_b = a.strip(" 。.!！"), b.strip(" 。.!！")
    return bare_a == bare_b if bare_a or bare_b else a == b


def _value_quotes(decision: Decision, params: dict[str, Any], step: Step) -> list[str]:
    """The decision's quotes but the typed-into field's own label (``type Lisbon into 'Where are you going?'``),
    when the field is named after a preposition."""
    field = target_element(step)
    own = {normalize(t) for t in (element_texts(field) if field is not None else ())}
    own |= {normalize(q) for q in quotes_in(str(params.get("target_element") or ""))}
    after = decision.after_verb or ""
    return [q for q in decision.quotes if not (normalize(q) in own and re.search(
        r"(?:\b(?:into|in|to|on|for)\s+(?:the\s+)?|[在往向]\s*)[\"“'‘「]?" + re.escape(q), after, re.I))]


# the field a value goes into, said after it: ``into the To box``, ``in the search field``, ``到搜索框里``
_INTO_FIELD = re.compile(r"(?:\s+(?:into|in|inside)\s+|\s*(?:→|->|=>|⇒)\s*)"  # or an arrow: vegan lasagna → the search box
                         r"(?:the\s+)?[^.。,，]{0,30}?\b(?:box|field|bar|input)\b"
                         r"|\s*(?:填|输)?(?:到|进|在)[^。，,]{0,12}?(?:输入框|搜索框|搜索栏|文本框|框)(?:里|中|内)?", re.I)


# the field a value goes into, named by a quotation after it: ``data analyst into 'Job title or keywords'``
_INTO_NAMED = re.compile(r"\s+(?:into|in|inside)\s+(?:the\s+)?(?=[\"“'‘「])", re.I)


# what a typed value is, said before it: ``the reply``, ``the keyword``, ``the message``
_VALUE_NOUN = re.compile(r"^(?:the\s+|my\s+)?(?:reply|message|text|keywords?|query|search term|answer|note|words?)\s*[:：]?\s*",
                         re.I)


# no value at all, said where the value would stand: ``type the query myself``, ``enter the reply exactly as requested``
_NO_VALUE = re.compile(r"\s*(?:myself|ourselves|now|here|there|again|first|(?:(?:exactly|precisely|verbatim|just)\s+)?(?:as\s+)?"
                       r"(?:requested|asked|given|written|specified|instructed|required|stated|worded))?\s*", re.I)


def _text_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
    """The text the decision types (its quote, or an unquoted value: ``Type DEN into the To field``) must be the
    call's text exactly: typing is never partial."""
    if decision.verb != "input" or name not in ("input", "type"):
        return None
    typed = str(params.get("text") or "")
    if m := _BA_TYPED.search(decision.phrase):  # 把 vegan lasagna 填进搜索框: the value is the 把 object
        said = m["value"].strip()  # 把电话 555-0134 填进, 把关键词“机械键盘”打进去: the value may follow its name
        quoted = quotes_in(said)
        if quoted:
            return None if any(_exact(q, typed) for q in quoted) else \
                f"the reasoning types “{shorten(quoted[-1])}”, the call types “{shorten(typed)}”"
        if not _LITERAL.search(said) or any(_exact(said[i:], typed) for i in [0] + [x.end() for x in re.finditer(r"\s+", said)]):
            return None  # 把关键词填进去: which text, the words do not say
        return f"the reasoning types “{shorten(said)}”, the call types “{shorten(typed)}”"
    if not decision.quotes and decision.continuation.strip():  # Type the reply: 明天见！ (a cut at any sentence end)
        said = re.sub(r"^(?:输入|键入|填写|填入|type|enter|input)\s*", "", decision.continuation.strip(), flags=re.I)
        cuts = [said] + [said[:m.end()] for m in re.finditer(r"[。！？!?]|\.(?=\s)", said)]
        cuts += [said[:m.start()] for m in _INTO_FIELD.finditer(said)]  # Denver into the To box: the value before it
        cuts += [said[:m.start()] for m in _INTO_NAMED.finditer(said)]  # data analyst into 'Job title or keywords'
        if any(_exact(c, typed) for c in cuts + quotes_in(said) + _without_aside(said)) or _typed_as(said, typed):
            return None
        return f"the reasoning types “{shorten(said)}”, the call types “{shorten(typed)}”"
    if not decision.quotes:
        m = _TYPED_AS.match(decision.after_verb or "") or _UNQUOTED_TYPED.match(decision.after_verb or "")
        said = next((g for g in m.groups() if g), "").strip() if m else ""
        said = _JUDGED_AFTER.sub("", said)  # 输入vegan lasagna更快: the judgement after the value is not typed
        field = target_element(step)
        named = _VALUE_NOUN.sub("", said)  # type the reply 我晚上七点到家: the value after the name of what it is
        into = re.match(r"(.+?)\s*(?:填)?(?:到|进|至)\s*(.+?)[?？]?\s*$", said)  # 输入 Lisbon 到 Where are you going?
        fields = element_texts(field) if field is not None else []
        before_field = [into.group(1)] if into and any(normalize(into.group(2)) in t for t in fields) else []
        if not said or (named != said and _NO_VALUE.fullmatch(named)) or _NO_VALUE.fullmatch(said) or any(
                _exact(c, typed) for c in [said, named] + before_field + _without_aside(said)) or (
                field is not None and normalize(said) in fields):
            return None  # 先填 Full name: the field, not the text
        if "," in typed or "，" in typed:  # 输入 OK, 没问题 然后发送: the value runs on past the clause's comma
            rest = _plain(decision.after_verb + decision.follow).replace(" ", "")
            if _plain(typed).replace(" ", "") in rest and _plain(said).replace(" ", "") in _plain(typed).replace(" ", ""):
                return None
        return f"the reasoning types “{shorten(said)}”, the call types “{shorten(typed)}”"
    quotes = _value_quotes(decision, params, step)
    if not quotes:  # type Lisbon into 'Where are you going?': the quote is the field, the value is unquoted
        m = _UNQUOTED_TYPED.match(decision.after_verb or "")
        said = next((g for g in m.groups() if g), "").strip() if m else ""
        return None if not said or any(_exact(c, typed) for c in [said] + _without_aside(said)) else \
            f"the reasoning types “{shorten(said)}”, the call types “{shorten(typed)}”"
    said = quotes[-1] if name == "type" and len(quotes) > 1 else quotes[0]
    if len(quotes) > 1 and any(_exact(q, typed) for q in quotes):
        return None
    if _exact(said, typed):
        return None
    return f"the reasoning types “{shorten(said)}”, the call types “{shorten(typed)}”"


# after a typed value, not part of it: where it goes (there, in it, 进去, 里面)
_DEICTIC_AFTER = re.compile(r"(?:\s+(?:there|here|in there|in here|in it|into it|on it|inside)"
                            r"|\s*(?:进去|进去吧|里面|那里|这里|到里面|到那里|到这里|上去))\s*[.。!！]?$", re.I)


# after a typed value, where it goes by name: ``Union Station goes into Starting point``
# after a typed value, an aside in brackets: ``收到，谢谢 (full-width comma)``
_ASIDE_AFTER = re.compile(r"(?:\s*[(（][^()（）]*[)）]|\s+(?:with|using|keeping) (?:the|a|its) (?:full-width|half-width|chinese|english"
                          r"|exact|same|original)\b[^.。]*"
                          r"|\s+(?:exactly|verbatim|precisely|word for word|as (?:given|written|asked|requested|stated|specified)"
                          r"|as (?:the|in the) (?:goal|task)\b)[^.。]*)\s*[.。]?\s*$", re.I)  # 收到，谢谢 with the full-width comma
_GOES_INTO = re.compile(r"\s+(?:goes|go|belongs|needs to go|should go)\s+(?:in|into|under)\s+\S"
                        r"|\s*,\s*(?:in|into|on)\s+the\s+\S", re.I)  # Denver, in the To field


# after a Latin value, a Chinese purpose of its own: ``输入 jazz 缩小范围`` (the value is jazz)
_PURPOSE_AFTER = re.compile(r"(?<=[A-Za-z0-9])\s+(?:来|以|好)?(?:缩小范围|搜索|搜一下|查找|查询|筛选|过滤|找一找|看看|试试)\s*[。.!！]?$")
_ENOUGH_AFTER = re.compile(r"\s*(?:" + ENOUGH_ZH + r"|就可以|就够了)(?:了|啦)?\s*[。.!！]?$")  # 输入 jazz 就行


def _without_aside(said: str) -> list[str]:
    """``said`` less a trailing place word, and less a purpose after that place word (``06/06 there``, ``06/06
    there for June 6``, ``06/06 进去``), less where it goes (``Union Station goes into Starting point``): the place
    names the field and the purpose what the value means; what is left must still be the typed text whole. A
    purpose with no place word before it stays (``tickets for two``)."""
    out = [_DEICTIC_AFTER.sub("", said), _ENOUGH_AFTER.sub("", said)]
    out += [said[:m.start()] for m in _GOES_INTO.finditer(said)]
    out += [t for m in _ASIDE_AFTER.finditer(said) for t in (said[:m.start()], _DEICTIC_AFTER.sub("", said[:m.start()]))]
    out += [_DEICTIC_AFTER.sub("", said[:m.start()]) for m in re.finditer(r"\s+(?:for|as|so|to mean|meaning)\s", said, re.I)
            if _DEICTIC_AFTER.search(said[:m.start()])]
    out += [said[:m.start()] for m in _PURPOSE_AFTER.finditer(said)]
    return [t.strip() for t in out if t.strip() and t.strip() != said.strip()]


_APP_NAMED = re.compile(r"(?:打开|启动|运行)\s*(?!(?:这个|那个|这|那|它|该|此)\s*(?:应用|App|APP|app|软件))"
                        r"(?P<zh>[^，,。“”「」\s][^，,。“”「」]{0,15}?)\s*(?:应用|App|APP|app|软件)"
                        r"|\b(?:open|launch|start)\s+(?:the\s+)?(?!(?:that|this|it|its|your|my)\s+app\b)(?P<en>[A-Za-z0-9][\w .&'-]{0,24}?)\s+app\b", re.I)


def _app_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
    if name != "open_app" or decision.verb not in ("open_app", "open"):
        return None
    app = str(params.get("app_name") or "")
    named = list(before_contrast(decision))
    if not named:
        m = _APP_NAMED.search(decision.after_verb if decision.after_verb else decision.phrase) or \
            _APP_NAMED.search(decision.phrase)
        named = [(m.group("zh") or m.group("en")).strip()] if m else []
    if not named:  # 打开 Google 搜索: an icon of the screen, by its label or the label's first words
        rest = CONTRAST.split(normalize(decision.rest), 1)[0]
        icons = {n for e in visible_elements(step) for t in element_texts(e) for n in leading_words(t)}
        named = sorted((n for n in icons if names_label(rest, n)), key=longest_first)
        if any(same_text(n, app) or same_app(n, app) for n in named):
            return None
    if not named or any(same_text(q, app) or same_app(q, app) for q in named):
        return None
    return f"the reasoning opens “{shorten(named[0])}”, the call opens “{shorten(app)}”"


def _labelled_value_problem(text: str, name: str, params: dict[str, Any], step: Step) -> str | None:
    """No verb, a field and its value (``Phone number: 555-0143``, ``Next, the To field: Dallas``): on a typing
    step the value after the call's own field must be the typed text."""
    element = target_element(step)
    if name not in ("input", "type") or element is None:
        return None
    typed = str(params.get("text") or "")
    for label in element_texts(element):
        m = re.search(rf"(?<![\w]){re.escape(label)}(?:\s*(?:field|box|框|栏))?\s*[:：]\s*(?P<v>[^\n]+?)\s*[.。]?\s*$",
                      normalize(text), re.I | re.M)
        if m and not _typed_as(m.group("v"), typed):
            return f"the reasoning gives “{shorten(label)}” the value “{shorten(m.group('v'))}”, the call types “{shorten(typed)}”"
    return None


_TYPE_LATER = re.compile(r"\b(?:type|enter|fill in)\b[^.;。；]{0,40}\b(?:in|on) the (?:next|following) step\b"
                         r"|(?:下一步|之后|稍后|等会儿?)再(?:输入|填写?|键入)", re.I)


def _deferred_typing(text: str, decision: Decision, name: str) -> str | None:
    """A typing call whose reasoning only taps the field now and types "in the next step"."""
    if name not in ("type", "input") or decision.verb != "click" or not _TYPE_LATER.search(text):
        return None
    return f"the reasoning only taps now (“{shorten(decision.phrase)}”) and types later; the call types"


def _done_problem(text: str, decision: Decision | None, name: str) -> str | None:
    if name == "done":
        if decision is not None and decision.verb not in ("done", "open") and decision.verb in (
                "click", "long_press", "input", "swipe", "open_app", "back", "back_key", "home", "wait"):
            return f"the call is done, but the reasoning decides to {_VERB_WORDS[decision.verb]} (“{shorten(decision.phrase)}”)"
        return None
    claim = claims_complete(text)
    if claim is not None and not _part_done(text, claim, decision, name):
        return f"the reasoning says the task is complete (“{shorten(claim)}”), the call is {name}"
    return None


_WHOLE_TASK = re.compile(r"任务|目标|整个|全部任务|\b(?:task|goal|everything the goal|whole)\b", re.I)


def _part_done(text: str, claim: str, decision: Decision | None, name: str) -> bool:
    """Is ``claim`` a part done (``All set — click Reserve now``, ``1. Airplane mode: On — done. 2. … press Home``):
    no word of the whole task in it, and a decision the call allows said after it?"""
    if decision is None or _WHOLE_TASK.search(claim) or decision.verb not in COMPATIBLE.get(name, ()):
        return False
    at = text.find(claim)
    return 0 <= at and at + len(claim) <= decision.span[0]


def contradictions(text: str, function: dict[str, Any], step: Step) -> list[str]:
    """Every way ``text`` disagrees with ``function`` (``{"name", "parameters"}``) on ``step``, each a sentence;
    empty when they agree or the text states no decision."""
    if not isinstance(text, str) or not isinstance(function, dict):
        return []
    name = str(function.get("name") or "")
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    text = unruled(spoken_calls(text), step)  # a call line said in words; a ruled-out mention is no target
    decision = stated_decision(text)
    out = []
    done = _done_problem(text, decision, name)
    if done:
        return [done]
    if decision is None:
        labelled = _labelled_value_problem(text, name, params, step)
        return [labelled] if labelled else []
    verb = _verb_problem(decision, name) or _deferred_typing(text, decision, name)
    if verb:
        return [verb]
    for problem in (_direction_problem(decision, name, params), _text_problem(decision, name, params, step),
                    _value_problem(decision, name, params, step),
                    _app_problem(decision, name, params, step), target_problem(decision, name, params, step)):
        if problem:
            out.append(problem)
    return out


__all__ = ["COMPATIBLE", "contradictions", "finger_direction", "stated_decision"]
