"""The ``template`` annotator for web pages: seed-002 items with the browser's functions, from what the agent
knows before it acts.

:func:`sftdata.annotate.template.template_item` hands web episodes (``episode.web``) here. The reasoning names the
goal, the agent's own earlier actions, the current page (its address and a few salient element texts) and the
element it acts on by the element's own text, quoted as written on the page (English page text stays in “”,
everything else is Chinese). Typed text, a chosen option and an address are quoted exactly; when the goal
mentions them, the reasoning says so. Never the next page, the recording's length or what is left: a recording
without a final screen (Mind2Web) simply has no ``done`` item, and its last item reads like any other. Items
carry ``thought``, ``action_summary``, ``observation`` and ``memory`` like the phone template.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> from sftdata.checks.check import check_items
>>> shot = Screenshot("0" * 64, "x.png", 1280, 720)
>>> box = Element(0, (100, 80, 500, 120), tag="input", attrs=(("placeholder", "From"),), hint="From",
...               flags=("editable", "visible"))
>>> ep = Episode("w", "mind2web", "Find flights from Seattle to New York", platform="web",
...              meta={"no_final_screen": True},
...              steps=[Step(0, shot, Action("type", point=(300, 100), text="Seattle", element=box), elements=[box])])
>>> item = web_item(ep, 0)
>>> item["function"]
{'name': 'type', 'parameters': {'target_element': '页面左上方的“From”输入框', 'text': 'Seattle'}}
>>> item["action_summary"]
'在“From”输入框中输入“Seattle”'
>>> check_items([item], ep)
[]
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..checks.screen_text import PRICE, same_label, visible_elements
from ..model import Element, Episode, Step
from .progress import task_memory
from ..checks.calls import (ID_ATTRS, element_label, expected_parameters, function_name, grounding_label, mentions, normalize,
                    target_element)
from ..checks.check import cjk_share, mark_words
from .template import one_line, quotable_goal
from .template_screen import (SPACE, common_labels, label_shown, pick_labels, pick_variant, place, quote,
                              unusual_first, whole_or_empty)

SUMMARY_MAX = 40  # characters of an action_summary
_ROLES = {"button": "按钮", "link": "链接", "textbox": "输入框", "searchbox": "搜索框", "combobox": "下拉框",
          "listbox": "下拉框", "checkbox": "复选框", "radio": "单选按钮", "tab": "标签页", "menuitem": "菜单项",
          "option": "选项", "switch": "开关", "slider": "滑块", "heading": "标题", "img": "图片"}
_TAGS = {"button": "按钮", "a": "链接", "select": "下拉框", "textarea": "输入框", "img": "图片", "svg": "图标",
         "option": "选项", "li": "列表项", "label": "标签", "h1": "标题", "h2": "标题", "h3": "标题", "h4": "标题",
         "td": "单元格", "th": "表头"}
_INPUTS = {"checkbox": "复选框", "radio": "单选按钮", "submit": "按钮", "button": "按钮", "reset": "按钮", "image": "按钮",
           "search": "搜索框"}
_SCROLLS = {  # view direction -> (gesture, why)
    "down": ("向下滚动页面", "查看页面下方还没有显示的内容"),
    "up": ("向上滚动页面", "回到页面上方查看之前的内容"),
    "right": ("向右滚动页面", "查看右侧还没有显示的内容"),
    "left": ("向左滚动页面", "回到左侧查看之前的内容"),
}


def element_kind(element: Element, action_type: str = "click") -> str:
    """The Chinese name of a web element's kind, from its role, tag, input type and flags; the field of a
    ``type`` is an input box and the target of a ``select`` a dropdown whatever their tags say.

    >>> element_kind(Element(0, (0, 0, 9, 9), tag="a")), element_kind(Element(0, (0, 0, 9, 9), tag="div"), "type")
    ('链接', '输入框')
    """
    if action_type == "type":
        return "搜索框" if element.attr("type").lower() == "search" else "输入框"
    if action_type == "select":
        return "下拉框"
    role = (element.attr("role") or element.attr("aria_role")).lower()
    tag = element.tag.lower()
    if role in _ROLES:
        return _ROLES[role]
    if tag == "input":
        return _INPUTS.get(element.attr("type").lower(), "输入框")
    if tag in _TAGS:
        return _TAGS[tag]
    if element.has("editable"):
        return "输入框"
    return "按钮" if element.has("clickable") else "元素"


def _where(element: Element | None, step: Step) -> str:
    """Where on the visible part of the page: ``页面左上方``, ``页面中央``..."""
    shot = step.screenshot
    if element is not None:
        left, top, right, bottom = element.bounds
        x, y, wide = (left + right) / 2, (top + bottom) / 2, right - left > 0.75 * shot.width
    else:
        (x, y), wide = step.action.point or (shot.width // 2, shot.height // 2), False
    return "页面" + place(x, y, shot.width, shot.height, wide=wide).removeprefix("屏幕")


def _named(step: Step) -> tuple[Element | None, str, bool]:
    """The target element, its label fit to quote (cut like :func:`grounding_label` needs) and whether the label
    is only an identifier (``name``/``id``)."""
    element = target_element(step) or step.action.element
    if element is None:
        return None, "", False
    label = element_label(element)
    if not label or mark_words(label):
        return element, "", False
    shown = label_shown(label)
    want = grounding_label(step)
    if want and not mentions(shown, want):
        shown = want
    only_id = not any((element.text, element.desc, element.hint)) and label in (element.attr(a) for a in ID_ATTRS)
    return element, shown, only_id


def _kind(element: Element | None, action_type: str, shown: str) -> str:
    kind = element_kind(element, action_type) if element is not None else (
        {"type": "输入框", "select": "下拉框"}.get(action_type, "元素"))
    if kind == "搜索框" and ("搜索" in shown or "search" in shown.lower()):
        return "输入框"  # not “搜索”搜索框
    return kind


def target_description(step: Step) -> str:
    """Chinese description of a click/type/select target naming the element's own text, e.g.
    ``页面上方居中的“Search flights”按钮``; an element known only by its ``name``/``id`` is ``…的名为“q”的输入框``."""
    element, shown, only_id = _named(step)
    kind, where = _kind(element, step.action.type, shown), _where(element, step)
    if not shown:
        return f"{where}的{kind}"
    if only_id:
        return f"{where}的名为{quote(shown)}的{kind}"
    card = _card_title(step, element) if element is not None else None
    whose = f"{quote(card)}那一项里" if card else ""
    return f"{where}{whose}的{quote(shown)}" + ("" if shown.lower().endswith(kind[-1]) else kind)


def _card_title(step: Step, element: Element) -> str | None:
    """The title of the card holding ``element`` when other visible controls share its label (six "Add to cart"
    buttons, one per result): the first labelled text of the smallest box around it that no other element of the
    page shares (not the "Flight photo" every card has)."""
    twins, _ = same_label(step, element)
    if len(twins) < 2:
        return None
    screen = step.screenshot.width * step.screenshot.height
    boxes = [e for e in step.elements if e.contains(element.center) and element.area < e.area <= 0.25 * screen]
    if not boxes:
        return None
    box = min(boxes, key=lambda e: e.area)
    own = normalize(element_label(element))
    visible = visible_elements(step)
    for e in sorted(visible, key=lambda e: (e.bounds[1], e.bounds[0])):
        label = SPACE.sub(" ", element_label(e)).strip()
        inside = box.contains(e.center) and e.area < box.area
        shared = sum(normalize(element_label(x)) == normalize(label) for x in visible) > 1  # every card's "Flight photo"
        if (inside and len(label) >= 3 and normalize(label) != own and any(ch.isalpha() for ch in label)
                and not PRICE.fullmatch(label) and not mark_words(label) and own not in normalize(label) and not shared):
            return label
    return None


def _site(step: Step, episode: Episode) -> str | None:
    host = urlsplit(step.url).hostname if step.url else None
    site = host or episode.meta.get("website")
    return site.strip() if isinstance(site, str) and site.strip() and not mark_words(site) else None


def _page_labels(step: Step, limit: int = 4) -> list[str]:
    """Up to ``limit`` short texts of the visible page, top to bottom: at most two from the top fifth (header,
    navigation), then the body; near-duplicates left out."""
    height = step.screenshot.height
    flagged = any(e.has("visible") for e in step.elements)

    def shown():
        for e in sorted(step.elements, key=lambda e: (e.bounds[1], e.bounds[0])):
            label = SPACE.sub(" ", e.text or e.desc or e.hint).strip()
            top, bottom = e.bounds[1], e.bounds[3]
            if ((e.has("visible") or not flagged) and 2 <= len(label) <= 30 and bottom > max(top, 0)
                    and top < height and any(ch.isalpha() for ch in label) and not mark_words(label)):
                yield label, top, bottom
    return pick_labels(shown(), height, limit)


def _target_first(step: Step, where: str, shown: str) -> str:
    """The page described from the step's own target (``“Search flights”就在页面上方居中``), when it has a label."""
    element, name, only_id = _named(step) if step.action.type in ("click", "type", "select") else (None, "", True)
    if not name or only_id:
        return f"{shown}显示在{where}上"
    return f"{quote(name)}就在{_where(element, step)}，{where}上还有{shown}"


