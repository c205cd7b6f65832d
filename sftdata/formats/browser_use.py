"""``browser-use``: seed 003's browser agent, a JSON answer over the page's indexed interactive elements (web only).

The user message gives the task, the earlier steps, ``Current URL`` (the step's ``url``; a source that saved no
address says so and names the site from ``episode.meta["website"]``), ``Available tabs`` (``step.meta["tabs"]``
when the source records them, else the one current tab), the ``Interactive elements`` as
``[index]<tag>text</tag>`` lines (:func:`sftdata.formats.elements.listed`: visible, interactive and named; the
tag is the DOM tag) and the screenshot. The answer is seed 003's JSON::

    {"current_state": {"page_summary", "evaluation_previous_goal", "memory", "next_goal"}, "action": [{name: args}]}

Actions: ``click_element{index}``, ``input_text{index, text}``, ``select_dropdown_option{index, text}`` (the
index of the action's element in the list; an element that is not listed raises
``CannotExpress("target_not_listed")``), ``scroll_down{}`` / ``scroll_up{}`` (the page moves: ``down`` shows
what is below, as the canonical scroll), ``go_to_url{url}``, ``go_back{}``, ``open_new_tab{}`` (followed by
``go_to_url`` when the tab opens an address: two actions in the list, as the seed's example),
``done{text}`` (the episode's answer when known). A recording without a final screen has no ``done`` step, so
no ``done`` sample. Mobile-only actions (swipe, long_press, open_app, home, wait) raise
``CannotExpress("action_not_in_format")`` and a mobile episode ``CannotExpress("platform_not_web")``: a run that
mixes phones and pages exports each in the formats that can say it.

The ``current_state`` strings are English and use only what is known before acting on this screen:
``page_summary`` is the item's ``observation``, else the page's listed elements described; ``evaluation_previous_goal``
is ``Unknown`` on the first step, ``Failed`` after a step that left the page unchanged (``meta["ineffective"]``),
else ``Success`` with what the previous action did; ``memory`` lists what was done so far and, for a goal that
repeats ("each", "3 times"), how many are done and how many remain (:func:`sftdata.annotate.progress.looping`);
``next_goal`` is the item's ``thought`` (else the first sentence of the reasoning) after the action in words.
A reconstruction field written in Chinese is left out rather than mixed into the English answer (the page summary
then describes the elements, the next goal is the action in words). A dropdown is listed by its name and chosen
value (``Category: All``), not by the text of all its options.
With ``--som`` the screenshot carries each listed element's box labelled with its index (seed 003's visual
context) and the system prompt says so. parse gives an element action the listed element's centre.

>>> from sftdata.model import Action, Element, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1280, 720)
>>> box = Element(0, (400, 100, 900, 140), hint="Search flights", tag="input", flags=("clickable", "editable", "visible"))
>>> go = Element(1, (920, 100, 1000, 140), text="Search", tag="button", flags=("clickable", "visible"))
>>> ep = Episode("w", "sample", "Search flights to Paris", [
...     Step(0, shot, Action("type", text="Paris", point=(650, 120), element=box), elements=[box, go], url="https://fly.example"),
...     Step(1, shot, Action("click", point=(960, 120), element=go), elements=[box, go], url="https://fly.example")],
...     meta={"no_final_screen": True}, platform="web")
>>> items = [{"reasoning": "Type the city first.", "function": {"name": "type", "parameters": {}}},
...          {"reasoning": "Now search.", "function": {"name": "click", "parameters": {}}}]
>>> ctx = StepContext(ep, 1, items)
>>> print(FORMAT.render(ctx))  # doctest: +NORMALIZE_WHITESPACE
{"current_state": {"page_summary": "The page at https://fly.example lists 2 interactive elements: field “Search flights”,
button “Search”.", "evaluation_previous_goal": "Success - The previous action typed “Paris” into “Search flights”.",
"memory": "Done so far (1 action): typed “Paris” into “Search flights”. Goal: “Search flights to Paris”.",
"next_goal": "Click “Search”: Now search."}, "action": [{"click_element": {"index": 1}}]}
>>> FORMAT.parse(FORMAT.render(ctx), ctx) == FORMAT.quantize(ctx)
True
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..model import Action
from ..annotate.progress import count_done, looping
from . import elements as el
from . import short
from .browser_page import english, label, open_tabs, summary, tabs, tag  # noqa: F401 (re-exported)
from .base import AgentFormat, CannotExpress, StepContext, image_tags, register

DONE_TEXT = "Task completed."
HISTORY_MEMORY = 4  # how many recent actions the memory names

SYSTEM = """You are a browser agent: you carry out a user's task on web pages by issuing structured commands, one
screen at a time, until the task is done.

