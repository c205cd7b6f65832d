"""Does the reasoning decide the action its function call performs? (reason ``reasoning_contradicts_action``)

The function is compared with the ground truth elsewhere (:mod:`sftdata.annotate.check`); this module compares the
*text* with the call: the decision the reasoning states (:func:`sftdata.annotate.decision.stated_decision`) must
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
from .calls import element_label, normalize, target_element
from .decision import RELATION as _RELATION, Decision, claims_complete, finger_direction, mask_quotes, quotes_in, stated_decision
from .screen_text import element_texts, visible_elements

# function name -> verb classes a reasoning may state for it
COMPATIBLE = {
    "click": {"click", "open", "back", "home", "open_app"},
    "long_press": {"long_press"},
    "input": {"input"},
    "type": {"input", "click"},
    "select": {"click", "input"},
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


def _same_text(a: str, b: str) -> bool:
    a, b = normalize(a).strip(" 。.!！"), normalize(b).strip(" 。.!！")
    return bool(a) and bool(b) and (a == b or a in b or b in a)


_BACK_CONTROL = re.compile(r"返回|后退|向上导航|navigate up|\bback\b|arrow|箭头|<|←", re.I)


def _verb_problem(decision: Decision, name: str) -> str | None:
    allowed = COMPATIBLE.get(name)
    if name in ("press_back", "go_back") and decision.verb == "click" and not _BACK_CONTROL.search(decision.phrase):
        allowed = allowed - {"click"}  # tapping a back control is going back; tapping anything else is not
    if allowed is None or decision.verb in allowed:
        return None
    return (f"the reasoning decides to {_VERB_WORDS.get(decision.verb, decision.verb)} (“{_short(decision.phrase)}”), "
            f"the call is {name}")


def _short(text: str, limit: int = 30) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _direction_problem(decision: Decision, name: str, params: dict[str, Any]) -> str | None:
    if decision.verb != "swipe" or name not in ("swipe", "scroll") or decision.direction is None:
        return None
    want = str(params.get("direction", "")).lower()
    said = decision.direction if name == "swipe" else {"up": "down", "down": "up", "left": "right",
                                                         "right": "left"}[decision.direction]
    if not want or said == want:
        return None
    whose = "finger" if name == "swipe" else "view"
    return f"the reasoning moves the {whose} {said} (“{_short(decision.phrase)}”), the call's direction is {want.upper()}"


def _value_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
    """A select whose decision quotes an option other than the call's value (the field's own label aside)."""
    if name != "select" or not decision.quotes:
        return None
    value = str(params.get("value") or "")
    own = [normalize(t) for e in ([target_element(step)] if target_element(step) else []) for t in element_texts(e)]
    own += [normalize(q) for q in _quoted(str(params.get("target_element") or ""))]
    options = [q for q in decision.quotes if not any(normalize(q) == o for o in own)]
    if not options or any(_same_text(q, value) for q in options):
        return None
    return f"the reasoning selects “{_short(options[-1])}”, the call selects “{_short(value)}”"


_TYPED_AS = re.compile(r"^\s*(?:type|enter|input|key in|fill in|set)\s+(?:the\s+|a\s+|my\s+)?\w+(?:\s\w+)?\s+as\s+"
                       r"(?!(?:the|a|an|my|your|its)\b)(?P<as>[^\s\"“'‘].*?)\s*(?:\s(?:in|into|on|for)\s+the\b.*)?[.。]?$", re.I)
_UNQUOTED_TYPED = re.compile(
    r"^\s*(?:type|enter|input|key in|fill in)\s+(?P<en>[^\s\"“'‘].*?)\s+(?:into|in|on|as|for)\b"
    r"|^\s*(?:输入|填写|填入|键入|填上|录入)\s*(?P<zh>[A-Za-z0-9@][\w@.+\-]*(?:\s[\w@.+\-]+)*)\s*(?:[，,。；;]|$)"
    r"|^\s*(?:type|enter|input|输入|填写|键入)[^:：\n]{0,20}[:：]\s*(?P<colon>[^\s\"“'‘].*?)\s*[。.]?$", re.I)


_QUOTE_EDGES = re.compile(r"^[\"“'‘「]|[\"”'’」]$")


def _exact(a: str, b: str) -> bool:
    a, b = normalize(a).strip(" 。.!！"), normalize(b).strip(" 。.!！")
    return bool(a) and a == b


def _text_problem(decision: Decision, name: str, params: dict[str, Any]) -> str | None:
    """The text the decision types (its quote, or an unquoted value: ``Type DEN into the To field``) must be the
    call's text exactly: typing is never partial."""
    if decision.verb != "input" or name not in ("input", "type"):
        return None
    typed = str(params.get("text") or "")
    if not decision.quotes and decision.continuation.strip():  # Type the reply: 明天见！ (a cut at any sentence end)
        said = decision.continuation.strip()
        cuts = [said] + [said[:m.end()] for m in re.finditer(r"[。！？!?]|\.(?=\s)", said)]
        if any(_exact(c, typed) for c in cuts + quotes_in(said)) or _exact(_QUOTE_EDGES.sub("", said), typed):
            return None
        return f"the reasoning types “{_short(said)}”, the call types “{_short(typed)}”"
    if not decision.quotes:
        m = _TYPED_AS.match(decision.after_verb or "") or _UNQUOTED_TYPED.match(decision.after_verb or "")
        said = next((g for g in m.groups() if g), "").strip() if m else ""
        if not said or _exact(said, typed):
            return None
        return f"the reasoning types “{_short(said)}”, the call types “{_short(typed)}”"
    said = decision.quotes[-1] if name == "type" and len(decision.quotes) > 1 else decision.quotes[0]
    if len(decision.quotes) > 1 and any(_exact(q, typed) for q in decision.quotes):
        return None
    if _exact(said, typed):
        return None
    return f"the reasoning types “{_short(said)}”, the call types “{_short(typed)}”"


