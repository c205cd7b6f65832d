"""What the template backend says about a phone screen: where a point is, what kind of element sits there, the
target in words (with an ordinal when its label is shared), the visible labels of the screen and a short
imperative for an action. Only what the screenshot shows before the action: elements on the frame
(:func:`sftdata.checks.screen_text.visible_elements`), never hidden or off-screen nodes.
"""
from __future__ import annotations

import hashlib
import math
import re
from typing import Sequence

from ..model import Element, Step
from ..checks.calls import GROUNDING_PREFIX, grounding_label, mentions
from ..checks.check import mark_words
from ..checks.decision import quote  # noqa: F401 (the template's quoting lives beside the checks' reading of it)
from ..checks.screen_text import same_label, visible_elements

SPACE = re.compile(r"\s+")
SPACE_PUNCT = re.compile(r"\s+([,.;:!?])")
TRAILING = " \t\r\n。.!！;；,，"
_ROWS = ((0.12, "顶部"), (0.38, "上方"), (0.62, "中部"), (0.88, "下方"), (9.9, "底部"))
_PLACES = {  # (row, column) -> place; column L/C/R, or W for an element spanning most of the width
    "顶部": ("左上角", "顶部居中", "右上角"), "上方": ("左上方", "上方居中", "右上方"),
    "中部": ("中部偏左", "中央", "中部偏右"), "下方": ("左下方", "下方居中", "右下方"),
    "底部": ("左下角", "底部居中", "右下角"),
}
SWIPES = {  # finger direction -> (gesture, why)
    "up": ("向上滑动", "让内容上移，查看下方更多内容"),
    "down": ("向下滑动", "让内容下移，回到上方查看之前的内容"),
    "left": ("向左滑动", "切换到右侧的下一项内容"),
    "right": ("向右滑动", "切换回左侧的上一项内容"),
}
_ORDINALS = "一二三四五六七八九十"
_GENERIC = {"返回", "back", "navigate up", "向上导航", "更多选项", "more options", "更多", "more"}


def pick_variant(options: Sequence[str], key: str) -> str:
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


def labelled_element(step: Step) -> Element | None:
    """The element whose text or description :func:`grounding_label` names (same candidate order)."""
    action = step.action
    if action.point is None:
        return None
    candidates = [action.element] if action.element is not None else []
    candidates += sorted((e for e in step.elements if e.contains(action.point) and e.has("visible") and e.area > 0),
                         key=lambda e: e.area)
    return next((e for e in candidates if (e.text or e.desc).strip()), None)


def label_shown(label: str) -> str:
    """A label fit to quote: whitespace collapsed, never cut (a cut label teaches a model incomplete names)."""
    return SPACE.sub(" ", label).strip()


def target_description(step: Step) -> str:
    """Chinese description of a click/long-press target that mentions :func:`grounding_label` when there is one,
    e.g. ``屏幕左上方的“Mobiles”图片``; without an element under the point, what can be known OCR-free: the
    nearest labelled element, else the bar it sits in, its position and the colour of the region."""
    shot, action = step.screenshot, step.action
    label, element = grounding_label(step), labelled_element(step)
    if element is None and action.element is not None:
        element = action.element  # unlabelled node: its kind and position still help
    if element is None:
        return _unlabelled_point(step)
    left, top, right, bottom = element.bounds
    where = place((left + right) / 2, (top + bottom) / 2, shot.width, shot.height,
                  wide=right - left > 0.75 * shot.width)
    kind = element_type(element, shot.width)
    text = (element.text or element.desc).strip()
    if not text:
        rid = element.resource_id.rsplit("/", 1)[-1]
        return f"{where}的{kind}" + (f"（资源名{quote(rid)}）" if rid and not mark_words(rid) else "")
    shown = label_shown(text)
    if label and not mentions(shown, label):
        shown = label
    twins, rank = same_label(step, element)
    nth = f"第{_ORDINALS[rank - 1] if rank <= 10 else rank}个" if len(twins) > 1 else ""
    return f"{where}的{nth}{quote(shown)}" + ("" if shown.endswith(kind[-1]) else kind)


def _nearest_label(step: Step) -> str | None:
    """The text of the nearest visible labelled element within a tenth of the screen width of the point."""
    x, y = step.action.point  # type: ignore[misc]
    best, reach = None, 0.1 * step.screenshot.width
    for e in visible_elements(step):
        text = SPACE.sub(" ", e.text or e.desc).strip()
        if not text or mark_words(text):
            continue
        left, top, right, bottom = e.bounds
        distance = math.hypot(max(left - x, 0, x - right), max(top - y, 0, y - bottom))
        if distance <= reach:
            best, reach = text, distance
    return label_shown(best) if best else None


