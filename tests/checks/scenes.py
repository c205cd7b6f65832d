"""Tiny scenes for the certify pass tests: one acted step, a ``done`` step after it, and a text to certify.

>>> from sftdata.model import Element
>>> tours = Element(0, (100, 300, 700, 340), text="Tours", flags=("visible", "clickable"), tag="a")
>>> certify_text(tap(tours), click("“Tours”元素"), "Tap Tours.", [tours]).outcome
'certified'
"""
from __future__ import annotations

from typing import Sequence

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)


def certify_text(action: Action, function: dict, text: str, elements: Sequence[Element], *,
                 goal: str = "Plan a trip to Lisbon and look at the tours", web: bool = True,
                 before: Sequence[Action] = ()) -> Certification:
    """Certify ``text`` for ``action`` (called ``function``) on a screen of ``elements``, after the steps
    ``before`` (each on the same screen) and before a ``done``."""
    shot = WEB if web else PHONE
    steps = [Step(i, shot, a, elements=list(elements)) for i, a in enumerate([*before, action, Action("done")])]
    episode = Episode("e", "m", goal, steps, platform="web" if web else "mobile")
    return certify(episode, len(before), {"reasoning": text, "function": function}, cjk_threshold=0.0)


def el(i: int, box: tuple[int, int, int, int], text: str = "", **kw) -> Element:
    """A visible element, clickable unless ``flags`` says otherwise."""
    return Element(i, box, text=text, flags=("visible",) + kw.pop("flags", ("clickable",)), **kw)


def one_step(action: Action, function: dict, text: str, goal: str, elements: Sequence[Element] = ()) -> Certification:
    """Certify ``text`` for a phone step's ``action`` (called ``function``) before a ``done`` on the same screen."""
    steps = [Step(0, PHONE, action, elements=list(elements)), Step(1, PHONE, Action("done"), elements=list(elements))]
    return certify(Episode("e", "m", goal, steps), 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


def swipe(direction: str) -> tuple[Action, dict]:
    """A swipe whose finger moves ``direction``, and its call."""
    return Action("swipe", direction=direction), {"name": "swipe", "parameters": {"direction": direction.upper()}}


def typed(field: Element, value: str, target: str) -> tuple[Action, dict]:
    """Typing ``value`` into ``field``, and its call naming ``target``."""
    return (Action("type", text=value, element=field, point=field.center),
            {"name": "type", "parameters": {"text": value, "target_element": target}})


def tap(element: Element) -> Action:
    return Action("click", element=element, point=element.center)


def click(target: str) -> dict:
    return {"name": "click", "parameters": {"target_element": target}}


def expect(got: Certification, outcome: str) -> None:
    assert got.outcome == outcome, (got.reasons, got.evidence)


FEED = [el(0, (40, 300, 520, 900), "商品图片 Nike 跑步鞋"), el(1, (560, 300, 1040, 900), "商品图片 Lenovo 跑步鞋")]
"""Two product cards of a shopping feed."""
CHAT = [el(0, (40, 2200, 800, 2300), "好的，明天见", flags=("clickable", "editable")),
        el(1, (820, 2200, 1040, 2300), "发送 Send"), el(2, (40, 200, 600, 260), "Alice", flags=())]
"""A chat's bottom row: the reply in its box and the Send button."""


def phone_episode(screens: Sequence[Sequence[Element]], actions: Sequence[Action], goal: str) -> Episode:
    """A phone episode whose step ``i`` shows ``screens[i]`` and takes ``actions[i]``."""
    steps = [Step(i, PHONE, a, elements=list(s)) for i, (s, a) in enumerate(zip(screens, actions))]
    return Episode("e", "m", goal, steps)


def certify_at(episode: Episode, index: int, text: str, function: dict) -> Certification:
    """Certify ``text`` for step ``index`` of ``episode`` (called ``function``)."""
    return certify(episode, index, {"reasoning": text, "function": function}, cjk_threshold=0.0)
