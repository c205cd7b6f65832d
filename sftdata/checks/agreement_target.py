"""Which element a reasoning's decision names, and whether it is the call's target (part of the agreement check).

A label the decision names that belongs to another visible element (quoted, unquoted, or a part of a longer
label) contradicts the call; so does a qualifier that points at another of several alike controls
(``Click 'Add to cart' for Soft earbuds #1``, ``… looks good — tap its picture``): of the controls alike the
target, the one nearest the named element must be the target. Names after a contrast (``rather than Chrome``)
are not the target.

>>> from sftdata.model import Action, Element, Screenshot, Step
>>> from sftdata.checks.decision import stated_decision
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> wifi = Element(0, (0, 300, 1080, 400), text="WLAN", flags=("visible",))
>>> bt = Element(1, (0, 400, 1080, 500), text="蓝牙", flags=("visible",))
>>> step = Step(0, shot, Action("click", point=(540, 350), element=wifi), elements=[wifi, bt])
>>> target_problem(stated_decision("所以点击蓝牙。"), "click", {}, step)
'the reasoning names “蓝牙”, another element of this screen; the call targets “WLAN”'
"""
from __future__ import annotations

import re
from typing import Any

from ..model import Step
from .calls import CJK, CJK_CLASS, element_label, grammar_word, longest_first, normalize, target_element
from .decision import SIDES_EN, SIDES_ZH, SPATIAL as _SPATIAL, Decision, mask_quotes, quotes_in
from .neighbours import beside, neighbours
from .ruled_out import CONTRAST
from .screen_text import PRICE as _PRICE, element_texts, visible_elements
from .target_evidence import is_field
from .target_group import inside


def same_text(a: str, b: str) -> bool:
    a, b = normalize(a).strip(" 。.!！"), normalize(b).strip(" 。.!！")
    return bool(a) and bool(b) and (a == b or a in b or b in a)


def shorten(text: str, limit: int = 30) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def leading_words(label: str) -> list[str]:
    """A label and its first words (``google 搜索 search`` -> ``google``, ``google 搜索``): how an app is called."""
    words = label.split()
    return [label] + [" ".join(words[:k]) for k in range(1, len(words)) if _long(" ".join(words[:k]))]


def target_problem(decision: Decision, name: str, params: dict[str, Any], step: Step) -> str | None:
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
    own += [normalize(q) for q in quotes_in(target_param)] + ([normalize(target_param)] if target_param else [])
    if name == "open_app" and params.get("app_name"):
        own.append(normalize(str(params["app_name"])))
    elsewhere = [e for e in visible_elements(step) if not (point is not None and e.contains(point))]
    labels_elsewhere = {t for e in elsewhere for t in element_texts(e)}
    others: dict[str, str] = {}
    said_rest = normalize(decision.rest)
    placed_by = {n.anchor for n in neighbours(decision.rest, element, visible_elements(step)) if n.holds}
    row = beside(decision.rest, element, visible_elements(step))  # Find a recipe 旁边的 Search: a place
    placed_by |= {row.anchor} if row is not None and row.holds else set()
    for e in elsewhere:
        for text in element_texts(e):
            if len(text) >= 2 and not any(same_text(text, o) for o in own if o) and text not in placed_by and not (
                    name == "type" and not is_field(e) and _as_field(said_rest, text)):
                others.setdefault(text, element_label(e) or text)
    values = [normalize(str(params.get(k) or "")) for k in ("text", "value")]
    said = [normalize(q) for q in before_contrast(decision) if not any(same_text(q, v) for v in values if v)
            and normalize(q) not in placed_by]  # the row just above 'Hotels': the place, where it holds
    if decision.verb == "input" and name != "type":
        said = []  # an input's quotes are the field and the text: the field is checked by grounding
    elif not decision.quotes:  # unquoted: the longest label of another element the decision names (打开 Chrome)
        rest = _PURPOSE_AFTER.sub("", decision.rest)  # Tap it to open the display settings: where it leads
        said = [n for n in _named(normalize(rest), others, values) if not grammar_word(n, rest)
                and not _said_as_kind(n, rest, own)]
    fields_elsewhere = {t for e in elsewhere if is_field(e) for t in element_texts(e)}
    field = _field_problem(decision, name, own, fields_elsewhere)
    if field:
        return field
    for quote in said:
        if _peer_named(quote, element, step) and not _anchor(decision.rest, quote):
            label = _target_name(element, target_param)  # “机械键盘”, a suggestion of its own, not 机械键盘 热卖
            return f"the reasoning names “{shorten(quote)}”, another element of this screen; the call targets {label}"
        if element is not None and _describes_target(quote, step, element):
            continue  # the card with the 秒杀 tag: a word of the target's own card
        if quote in labels_elsewhere and not any(quote in o for o in own if o):  # 保温杯 学生 is not 保温杯
            label = _target_name(element, target_param)
            return f"the reasoning names “{shorten(quote)}”, another element of this screen; the call targets {label}"
        if not quote or any(same_text(quote, o) for o in own if o):
            continue
        if _long(quote) and any(quote in t for t in others):  # “6月12日 8:00” of 照片，6月12日 8:00
            label = _target_name(element, target_param)
            return f"the reasoning names “{shorten(quote)}”, part of another element of this screen; the call targets {label}"
        if quote in others or (not others and step.elements == [] and quotes_in(target_param)):
            label = _target_name(element, target_param)
            return f"the reasoning names “{shorten(quote)}”, another element of this screen; the call targets {label}"
        if not step.elements and quotes_in(target_param):
            label = _target_name(element, target_param)
            return f"the reasoning names “{shorten(quote)}”; the call targets {label}"
    return _qualifier_problem(decision, step, element, others, values)