def _unlabelled_point(step: Step) -> str:
    """A tap target without an accessibility element: ``屏幕右上角蓝色的图标或按钮``, ``底部栏中…``, or next to
    the nearest labelled element; the colour is ``meta["target_colour"]`` (measured on the clean frame at ingest).

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    >>> _unlabelled_point(Step(0, shot, Action("click", point=(1000, 150)), meta={"target_colour": "蓝色"}))
    '屏幕右上角顶部栏中蓝色的图标或按钮'
    """
    shot, (x, y) = step.screenshot, step.action.point  # type: ignore[misc]
    where = place(x, y, shot.width, shot.height)
    colour = step.meta.get("target_colour")
    colour = colour if isinstance(colour, str) and colour.strip() and not mark_words(colour) else ""
    near = _nearest_label(step)
    if near:
        return f"{where}{quote(near)}旁边{colour + '的' if colour else '的'}图标或按钮"
    bar = "顶部栏中" if y < 0.1 * shot.height else "底部栏中" if y > 0.9 * shot.height else ""
    return f"{where}{bar}{colour + '的' if colour else '的'}图标或按钮"


def salient_labels(step: Step, limit: int = 4) -> list[str]:
    """Up to ``limit`` short visible labels of the current screen: at most two from the header (top fifth), then
    the body, each top to bottom; the status bar, near-duplicates and the generic navigation controls every
    screen has (back, navigate up, more options) are left out."""
    height = step.screenshot.height

    def shown():
        for e in sorted(visible_elements(step), key=lambda e: (e.bounds[1], e.bounds[0])):
            label = SPACE.sub(" ", e.text or e.desc).strip()
            top, bottom = e.bounds[1], e.bounds[3]
            if (e.has("visible") and 2 <= len(label) <= 16 and top < bottom and (top + bottom) / 2 >= 0.05 * height
                    and any(ch.isalpha() for ch in label) and not mark_words(label)
                    and label.lower() not in _GENERIC):
                yield label, top, bottom
    return pick_labels(shown(), height, limit)


def pick_labels(shown, height: int, limit: int) -> list[str]:
    """Up to ``limit`` of the ``(label, top, bottom)`` found top to bottom: at most two from the top fifth of a
    ``height`` px screen (a header, navigation), then the rest; a label inside one already taken (or holding one)
    is left out.

    >>> pick_labels([("Home", 10, 40), ("Menu", 12, 40), ("Cart", 15, 40), ("Shoes", 500, 540), ("shoe", 600, 640)],
    ...             1000, 4)
    ['Home', 'Menu', 'Shoes']
    """
    head: list[str] = []
    body: list[str] = []
    for label, top, bottom in shown:
        low = label.lower()
        if any(low in seen.lower() or seen.lower() in low for seen in head + body):
            continue
        (head if (top + bottom) / 2 < 0.2 * height else body).append(label)
    head = head[:2]
    return head + body[:limit - len(head)]


def unusual_first(labels: list[str], common: frozenset[str]) -> list[str]:
    """``labels`` with those the episode's earlier screens did not show first (a reasoning that opens with a header
    every screen of the app has opens like all the others).

    >>> unusual_first(["相册", "分享", "6月12日 8:00"], frozenset({"相册", "分享"}))
    ['6月12日 8:00', '相册', '分享']
    """
    return [x for x in labels if x not in common] + [x for x in labels if x in common]


_LABELS: dict[int, tuple[object, list]] = {}  # id(episode) -> (episode, each screen's labels, computed once)


def common_labels(episode, labels_of, index: int) -> frozenset[str]:
    """The labels (``labels_of(step)``) that a screen before step ``index`` of ``episode`` showed too: never a
    later screen's (an item does not depend on the future)."""
    hit = _LABELS.get(id(episode))
    if hit is None or hit[0] is not episode:
        if len(_LABELS) > 256:
            _LABELS.clear()
        hit = _LABELS[id(episode)] = (episode, [None] * len(episode.steps))
    cache = hit[1]
    seen: set[str] = set()
    for i in range(min(index, len(episode.steps))):
        if cache[i] is None:
            cache[i] = frozenset(labels_of(episode.steps[i]))
        seen |= cache[i]
    return frozenset(seen)


