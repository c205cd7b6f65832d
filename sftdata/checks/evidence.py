"""What the reasoning's decision says of its call: the positive evidence certify asks for.

Per function: a click or long press needs its target singled out (:mod:`.target_evidence`: a label or a word of
its card, an ordinal, a place, a role); typing needs the typed value, a select the chosen option (with or without
a verb: ``State: Texas``), a swipe or scroll its direction (the finger's, as the agreement check reads it), an
app launch the app, ``done`` a completion (``任务完成``, ``Task complete``), going back, home or waiting the verb
itself. A decision that says less leaves certify ``unsure``: :func:`decision_evidence` names what is missing.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> swipe = Step(0, shot, Action("swipe", point=(540, 1600), end=(540, 800)))
>>> fn = {"name": "swipe", "parameters": {"direction": "UP"}}
>>> [e.words for e in decision_evidence("往下翻一翻，看看后面还有什么。", fn, swipe)[0]]
['swipe', 'up']
>>> decision_evidence("看看后面还有什么。", fn, swipe)[1]
'no decision: the text states no action of this step'
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .after_decision import only_names
from .agreement import COMPATIBLE
from .app_names import app_names
from .calls import CJK, CJK_CLASS, normalize, target_element
from .completion import claims_complete
from .decision import (QUOTE, Decision, action_clauses, finger_direction, mask_quotes, quotes_in,
                       stated_decision)
from .click_evidence import click_evidence
from .named_other import numbered_elsewhere
from .ruled_out import CONTRAST, DENIED
from .screen_text import element_texts, visible_elements
from .target_evidence import Evidence, names_rival, target_evidence
from .target_group import inside

_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}  # a scroll's direction is the view's
_STATE = re.compile(r"\b(?:is|are|was|were|has been|have been)\s+(?:now\s+|already\s+)?(?:selected|chosen|set|entered|filled|typed"
                    r"|shown|displayed|checked|on|off)\b|\bnow (?:shows|reads|says)\b|已经?(?:选|填|输入|显示|是)|现在(?:是|显示)", re.I)
_NARRATED = re.compile(r"(?:[滑划翻拉推]|滚动)(?:了|完|过|后|之后|以后)|\b(?:swiped|scrolled|after swiping|after scrolling)\b", re.I)
_TASK = re.compile(r"任务|目标|\b(?:task|goal)\b", re.I)
_IF = re.compile(r"如果|假如|要是|万一|是否|\b(?:if|unless|whether|in case)\b", re.I)
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
_BACK_WORDS = re.compile(r"返回|后退|向上导航|navigate up|\bback\b|arrow|箭头|<|←", re.I)
_HISTORY = re.compile(r"上一步|刚才|之前|已经|已|\b(?:already|earlier|previous(?:ly)?|before(?!\s+\w+ing\b))\b", re.I)
_NEW_TAB = re.compile(r"新(?:的)?(?:标签页|标签|窗口)|\bnew (?:tab|window)\b", re.I)
_DONE_WORDS = re.compile(r"结束|收工|完成|完事|搞定|做完|达成|办完|弄完|\b(?:finish(?:ed|ing)?|done|complete[d]?|accomplished"
                         r"|achieved|satisfied|fulfilled|stop(?:ping)? here|that's (?:it|all|everything)|wrap(?:ping)? up"
                         r"|all set|nothing (?:left|more|else))\b", re.I)
_CAN_NOW = re.compile(r"可以(?=$)")  # 可以结束了: it may end now, the decision to
_NOT_DONE = re.compile(r"没|未|不|还|尚|以便|才能|之后|然后|再|为了|要|需要|能|可以|\bfor\b|\b(?:not|yet|until|before|after|then|once|will|to|still)\b", re.I)


def _sentence(text: str, span: tuple[int, int]) -> str:
    """The sentence of ``text`` that holds ``span``, and the rest of its line after a colon."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, span[0])), default=0)
    m = _SENTENCE_END.search(text, span[1])
    end = m.start() if m else len(text)
    if text[span[1]:end].lstrip().startswith((":", "：")) or text[span[0]:span[1]].rstrip().endswith((":", "：")):
        line_end = text.find("\n", span[1])
        end = max(end, line_end if line_end >= 0 else len(text))
    return text[start:end]