# where an unquoted decision leads, not what it names: ``Tap it to open the display settings``, ``点它来搜索``
_PURPOSE_AFTER = re.compile(r"\s+(?:to|so (?:that )?(?:i|we) can|in order to)\s+(?:open|see|view|reach|get to|go to|go into"
                            r"|enter|show|bring up|check|access|expand|reveal|load|display|look up|search for|find)\b.*$"
                            r"|\s*(?:来|以便|好|去)(?:执行|发起)?(?:搜索|搜|打开|查看|进入|看看|查|找)(?![^，,。]*[“「\"]).*$"
                            r"|\s+now that\s+(?:[\w'’-]+\s+){1,4}?(?:is|are)\s+(?:selected|open|checked|filled|set|done|in)\b.*$",
                            re.I | re.S)  # … now that 李娜's chat is selected: the reason, not the target


_KINDS = ("select", "dropdown", "menu", "button", "link", "checkbox", "toggle", "switch", "tab")


def _said_as_kind(name: str, text: str, own: list[str]) -> bool:
    """Is ``name`` (a label elsewhere on the screen, lower case) said in lower case as the kind of the target's
    control, right after the target's own label (``Choose Business in the Cabin select`` beside a list of Select
    buttons)?"""
    return name in _KINDS and any(re.search(rf"(?i:{re.escape(o)})\s+{name}\b", text) for o in own if len(o) >= 2)


_INTO_FIELD = re.compile(r"\b(?:into|in|on)\s+(?:the\s+)?(?P<en>[\w' -]{1,24}?)\s+(?:box|field|input|textbox|text box)\b"
                         r"|在\s*(?P<zh>[^，,。\s“”]{1,12}?)\s*(?:输入框|框|栏|字段)", re.I)


def _as_field(text: str, label: str) -> bool:
    """Is ``label`` said as the kind of a field (``the recipe search box``, ``搜索框``, ``into the recipe search``)?
    Said so, the label of a button names no button: nothing is typed into one."""
    return re.search(r"(?<!\w)" + re.escape(label) + r"\s*(?:box|field|bar|input|textbox|框|栏)"
                     r"|\b(?:into|in)\s+(?:the\s+)?(?:[\w-]+\s+)?" + re.escape(label) + r"\b", text, re.I) is not None


def _field_problem(decision: Decision, name: str, own: list[str], elsewhere: set[str]) -> str | None:
    """Typing into another field of the page: ``type Boston into the To box`` when the call's field is From."""
    if name != "type" or decision.verb != "input":
        return None
    m = _INTO_FIELD.search(decision.after_verb)
    field = normalize(m.group("en") or m.group("zh")) if m else ""
    if not field or field not in elsewhere or any(same_text(field, o) for o in own if o):
        return None
    return f"the reasoning types into “{shorten(field)}”, another field of this page than the call's"