def observation(step: Step, key: str = "", common: frozenset[str] = frozenset()) -> str:
    """A concise Chinese description of the current screen from what the step knows (no next screen); ``key``
    words it for a reasoning, the screen's own labels first (the ``observation`` field keeps the plain wording).

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    >>> el = Element(0, (0, 300, 1080, 400), text="蓝牙", flags=("visible",))
    >>> observation(Step(0, shot, Action("back"), elements=[el]))
    '“蓝牙”都显示在当前界面上'
    >>> observation(Step(0, shot, Action("click", point=(540, 1200)), meta={"target_colour": "绿色"}))
    '要操作的位置在屏幕中央，那里是一块绿色区域'
    """
    labels = salient_labels(step)
    field = next((e for e in visible_elements(step) if e.has("editable") and e.has("focused")), None)
    if labels and key:
        labels = unusual_first(labels, common)[::-1]  # the variants below lead with the last label
    if labels:
        shown = "、".join(quote(label) for label in labels) + ("等内容" if len(labels) > 2 else "")
        rest = "、".join(quote(label) for label in labels[1:]) or "别的内容"
        if key:  # the body's labels first: a header is the same on every screen of an app
            back = "、".join(quote(label) for label in labels[::-1]) + ("等内容" if len(labels) > 2 else "")
            others = "、".join(quote(label) for label in labels[:-1]) or "别的内容"
            target = labelled_element(step) if step.action.type in ("click", "long_press") else None
            name = label_shown(target.text or target.desc) if target is not None else ""
            here = place(*target.center, step.screenshot.width, step.screenshot.height) if target is not None else ""
            text = pick_variant((f"{back}都显示在当前界面上", f"{quote(labels[-1])}所在的这个界面还显示着{others}",
                          f"{quote(labels[-1])}和{quote(labels[0])}都在屏幕上" if len(labels) > 1
                          else f"屏幕上有{shown}", f"{back}是这个界面上能看到的内容",
                          f"{quote(name)}就在{here}，界面上还有{back}" if name and not mark_words(name)
                          else f"{back}都显示在当前界面上"), key)
        else:
            key = f"{step.screenshot.sha256}\x1f{step.index}"
            text = pick_variant((f"当前屏幕上可以看到{shown}", f"{shown}都显示在当前界面上", f"这个界面上有{shown}",
                          f"屏幕上列着{shown}", f"{quote(labels[0])}所在的这个界面还显示着{rest}"), key)
        return text + ("，有一个输入框处于激活状态" if field is not None else "")
    action = step.action
    if action.type in ("click", "long_press") and action.point is not None:
        where = place(*action.point, step.screenshot.width, step.screenshot.height)
        colour = step.meta.get("target_colour")
        return f"要操作的位置在{where}" + (f"，那里是一块{colour}区域" if isinstance(colour, str) and colour
                                       and not mark_words(colour) else "")
    if action.type == "input":
        return "屏幕上有一个已经激活的输入框，键盘已经弹出"
    if action.type == "swipe":
        return "屏幕上是一个可以滑动的页面"
    return "屏幕上是当前应用的界面"


SUMMARY_MAX = 40  # characters of an action_summary (a short imperative)


def whole_or_empty(text: str, limit: int) -> str:
    """``text`` when it fits in ``limit`` characters, else '' (a value or label is said whole or not at all)."""
    text = SPACE.sub(" ", text).strip()
    return text if len(text) <= limit else ""


def action_summary(step: Step, full: bool = False) -> str:
    """A short Chinese imperative for the step's action, e.g. ``点击“设置”图标按钮``, ``向上滑动``,
    ``输入“机械键盘”``: at most :data:`SUMMARY_MAX` characters, so a label or typed text too long to fit is left
    out (``点击屏幕中部的图片``, ``输入文本``), never cut; ``full``: with it whatever the length (memory, history).

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    >>> action_summary(Step(0, shot, Action("input", text="机械键盘")))
    '输入“机械键盘”'
    >>> long = "我晚上七点到家，别等我吃饭了，记得把门口的快递拿进来，谢谢妈妈，路上注意安全，到了给我打电话"
    >>> typing = Step(0, shot, Action("input", text=long))
    >>> action_summary(typing), action_summary(typing, full=True) == f"输入“{long}”"
    ('输入文本', True)
    """
    limit = 10 ** 6 if full else SUMMARY_MAX
    action = step.action
    if action.type in ("click", "long_press"):
        verb = "点击" if action.type == "click" else "长按"
        element = labelled_element(step)
        kind = element_type(element, step.screenshot.width) if element is not None else ""
        if element is not None:
            label = grounding_label(step)
            shown = label_shown((element.text or element.desc).strip())
            if label and not mentions(shown, label):
                shown = label
            suffix = "" if kind in ("文本", "控件", "选项", "图片") or shown.endswith(kind[-1]) else kind
            said = f"{verb}{quote(shown)}{suffix}"
            if len(said) <= limit:
                return said
        where = target_description(step).removeprefix("屏幕") if element is None else ""
        if not where or len(verb + where) > limit:
            where = place(*action.point, step.screenshot.width,  # type: ignore[misc]
                          step.screenshot.height).removeprefix("屏幕") + "的" + (kind or "图标或按钮")
        return verb + where
    if action.type == "swipe":
        return SWIPES[action.direction or "up"][0]
    if action.type == "input":
        text = whole_or_empty(action.text or "", limit - 4)
        return "输入" + (quote(text) if text else "文本")
    if action.type == "open_app":
        app = whole_or_empty(action.app or "", limit - 6)
        return f"打开{quote(app)}应用" if app else "打开应用"
    return {"back": "返回上一页", "home": "回到桌面", "wait": "等待页面加载", "done": "结束任务"}[action.type]