def _cut_contrast(text: str) -> str:
    """``text`` up to a contrast (``打开商城而不是 Chrome``)."""
    m = CONTRAST.search(mask_quotes(text))
    return text[:m.start()] if m else text


def _shown_elsewhere(value: str, step: Step) -> bool:
    """Is ``value`` (a select's option) the whole label of a visible element other than the select: a link or a tab
    of the same name (``click Electronics`` may be the nav link, not the option)?"""
    target, wanted = target_element(step), normalize(value)
    return any(e is not target and wanted in element_texts(e) and not (target is not None and inside(e, target))
               for e in visible_elements(step))


def _names_select(text: str, step: Step) -> bool:
    """Does ``text`` name the select: its label, or a dropdown by its kind?"""
    target = target_element(step)
    said = normalize(text)
    return bool(_DROPDOWN.search(said)) or (target is not None and any(
        len(t) >= 3 and t in said for t in element_texts(target)[:1]))


_DROPDOWN = re.compile(r"下拉|选择框|菜单|\b(?:dropdown|drop-down|select(?:or)?|menu|picker|combo ?box)\b")


def _value_decided(text: str, decision: Decision, name: str, value: str) -> bool:
    """An action clause the call allows (the decision first) says ``value`` from its verb to its sentence's end
    (a typed value may hold commas: ``输入 收到，谢谢``)."""
    allowed = COMPATIBLE.get(name, ())
    spans = [decision.span] + [c.span for c in action_clauses(text) if c.verb in allowed and c.span != decision.span]
    for start, end in spans:
        stop = _SENTENCE_END.search(text, end)
        said = text[start:stop.start() if stop else len(text)]
        verb_at = 0
        if start == decision.span[0]:  # a contrast before the verb (rather than X, I'll type …) is over at the verb
            verb_at = max(said.find(decision.after_verb), 0) if decision.after_verb else 0
            said += " " + decision.continuation if decision.continuation else ""
        if said_whole(value, said[:verb_at] + _cut_contrast(said[verb_at:])):
            return True
    if _PRONOUN_OBJECT.match(decision.after_verb or ""):  # The goal concerns Maple Street, so type that into …
        before = [s for s in _SENTENCE_END.split(text[:decision.span[0]]) if s.strip()]
        return bool(before) and said_whole(value, _cut_contrast(" ".join(before[-2:])))
    return False


_PRONOUN_OBJECT = re.compile(r"^\s*[A-Za-z]+\s+(?:it|that|this|them)\b|^\s*\S{1,3}?(?:它|这个|那个)(?![^，,。]{0,3}[“\"A-Za-z0-9])", re.I)


def _object(decision: Decision) -> str:
    """What the decision's verb acts on: the rest of its clause, an appositive, a colon's continuation and what a
    pronoun points back to."""
    return " ".join(p for p in (decision.rest, decision.appendix, decision.continuation, decision.antecedent) if p)


_CJK_JOINS = "并然再后就来吧了即进到在和发去，。、；！？,.;!? "  # what may follow a typed Chinese value


def said_whole(value: str, text: str) -> bool:
    """``value`` stands in ``text`` whole and alone (case and spaces aside, not width): not inside a longer word or a
    longer quotation, nor followed by more of a longer value (``Maple Street, Springfield`` says another value
    than ``Maple Street``, ``“收到，谢谢妈妈”`` another than ``收到，谢谢``).

    >>> said_whole("Jane Doe", "type Jane Doe into Full name"), said_whole("Maple Street", "输入 Maple Street, Springfield。")
    (True, False)
    >>> said_whole("收到，谢谢", "输入 收到，谢谢 然后发送"), said_whole("收到，谢谢", "输入“收到，谢谢妈妈”")
    (True, False)
    >>> said_whole("收到，谢谢", "输入 收到,谢谢 就行")
    False
    """
    v = " ".join(value.split()).lower().strip(" 。.!！")
    if not v:
        return False
    said = text  # width counts: ``收到,谢谢`` says another value than ``收到，谢谢``
    inside = [(m.start(), m.end()) for m in QUOTE.finditer(said) if " ".join(m.group()[1:-1].split()).lower() != v]
    pattern = r"\s*".join(re.escape(ch) for ch in v.replace(" ", ""))
    for m in re.finditer(rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])", said, re.I):
        if any(a < m.start() < b for a, b in inside):
            continue  # part of a longer quotation
        after = said[m.end():]
        if re.match(r"\s*[,，&+]\s*[A-Z0-9]|\s+[A-Z0-9]", after) and not re.match(
                rf"\s*，\s*[A-Za-z0-9 ]{{1,30}}?\s*[{CJK_CLASS}]", after):
            continue  # more of a longer value (not 打 jazz，Tickets 的数量…: a Chinese clause after it)
        if CJK.match(v[-1]) and CJK.match(after[:1]) and after[0] not in _CJK_JOINS:
            continue  # 保温杯 of 保温杯杯套
        return True
    return False


