"""What browser-use answers say of a page: element labels, the page summary, the open tabs.

Shared by seed 003's ``browser-use`` and its version variants (:mod:`.browser_use_versions`).
"""
from __future__ import annotations

import re

from . import elements as el
from . import short
from ..plural import counted
from .base import StepContext

SUMMARY_ELEMENTS = 6  # how many listed elements a page summary names

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def english(text: str | None) -> str | None:
    """``text`` on one line when it is not Chinese (the answer is English; a Chinese reconstruction field is
    left out, never mixed in), else None."""
    return short.one_line(text) if text and not _CJK.search(text) else None


def label(item: el.Listed) -> str:
    """What the list shows of an element: a dropdown's name and chosen value (its text is every option), else
    the listed label."""
    node = item.node
    if (node.tag or "").lower() == "select":
        name, value = short.one_line(node.desc or node.hint), short.one_line(node.attr("value"))
        if name or value:
            return f"{name}: {value}" if name and value else name or value
    return short.one_line(item.label)


def tag(item: el.Listed) -> str:
    return (item.node.tag or item.kind).lower()


_KINDS = {"a": "link", "input": "field", "select": "dropdown", "textarea": "text area", "img": "image"}


def where(ctx: StepContext) -> str:
    return ctx.step.url or ctx.episode.meta.get("website") or "this site"


def _page(ctx: StepContext) -> str:
    website = ctx.episode.meta.get("website")
    return f"The page at {ctx.step.url}" if ctx.step.url else f"This page of {website}" if website else "This page"


def summary(ctx: StepContext) -> str:
    """The item's observation, else the page described by its listed elements (in list order)."""
    seen = english(ctx.field("observation"))
    if seen:
        return seen
    items = el.listed(ctx.step)
    if not items:
        return f"{_page(ctx)} lists no interactive element."
    words = _words(ctx.episode.goal)  # the elements the task speaks of first, then the page's order
    ranked = sorted(items, key=lambda item: not (_words(label(item)) & words))
    counts: dict[str, int] = {}  # a repeated control ("Add to cart" on every row) is named once, with its count
    for item in ranked:
        name = f"{_KINDS.get(tag(item), tag(item))} “{label(item)}”" + holds(item)
        counts[name] = counts.get(name, 0) + 1
    named = [name + (f" (x{n})" if n > 1 else "") for name, n in list(counts.items())[:SUMMARY_ELEMENTS]]
    more_names = len(counts) - len(named)
    more = f" and {more_names} more" if more_names > 0 else ""
    return f"{_page(ctx)} lists {counted(len(items), 'interactive element')}: {', '.join(named)}{more}."


def _words(text: str) -> set[str]:
    """Lower-case words of three letters or more (what a goal and an element's label can share).

    >>> sorted(_words("Find flights from Seattle to the city"))
    ['city', 'find', 'flights', 'seattle']
    """
    return {w for w in re.findall(r"[^\W_]{3,}", text.lower())} - _STOP


_STOP = {"the", "and", "for", "from", "with", "into", "onto", "that", "this", "then", "than", "all", "any", "are",
         "was", "its", "his", "her", "our", "your", "their", "you", "not", "but", "out", "off", "per", "via", "who",
         "what", "which", "when", "where", "how", "can", "will", "has", "have", "one", "two", "also", "there"}


def holds(item: el.Listed) -> str:
    """What a text field already holds, as the page shows it (Mind2Web's ``input_value``, else ``value``)."""
    node = item.node
    if not node.has("editable"):
        return ""
    value = short.one_line(node.attr("input_value") or node.attr("value"))
    return f" holding “{value}”" if value and value != label(item) else ""


def tabs(ctx: StepContext) -> list[str]:
    tabs = ctx.step.meta.get("tabs")
    if isinstance(tabs, list) and tabs:
        out = []
        for i, tab in enumerate(tabs):
            if isinstance(tab, dict):
                tab = " - ".join(str(tab[k]) for k in ("title", "url") if tab.get(k))
            out.append(f"[{i}] {short.one_line(str(tab))}")
        return out
    urls, current = open_tabs(ctx.episode.steps[:ctx.index + 1], where(ctx))
    return [f"[{i}] {url}" + (" (current)" if i == current else "") for i, url in enumerate(urls)]


def open_tabs(steps: list, fallback: str) -> tuple[list[str], int]:
    """The tabs open at the last of ``steps`` and the current one, from the recording alone: one tab to start;
    each earlier ``new_tab`` opens one that becomes current; a tab shows the last address seen while it was
    current (``fallback`` where none is known).

    >>> from sftdata.model import Action, Screenshot, Step
    >>> shot = Screenshot("0" * 64, "x.png", 1280, 800)
    >>> steps = [Step(0, shot, Action("click", point=(5, 5)), url="https://a.example/"),
    ...          Step(1, shot, Action("new_tab", url="https://b.example/cart"), url="https://a.example/item"),
    ...          Step(2, shot, Action("done"), url="https://b.example/cart")]
    >>> open_tabs(steps, "a.example")
    (['https://a.example/item', 'https://b.example/cart'], 1)
    """
    urls, current = [steps[0].url or fallback], 0
    for j, step in enumerate(steps):
        if step.url:
            urls[current] = step.url
        if j < len(steps) - 1 and step.action.type == "new_tab":
            urls.append(step.action.url or "about:blank")
            current = len(urls) - 1
    return urls, current