_APP_NAMED = re.compile(r"(?:打开|启动|运行)\s*(?P<zh>[^，,。“”「」\s][^，,。“”「」]{0,15}?)\s*(?:应用|App|APP|app|软件)"
                        r"|\b(?:open|launch|start)\s+(?:the\s+)?(?P<en>[A-Za-z0-9][\w .&'-]{0,24}?)\s+app\b", re.I)


def _app_problem(decision: Decision, name: str, params: dict[str, Any]) -> str | None:
    if name != "open_app" or decision.verb not in ("open_app", "open"):
        return None
    named = list(decision.quotes)
    if not named:
        m = _APP_NAMED.search(decision.after_verb if decision.after_verb else decision.phrase) or \
            _APP_NAMED.search(decision.phrase)
        named = [(m.group("zh") or m.group("en")).strip()] if m else []
    app = str(params.get("app_name") or "")
    if not named or any(_same_text(q, app) for q in named):
        return None
    return f"the reasoning opens “{_short(named[0])}”, the call opens “{_short(app)}”"


def _target_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
    """A label the decision names that belongs to another visible element and not to the target."""
    if name not in ("click", "long_press", "type", "select", "open_app") or decision.verb not in (
            "click", "long_press", "open", "input", "open_app"):
        return None
    target_param = str(params.get("target_element") or "")
    point = step.action.point
    own: list[str] = []
    element = target_element(step)
    for e in ([element] if element is not None else []) + [e for e in step.elements if point and e.contains(point)]:
        own += element_texts(e)
    if step.action.element is not None:
        own += element_texts(step.action.element)
    own += [normalize(q) for q in _quoted(target_param)] + ([normalize(target_param)] if target_param else [])
    if name == "open_app" and params.get("app_name"):
        own.append(normalize(str(params["app_name"])))
    others: dict[str, str] = {}
    for e in visible_elements(step):
        if point is not None and e.contains(point):
            continue
        for text in element_texts(e):
            if len(text) >= 2 and not any(_same_text(text, o) for o in own if o):
                others.setdefault(text, element_label(e) or text)
    values = [normalize(str(params.get(k) or "")) for k in ("text", "value")]
    said = [normalize(q) for q in decision.quotes if not any(_same_text(q, v) for v in values if v)]
    if decision.verb == "input" and name != "type":
        said = []  # an input's quotes are the field and the text: the field is checked by grounding
    elif not decision.quotes:  # unquoted: the longest label of another element the decision names (打开 Chrome)
        said = _named(normalize(decision.rest), others, values)
    labels_elsewhere = {t for e in visible_elements(step) if not (point is not None and e.contains(point))
                        for t in element_texts(e)}
    for quote in said:
        if quote in labels_elsewhere and not any(quote in o for o in own if o):  # 保温杯 学生 is not 保温杯
            label = _target_name(element, target_param)
            return f"the reasoning names “{_short(quote)}”, another element of this screen; the call targets {label}"
        if not quote or any(_same_text(quote, o) for o in own if o):
            continue
        if _long(quote) and any(quote in t for t in others):  # “6月12日 8:00” of 照片，6月12日 8:00
            label = _target_name(element, target_param)
            return f"the reasoning names “{_short(quote)}”, part of another element of this screen; the call targets {label}"
        if quote in others or (not others and step.elements == [] and _quoted(target_param)):
            label = _target_name(element, target_param)
            return f"the reasoning names “{_short(quote)}”, another element of this screen; the call targets {label}"
        if not step.elements and _quoted(target_param):
            label = _target_name(element, target_param)
            return f"the reasoning names “{_short(quote)}”; the call targets {label}"
    return _qualifier_problem(decision, step, element, others, values)