def _value_sentence(value: str, text: str) -> str | None:
    """The sentence of ``text`` where a sentence or a clause says ``value`` and is neither about what was done
    before, nor a state or a result (``Texas is now selected``), nor the task's, nor denied; None when none is."""
    sentences = re.split(r"[。！？!?\n]|\.(?=\s|$)", text)
    clauses = [(c, s) for s in sentences if not _HISTORY.search(mask_quotes(s))  # Cabin 现在是 Economy，所以选 Business
               for c in re.split(r"[，,；;]", s)]
    for part, sentence in [(s, s) for s in sentences] + clauses:
        masked = mask_quotes(part)
        bare = QUOTE.sub(lambda m: m.group() if normalize(m.group()[1:-1]) == normalize(value) else "", part)
        if (said_whole(value, bare) and not _HISTORY.search(masked) and not _STATE.search(masked)
                and not _TASK.search(masked) and not DENIED.search(masked)):
            return sentence
    return None


def _completion(text: str) -> str | None:
    """A sentence that says the work is finished (``删除和回复两件事都完成了``, ``Goal satisfied — finishing
    here``), not a plan or a negation: the last such sentence, when it is not about an earlier part."""
    for sentence in reversed(re.split(r"[。！？!?\n]|\.(?=\s|$)", text)):
        masked = mask_quotes(sentence)
        for m in _DONE_WORDS.finditer(masked):  # … is done — finish: any of its words, each in its own clause
            if not _NOT_DONE.search(_CAN_NOW.sub("", re.split(r"[，,；;：:—–]", masked[max(0, m.start() - 8):m.start()])[-1])):
                return sentence.strip()[:60]
    return None


def _no_decision(name: str, params: dict[str, Any], text: str, step: Step) -> tuple[list[Evidence], str | None]:
    """Evidence without an action verb: a completion for ``done``, a field's value for typing and selecting."""
    if name == "done":
        claim = claims_complete(text) or _completion(text)
        return ([Evidence("done", claim)], None) if claim else ([], "no decision: the text says neither an action "
                                                                  "nor that the task is complete")
    value = str(params.get("value" if name == "select" else "text") or "")
    field = _value_sentence(value, text) if name in ("select", "type", "input") and value else None
    if field is not None:
        if names_rival(_cut_contrast(field).replace(value, " "), step):  # the field named beside the value
            return [], f"the text puts “{value[:40]}” in another field than the call's"
        return [Evidence("value", value)], None
    if name in ("swipe", "scroll") and (said := _direction(text, name, params)):
        return [Evidence("direction", said)], None
    arrow = _ARROW_TAIL.search(text.strip())  # cart 0 -> 加入购物车 btn bottom centre: the arrow points at the target
    lines = [text.strip()] + ([_NOW.sub("", _cut_contrast(arrow.group(1)))] if arrow else [])
    pointed = stated_decision(arrow.group(1)) if arrow and name in ("press_home", "press_back", "go_back") else None
    if pointed is not None and pointed.verb in COMPATIBLE.get(name, ()):
        return [Evidence("verb", pointed.verb)], None  # airplane on ✔ → home button: the arrow points at the key
    shown = [t for e in visible_elements(step) for t in element_texts(e)]
    for line in lines if name == "click" else []:
        if _LABEL_LINE.fullmatch(line) and not names_rival(line, step) and not numbered_elsewhere(line, step) \
                and only_names(line, shown):
            found = [e for e in target_evidence(line, step, own_names(params)) if e.kind != "role"]
            if any(e.kind == "name" for e in found):
                return found, None  # a jotted line that is the target's name alone (``Go``, ``Find homes, right of …``)
    return [], "no decision: the text states no action of this step"