def _describes_target(name: str, step: Step, element) -> bool:
    """Is ``name`` shown inside the target's own card or row (the smallest box around the tapped point that is
    not the whole screen), by an element unlike the target: ``the card with the 秒杀 tag``."""
    point = step.action.point
    if point is None:
        return False
    screen = step.screenshot.width * step.screenshot.height
    cards = [e for e in step.elements if e.contains(point) and 0 < e.area <= 0.25 * screen and e is not element
             and e.area > element.area]
    if not cards:
        return False
    card = min(cards, key=lambda e: e.area)
    visible = visible_elements(step)
    holders = _holders(name, step, exact=True) or _holders(name, step)  # a row titled so before a subtitle
    alike = _peers(element, visible, screen)  # another tab of the same bar is a choice, not a description
    return any(inside(h, card) and h not in alike and not _same_row(h, element) for h in holders)


def _same_row(a, b) -> bool:
    """Side by side and of one height (±25%): tabs of a bar, chips of a filter row."""
    ha, hb = a.bounds[3] - a.bounds[1], b.bounds[3] - b.bounds[1]
    return abs(ha - hb) <= 0.25 * max(ha, hb) and min(a.bounds[3], b.bounds[3]) - max(a.bounds[1], b.bounds[1]) > 0.5 * min(ha, hb)


def _named(text: str, others: dict[str, str], values: list[str], prices: bool = False) -> list[str]:
    """The longest label of another element, or part of one (``6月12日 8:00`` of ``照片，6月12日 8:00``), that
    ``text`` names unquoted before any contrast (``rather than Chrome``); not a typed or chosen value, nor a price
    unless ``prices`` (a price says which card, not which control)."""
    text = CONTRAST.split(text, 1)[0]
    names: set[str] = set()
    for label in others:
        if prices and _PRICE.fullmatch(label):
            names.add(label)
        elif _WORDY.search(label):
            names.add(label)
            names.update(p for p in _PARTS.split(label) if p != label and _long(p) and _WORDY.search(p))
    return [t for t in sorted(names, key=longest_first)
            if names_label(text, t) and not any(same_text(t, v) for v in values if v)][:1]


_PARTS = re.compile(r"\s*[，,、·|:：;；]\s*")


_WORDY = re.compile(rf"[{CJK_CLASS}].*[{CJK_CLASS}]|[A-Za-z].*[A-Za-z].*[A-Za-z].*[A-Za-z]")


def _anchor(text: str, term: str) -> bool:
    """Is ``term`` said as a place: ``just below Battery usage``, ``就在 Battery usage 下面``, ``right of the search
    box`` (an English preposition right before it, a Chinese one right after it; ``它右边那个 Buy tickets`` names the
    target, not its place)."""
    for m in re.finditer(re.escape(term), text):
        before, after = text[max(0, m.start() - 14):m.start()], text[m.end():m.end() + 6]
        if re.search(r"\b(?:" + SIDES_EN + r")\s+(?:the\s+)?$", before, re.I) or re.match(
                r"\s*(?:的|那个|这个)?\s*(?:" + SIDES_ZH + r"|后面|前面)", after):
            return True
    return False


def _purpose_verb(text: str, term: str) -> bool:
    """Is a one-word ``term`` said as the verb of a purpose, not as a control's name: ``… at the top right to apply
    them`` (the Apply button is not named), ``so I can save it``."""
    if " " in term.strip():
        return False
    return re.search(r"\b(?:to|can|could|will)\s+" + re.escape(term) + r"\s+(?:them|it|this|that|these|those|everything|all"
                     r"|my|the (?:filters?|changes?|settings?|selection))\b", text, re.I) is not None


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
    names = {k: v for k, v in others.items() if _distinctive(k)}
    said = normalize(mask_quotes(_PURPOSE_AFTER.sub("", decision.rest)) + " " + decision.appendix)
    # a neighbour said as the place of a target named by its own, unique label is no owner; nor is a purpose's verb
    whole = normalize(decision.rest + " " + decision.appendix)  # quotes kept: the target's own label is often quoted
    placed = any(_distinctive(t) and names_label(whole, normalize(t)) for t in own) and not any(
        e is not element and set(element_texts(e)) & own and not (inside(e, element) or inside(element, e))
        for e in visible_elements(step))  # the row around the target says its label too
    named = [t for t in _named(said, names, values, prices=True)
             if not (placed and _anchor(said, t)) and not _purpose_verb(said, t)]
    if not named and decision.antecedent and not _SPATIAL.search(decision.antecedent):
        everyone = {t for e in visible_elements(step) for t in element_texts(e) if _distinctive(t)}
        named = _named_last(normalize(decision.antecedent), everyone, own)
    named = [t for t in named if t not in own and not any(t in o for o in own)]
    if not named:
        return None
    price = _PRICE.fullmatch(named[0]) is not None
    holders = _holders(named[0], step, exact=price)  # a price: the nodes that show it alone
    if not holders or (price and len(holders) > 1):
        return None  # a price two cards share says nothing
    screen = step.screenshot.width * step.screenshot.height
    cards = [e for e in step.elements if e.contains(point) and element.area < e.area <= 0.25 * screen]
    if cards and any(inside(h, min(cards, key=lambda e: e.area)) for h in holders):
        return None  # the named element is in the target's own card
    kind = element.class_name or element.tag
    peers += [h for h in holders if kind and (h.class_name or h.tag) == kind and h not in peers]  # cut by the edge
    nearest = min(peers, key=lambda e: min(_distance(e, h) for h in holders))
    if nearest is element or nearest.contains(point):
        return None
    return (f"the reasoning names “{shorten(named[0])}”, beside another “{shorten(element_label(nearest))}” than the "
            f"call's “{shorten(element_label(element))}”")