def _named(text: str, others: dict[str, str], values: list[str]) -> list[str]:
    """The longest label of another element that ``text`` names unquoted (not a typed or chosen value)."""
    return [t for t in sorted(others, key=len, reverse=True)
            if _names(text, t) and not any(_same_text(t, v) for v in values if v)][:1]


_WORDY = re.compile(r"[\u4e00-\u9fff].*[\u4e00-\u9fff]|[A-Za-z].*[A-Za-z].*[A-Za-z].*[A-Za-z]")


def _qualifier_problem(decision: Decision, step: Step, element, others: dict[str, str],
                       values: list[str]) -> str | None:
    """Whose control: the decision names another element to say which of several alike the target is
    (``Click 'Add to cart' for Soft earbuds #1``, ``… looks good — tap its picture``, ``Click the first result,
    Pro earbuds #1``). Of the controls alike the target (the same label, else the same kind and size), the one
    nearest the named element must be the target."""
    point = step.action.point
    if element is None or point is None:
        return None
    peers = _peers(element, visible_elements(step), step.screenshot.width * step.screenshot.height)
    if len(peers) < 2:
        return None
    own = set(element_texts(element))
    names = {k: v for k, v in others.items() if _WORDY.search(k) and _long(k)}
    named = _named(normalize(mask_quotes(decision.rest) + " " + decision.appendix), names, values)
    if not named and decision.antecedent and not _RELATION.search(decision.antecedent):
        named = _named_last(normalize(decision.antecedent), names, own)
    named = [t for t in named if t not in own and not any(t in o for o in own)]
    if not named:
        return None
    holders = [e for e in visible_elements(step) if named[0] in element_texts(e) and not e.contains(point)]
    if not holders:
        return None
    kind = element.class_name or element.tag
    peers += [h for h in holders if kind and (h.class_name or h.tag) == kind and h not in peers]  # cut by the edge
    nearest = min(peers, key=lambda e: min(_distance(e, h) for h in holders))
    if nearest is element or nearest.contains(point):
        return None
    return (f"the reasoning names “{_short(named[0])}”, beside another “{_short(element_label(nearest))}” than the "
            f"call's “{_short(element_label(element))}”")