_ARROW_TAIL = re.compile(r"(?:->|→|=>)\s*([^\n>→]+?)\s*$")
_NOW = re.compile(r"^\s*(?:now|then|so|next|现在|然后|所以|下一步)\s*[:：]?\s*", re.I)


# a jotting that is a name and where it is, nothing more: one short line, no sentence inside it
_LABEL_LINE = re.compile(r"[^\n。！？!?.;；]{1,60}[.。]?")


def own_names(params: dict[str, Any]) -> list[str]:
    """The call's name for its target, less its quotation marks and kind word (``“Tours”元素`` -> ``Tours``)."""
    own = re.sub(r"^[“\"']|[”\"']?(?:元素|按钮|图标)?$", "", str(params.get("target_element") or ""))
    return [own] if own else []


def _direction(text: str, name: str, params: dict[str, Any]) -> str | None:
    """The one direction the text's present clauses say (``finger moves from right to left``), when it is the
    call's; None when they say none, several, or another."""
    want = {"swipe": {}, "scroll": _OPPOSITE}[name]
    found = set()
    for clause in re.split(r"[。！？!?\n；;]|\.(?=\s|$)", text):
        masked = mask_quotes(clause)
        if _HISTORY.search(masked) or _IF.search(masked) or _NARRATED.search(masked):
            continue
        said = finger_direction(clause)
        if said:
            found.add(want.get(said, said))
    said = found.pop() if len(found) == 1 else None
    return said if said and said == str(params.get("direction") or "").lower() else None


# where the value goes, said in a clause of its own before the typing: ``填在 Check-in 那个框里``, ``写到备注栏``
_PUT_INTO = re.compile(r"(?:填|输|写|放|打)(?:在|到|进)\s*(?P<field>[^，,。；;]{1,24}?)\s*(?:那个|这个)?(?:输入)?(?:框|栏)(?:里|中|内)?"
                       r"\s*[，,；;]\s*$")

_FILL = re.compile(r"(?:^|[，,；;]|先|要)\s*填(?:写)?\s*(?P<field>[^，,。；;]{1,24}?)\s*[，,；;]\s*$")  # 先填目的地 To，


def _sentence_before(text: str, at: int) -> str:
    """The part of ``text``'s sentence that comes before offset ``at``."""
    before = text[:at]
    return re.split(r"[。！？!?\n]|\.(?=\s)", before)[-1]


