"""A contradiction beside the call's own evidence is for a reader (``conflicting_decision``), whatever kind the
contradiction is: another action, "task complete", another direction said in view words, another option's verb.
Each case is in words other than the blind parts'; texts whose decision names only something else stay rejected."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "x.png", 1080, 2400)
PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
V = ("visible", "clickable")


def run(step: Step, name: str, params: dict, text: str, web: bool = False) -> Certification:
    ep = Episode("e", "m", "整理购物车", [step, Step(1, step.screenshot, Action("done"))], platform="web" if web else "mobile")
    return certify(ep, 0, {"reasoning": text, "function": {"name": name, "parameters": params}}, cjk_threshold=0.0)


def back(text: str) -> Certification:
    menu = Element(0, (0, 300, 1080, 400), text="Orders", flags=V)
    return run(Step(0, PHONE, Action("back"), elements=[menu]), "press_back", {}, text)


@pytest.mark.parametrize("text", ["The task is done on this page; press the phone's back key.",
                                  "目标已经达成，按一下系统返回键退出这一页。"])
def test_task_complete_beside_the_back_key_is_unsure(text):
    c = back(text)
    assert (c.outcome, c.first) == ("unsure", "conflicting_decision")


def test_task_complete_alone_is_still_rejected():
    assert back("The task is done, nothing else to do.").outcome == "rejected"
    assert back("任务已经完成，点 Orders 看看。").outcome == "rejected"


def pager(text: str) -> Certification:
    title = Element(0, (0, 100, 1280, 140), text="Lamps for sale", flags=("visible",))
    nxt = Element(1, (1000, 600, 1200, 640), text="Go to page 3", flags=V)
    step = Step(0, PAGE, Action("click", point=(1100, 620), element=nxt), elements=[title, nxt])
    return run(step, "click", {"target_element": "“Go to page 3”链接"}, text, web=True)


def test_another_action_beside_a_clause_naming_the_target_is_unsure():
    c = pager("这一页的灯都看过了。下一步向下滚动：点底部的 Go to page 3。")
    assert (c.outcome, c.first) == ("unsure", "conflicting_decision")


def test_a_page_turned_by_the_click_after_it_is_that_click():
    assert pager("这一页的灯都看过了。下一步翻页：点底部的 Go to page 3。").outcome == "certified"


def test_another_action_alone_is_still_rejected():
    assert pager("这一页的灯都看过了，向下滚动看看。").outcome == "rejected"


def swipe(text: str, direction: str = "UP") -> Certification:
    row = Element(0, (0, 300, 1080, 400), text="Sandals", flags=V)
    start, end = ((540, 1600), (540, 800)) if direction == "UP" else ((540, 800), (540, 1600))
    step = Step(0, PHONE, Action("swipe", point=start, end=end), elements=[row])
    return run(step, "swipe", {"direction": direction}, text)


@pytest.mark.parametrize("text", ["Let me page up through the sandals a bit more.", "凉鞋还没看完，再往上翻一点。"])
def test_a_direction_in_view_words_either_way_is_unsure(text):
    c = swipe(text)
    assert (c.outcome, c.first) == ("unsure", "conflicting_decision")


@pytest.mark.parametrize("text", ["Swipe down on the sandals list.", "手指往下滑一下列表。", "Scroll left to the next tab."])
def test_a_finger_direction_or_another_axis_is_still_rejected(text):
    assert swipe(text).outcome == "rejected"


def colour(text: str) -> Certification:
    box = Element(0, (100, 100, 300, 140), text="Red Green Navy", tag="select", attrs=(("aria_label", "Colour"),),
                  flags=V)
    step = Step(0, PHONE, Action("select", text="Navy", point=(200, 120), element=box), elements=[box])
    return run(step, "select", {"target_element": "“Colour”下拉框", "value": "Navy"}, text, web=True)


def test_the_option_said_with_another_verb_is_unsure():
    c = colour("颜色要换：把 Colour 下拉拉开挑 Navy。")
    assert c.outcome == "unsure"


def test_another_option_is_still_rejected():
    assert colour("Pick “Green” in the Colour list.").outcome == "rejected"


def typing(text: str) -> Certification:
    box = Element(0, (100, 100, 500, 140), text="Street", tag="input", flags=V + ("editable",))
    more = Element(1, (100, 600, 400, 640), text="Next page", flags=V)
    step = Step(0, PHONE, Action("type", text="Elm Road", point=(300, 120), element=box), elements=[box, more])
    return run(step, "type", {"text": "Elm Road", "target_element": "“Street”输入框"}, text, web=True)


def test_a_later_plan_read_as_the_decision_beside_the_typing_is_unsure():
    c = typing("Plan: fill Street with Elm Road now, then go on to the next page.")
    assert c.outcome != "rejected"


def test_typing_something_else_is_still_rejected():
    assert typing("Type Oak Lane into the Street box.").outcome == "rejected"
