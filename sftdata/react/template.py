"""The offline, deterministic ``template`` annotator: seed-002 items built only from what the episode knows.

It is the default backend, so the pipeline runs without network. Every item pairs a short Chinese ReAct
``reasoning`` (goal, step and progress, the target element's text, type and position, the low-level
instruction, what appears on the next screen) with the ground-truth ``function`` call. Phrasing varies by a
hash of episode id and step index, never at random, so the same episode always gives the same items.
The stage records ``backend="template"``, so nobody mistakes this for model reasoning.

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> from sftdata.react.check import check_items
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "sample", "Open Settings", [Step(0, shot, Action("open_app", app="Settings")),
...                                              Step(1, shot, Action("done"))])
>>> items = template_items(ep)
>>> [it["function"] for it in items]
[{'name': 'open_app', 'parameters': {'app_name': 'Settings'}}, {'name': 'done', 'parameters': {}}]
>>> check_items(items, ep)
[]
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Sequence

from ..model import Element, Episode, Step
from .calls import GROUNDING_PREFIX, expected_parameters, function_name, grounding_label, mentions, normalize
from .check import cjk_share, mark_words

TEMPLATE_VERSION = "template/v1"

_SPACE = re.compile(r"\s+")
_SPACE_PUNCT = re.compile(r"\s+([,.;:!?])")
_TRAILING = " \t\r\n。.!！;；,，"
_QUOTE_PAIRS = ("“”", "「」", "『』")
_ROWS = ((0.12, "顶部"), (0.38, "上方"), (0.62, "中部"), (0.88, "下方"), (9.9, "底部"))
_PLACES = {  # (row, column) -> place; column L/C/R, or W for an element spanning most of the width
    "顶部": ("左上角", "顶部居中", "右上角"), "上方": ("左上方", "上方居中", "右上方"),
    "中部": ("中部偏左", "中央", "中部偏右"), "下方": ("左下方", "下方居中", "右下方"),
    "底部": ("左下角", "底部居中", "右下角"),
}
_SWIPES = {  # finger direction -> (gesture, why)
    "up": ("向上滑动", "让内容上移，查看下方更多内容"),
    "down": ("向下滑动", "让内容下移，回到上方查看之前的内容"),
    "left": ("向左滑动", "切换到右侧的下一项内容"),
    "right": ("向右滑动", "切换回左侧的上一项内容"),
}


def quote(text: str) -> str:
    """Wrap UI text in the first quotation pair it does not already contain (whitespace collapsed).

    >>> quote("Mobiles"), quote('搜索“机械键盘”')
    ('“Mobiles”', '「搜索“机械键盘”」')
    """
    text = _SPACE.sub(" ", text).strip()
    for pair in _QUOTE_PAIRS:
        if pair[0] not in text and pair[1] not in text:
            return pair[0] + text + pair[1]
    return "「" + text + "」"


def _pick(options: Sequence[str], key: str) -> str:
    return options[int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % len(options)]


def place(x: float, y: float, width: int, height: int, *, wide: bool = False) -> str:
    """Where a point sits on a ``width`` x ``height`` screen, in Chinese.

    >>> place(110, 506, 1080, 2400), place(540, 1200, 1080, 2400), place(540, 200, 1080, 2400, wide=True)
    ('屏幕左上方', '屏幕中央', '屏幕顶部')
    """
    row = next(name for limit, name in _ROWS if y / max(height, 1) < limit)
    if wide:
        return "屏幕" + row
    fx = x / max(width, 1)
    return "屏幕" + _PLACES[row][0 if fx < 0.34 else 2 if fx > 0.66 else 1]


def element_type(element: Element, screen_width: int) -> str:
    """The Chinese name of an element's kind, from its class name and flags.

    >>> element_type(Element(0, (0, 0, 100, 100), class_name="android.widget.ImageButton"), 1080)
    '图标按钮'
    """
    cls = element.class_name.rsplit(".", 1)[-1].lower()
    left, top, right, bottom = element.bounds
    if "edittext" in cls or "autocomplete" in cls or "searchview" in cls or element.has("editable"):
        return "输入框"
    for key, name in (("switch", "开关"), ("toggle", "开关"), ("checkbox", "复选框"), ("radiobutton", "单选按钮"),
                      ("checkedtextview", "选项"), ("imagebutton", "图标按钮"), ("button", "按钮"),
                      ("spinner", "下拉框"), ("seekbar", "滑块"), ("webview", "网页区域"), ("tab", "标签页")):
        if key in cls:
            return name
    if cls in ("imageview", "image"):
        return "图标" if max(right - left, bottom - top) < 0.2 * screen_width else "图片"
    if "textview" in cls:
        return "选项" if element.has("clickable") else "文本"
    return "按钮" if element.has("clickable") else "控件"


def _labelled_element(step: Step) -> Element | None:
    """The element whose text or description :func:`grounding_label` names (same candidate order)."""
    action = step.action
    if action.point is None:
        return None
    candidates = [action.element] if action.element is not None else []
    candidates += sorted((e for e in step.elements if e.contains(action.point) and e.has("visible") and e.area > 0),
                         key=lambda e: e.area)
    return next((e for e in candidates if (e.text or e.desc).strip()), None)


def _shown(label: str) -> str:
    label = _SPACE.sub(" ", label).strip()
    return label if len(label) <= 30 else label[:GROUNDING_PREFIX].rstrip() + "…"


def target_description(step: Step) -> str:
    """Chinese description of a click/long-press target that mentions :func:`grounding_label` when there is one,
    e.g. ``屏幕左上方的“Mobiles”图片``; from the point alone when the step has no accessibility element."""
    shot, action = step.screenshot, step.action
    label, element = grounding_label(step), _labelled_element(step)
    if element is None and action.element is not None:
        element = action.element  # unlabelled node: its kind and position still help
    if element is None:
        return place(*action.point, shot.width, shot.height) + "位置的控件"  # type: ignore[misc]
    left, top, right, bottom = element.bounds
    where = place((left + right) / 2, (top + bottom) / 2, shot.width, shot.height,
                  wide=right - left > 0.75 * shot.width)
    kind = element_type(element, shot.width)
    text = (element.text or element.desc).strip()
    if not text:
        rid = element.resource_id.rsplit("/", 1)[-1]
        return f"{where}的{kind}" + (f"（资源名{quote(rid)}）" if rid and not mark_words(rid) else "")
    shown = _shown(text)
    if label and not mentions(shown, label):
        shown = label
    return f"{where}的{quote(shown)}" + ("" if shown.endswith(kind[-1]) else kind)


def _clean(text: str | None) -> str | None:
    """Goal/instruction text fit to quote: trimmed, and None when empty or naming the annotation marks."""
    text = _SPACE.sub(" ", text or "").strip().rstrip(_TRAILING).strip()
    text = _SPACE_PUNCT.sub(r"\1", text)
    return text if text and not mark_words(text) else None


def _intent(plan: str, key: str) -> str:
    """A clause naming the step's low-level instruction: Chinese reads inline, anything else is quoted."""
    if cjk_share(plan) >= 0.8:
        return _pick((f"这一步要{plan}", f"按照计划，这一步要{plan}", f"接下来要{plan}"), key)
    return _pick((f"本步的指令是{quote(plan)}", f"按照指令{quote(plan)}", f"这一步对应的指令是{quote(plan)}"), key)