def _named_last(text: str, names: dict[str, str], own: set[str]) -> list[str]:
    """The label named last in ``text`` (what a pronoun after it points back to), the target's own included."""
    found = [(text.rfind(t) + len(t), len(t), t) for t in list(names) + sorted(own) if _names(text, t)]
    return [max(found)[2]] if found else []


def _peers(element, visible, screen_area: int) -> list:
    """The visible controls alike ``element``: the same label, or else the same kind (when known) and size (±25%)."""
    label = normalize(element_label(element))
    twins = [e for e in visible if label and normalize(element_label(e)) == label]
    if len(twins) >= 2:
        return twins
    kind = element.class_name or element.tag
    w, h = element.bounds[2] - element.bounds[0], element.bounds[3] - element.bounds[1]
    if w <= 0 or h <= 0 or w * h > 0.25 * screen_area:
        return []  # a container is nobody's peer
    if not any((e.class_name or e.tag) == kind for e in visible):
        kind = None  # the screen's elements do not say their kind: size alone
    return [e for e in visible if kind is None or (e.class_name or e.tag) == kind
            if abs((e.bounds[2] - e.bounds[0]) - w) <= 0.25 * w and abs((e.bounds[3] - e.bounds[1]) - h) <= 0.25 * h]


def _distance(a, b) -> float:
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = a.bounds, b.bounds
    dx = max(0, max(ax1, bx1) - min(ax2, bx2))
    dy = max(0, max(ay1, by1) - min(ay2, by2))
    return (dx * dx + dy * dy) ** 0.5


def _long(text: str) -> bool:
    """Long enough to single out a label: 3+ CJK characters or 5+ others."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return cjk >= 3 or len(text) - cjk >= 5


def _names(text: str, label: str) -> bool:
    """Does ``text`` name ``label`` unquoted: 2+ CJK characters, or a 4+ letter Latin label as whole words."""
    if re.search(r"[\u4e00-\u9fff]", label):
        return len(label) >= 2 and label in text
    return len(label) >= 4 and re.search(rf"(?<![A-Za-z0-9]){re.escape(label)}(?![A-Za-z0-9])", text) is not None


def _quoted(text: str) -> list[str]:
    from .decision import quotes_in
    return quotes_in(text)


def _target_name(element, target_param: str) -> str:
    if element is not None and element_label(element):
        return f"“{_short(element_label(element))}”"
    quoted = _quoted(target_param)
    return f"“{_short(quoted[0])}”" if quoted else f"“{_short(target_param)}”"


def _done_problem(text: str, decision: Decision | None, name: str) -> str | None:
    if name == "done":
        if decision is not None and decision.verb not in ("done", "open") and decision.verb in (
                "click", "long_press", "input", "swipe", "open_app", "back", "back_key", "home"):
            return f"the call is done, but the reasoning decides to {_VERB_WORDS[decision.verb]} (“{_short(decision.phrase)}”)"
        return None
    claim = claims_complete(text)
    if claim is not None:
        return f"the reasoning says the task is complete (“{_short(claim)}”), the call is {name}"
    return None


def contradictions(text: str, function: dict[str, Any], step: Step) -> list[str]:
    """Every way ``text`` disagrees with ``function`` (``{"name", "parameters"}``) on ``step``, each a sentence;
    empty when they agree or the text states no decision."""
    if not isinstance(text, str) or not isinstance(function, dict):
        return []
    name = str(function.get("name") or "")
    params = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    decision = stated_decision(text)
    out = []
    done = _done_problem(text, decision, name)
    if done:
        return [done]
    if decision is None:
        return []
    verb = _verb_problem(decision, name)
    if verb:
        return [verb]
    for problem in (_direction_problem(decision, name, params), _text_problem(decision, name, params),
                    _value_problem(decision, name, params, step),
                    _app_problem(decision, name, params), _target_problem(decision, name, params, step)):
        if problem:
            out.append(problem)
    return out


__all__ = ["COMPATIBLE", "contradictions", "finger_direction", "stated_decision"]
