"""Seed 003 (``browser-use``) as the released browser-use versions accept it: ``browser-use-0.1`` and
``browser-use-0.13``.

``browser-use-0.1`` is seed 003 with one change: a new tab at an address is ``open_tab{url}``, the action
browser-use 0.1.x's controller registers (the seed's ``open_new_tab`` is not among them, so 0.1.x reads it as
an empty action); a new tab with no address raises ``CannotExpress("action_not_in_format")``.

``browser-use-0.13`` is the agent output of current browser-use (0.7 to 0.13), for web episodes.

Seed 003 (``browser-use``) is browser-use's 0.1.x prompt: a nested ``current_state`` and actions such as
``click_element``. Current browser-use validates the model's answer with a pydantic model that forbids extra
fields and knows other action names, so a seed-003 answer is refused there. This variant writes what it accepts::

    {"thinking": ..., "evaluation_previous_goal": ..., "memory": ..., "next_goal": ..., "action": [{name: args}]}

Actions (element indexes are 1-based, as browser-use numbers its ``browser_state``): ``click{index}``,
``input{index, text}``, ``select_dropdown{index, text}``, ``scroll{down, pages}`` (``down`` true shows what is
below; one page), ``navigate{url}``, ``navigate{url, new_tab: true}`` (a new tab that opens an address; a new
tab with no address raises ``CannotExpress("action_not_in_format")``), ``go_back{}`` and ``done{text,
success}``. ``thinking`` is the reasoning when it is English (the answer speaks the user's language; a Chinese
reasoning is left out, as in :mod:`.browser_use`); the other fields are those of seed 003's ``current_state``.
The user message follows browser-use's own layout: ``<user_request>``, ``<agent_history>`` with one
``<step_N>`` per earlier step, ``<browser_state>`` (URL, tabs, ``[index]<tag attr=value />`` elements with their
text on the next line) and the screenshot. The action names, parameters and fields are those of browser-use's
``tools/views.py`` and ``agent/views.py`` from 0.7 to 0.13 (0.13.14 runs in CI); 0.2-0.6 used other names.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1280, 720)
>>> box = Element(0, (400, 100, 900, 140), hint="Search flights", tag="input", flags=("clickable", "editable", "visible"))
>>> go = Element(1, (920, 100, 1000, 140), text="Search", tag="button", flags=("clickable", "visible"))
>>> ep = Episode("w", "sample", "Search flights to Paris", [
...     Step(0, shot, Action("type", text="Paris", point=(650, 120), element=box), elements=[box, go], url="https://fly.example"),
...     Step(1, shot, Action("click", point=(960, 120), element=go), elements=[box, go], url="https://fly.example")],
...     meta={"no_final_screen": True}, platform="web")
>>> items = [{"reasoning": "Type the city first.", "function": {"name": "type", "parameters": {}}},
...          {"reasoning": "The city is in the field; search now.", "function": {"name": "click", "parameters": {}}}]
>>> ctx = StepContext(ep, 1, items)
>>> print(FORMAT.render(ctx))  # doctest: +NORMALIZE_WHITESPACE
{"thinking": "The city is in the field; search now.", "evaluation_previous_goal": "Success - The previous action
typed “Paris” into “Search flights”.", "memory": "Done so far (1 action): typed “Paris” into “Search flights”.
Goal: “Search flights to Paris”.", "next_goal": "Click “Search”: The city is in the field; search now.",
"action": [{"click": {"index": 2}}]}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json
from typing import Any

from ..model import Action
from . import browser_use as seed
from . import elements as el
from . import short
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register

_NAMES = {"click": "click", "type": "input", "select": "select_dropdown"}
_ATTRS = (("type", "type"), ("placeholder", None), ("aria-label", None), ("value", "value"))

SYSTEM = """You are a browser agent. You work in a loop: each turn you see the state of the browser, decide, and
give the next actions, until the task in <user_request> is done.

# Input
- <user_request>: the task. It stays the same all along.
- <agent_history>: one <step_N> per earlier turn, with its evaluation, memory, next goal and action results.
- <browser_state>: the current URL, the open tabs and the interactive elements, one per line as
  [index]<tag attribute=value /> with the element's text on the next line, indented. Only elements with an
  [index] can be used.
- <browser_vision>: a screenshot of the page.

# Output
Reply with one JSON object and nothing else:
{"thinking": "your reasoning about the page and the next step",
 "evaluation_previous_goal": "did the last action work, judged from this page: success, failure or uncertain, and why",
 "memory": "what has been done and what to remember; count repeated work (2 of 5 pages checked)",
 "next_goal": "the next immediate goal and the action for it, in one sentence",
 "action": [{"action_name": {parameters}}]}
The action list is never empty; the actions run in order and the list stops where the page will change.

# Actions
- click: {"index": i} clicks element i.
- input: {"index": i, "text": "..."} types text into field i (its old text is cleared).
- select_dropdown: {"index": i, "text": "..."} chooses the option with that text in dropdown i.
- scroll: {"down": true, "pages": 1.0} shows what is below (down false: above).
- navigate: {"url": "..."} opens an address; add "new_tab": true to open it in a new tab.
- go_back: {} returns to the previous page.
- done: {"text": "...", "success": true} ends the task; text holds everything the user asked to find.