def observation(step: Step, episode: Episode, key: str = "") -> str:
    """A concise Chinese description of the current page (its site and salient texts), never the next one;
    ``key`` varies the wording (the ``observation`` field keeps the plain one).

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1280, 720)
    >>> el = Element(0, (0, 300, 200, 340), text="Flights", tag="a", flags=("visible",))
    >>> step = Step(0, shot, Action("scroll", direction="down"), elements=[el], url="https://www.example.com/")
    >>> observation(step, Episode("w", "s", "g", [step], platform="web"))
    '当前是“www.example.com”的网页，页面上可以看到“Flights”'
    """
    site, labels = _site(step, episode), _page_labels(step)
    if key:  # the reasoning's wording: this page's own texts first (the site's header is on every page)
        labels = unusual_first(labels, common_labels(episode, _page_labels, step.index))[::-1]
    lead = f"当前是{quote(site)}的网页，页面上" if site else "当前网页上"
    focused = next((e for e in step.elements if e.has("editable") and e.has("focused")), None)
    if labels:
        shown = "、".join(quote(x) for x in labels) + ("等内容" if len(labels) > 2 else "")
        where = f"{quote(site)}的页面" if site else "这个网页"
        last = quote(labels[-1])
        back = "、".join(quote(x) for x in labels[::-1]) + ("等内容" if len(labels) > 2 else "")
        text = pick_variant((f"{back}都在{where}上", f"{back}显示在{where}上", f"{last}等内容显示在{where}上",
                      f"{last}和{quote(labels[0])}都在{where}上" if len(labels) > 1 else f"{where}上有{shown}",
                      f"{last}出现在{where}上", _target_first(step, where, back)), key) if key \
            else f"{lead}可以看到{shown}"
        return text + ("，有一个输入框处于激活状态" if focused is not None else "")
    return (f"当前是{quote(site)}的网页" if site else "当前网页") + "没有可读取的元素信息"


