"""Pass 11: an apposition that places the decision's target is the screen as it is, and decision shapes the readers
did not know (a finger gloss after a dash, ``enter X there``, ``confirm with the 删除``, a dropdown's ``选``, a
button's label as the imperative). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
WEB = Screenshot("1" * 64, "w.png", 1280, 800)
V = ("visible", "clickable")


def _step(shot: Screenshot, labels: tuple[str, ...], boxes: list[tuple[int, int, int, int]], action: str, target: int,
          **kw) -> Step:
    els = [Element(n, b, text=t, flags=V, tag="a" if shot is WEB else "") for n, (t, b) in enumerate(zip(labels, boxes))]
    act = Action(action, point=els[target].center, element=els[target], **kw) if target >= 0 else Action(action, **kw)
    return Step(0, shot, act, elements=els)


def _run(step: Step, goal: str, function: dict, text: str, web: bool = False) -> Certification:
    ep = Episode("e", "m", goal, [step, Step(1, step.screenshot, Action("done"))], platform="web" if web else "mobile")
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


SHOP = ("数码", "厨具", "服饰", "不锈钢水壶 1.5L", "陶瓷炖锅")
SHOP_BOXES = [(40, 200, 300, 280), (400, 200, 680, 280), (780, 200, 1040, 280), (0, 400, 1080, 700),
              (0, 700, 1080, 1000)]


def _tap(shot: Screenshot, labels: tuple[str, ...], boxes: list, goal: str, text: str, target: int) -> Certification:
    step = _step(shot, labels, boxes, "click", target)
    return _run(step, goal, {"name": "click", "parameters": {"target_element": f"“{labels[target]}”元素"}}, text,
                web=shot is WEB)


def shop_tap(text: str, target: int = 1) -> Certification:
    return _tap(PHONE, SHOP, SHOP_BOXES, "在厨具分类里看看水壶", text, target)


def test_a_place_beside_another_tab_names_no_other_target():
    assert shop_tap("tap the 厨具 tab along the top, the one between 数码 and 服饰", target=0).outcome != "certified"


LIST = ("Quiet lamp #7", "Add to basket", "Desk lamp mini #8", "Add to basket", "Search")
LIST_BOXES = [(100, 150, 600, 180), (900, 150, 1100, 180), (100, 400, 600, 430), (900, 400, 1100, 430),
              (1100, 40, 1200, 80)]


def list_tap(text: str, target: int = 0) -> Certification:
    return _tap(WEB, LIST, LIST_BOXES, "Open the lamp numbered 7", text, target)


@pytest.mark.parametrize("run, text", [
    (shop_tap, "tap the 厨具 tab along the top, the one between 数码 and 服饰"),
    (shop_tap, "Open the 厨具 category — it's the middle tab, right between 数码 and 服饰."),
    (shop_tap, "点厨具，在数码和服饰之间"),
    (shop_tap, "点上面的厨具，就是数码旁边的那个"),
    (list_tap, "Two lamps are listed. I'll open Quiet lamp #7, the title link in the upper part of the list."),
    (list_tap, "open Quiet lamp #7 — the one in the upper half of the results"),
    (list_tap, "打开第7个 Quiet lamp，标题在靠上那行"),
])
def test_an_apposition_that_places_the_target_certifies(run, text):
    got = run(text)
    assert got.outcome == "certified", (got.reasons, got.evidence)


@pytest.mark.parametrize("run, text", [
    (shop_tap, "tap the 厨具 tab along the top, the one between 数码 and 服饰, which now turns orange"),
    (shop_tap, "点厨具，在数码和服饰之间，已经切成厨具页了"),
    (shop_tap, "tap the 厨具 tab, the one between 数码 and 服饰; the kettles appear below"),
    (list_tap, "I'll open Quiet lamp #7, the title link in the upper part of the list, and its page loads."),
    (list_tap, "打开第7个 Quiet lamp，标题在靠上那行，进去以后是详情页"),
])
def test_an_apposition_then_a_change_or_an_outcome_does_not_certify(run, text):
    assert run(text).outcome != "certified"


def test_another_control_named_through_a_pronoun_does_not_certify():
    got = list_tap("Add to basket next to #7 (upper right), click that and we're there.")
    assert got.outcome != "certified", (got.reasons, got.evidence)


def swipe(text: str, direction: str = "UP") -> Certification:
    step = _step(PHONE, SHOP, SHOP_BOXES, "swipe", -1, direction=direction.lower())
    return _run(step, "在厨具分类里看看水壶", {"name": "swipe", "parameters": {"direction": direction}}, text)


@pytest.mark.parametrize("text", ["no kettle further down yet. keep scrolling — finger goes up",
                                  "还没看到水壶，继续往下看 — 手指往上滑"])
def test_a_finger_gloss_after_a_dash_says_how(text):
    got = swipe(text)
    assert got.outcome == "certified", (got.reasons, got.evidence)


@pytest.mark.parametrize("text", ["keep scrolling — finger goes up, and the kettle row appears",
                                  "keep scrolling — finger goes down"])
def test_a_dash_gloss_with_an_outcome_or_the_other_way_does_not_certify(text):
    assert swipe(text).outcome != "certified"


FORM = ("Where to?", "Room type", "Search stays")
FORM_BOXES = [(100, 100, 600, 140), (100, 200, 600, 240), (700, 100, 900, 140)]


def form(text: str, function: dict) -> Certification:
    name = function["name"]
    params = function["parameters"]
    target = 0 if name == "type" else 1
    kw = {"text": params.get("text") or params.get("value")}
    step = _step(WEB, FORM, FORM_BOXES, name if name == "type" else "select", target, **kw)
    return _run(step, "Find a suite in Lisbon", function, text, web=True)


TYPE_LISBON = {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Where to?”元素"}}
SELECT_SUITE = {"name": "select", "parameters": {"value": "Suite", "target_element": "“Room type”元素"}}


@pytest.mark.parametrize("text, function", [
    ("The destination box 'Where to?' is at the top left; I'll enter Lisbon there.", TYPE_LISBON),
    ("room type 下拉框选 Suite", SELECT_SUITE),
    ("Room type 下拉菜单改成 Suite。", SELECT_SUITE),
])
def test_a_field_referred_to_and_a_dropdown_choice_certify(text, function):
    got = form(text, function)
    assert got.outcome == "certified", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, function", [
    ("I'll enter Lisbon there, and the suggestions pop up.", TYPE_LISBON),
    ("room type 下拉框选 Double", SELECT_SUITE),
    ("type Suite into the Where to? box", SELECT_SUITE),
])
def test_a_field_then_an_outcome_or_another_value_does_not_certify(text, function):
    assert form(text, function).outcome != "certified"


DIALOG = ("Remove this playlist?", "取消", "删除")
DIALOG_BOXES = [(100, 1000, 980, 1100), (150, 1200, 500, 1300), (580, 1200, 930, 1300)]


def dialog(text: str, target: int = 2) -> Certification:
    step = _step(PHONE, DIALOG, DIALOG_BOXES, "click", target)
    return _run(step, "Delete the playlist Old songs",
                {"name": "click", "parameters": {"target_element": f"“{DIALOG[target]}”按钮"}}, text)


def test_confirm_with_a_screen_label_is_a_tap_of_it():
    got = dialog("The dialog asks to remove the playlist. I do want that, so I confirm with the 删除 on its right.")
    assert got.outcome == "certified", (got.reasons, got.evidence)


def test_confirm_with_another_label_does_not_certify():
    assert dialog("I do want that, so I confirm with the 删除 on its right.", target=1).outcome != "certified"


def event_step(target: int) -> Step:
    """Three event cards, each a container with its title link and a Buy tickets button."""
    els = []
    for n, title in enumerate(("Jazz evening", "Folk night", "Opera gala")):
        top = 150 + 160 * n
        els += [Element(3 * n, (20, top, 1260, top + 140), text=f"{title} #{n + 5} $25.00 Buy tickets",
                        flags=("visible",), tag="div"),
                Element(3 * n + 1, (40, top + 10, 600, top + 50), text=f"{title} #{n + 5}", flags=V, tag="a"),
                Element(3 * n + 2, (1040, top + 50, 1220, top + 100), text="Buy tickets", flags=V, tag="button")]
    return Step(0, WEB, Action("click", point=els[target].center, element=els[target]), elements=els)


def event(text: str, target: int) -> Certification:
    step = event_step(target)
    return _run(step, "Buy tickets for Jazz evening #5",
                {"name": "click", "parameters": {"target_element": f"“{step.action.element.text}”元素"}}, text, web=True)


@pytest.mark.parametrize("text", ["buy tickets for jazz evening #5 — the button on the lower right of its card",
                                  "buy tickets, #5 row"])
def test_a_button_label_said_as_the_imperative_is_its_tap(text):
    got = event(text, 2)
    assert got.outcome == "certified", (got.reasons, got.evidence)


@pytest.mark.parametrize("text, target", [("buy tickets for jazz evening #5 — the button on the lower right of its card", 1),
                                          ("buy tickets on the folk night #6 row", 2)])
def test_a_button_label_imperative_for_another_element_does_not_certify(text, target):
    assert event(text, target).outcome != "certified"