# Rules
- Use only indexes of the current <browser_state>. Close pop-ups and cookie banners that are in the way.
- After typing, if suggestions appear, pick the right one before going on.
- Count repeated work in memory; call done only when everything asked has been done, never invent results."""


def _attrs(node) -> str:
    out = []
    for name, key in _ATTRS:
        value = node.attr(key) if key else (node.hint if name == "placeholder" else node.desc)
        value = short.one_line(value or "")
        if value and value != short.one_line(node.text or ""):
            out.append(f"{name}={value}")
    return "".join(f" {a}" for a in out)


def listing(ctx: StepContext) -> str:
    """``[index]<tag attr=value />`` then the element's text, tab-indented, for every listed element (1-based)."""
    lines = []
    for i, item in enumerate(el.listed(ctx.step), start=1):
        lines.append(f"[{i}]<{seed.tag(item)}{_attrs(item.node)} />")
        lines.append(f"\t{seed.label(item)}")
    return "\n".join(lines)


def actions(ctx: StepContext) -> tuple[list[dict], el.Listed | None]:
    """The answer's action list and the listed element it addresses (if any)."""
    seed.check_web(ctx)
    a = ctx.action
    if a.type in _NAMES:
        item = seed.target(ctx)
        args: dict[str, Any] = {"index": el.index_of(ctx.step, item) + 1}
        if a.type != "click":
            args["text"] = a.text
        return [{_NAMES[a.type]: args}], item
    if a.type == "scroll" and a.direction in ("up", "down"):
        return [{"scroll": {"down": a.direction == "down", "pages": 1.0}}], None
    if a.type == "go_to_url":
        return [{"navigate": {"url": a.url}}], None
    if a.type == "new_tab" and a.url:
        return [{"navigate": {"url": a.url, "new_tab": True}}], None
    if a.type == "back":
        return [{"go_back": {}}], None
    if a.type == "done":
        return [{"done": {"text": a.text or seed.DONE_TEXT, "success": True}}], None
    what = f"a {a.direction} scroll" if a.type == "scroll" else "a new tab with no address" \
        if a.type == "new_tab" else f"a {a.type} action"
    raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: browser-use has no {what}")


def _results(prev: StepContext) -> str:
    words = seed.said(prev, seed.PAST)
    try:
        return f"{json.dumps(actions(prev)[0], ensure_ascii=False)}: {words}"
    except CannotExpress:
        return words  # an action this format cannot write is said in words only, not twice


def _history(ctx: StepContext) -> list[str]:
    lines = []
    for prev in ctx.earlier():
        lines += [f"<step_{prev.index + 1}>", f"Evaluation of Previous Step: {seed.evaluation(prev)}",
                  f"Memory: {seed.memory(prev)}", f"Next Goal: {seed.next_goal(prev)}",
                  f"Action Results: {_results(prev)}", f"</step_{prev.index + 1}>"]
    return lines or ["(no earlier step)"]


class BrowserUseCurrent(AgentFormat):
    name = "browser-use-0.13"
    family = "qwen2.5-vl"  # any vision family: the answer has no coordinates
    language = "en"
    platforms = ("web",)
    som = True  # browser-use draws the element boxes with their indexes on the screenshot (export --som)
    coordinates = "none: 1-based indexes into the listed interactive elements (parse gives the element centre)"

    def system_prompt(self, ctx: StepContext) -> str:
        return SYSTEM + (seed.SOM if ctx.som else "")

    def user_message(self, ctx: StepContext) -> str:
        seed.check_web(ctx)
        url = ctx.step.url or f"unknown ({ctx.episode.meta.get('website') or 'no address saved'})"
        lines = ["<user_request>", ctx.episode.goal, "</user_request>", "<agent_history>", *_history(ctx),
                 "</agent_history>", "<browser_state>", f"Current URL: {url}", "Open Tabs:", *seed.tabs(ctx),
                 "Interactive Elements:", listing(ctx) or "(none)", "</browser_state>", "<browser_vision>",
                 image_tags(ctx), "</browser_vision>"]
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        if not ctx.reasoning:
            raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
        answer: dict[str, Any] = {}
        thinking = seed.english(ctx.reasoning)
        if thinking:
            answer["thinking"] = thinking
        answer.update(evaluation_previous_goal=seed.evaluation(ctx), memory=seed.memory(ctx),
                      next_goal=seed.next_goal(ctx), action=actions(ctx)[0])
        return json.dumps(answer, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        name, args = next(iter(json.loads(text)["action"][0].items()))
        if name in ("click", "input", "select_dropdown"):
            item = el.listed(ctx.step)[args["index"] - 1]
            kind = {v: k for k, v in _NAMES.items()}[name]
            return Action(kind, point=item.center, element=item.node, text=args.get("text"))
        if name == "scroll":
            return Action("scroll", direction="down" if args.get("down", True) else "up")
        if name == "navigate":
            return Action("new_tab" if args.get("new_tab") else "go_to_url", url=args["url"])
        if name == "go_back":
            return Action("back")
        if name == "done":
            return Action("done", text=None if args.get("text") in (None, seed.DONE_TEXT) else args["text"])
        raise ValueError(f"browser-use action {name!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        actions(ctx)  # what cannot be said raises here, as in render
        return seed.FORMAT.quantize(ctx)


class BrowserUse01(seed.BrowserUse):
    """Seed 003 as browser-use 0.1.x runs it (see the module docstring)."""

    name = "browser-use-0.1"
    open_tab = True


FORMAT_01 = register(BrowserUse01())
FORMAT = register(BrowserUseCurrent())