# What you receive
- The task and the steps taken so far.
- Current URL: the address of the page you are on.
- Available tabs: the browser tabs that are open.
- Interactive elements: one per line as [index]<element_type>element_text</element_type>, for example
  [12]<button>Search</button>
  [13]<input>From</input>
  index is the number you use to address the element, element_type its HTML tag (button, input, a, select...),
  element_text its visible text or description. Only elements with a number in [] can be used; a line that starts
  with [] is context you cannot act on.
- A screenshot of the page.

# How you answer
Always reply with one valid JSON object and nothing else:
{"current_state": {"page_summary": "facts on this page that matter for the task and are not in your memory yet (empty if none)",
 "evaluation_previous_goal": "Success|Failed|Unknown - did the previous actions do what they were meant to, judged from this page (the page is the truth, not the action's result); say briefly why",
 "memory": "what has been done and what to remember; when the task repeats something, count it: e.g. 2 of 5 pages checked, 3 remain",
 "next_goal": "what the next actions are meant to achieve"},
 "action": [{"action_name": {parameters}}, ...]}
Each item of the action list holds exactly one action; the actions run in order, and the list ends where the page
is expected to change.

# Actions
- click_element: {"index": i} clicks element i.
- input_text: {"index": i, "text": "..."} types text into field i.
- select_dropdown_option: {"index": i, "text": "..."} picks the option with that text in dropdown i.
- scroll_down: {} / scroll_up: {} move the page to show what is below / above.
- go_to_url: {"url": "..."} opens an address in the current tab.
- go_back: {} returns to the previous page.
- open_new_tab: {} opens a new tab (follow it with go_to_url to load a page there).
- done: {"text": "..."} ends the task; put in text everything the user asked to find.

# Rules
- Use only indexes from the current element list. If no element fits, scroll, go back, or open another page.
- Close pop-ups and accept or dismiss cookie banners when they are in the way.
- Fill a form in one go when nothing on the page changes between the fields.
- If a list of suggestions appears under a field you typed into, pick the right suggestion first.
- For a task that repeats ("each", "all", "3 times"), count in memory what is done and what remains, and call
  done only after the last one.
