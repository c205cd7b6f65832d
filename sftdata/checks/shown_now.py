"""Short descriptions of the screen as it is, checked against the current screen's elements.

A writer who decides first often adds, after the decision, one short clause of what the screen shows: the value the
decided control holds before the action (``Tickets 下拉选 2，现在是 1``, ``Set Guests to 3 (it shows 1 now)``,
``该项显示 Off``) or a row named by its label holds (``airplane mode already shows On``), where the viewer stands
(``I'm on photo 6 of 30``), which items are in sight (``Samsonite, Apple and Lenovo are visible now``, ``已经看到
Samsonite、Apple、Lenovo 几款``), which numbered ones (``列表现在是 #11 到 #16``), or which page is open (``The Lumo lamp
detail page is open``, named by a text of the screen other than the acted-on one's). Their words (``now``, ``现在``,
``已经``) are those of a told result, so the outcome readers cannot pass them. The screen can: each holds only when
the current screen shows exactly that (the decided element, or the one named, or its row holds the value, the
counter reads those numbers, every item named is a card of the screen, the numbered cards run from the first number
to the last), and the value is not the one the call brings.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> qty = Element(0, (0, 300, 400, 380), text="1", desc="Tickets", flags=("visible", "clickable"))
>>> card = Element(1, (0, 500, 500, 900), text="Apple 蓝牙耳机 Pro", flags=("visible",))
>>> ep = Episode("e", "m", "Buy two tickets", [Step(0, shot, Action("select", text="2", element=qty),
...                                                elements=[qty, card])])
>>> shown_now("现在是 1", ep, 0), shown_now("现在是 2", ep, 0), shown_now("(it shows 1 now)", ep, 0)
(True, False, True)
>>> shown_now("Apple is visible now", ep, 0), shown_now("Sony is visible now", ep, 0)
(True, False)
"""
from __future__ import annotations

import re
import unicodedata

from ..model import Episode, Step
from .calls import CJK_CLASS, element_label, target_element
from .gui_terms import translations
from .screen_state import in_row
from .screen_text import element_texts, visible_elements

_OPEN = r"^\s*[(（]?\s*(?:and\s+|but\s+|so\s+|while\s+)?"
# the goal or the purpose said after the value: it shows Off and the goal is to switch it on
_GOAL_AFTER = r"(?:\s+(?:and|but|so|while)\s+(?:the\s+)?(?:goal|task)\s+(?:is|asks|wants|says)\b[^.;。；]*)?"
# where the row stands, said first in an aside: (middle left, shows Off)
_PLACE_FIRST = r"(?:(?:top|bottom|upper|lower|middle|centre|center|left|right|near|the|at|on|of|\s)+,\s*)?"
_CLOSE = r"\s*[)）]?\s*[.。,，;；!！]?\s*$"
# the decided control said without its name: a pronoun or a kind of control
_PRONOUN_EN, _PRONOUN_ZH = r"it|this|that", r"它|该项|该栏|该行|这一?[项栏行个]|它下面|它下方|下面"
_CONTROL_KIND = r"box|field|select|dropdown|drop-down|menu|counter|count|number|value|picker|selector|row|switch|toggle|badge"
_KIND_ZH = r"下拉框|下拉菜单|下拉|输入框|选择框|框|栏|选项|按钮|开关|那一?[项栏行]"
# the decided control's value, its subject a pronoun, a kind of control, its own label (checked) or left out
_VALUE_EN = re.compile(_OPEN + _PLACE_FIRST + rf"(?:(?P<subject>{_PRONOUN_EN}|the\s+(?:{_CONTROL_KIND})"
                       r"|[A-Za-z][\w &-]{0,30}?)\s+)?(?:(?:now|currently|still|already)\s+)?"
                       r"(?:shows?|reads?|says?|displays?|is\s+set\s+to|is\s+at|sits\s+at|stands\s+at|has)\s+(?:now\s+|currently\s+|still\s+)?"
                       r"[\"'“‘]?(?P<value>[^\"'”’,.;:()（）]{1,24}?)[\"'”’]?\s*(?:now|right now|currently|at the moment|for now)?"
                       + _GOAL_AFTER + _CLOSE, re.I)
_VALUE_ZH = re.compile(_OPEN + r"(?:[^，,。；;“”\"'\s]{1,6}的\s*)?"  # 旁边的 Tickets 下拉框还是 1: where it is, first
                       rf"(?P<subject>{_PRONOUN_ZH}|[A-Za-z][\w -]{{0,30}}?"
                       r"|(?!现在|目前|当前|还|已经|默认|显示|写着|标着|为)[\u4e00-\u9fff]{2,8}?)?"  # 自适应亮度 (translated)
                       rf"\s*(?:{_KIND_ZH})?\s*"
                       r"(?:(?:现在|目前|当前|还|已经)\s*(?:默认)?\s*(?:是|显示(?:的是|为)?|写着|为)|默认(?:是|为)|显示(?:的是|为)?|写着"
                       r"|标着)\s*"
                       r"[\"'“‘「]?(?P<value>[^\"'”’」，,。；;）)]{1,16}?)[\"'”’」]?" + _CLOSE)