def _is_new(e: Element, height: int) -> bool:
    label = _SPACE.sub(" ", e.text or e.desc).strip()
    top, bottom = e.bounds[1], e.bounds[3]
    return (e.has("visible") and 2 <= len(label) <= 24 and bottom > top and (top + bottom) / 2 > 0.06 * height
            and any(ch.isalpha() for ch in label) and not mark_words(label))


def new_labels(step: Step, nxt: Step | None, limit: int = 2) -> list[str]:
    """Up to ``limit`` short visible labels on the next screen that the current one does not show."""
    if nxt is None or not step.elements or not nxt.elements:
        return []
    seen = {normalize(e.text or e.desc) for e in step.elements if e.has("visible")}
    out: list[str] = []
    for e in nxt.elements:
        key = normalize(e.text or e.desc)
        if key not in seen and _is_new(e, nxt.screenshot.height):
            seen.add(key)
            out.append(_SPACE.sub(" ", e.text or e.desc).strip())
            if len(out) == limit:
                break
    return out


def _active_field(step: Step, prev: Step | None) -> str | None:
    for e in step.elements:
        if e.has("editable") and e.has("focused") and (e.hint or e.desc) and not mark_words(e.hint or e.desc):
            return quote(_shown(e.hint or e.desc))
    if prev is not None and prev.action.type == "click":
        element = _labelled_element(prev) or prev.action.element
        name = (element.text or element.desc).strip() if element is not None else ""
        if name and not mark_words(name) and element_type(element, prev.screenshot.width) == "输入框":
            return quote(_shown(name))
    return None


def _progress(i: int, n: int, key: str) -> str:
    if i == 0:
        return _pick((f"这是第 1 步，共 {n} 步，还没有进行任何操作", f"现在是第 1 步（共 {n} 步），任务刚开始"), key)
    return _pick((f"现在是第 {i + 1} 步，共 {n} 步，已完成 {i} 步", f"当前进行到第 {i + 1} 步（共 {n} 步），前面已完成 {i} 步",
                  f"已完成 {i} 步，这是第 {i + 1} 步，共 {n} 步"), key)


def _opening(goal: str | None, i: int, n: int, key: str) -> str:
    if n > 1 and i == n - 1:
        progress = _pick((f"这是最后一步（第 {n} 步），前面 {i} 步操作都已完成", f"前面 {i} 步已经全部完成，现在是第 {n} 步"), key + "p")
    else:
        progress = _progress(i, n, key + "p")
    short = (f"{progress}。", f"{progress}，继续推进任务。")
    if goal is None:
        return short[0]
    options = (f"任务是{goal}，{progress}。", f"{progress}，目标是{goal}。", f"为了完成{goal}，{progress}。")
    return _pick(options + (short if 0 < i < n - 1 else ()), key)  # the goal always opens and closes