- Never invent actions; call done only when everything asked has been done."""

SEED_TAB = '- open_new_tab: {} opens a new tab (follow it with go_to_url to load a page there).'
CLIENT_TAB = '- open_tab: {"url": "..."} opens an address in a new tab.'

SOM = """
# Screenshot
Each listed element is outlined on the screenshot by a box labelled with its index, box and label in the same
colour."""

PAST = {"click": "clicked {t}", "type": "typed “{x}” into {t}", "select": "selected “{x}” in {t}",
         "scroll": "scrolled {d}", "go_to_url": "went to {u}", "back": "went back to the previous page",
         "new_tab": "opened a new tab", "input": "typed “{x}”", "wait": "waited", "done": "finished"}
DO = {"click": "Click {t}", "type": "Type “{x}” into {t}", "select": "Select “{x}” in {t}", "scroll": "Scroll {d}",
       "go_to_url": "Go to {u}", "back": "Go back to the previous page", "new_tab": "Open a new tab",
       "done": "Finish the task"}
ELEMENT_ACTIONS = {"click": "click_element", "type": "input_text", "select": "select_dropdown_option"}
def _same(a, b) -> bool:
    return a.index == b.index and a.bounds == b.bounds


def target(ctx: StepContext) -> el.Listed:
    """The listed element a click/type/select addresses: the action's own element when it is listed, else the
    smallest listed element that contains the point (a tappable one that encloses the node hit, for a click;
    an editable one, for typing), else ``CannotExpress("target_not_listed")``."""
    a, items = ctx.action, el.listed(ctx.step)
    if a.element is not None:
        for item in items:
            if _same(item.node, a.element):
                return item
    found = None
    if a.type == "click":
        found = el.tap_target(ctx.step)
    elif a.point is not None:
        fits = [item for item in items if item.contains(a.point)
                and (item.has("editable") if a.type == "type" else True)]
        found = min(fits, key=lambda item: item.area) if fits else None
    if found is None:
        raise CannotExpress("target_not_listed", f"step {ctx.index + 1}: the {a.type} target is not among the "
                            f"{len(items)} listed interactive elements")
    return found


def check_web(ctx: StepContext) -> None:
    if not ctx.episode.web:
        raise CannotExpress("platform_not_web", f"step {ctx.index + 1}: episode {ctx.episode.id} is a "
                            f"{ctx.episode.platform} episode; browser-use speaks of web pages")


def actions(ctx: StepContext, open_tab: bool = False) -> tuple[list[dict], el.Listed | None]:
    """The answer's action list and the listed element it addresses (if any). ``open_tab``: a new tab is
    browser-use 0.1.x's ``open_tab{url}`` (what its controller registers) instead of seed 003's
    ``open_new_tab{}`` + ``go_to_url{url}``."""
    check_web(ctx)
    a = ctx.action
    if a.type in ELEMENT_ACTIONS:
        item = target(ctx)
        args: dict[str, Any] = {"index": el.index_of(ctx.step, item)}
        if a.type != "click":
            args["text"] = a.text
        return [{ELEMENT_ACTIONS[a.type]: args}], item
    if a.type == "scroll" and a.direction in ("up", "down"):
        return [{f"scroll_{a.direction}": {}}], None
    if a.type == "go_to_url":
        return [{"go_to_url": {"url": a.url}}], None
    if a.type == "back":
        return [{"go_back": {}}], None
    if a.type == "new_tab" and open_tab and a.url:
        return [{"open_tab": {"url": a.url}}], None
    if a.type == "new_tab" and not open_tab:
        return [{"open_new_tab": {}}] + ([{"go_to_url": {"url": a.url}}] if a.url else []), None
    if a.type == "done":
        return [{"done": {"text": a.text or DONE_TEXT}}], None
    what = f"a {a.direction} scroll" if a.type == "scroll" else f"a {a.type} action"
    raise CannotExpress("action_not_in_format", f"step {ctx.index + 1}: browser-use has no {what}")


def _named(ctx: StepContext) -> str:
    """The action's element in words: the listed element's label, else the reconstruction's target."""
    try:
        item = target(ctx) if ctx.action.type in ELEMENT_ACTIONS else None
    except CannotExpress:
        item = None
    if item is not None and label(item):
        return f"“{label(item)}”"
    return ctx.target or "the element"


def said(ctx: StepContext, table: dict[str, str]) -> str:
    """The step's action in English words (past tense with ``PAST``, imperative with ``DO``)."""
    a = ctx.action
    phrase = table.get(a.type)
    if phrase is None:
        return a.type.replace("_", " ")
    return phrase.format(t=_named(ctx), x=short.one_line(a.text or ""), d=a.direction or "", u=a.url or "")


def evaluation(ctx: StepContext) -> str:
    if ctx.index == 0:
        return "Unknown - No action has been taken yet."
    prev = replace(ctx, index=ctx.index - 1)
    did = said(prev, PAST)
    if prev.step.meta.get("ineffective") is True:
        return f"Failed - The previous action {did}, but the page did not change."
    return f"Success - The previous action {did}."


def memory(ctx: StepContext) -> str:
    """What was done so far (the last few actions) and, for a repeating goal, the count done and remaining."""
    earlier = [replace(ctx, index=i) for i in range(ctx.index)]
    goal = " ".join(ctx.episode.goal.split())
    loop = looping(goal)
    count = ""
    if loop is not None:
        steps = ctx.episode.steps[:ctx.index]
        done = count_done(loop, steps, ctx.items)
        if loop.kind == "input":  # on a page, typing is a ``type`` action
            done = sum(s.action.type in ("input", "type") and s.meta.get("ineffective") is not True for s in steps)
        if loop.total is None:
            count = f" {done} done so far."
        elif done >= loop.total:
            count = f" {loop.total} of {loop.total} done; that part is complete."
        else:
            count = f" {done} of {loop.total} done, {loop.total - done} remain."
    if not earlier:
        return f"Nothing done yet.{count} Goal: “{goal}”."
    recent = [said(e, PAST) for e in earlier[-HISTORY_MEMORY:]]
    lead = "..., " if len(earlier) > HISTORY_MEMORY else ""
    n = len(earlier)
    return (f"Done so far ({n} action{'s' if n != 1 else ''}): {lead}{', '.join(recent)}.{count} "
            f"Goal: “{goal}”.")


def next_goal(ctx: StepContext) -> str:
    do = said(ctx, DO)
    thought = english(ctx.field("thought") or short.first_sentence(ctx.reasoning))
    return f"{do}: {thought}" if thought else f"{do}."