# where the viewer stands: ``I'm on photo 6 of 30``, ``at 6/30 now``, ``现在是第 6 张，共 30 张``
_COUNTER_SAID = re.compile(_OPEN + r"(?:(?:i'm|i am|we're|we are|currently|now|still)\s+)?(?:(?:on|at|viewing|looking at)\s+)?"
                           r"(?:(?:the\s+)?(?:counter|count|indicator|position)\s+(?:now\s+|still\s+)?(?:reads|says|shows|is)\s+)?"
                           r"(?:(?:现在|目前|当前)?(?:已经|已)?(?:翻到|到了|停在|在|是)(?:了)?\s*(?:第\s*)?)?"  # 已经翻到 10 / 30
                           r"(?:(?:photo|picture|image|shot|item|page|slide|number)\s+)?(?:#|no\.\s*)?(?P<n>\d+)\s*(?:of|/|／)\s*"
                           r"(?P<m>\d+)\s*(?:张)?\s*(?:now|right now|currently)?" + _CLOSE, re.I)  # the counter reads 11 / 30
# items in sight, named: ``Samsonite, Apple and Lenovo are visible now``, ``已经看到 Samsonite、Apple、Lenovo 几款``
_IN_VIEW_EN = re.compile(_OPEN + r"(?:only\s+)?(?P<names>.{2,80}?)\s+(?:are|is)\s+(?:now\s+|already\s+)?(?:visible|in view"
                         r"|on (?:the )?screen|showing)(?:\s+now)?" + _CLOSE, re.I)
_IN_VIEW_ZH = re.compile(_OPEN + r"(?:现在|目前|当前)?(?:已经|已|只|能|只能)?(?:看到|看得到|看见)(?!了)\s*(?P<names>.{2,60}?)\s*"
                         r"(?:这?几[款个张条项家]|等(?:几[款个])?|这些)?" + _CLOSE)
# the numbered items in sight, first to last: ``the list now runs from #1 to #5``, ``Results #18 to #22 are on
# screen``, ``列表现在是 #11 到 #16``, ``结果列到 #27``
_LIST_EN = r"(?:the\s+)?(?:list|results?|page|feed|listings?|cards?|rows?|items?|view|screen)"
_RANGE_EN = re.compile(_OPEN + rf"(?:{_LIST_EN}\s+)?(?:(?:now|currently|still)\s+)?(?:(?:shows?|showing|runs?|running|lists?"
                       r"|spans?|goes|covers?|is|are|has)\s+)?(?:from\s+)?#\s*(?P<a>\d+)\s*(?:to|through|thru|-|–|—|~)\s*"
                       r"#?\s*(?P<b>\d+)(?:\s+(?:are|is)\s+(?:now\s+)?(?:on\s+(?:the\s+)?screen|visible|in view|showing|shown))?"
                       + _CLOSE, re.I)
_RANGE_ZH = re.compile(_OPEN + r"(?:列表|结果|页面|这一?屏|屏幕上)?(?:现在|目前|当前)?(?:是|显示|显示的是|列到|排到|到)?\s*"
                       r"(?:(?:第\s*)?#?\s*(?P<a>\d+)\s*(?:到|至|-|–|~)\s*)?(?:第\s*)?#\s*(?P<b>\d+)(?:号|个|条)?"
                       + _CLOSE)
# the page the agent is on, said open: ``The 漫步者 5G 智能手机 detail page is open``, ``显示设置页已经打开``
_PAGE_OPEN_EN = re.compile(_OPEN + r"(?:the\s+)?(?P<name>[^,.;:()]{2,50}?)\s+(?:detail\s+|details\s+|settings\s+|product\s+)?"
                           r"(?:page|screen|list|view|tab)\s+(?:is|'s)\s+(?:already\s+|now\s+)?(?:open|up|showing|loaded)"
                           r"(?:\s+(?:now|already))?(?:\s+(?:at|with|on|for)\b[^.;()]{0,60})?" + _CLOSE, re.I)
_PAGE_OPEN_ZH = re.compile(_OPEN + r"(?P<name>[^，,。；;：:（）()]{2,30}?)(?:的)?(?:详情页|设置页|首页|页面|主页|列表|页)"
                           r"(?:已经|已|现在)?(?:打开了|打开着|开着|是开着的|打开)" + _CLOSE)