def decision_evidence(text: str, function: dict[str, Any], step: Step,
                      decision: Decision | None = None) -> tuple[list[Evidence], str | None]:
    """``(evidence, missing)``: what the decision of ``text`` says that ``function`` does on ``step``, and when that
    is not enough to certify, what is missing (a sentence; one that starts ``no decision`` when the text states no
    action of this step)."""
    name = str(function.get("name") or "")
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    decision = decision if decision is not None else stated_decision(text)
    if decision is None:
        return _no_decision(name, params, text, step)
    if decision.verb not in COMPATIBLE.get(name, ()):
        return [], f"the decision (“{decision.phrase[:40]}”) is not a {name}"
    verb = [Evidence("verb", decision.verb)]
    if name in ("click", "long_press"):
        if decision.verb in ("back", "home") and _BACK_WORDS.search(decision.phrase):
            return verb, None  # tapping the back arrow: the verb says it
        found, rival = click_evidence(text, decision, function, step)
        if found:
            return verb + found, None
        label = _target_name(step, params)
        if rival:
            return verb, f"the decision (“{decision.phrase[:40]}”) names another element than the target {label}"
        return verb, f"the decision (“{decision.phrase[:40]}”) does not single out the target {label}"
    if name in ("input", "type", "select"):
        value = str(params.get("value" if name == "select" else "text") or "")
        if value and _value_decided(text, decision, name, value):
            if name == "select" and decision.verb == "click" and _shown_elsewhere(value, step) and not _names_select(text, step):
                return verb, f"the decision clicks “{value[:40]}”, which another element of the page shows too"
            if name != "select" and decision.verb == "click" and _shown_elsewhere(value, step):
                return verb, f"the decision taps “{value[:40]}”, an element of the screen, rather than typing it"
            if name != "select" and names_rival(_cut_contrast(decision.phrase).replace(value, " "), step):
                return verb, "the decision types into another field than the call's"  # the field, before or after
            before = _sentence_before(text, decision.span[0])  # 填在 Check-in 那个框里，输入 06/06 / 先填目的地 To，输入 …
            put = _PUT_INTO.search(before) or _FILL.search(before)
            if name != "select" and put and value.lower() not in put.group("field").lower() \
                    and names_rival(put.group("field"), step) and not target_evidence(put.group("field"), step):
                return verb, "the decision types into another field than the call's"
            return verb + [Evidence("value", value)], None
        return verb, f"the decision does not say the {'option' if name == 'select' else 'typed text'} “{value[:40]}”"
    if name in ("swipe", "scroll"):
        if decision.verb == "swipe" and decision.direction:
            said = decision.direction if name == "swipe" else _OPPOSITE[decision.direction]
            if said == str(params.get("direction") or "").lower():
                return verb + [Evidence("direction", decision.direction)], None
            return verb, f"the decision swipes {decision.direction}, not the call's way"
        said = _direction(text, name, params)
        if said:
            return verb + [Evidence("direction", said)], None
        return verb, "the decision does not say which way to swipe"
    if name == "open_app":
        app = str(params.get("app_name") or "")
        said = _cut_contrast(" ".join(p for p in (decision.phrase, decision.appendix, decision.antecedent) if p))
        named = lambda a: normalize(a) in normalize(said) if CJK.search(a) else said_whole(a, said)  # noqa: E731
        if app and (any(named(n) for n in app_names(app)) or named(app.split()[0]) and len(app.split()[0]) >= 4):
            return verb + [Evidence("app", app)], None
        return verb, f"the decision does not name the app “{app[:40]}”"
    if name in ("press_back", "go_back"):
        if decision.verb in ("back", "back_key"):
            return verb, None
        return verb, "the decision taps something rather than going back"
    if name in ("press_home", "wait"):
        return verb, None
    if name == "done":
        return verb + [Evidence("done", decision.phrase)], None
    if name in ("go_to_url", "new_tab"):
        url = str(params.get("url") or "")
        host = re.sub(r"^[a-z]+://(?:www\.)?", "", url, flags=re.I).split("/")[0]
        said = normalize(" ".join(p for p in (decision.phrase, decision.appendix, decision.continuation) if p))
        site = host.split(".")[0] if host else ""
        if (site and re.search(rf"(?<![a-z0-9]){re.escape(site)}(?![a-z0-9-])", said)) or (
                name == "new_tab" and _NEW_TAB.search(said)):
            return verb + [Evidence("url", host or "new tab")], None
        return verb, "the decision does not name the page to open"
    return verb, None


def _own(params: dict[str, Any]) -> list[str]:
    return quotes_in(str(params.get("target_element") or ""))


def _target_name(step: Step, params: dict[str, Any]) -> str:
    from .calls import element_label
    element = target_element(step)
    label = element_label(element) if element is not None else ""
    label = label or next(iter(_own(params)), "")
    return f"“{label[:40]}”" if label else "(unlabelled)"


_LATER_WORDS = re.compile(r"\b(?:next|later|afterwards|after that|then)\b|之后|然后|再|接下来|下一步|稍后", re.I)


def other_actions(text: str, function: dict[str, Any], decision: Decision | None) -> list[str]:
    """The clauses besides the decision that decide, with a marker (``所以``, ``I'll``) or as an imperative, an
    action of this step that the call does not perform (a clause a dash explains is the decision's own: ``go back
    one — swipe right``)."""
    name = str(function.get("name") or "")
    allowed = COMPATIBLE.get(name)
    if allowed is None or decision is None:
        return []
    out = []
    for c in action_clauses(text):
        if c.span == decision.span or c.verb in allowed or not c.marked or (c.verb == "done" and name != "done"):
            continue
        if _LATER_WORDS.search(mask_quotes(c.clause)) or not text[c.span[1]:decision.span[0]].strip(" —–-"):
            continue
        if re.match(r"[^\n]*?[✓✔☑√]", text[c.span[1]:]):
            continue  # 3. type: Full-time ✓: an item of a list ticked off, done
        out.append(c.clause.strip())
    return out


__all__ = ["Evidence", "decision_evidence", "other_actions", "own_names", "said_whole"]