def _act(step: Step, prev: Step | None, i: int, key: str) -> str:
    """The sentence that says what this step does and why."""
    action = step.action
    plan = _clean(step.instruction) if action.type not in ("input", "open_app", "done") else None
    said = _intent(plan, key + "i") if plan else None
    if action.type in ("click", "long_press"):
        target = target_description(step)
        verb = "点击" if action.type == "click" else "长按"
        extra = "，调出更多操作选项" if action.type == "long_press" else ""
        if said:
            return _pick((f"{said}，对应的是{target}，所以{verb}它{extra}。", f"{said}，需要{verb}{target}{extra}。",
                          f"{said}，要操作的正是{target}，直接{verb}{extra}。"), key)
        return _pick((f"要推进任务，需要{verb}{target}{extra}。", f"任务的下一步需要{verb}{target}{extra}。",
                      f"接下来{verb}{target}{extra}。"), key)
    if action.type == "swipe":
        gesture, why = _SWIPES[action.direction or "up"]
        where = place(*action.point, step.screenshot.width, step.screenshot.height)  # type: ignore[misc]
        if said:
            return _pick((f"{said}，因此手指在{where}{gesture}，{why}。", f"{said}，于是在{where}{gesture}，{why}。"), key)
        return _pick((f"当前屏幕没有显示所需内容，需要在{where}{gesture}，{why}。",
                      f"手指在{where}{gesture}，{why}。"), key)
    if action.type == "input":
        text = quote(action.text or "")
        field = _active_field(step, prev)
        active = f"{field}输入框已经激活" if field else "输入框已经激活"
        return _pick((f"{active}，键盘已弹出，直接输入{text}。", f"{active}，在其中输入{text}。",
                      f"{active}，现在输入任务需要的内容{text}。"), key)
    if action.type == "open_app":
        app = quote(action.app or "")
        if i == 0:
            return _pick((f"需要先打开{app}应用，从它开始操作。", f"任务要在{app}中完成，所以直接打开这个应用。",
                          f"首先启动{app}应用。"), key)
        return _pick((f"接下来打开{app}应用。", f"现在需要切换到{app}应用，所以打开它。"), key)
    if action.type == "done":
        return _pick(("当前页面已经满足任务要求，任务目标已经完成。", "需要的操作都已完成，任务目标已经完成，结束任务。",
                      "界面显示的正是任务要求的结果，任务目标已经完成。"), key)
    base = {"back": ("当前页面不是需要的页面，按返回键返回上一页。", "需要返回上一页，所以按下返回键。", "先返回上一页，回到之前的界面。"),
            "home": ("需要回到桌面，按下主页键。", "按主页键回到桌面。", "这里要离开当前应用，按主页键回到桌面。"),
            "wait": ("页面还在加载，需要等待页面加载完成。", "界面尚未加载完毕，先等待一下。", "等待页面加载完成后再继续操作。")}
    sentence = _pick(base[action.type], key)
    if said:
        return f"{said}，{sentence}"
    return sentence


def _effect(step: Step, nxt: Step | None, key: str) -> str:
    labels = new_labels(step, nxt)
    if not labels:
        return ""
    shown = "和".join(quote(_shown(label)) for label in labels)
    if step.action.type == "swipe":
        return _pick((f"滑动后露出了{shown}等新内容。", f"滑动之后屏幕上出现了{shown}。"), key)
    if step.action.type == "wait":
        return _pick((f"等待之后页面出现了{shown}。", f"加载完成后显示出{shown}。"), key)
    return _pick((f"操作后下一屏出现了{shown}。", f"执行后界面上新出现了{shown}，说明操作生效。", f"随后页面显示出{shown}。"), key)


def template_item(episode: Episode, index: int, step: Step | None = None) -> dict[str, Any]:
    """The seed-002 item for ``step`` (default ``episode.steps[index]``); its next screen is
    ``episode.steps[index + 1]``."""
    steps, key = episode.steps, f"{episode.id}\x1f{index}\x1f"
    step = steps[index] if step is None else step
    prev = steps[index - 1] if index > 0 else None
    nxt = steps[index + 1] if index + 1 < len(steps) else None
    goal = _clean(episode.goal)
    reasoning = (_opening(quote(goal) if goal else None, index, len(steps), key + "open")
                 + _act(step, prev, index, key + "act") + _effect(step, nxt, key + "effect"))
    params = expected_parameters(step.action)
    if step.action.type in ("click", "long_press"):
        params = {"target_element": target_description(step)}
    return {"reasoning": reasoning, "function": {"name": function_name(step.action), "parameters": params}}


def template_items(episode: Episode, steps: list[Step] | None = None, start: int = 0) -> list[dict[str, Any]]:
    """One seed-002 item per step of ``steps`` (default: every step); ``start`` is the episode index of
    ``steps[0]``, used for numbering and for the next screen, which is always the episode's following step."""
    chosen = episode.steps[start:] if steps is None else steps
    return [template_item(episode, start + j, step) for j, step in enumerate(chosen)]
