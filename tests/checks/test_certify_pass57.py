"""Pass 57: the viewer's counter said with its reading, a present passive, a judgement run on after a typed value; a
result told in an agent's thought (``appears right after this wait``, ``nothing visibly changes afterwards``, a value
set with ``改成`` and what moved); a state the current screen shows, said when the step leaves it, left to a reader.
Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.checks.certify import UNSURE_REASONS
from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, swipe, tap, typed

GALLERY = [el(0, (40, 300, 1040, 400), "Mia"), el(1, (40, 500, 1040, 600), "Leo")]


def test_the_viewers_counter_said_with_its_reading_is_the_screen_as_it_is():
    counter = el(0, (400, 100, 680, 160), "7 / 20", flags=())
    photo = el(1, (0, 300, 1080, 2000), "", desc="Photo")
    action, function = swipe("left")
    ep = phone_episode([[counter, photo], [counter, photo]], [action, Action("done")], "Browse the photos")
    for text in ("继续往左滑。已经翻到 7 / 20，再看一张。", "Swipe left again. The counter reads 7 / 20."):
        expect(certify_at(ep, 0, text, function), "certified")


def test_a_present_passive_and_a_judgement_after_the_typed_value_are_no_report_and_no_value():
    icons = [el(0, (100, 600, 300, 800), "Settings"), el(1, (400, 600, 600, 800), "Clock")]
    ep = phone_episode([icons, icons], [Action("open_app", app="Settings"), Action("done")], "Turn on dark mode")
    assert certify_at(ep, 0, "Open Settings; that's where dark mode is switched.",
                      {"name": "open_app", "parameters": {"app_name": "Settings"}}).outcome != "rejected"
    box = el(0, (40, 100, 800, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Find a trip"),))
    action, function = typed(box, "fjord cruise", "“Find a trip”元素")
    expect(certify_text(action, function, "一个个翻还是搜？在 Find a trip 里输入fjord cruise更快。", [box]), "certified")


def test_a_result_told_in_an_agents_thought_is_not_certified():
    splash = [el(0, (300, 1000, 780, 1100), "Loading", flags=())]
    ep = phone_episode([splash, splash], [Action("wait"), Action("done")], "Open the shop")
    expect(certify_at(ep, 0, "Thought: still the splash. The home feed with its search box appears right after this "
                      "wait.\nAction: wait()", {"name": "wait", "parameters": {}}), "rejected")
    plan = el(0, (40, 300, 400, 360), "Plan route", tag="button")
    expect(certify_text(tap(plan), click("“Plan route”元素"), "Thought: Plan route — nothing visibly changes "
                        "afterwards.\nAction: click(\"Plan route\")", [plan]), "rejected")
    size = el(0, (40, 300, 600, 360), "M", tag="select", attrs=(("aria_label", "Size"),))
    cart = el(1, (40, 900, 600, 960), "Add to cart #2", tag="button")
    assert certify_text(Action("select", text="XL", element=size, point=size.center),
                        {"name": "select", "parameters": {"value": "XL", "target_element": "“Size”元素"}},
                        "思考：Size 改成 XL，#2 的 Add to cart 移到了右下方。动作：select(Size, XL)",
                        [size, cart]).outcome != "certified"


def test_a_state_the_screen_shows_said_when_leaving_it_is_for_a_reader():
    badge = el(0, (900, 100, 1040, 160), "购物车 2 件", flags=())
    note = el(1, (300, 2200, 780, 2260), "已加入购物车", flags=())
    ep = phone_episode([[badge, note], GALLERY], [Action("back"), Action("done")], "Add the lamp, then go back")
    got = certify_at(ep, 0, "按返回键。右上角购物车变成 2 件，灯已经加进去了。", {"name": "press_back", "parameters": {}})
    expect(got, "unsure")
    assert {r.code for r in got.reasons} <= set(UNSURE_REASONS)