def action_summary(step: Step, full: bool = False) -> str:
    """A short Chinese imperative for a web step's action, e.g. ``点击“Search”按钮``, ``在“From”输入框中输入
    “Seattle”``, ``向下滚动页面``: at most :data:`SUMMARY_MAX` characters, so a label, value or address too long to
    fit is left out, never cut; ``full``: whatever the length (memory, history)."""
    limit = 10 ** 6 if full else SUMMARY_MAX
    action = step.action
    if action.type in ("click", "type", "select"):
        element, shown, only_id = _named(step)
        kind = _kind(element, action.type, shown)
        verb = "输入" if action.type == "type" else "选择"
        value = quote(action.text or "")
        for name in ([quote(shown)] if shown else []) + [""]:  # with the label if it fits, else without
            field = (f"名为{name}的{kind}" if only_id else f"{name}{kind}") if name else kind
            if action.type == "click":
                said = "点击" + (field if name else _where(element, step).removeprefix("页面") + "的" + kind)
            else:
                said = f"在{field}中{verb}{value}"
            if len(said) <= limit:
                return said
        return "点击" + _where(element, step).removeprefix("页面") + "的" + kind if action.type == "click" else \
            f"在{kind}中{verb}" + ("文本" if action.type == "type" else "选项")
    if action.type == "scroll":
        return _SCROLLS[action.direction or "down"][0]
    if action.type == "go_to_url":
        url = whole_or_empty(action.url or "", limit - 6)
        return "打开网址" + (quote(url) if url else "")
    if action.type == "new_tab":
        url = whole_or_empty(action.url or "", limit - 11)
        return "打开新标签页" + (f"并访问{quote(url)}" if url else "")
    if action.type == "back":
        return "返回上一页"
    if action.type == "done":
        return "结束任务"
    from .template import action_summary as phone_summary  # a phone action on a web page (wait, input...)
    return phone_summary(step, full)