_NAME_CUT = re.compile(r"\s*(?:、|,|，|\band\b|\bor\b|和|与|及)\s*", re.I)


def shown_now(said: str, episode: Episode, index: int) -> bool:
    """Does ``said`` (one clause after the decision) say the decided control's value, the viewer's place or the
    items in sight exactly as the current screen shows them (see the module doc)?"""
    said = unicodedata.normalize("NFKC", said)
    step = episode.steps[index]
    return (_decided_value(said, step) or _counter(said, step) or _names_in_view(said, step)
            or _range_in_view(said, step) or _page_open(said, step))


def _decided_value(said: str, step: Step) -> bool:
    """``现在是 1`` / ``it shows 1 now`` of the decided control, ``airplane mode already shows On`` of a row named by
    its label: the value it or its row shows, not the call's."""
    m = _VALUE_ZH.match(said) or _VALUE_EN.match(said)
    if m is None:
        return False
    value = m.group("value").strip().lower()
    brought = {str(v).strip().lower() for v in (step.action.text,) if v}
    subject = re.sub(r"^the\s+", "", (m.group("subject") or "").strip().lower())
    named = subject and not re.fullmatch(f"{_PRONOUN_EN}|{_PRONOUN_ZH}|{_CONTROL_KIND}", subject)
    target = target_element(step)
    label = (element_label(target) or "").lower() if target is not None else ""
    rows = [target] if target is not None and (not named or subject in label or subject in " ".join(element_texts(
        target)) or any(other == label for _, other in translations(subject))) else []  # 自适应亮度: its translation
    if named and not rows:  # another row, named by its label: Airplane mode already shows On
        rows = [e for e in visible_elements(step) if subject == (element_label(e) or "").strip().lower()]
    if value in brought or not value or not rows:
        return False
    return any(value == t for row in rows for e in [row, *in_row(row, step)] for t in element_texts(e))


def _counter(said: str, step: Step) -> bool:
    """``I'm on photo 6 of 30``: the screen shows the counter ``6 / 30``."""
    m = _COUNTER_SAID.match(said)
    if m is None:
        return False
    shown = re.compile(rf"(?<!\d){m.group('n')}\s*/\s*{m.group('m')}(?!\d)")
    return any(shown.search(t) for e in visible_elements(step) for t in element_texts(e))


def _names_in_view(said: str, step: Step) -> bool:
    """``Apple and Lenovo are visible now``: every item named opens a text of the current screen (two of them
    at least, or one named in full)."""
    m = _IN_VIEW_ZH.match(said) or _IN_VIEW_EN.match(said)
    if m is None:
        return False
    names = [re.sub(r"^(?:the|a)\s+", "", n.strip().lower()) for n in _NAME_CUT.split(m.group("names")) if n.strip()]
    texts = [t for e in visible_elements(step) for t in element_texts(e)]
    return bool(names) and all(len(n) >= 2 and any(t == n or t.startswith(n + " ") or (
        re.match(f"[{CJK_CLASS}]", n) and t.startswith(n)) for t in texts) for n in names)



def _range_in_view(said: str, step: Step) -> bool:
    """``列表现在是 #11 到 #16``: the numbered items of the current screen run from the first number said to the
    last (one more at either end, cut off at an edge, allowed); ``结果列到 #27``: the last one in sight is #27."""
    m = _RANGE_ZH.match(said) or _RANGE_EN.match(said)
    if m is None or (m.group("a") is None and not re.search(r"列到|排到|到\s*(?:第\s*)?#", said)):
        return False
    numbers = {int(n) for e in visible_elements(step) for n in re.findall(r"#(\d+)\b", element_label(e) or "")}
    if not numbers:
        return False
    last = int(m.group("b"))
    first = int(m.group("a")) if m.group("a") is not None else min(numbers)
    return first in numbers and last in numbers and min(numbers) >= first - 1 and max(numbers) <= last + 1


def _page_open(said: str, step: Step) -> bool:
    """``The 漫步者 5G 智能手机 detail page is open``: the page named by a text the current screen shows, other than
    the acted-on element's (the page a tap on it opens is the next screen's)."""
    m = _PAGE_OPEN_ZH.match(said) or _PAGE_OPEN_EN.match(said)
    if m is None:
        return False
    name = m.group("name").strip().lower()
    target = target_element(step)
    own = " ".join(element_texts(target)).lower() if target is not None else ""
    texts = {t for e in visible_elements(step) for t in element_texts(e)}
    words = {w for t in texts for w in t.split() if len(w) >= 2 and re.search(r"[^\d\W]", w) and w not in own}
    translated = {other for _, other in translations(name) if other in texts and other not in own}  # 显示设置页:
    return bool(translated) or any(w in name for w in words)  # the Display page, named in translation


__all__ = ["shown_now"]