def _state(ctx: StepContext) -> dict[str, str]:
    if not ctx.reasoning:
        raise CannotExpress("not_annotated", f"step {ctx.index + 1} has no reconstructed reasoning")
    return {"page_summary": summary(ctx), "evaluation_previous_goal": evaluation(ctx), "memory": memory(ctx),
            "next_goal": next_goal(ctx)}


def listing(ctx: StepContext) -> str:
    """One ``[index]<tag>text</tag>`` line per listed element."""
    return "\n".join(f"[{i}]<{tag(item)}>{label(item)}</{tag(item)}>"
                     for i, item in enumerate(el.listed(ctx.step)))


def _history_line(prev: StepContext, open_tab: bool) -> str:
    try:
        said_as = json.dumps(actions(prev, open_tab)[0], ensure_ascii=False)
    except CannotExpress:
        said_as = said(prev, PAST)
    goal = next_goal(prev) + " -> " if prev.reasoning else ""
    return f"Step {prev.index + 1}: {goal}{said_as}"


class BrowserUse(AgentFormat):
    name = "browser-use"
    family = "qwen2.5-vl"  # any vision family: the answer has no coordinates
    language = "en"
    platforms = ("web",)
    som = True  # seed 003: "Bounding boxes with labels correspond to element indexes" (export --som)
    coordinates = "none: element indexes into the listed interactive elements (parse gives the element centre)"
    open_tab = False  # True: a new tab at an address is open_tab{url} (browser-use-0.1)

    def system_prompt(self, ctx: StepContext) -> str:
        system = SYSTEM.replace(SEED_TAB, CLIENT_TAB) if self.open_tab else SYSTEM
        return system + (SOM if ctx.som else "")

    def user_message(self, ctx: StepContext) -> str:
        check_web(ctx)
        lines = [f"Task: {ctx.episode.goal}", "Previous steps:"]
        lines += [_history_line(prev, self.open_tab) for prev in ctx.earlier()] or ["None"]
        website = ctx.episode.meta.get("website")
        if ctx.step.url:
            lines.append(f"Current URL: {ctx.step.url}")
        elif website:
            lines.append(f"Current URL: unknown (recorded on {website}, no address saved)")
        else:
            lines.append("Current URL: unknown (no address saved)")
        lines += ["Available tabs:", *tabs(ctx), "Interactive elements:", listing(ctx) or "None"]
        lines.append("Current screenshot:" if len(ctx.image_steps()) == 1 else "Screenshots (the last is current):")
        lines.append(image_tags(ctx))
        return "\n".join(lines)

    def render(self, ctx: StepContext) -> str:
        state = _state(ctx)
        return json.dumps({"current_state": state, "action": actions(ctx, self.open_tab)[0]}, ensure_ascii=False)

    def parse(self, text: str, ctx: StepContext) -> Action:
        calls = [next(iter(call.items())) for call in json.loads(text)["action"]]
        name, args = calls[0]
        if name in ("click_element", "input_text", "select_dropdown_option"):
            item = el.listed(ctx.step)[args["index"]]
            kind = {v: k for k, v in ELEMENT_ACTIONS.items()}[name]
            return Action(kind, point=item.center, element=item.node, text=args.get("text"))
        if name in ("scroll_down", "scroll_up"):
            return Action("scroll", direction=name.removeprefix("scroll_"))
        if name == "go_to_url":
            return Action("go_to_url", url=args["url"])
        if name == "go_back":
            return Action("back")
        if name == "open_tab":
            return Action("new_tab", url=args["url"])
        if name == "open_new_tab":
            url = calls[1][1]["url"] if len(calls) > 1 and calls[1][0] == "go_to_url" else None
            return Action("new_tab", url=url)
        if name == "done":
            return Action("done", text=None if args.get("text") in (None, DONE_TEXT) else args["text"])
        raise ValueError(f"browser-use action {name!r} has no canonical action")

    def quantize(self, ctx: StepContext) -> Action:
        a = ctx.action
        item = actions(ctx, self.open_tab)[1]
        if item is not None:
            return Action(a.type, point=item.center, element=item.node, text=a.text if a.type != "click" else None)
        if a.type == "done":
            return Action("done", text=a.text if a.text and a.text != DONE_TEXT else None)
        return Action(a.type, direction=a.direction, url=a.url)


FORMAT = register(BrowserUse())