def _before(prev: Step | None, key: str) -> str:
    if prev is None:
        return pick_variant(("现在还没有进行任何操作", "任务刚开始", "这是第一个操作"), key)
    did = action_summary(prev, full=True)
    if prev.meta.get("ineffective") is True:
        why = "可能没有点中" if prev.action.type == "click" else "操作没有生效"
        return pick_variant((f"上一步{did}后页面没有变化，{why}", f"{did}没有反应，页面还是原样，{why}"), key)
    return pick_variant((f"刚才{did}", f"{did}这一步已经做完", f"已经{did}", f"上一步{did}"), key)


def _opening(goal: str | None, before: str, seen: str, index: int, key: str) -> str:
    """The reasoning before its decision: what was done, the goal and the page, in an order and with a goal
    restated that vary by step (openings shared by many items teach a model one way to start)."""
    g = quote(goal) if goal else None
    if not g:
        return pick_variant((f"{before}。{seen}。", f"{seen}。{before}。"), key)
    if index == 0:
        return pick_variant((f"任务是{g}，{before}。{seen}。", f"{seen}。{before}，目标是{g}。", f"目标：{g}。{seen}。",
                      f"{g}是这次的任务。{seen}。", f"{seen}。要完成的是{g}。"), key)
    return pick_variant((f"{before}，目标仍是{g}。{seen}。", f"{seen}。{before}。", f"{before}。{seen}。",
                  f"{seen}。{before}，任务是{g}。", f"{before}。{seen}。", f"{seen}。{before}。"), key)


def _in_goal(text: str | None, goal: str) -> bool:
    """Whether the goal names ``text`` (three characters at least: short words match anything)."""
    text = normalize(text or "")
    return len(text) >= 3 and text in normalize(goal)


def _plan(step: Step, key: str) -> str | None:
    """The step's low-level instruction as a clause, when it is a plan in words (a source's rendering of the
    ground-truth action, such as ``[button] Search -> CLICK``, is not one)."""
    plan = quotable_goal(step.instruction) if step.action.type != "done" else None
    if not plan or "->" in plan:
        return None
    if cjk_share(plan) >= 0.8:
        return pick_variant((f"这一步要{plan}", f"按照计划，这一步要{plan}"), key)
    return pick_variant((f"本步的指令是{quote(plan)}", f"按照指令{quote(plan)}"), key)


