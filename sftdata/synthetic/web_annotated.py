"""A small set of human-annotated web trajectories, generated: desktop browser frames with the annotator's red
marks and a ``task.json`` with ``"platform": "web"``, the URL and the DOM elements of every step.

Each trajectory is scripted on a drawn shop site (:mod:`.web_shop`): every action changes the page the next
frame shows (typed text appears in the field, a dropdown shows its new option, the result list scrolls the way
the view moves, back returns, a new tab opens). Frames are marked the way annotators mark them (the overlay's own
drawing helpers): the label at the top, a red circle on the element clicked, typed into or chosen from, a red
arrow for a scroll drawn in the drag direction (an arrow pointing up scrolls the view down). Two scripts:

- ``search_sort`` (Chinese labels without coordinates, the circle gives the point; ``marked`` not stated):
  打开网址, 点击, 输入, 点击, 选择, 向下滚动, 点击, 返回, 完成;
- ``category_tab`` (English labels with 0..1000 coordinates; ``"marked": true``): CLICK, TYPE, SELECT, CLICK,
  SCROLL DOWN, SCROLL (direction from the arrow), CLICK, NEW TAB, DONE.

Sizes cycle through 1280x800, 1920x1080 and 2880x1800 (a 1440x900 window at a device pixel ratio of 2, marked
with a tool's fixed-size pen); every second trajectory also has its clean frames in ``clean/``.

>>> import tempfile
>>> out = Path(tempfile.mkdtemp()) / "web"
>>> write_web_annotated(out, n_episodes=1)
1
>>> sorted(p.name for p in out.iterdir() if p.is_dir())
['web_000_search_sort_1280x800']
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from PIL import Image

from ..model import Action
from ..overlay.draw import MarkStyle, action_label, draw_arrow, draw_circle, draw_label, scroll_arrow
from .sample_dir import MARKERS, prepare
from .web_shop import SORTS, Page, Rendered, render, results, scrolled

__all__ = ["SIZES", "write_web_annotated", "trajectory"]
MARKER = MARKERS[0]  # in a directory this module wrote (and may write again)
QUERIES = ["蓝牙耳机", "机械键盘", "保温杯", "双肩包", "运动鞋"]
EN_QUERIES = [("wireless earbuds", "数码"), ("mechanical keyboard", "数码"), ("travel mug", "家居"),
              ("laptop backpack", "服饰"), ("running shoes", "服饰")]  # (query, its category)
# (screenshot size, device pixel ratio, mark style: None = in proportion to the width, as annotator_image draws)
SIZES = [((1280, 800), 1, None), ((1920, 1080), 1, None),
         ((2880, 1800), 2, MarkStyle(radius=40, line_width=8, font_size=56, head_length=48, margin=(32, 28),
                                     text_outline=3, dot_radius=6))]


@dataclass(frozen=True)
class _Frame:
    """One recorded step: the frame as the browser showed it, the same with the marks, the label, the page."""

    clean: Image.Image
    marked: Image.Image
    label: str
    page: Page
    elements: list[dict[str, Any]]


@dataclass
class _Recorder:
    """Walks one tab strip through a script, keeping every frame with its label, its mark and task.json action."""

    size: tuple[int, int]
    dpr: int
    style: MarkStyle | None
    zh: bool
    tabs: list[list[Page]] = field(default_factory=list)  # each tab's history, current page last
    active: int = 0
    frames: list[_Frame] = field(default_factory=list)

    @property
    def page(self) -> Page:
        return self.tabs[self.active][-1]

    def shot(self) -> Rendered:
        return render(self.page, self.size, self.dpr, [t[-1] for t in self.tabs], self.active)

    def _record(self, shown: Rendered, action: Action, zh_label: str, en_label: str | None = None) -> None:
        label = zh_label if self.zh else en_label or action_label(action, *self.size)
        marked = shown.image.copy()
        draw_label(marked, label, self.style)
        if action.type in ("click", "type", "select") and action.point is not None:
            draw_circle(marked, action.point, self.style)
        elif action.type == "scroll":  # drawn as the drag: the opposite of where the view moves
            w, h = self.size
            draw_arrow(marked, *scroll_arrow(action.direction, w, h, (round(0.7 * w), round(0.6 * h))), self.style)
        self.frames.append(_Frame(shown.image, marked, label, self.page, shown.elements))

    def go(self, page: Page) -> None:
        self.tabs[self.active].append(page)

    def stay(self, page: Page) -> None:
        self.tabs[self.active][-1] = page

    def click(self, key: str, then: Page, *, navigate: bool = True) -> None:
        shown = self.shot()
        self._record(shown, Action("click", point=shown.center(key)), "点击")
        self.go(then) if navigate else self.stay(then)

    def type(self, key: str, text: str) -> None:
        shown = self.shot()
        self._record(shown, Action("type", point=shown.center(key), text=text), f'输入 "{text}"')
        self.stay(replace(self.page, field_text=text))

    def select(self, key: str, value: str, then: Page) -> None:
        shown = self.shot()
        self._record(shown, Action("select", point=shown.center(key), text=value), f'选择 "{value}"')
        self.stay(then)

    def scroll(self, direction: str, *, bare: bool = False) -> None:
        shown = self.shot()
        zh = "滚动" if bare else f"向{dict(up='上', down='下', left='左', right='右')[direction]}滚动"
        self._record(shown, Action("scroll", direction=direction), zh, "SCROLL" if bare else None)
        self.stay(scrolled(self.page, direction, self.size, self.dpr))

    def go_to_url(self, page: Page) -> None:
        self._record(self.shot(), Action("go_to_url", url=page.url), f"打开网址 {page.url}")
        self.go(page)

    def new_tab(self, page: Page) -> None:
        self._record(self.shot(), Action("new_tab", url=page.url), f"新标签页 {page.url}")
        self.tabs.append([page])
        self.active = len(self.tabs) - 1

    def back(self) -> None:
        self._record(self.shot(), Action("back"), "返回")
        self.tabs[self.active].pop()

    def done(self) -> None:
        self._record(self.shot(), Action("done"), "完成")


def _search_sort(r: _Recorder, k: int) -> str:
    query = QUERIES[k % len(QUERIES)]
    r.tabs = [[Page("newtab")]]
    r.go_to_url(Page("home"))
    r.click("search_input", replace(r.page, focused=True), navigate=False)
    r.type("search_input", query)
    r.click("search_button", Page("results", field_text=query, query=query))
    r.select("sort_select", SORTS[1], replace(r.page, sort=SORTS[1]))
    r.scroll("down")
    shown = r.shot()
    pos = min(int(key.split(":")[1]) for key in shown.boxes if key.startswith("result:"))  # the first one shown
    r.click(f"result:{pos}", Page("item", field_text=query, query=query, item=results(r.page)[pos]))
    r.back()
    r.done()
    return f"在示例商城搜索“{query}”，按价格从低到高排序，往下翻看后打开一件商品，再返回结果列表"


def _category_tab(r: _Recorder, k: int) -> str:
    query, category = EN_QUERIES[k % len(EN_QUERIES)]
    r.tabs = [[Page("home")]]
    r.click("search_input", replace(r.page, focused=True), navigate=False)
    r.type("search_input", query)
    r.select("category_select", category, replace(r.page, category=category))
    r.click("search_button", Page("results", field_text=query, query=query, category=category))
    r.scroll("down")
    r.scroll("up", bare=True)
    r.click("result:1", Page("item", field_text=query, query=query, category=category, item=1))
    r.new_tab(Page("cart"))
    r.done()
    return f"在示例商城的“{category}”分类里搜索 {query}，浏览结果并打开第二件商品，然后在新标签页打开购物车"


SCRIPTS = {"search_sort": _search_sort, "category_tab": _category_tab}


def trajectory(k: int, seed: int = 0) -> tuple[str, dict[str, Any], list[tuple[Image.Image, Image.Image]]]:
    """Trajectory ``k``: (folder name, task.json object, [(clean frame, marked frame)])."""
    name = list(SCRIPTS)[k % len(SCRIPTS)]
    size, dpr, style = SIZES[k % len(SIZES)]
    recorder = _Recorder(size, dpr, style, zh=name == "search_sort")
    goal = SCRIPTS[name](recorder, k + seed)
    frames = recorder.frames
    task: dict[str, Any] = {"goal": goal, "platform": "web", "actions": [f.label for f in frames],
                            "urls": [f.page.url for f in frames], "elements": [f.elements for f in frames]}
    if name == "category_tab":
        task["marked"] = True
    folder = f"web_{k:03d}_{name}_{size[0]}x{size[1]}"
    return folder, task, [(f.clean, f.marked) for f in frames]


def write_web_annotated(out: str | Path, n_episodes: int = 4, seed: int = 0) -> int:
    """Write ``n_episodes`` trajectory folders under ``out``; returns how many. ``out`` must be new, empty or
    written by ``sftdata sample`` before (:mod:`.sample_dir`): the trajectory folders this function wrote are
    replaced."""
    out = prepare(out, MARKER, r"web_\d{3}_[a-z_]+_\d+x\d+", "--annotated-web")
    for k in range(n_episodes):
        folder, task, frames = trajectory(k, seed)
        path = out / folder
        path.mkdir()
        if k % 2 == 0:
            (path / "clean").mkdir()
        for i, (clean, marked) in enumerate(frames):
            marked.save(path / f"{i:03d}.png")
            if k % 2 == 0:
                clean.save(path / "clean" / f"{i:03d}.png")
        (path / "task.json").write_text(json.dumps(task, ensure_ascii=False, indent=1), encoding="utf-8")
    return n_episodes