def _distinctive(text: str) -> bool:
    """Says which card: a long enough label with words (2+ CJK or 4+ letters), or a price."""
    return bool(_WORDY.search(text) and _long(text)) or _PRICE.fullmatch(text) is not None


def _holders(name: str, step: Step, exact: bool = False) -> list:
    """The visible elements, other than the tapped one, that show ``name`` (as one of their texts when ``exact``)."""
    point = step.action.point
    return [e for e in visible_elements(step) if not (point is not None and e.contains(point))
            and any((t == name) if exact else (name in t) for t in element_texts(e))]


def _named_last(text: str, labels: set[str], own: set[str]) -> list[str]:
    """The label named last in ``text`` (what a pronoun after it points back to); nothing when it is the target's
    own (or part of it)."""
    found = [(text.rfind(t) + len(t), len(t), t) for t in labels if names_label(text, t)]
    if not found:
        return []
    last = max(found)[2]
    return [] if any(last in o for o in own) else [last]


def _peer_named(quote: str, element, step: Step) -> bool:
    """Is ``quote`` the whole label of another row of the target's list (its left edge, its height) and not the
    target's own: ``点第一条“机械键盘”`` when the call taps the suggestion 机械键盘 热卖."""
    if element is None or not quote or normalize(element_label(element)) == quote:
        return False
    height = element.bounds[3] - element.bounds[1]
    return any(e is not element and normalize(element_label(e)) == quote and abs(e.bounds[0] - element.bounds[0]) <= 8
               and abs((e.bounds[3] - e.bounds[1]) - height) <= 0.25 * height for e in visible_elements(step))


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


def before_contrast(decision: Decision) -> tuple[str, ...]:
    """The decision's quotes, less those after a contrast in its clause (点击“商城”而不是“Chrome”)."""
    m = CONTRAST.search(mask_quotes(decision.after_verb))
    if m is None:
        return decision.quotes
    late = set(quotes_in(decision.after_verb[m.start():]))
    return tuple(q for q in decision.quotes if q not in late or q in quotes_in(decision.after_verb[:m.start()]))


def _long(text: str) -> bool:
    """Long enough to single out a label: 3+ CJK characters or 5+ others."""
    cjk = len(CJK.findall(text))
    return cjk >= 3 or len(text) - cjk >= 5


def names_label(text: str, label: str) -> bool:
    """Does ``text`` name ``label`` unquoted: 2+ CJK characters, a price, or a 4+ letter Latin label as whole
    words."""
    if CJK.search(label):
        return len(label) >= 2 and label in text
    return (len(label) >= 4 or _PRICE.fullmatch(label) is not None) and re.search(rf"(?<![A-Za-z0-9]){re.escape(label)}(?![A-Za-z0-9])", text) is not None


def _target_name(element, target_param: str) -> str:
    if element is not None and element_label(element):
        return f"“{shorten(element_label(element))}”"
    quoted = quotes_in(target_param)
    return f"“{shorten(quoted[0])}”" if quoted else f"“{shorten(target_param)}”"