def _act(step: Step, prev: Step | None, episode: Episode, i: int, key: str) -> str:
    """The one sentence that says what this step does and why."""
    action, goal = step.action, episode.goal
    said = _plan(step, key + "i")
    if prev is not None and prev.meta.get("ineffective") is True:
        said = ("所以再试一次" if prev.action.type == action.type else "所以换一种做法") + (f"，{said}" if said else "")
    lead = f"{said}，" if said else ""
    if action.type == "click":
        target = target_description(step)
        _, shown, _ = _named(step)
        if shown and _in_goal(shown, goal):
            return lead + pick_variant((f"任务提到{quote(shown)}，所以点击{target}。", f"{quote(shown)}正是任务需要的，点击{target}。"), key)
        return lead + pick_variant((f"要推进任务，需要点击{target}。", f"任务的下一步需要点击{target}。",
                             f"接下来点击{target}。"), key)
    if action.type in ("type", "select"):
        target = target_description(step)
        value = quote(action.text or "")
        verb = "输入" if action.type == "type" else "选择"
        if _in_goal(action.text, goal):
            return lead + pick_variant((f"任务中给出的是{value}，所以在{target}中{verb}{value}。",
                                 f"按照任务的要求，在{target}中{verb}{value}。"), key)
        return lead + pick_variant((f"需要在{target}中{verb}{value}。", f"接下来在{target}中{verb}{value}。"), key)
    if action.type == "scroll":
        gesture, why = _SCROLLS[action.direction or "down"]
        return lead + pick_variant((f"当前可见的区域没有显示所需的内容，需要{gesture}，{why}。", f"{gesture}，{why}。"), key)
    if action.type == "go_to_url":
        url = quote(action.url or "")
        if i == 0:
            return lead + pick_variant((f"任务要在网站上完成，先在浏览器中打开网址{url}。", f"首先打开网址{url}。"), key)
        return lead + pick_variant((f"接下来打开网址{url}。", f"现在需要访问{url}，所以打开这个网址。"), key)
    if action.type == "new_tab":
        return lead + "需要打开一个新的标签页" + (f"并访问{quote(action.url)}。" if action.url else "。")
    if action.type == "back":
        return lead + pick_variant(("当前页面不是需要的页面，返回上一个页面。", "需要回到上一个页面，所以使用浏览器的返回功能。"), key)
    if action.type == "done":
        return pick_variant(("当前页面已经满足任务要求，任务目标已经完成。", "需要的操作都已完成，任务目标已经完成，结束任务。",
                      "页面显示的正是任务要求的内容，任务目标已经完成。"), key)
    from .template import decision_sentence as phone_act  # a phone action on a web page (wait, input...)
    return phone_act(step, prev, episode, i, key)


def web_item(episode: Episode, index: int, step: Step | None = None) -> dict[str, Any]:
    """The seed-002 item for a web step (default ``episode.steps[index]``), from the goal, the earlier steps
    and the current page only."""
    steps, key = episode.steps, f"{episode.id}\x1f{index}\x1f"
    step = steps[index] if step is None else step
    prev = steps[index - 1] if index > 0 else None
    goal = quotable_goal(episode.goal)
    seen = observation(step, episode, key + "seen")
    opening = _opening(goal, _before(prev, key + "openb"), seen, index, key + "open")
    act = _act(step, prev, episode, index, key + "act")
    params = dict(expected_parameters(step.action))
    if step.action.type in ("click", "long_press", "type", "select"):
        params = {"target_element": target_description(step), **params}
    memory = task_memory(episode, index, [{"action_summary": action_summary(s, full=True)} for s in steps[:index]],
                         "zh")
    return {"reasoning": opening + act,
            "function": {"name": function_name(step.action, web=True), "parameters": params},
            "thought": one_line(act), "action_summary": action_summary(step),
            "observation": one_line(observation(step, episode)),
            "memory": one_line(memory)}
