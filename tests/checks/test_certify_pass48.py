"""Pass 48: the deliberating model's closing choice (``决定：往上滑一屏``, ``→ 左滑``, ``我选点击``) over the options it
weighed (``现在就点 X 也行，但…``, ``是 X，还是 Y？``, ``返回也太早``, ``和按 Home 差不多``); an agent's call written with
the field first (``type(“City”, “Denver”)``) or inside a JSON string; a value typed with ``打``, and the field named
in a clause of its own (``填在 From 那个框里``); what an action brings told in the present (``After clicking the page
scrolls …``, ``One more swipe up — X comes into view``); an earlier step's work said finished (``the toggle is
done``), a row's value now (``reads On now``), which one the target is (``it's the thirteenth show``). Wordings made
up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.target_evidence import said_rank
from sftdata.model import Action

from scenes import FEED, certify_at, certify_text, click, el, expect, phone_episode, swipe, tap, typed





@pytest.mark.parametrize("text", [
    "只看到两款。现在就点 Nike 也行，但多看几款不吃亏。决定：往上滑一屏。",
    "是直接点第一个 Nike，还是先往下翻看看？多看几款再挑。决定：手指上滑。",
    "The feed shows two shoes. There are two ways: tap Nike now, or scroll for more. Final answer: swipe up.",
])
def test_the_closing_choice_of_a_deliberation_is_the_decision(text):
    action, function = swipe("up")
    expect(certify_at(phone_episode([FEED, FEED], [action, Action("done")], "加一双跑步鞋到购物车"), 0, text, function),
           "certified")


def test_an_option_judged_off_and_a_compared_action_are_no_decision():
    viewer = [el(0, (880, 60, 1040, 120), "7 / 30", flags=()), el(1, (40, 2200, 300, 2300), "编辑")]
    action, function = swipe("left")
    ep = phone_episode([viewer, viewer], [action, Action("done")], "翻几张照片")
    expect(certify_at(ep, 0, "大图里是 7/30。编辑用不上，返回也太早，一张都还没翻。→ 左滑。", function), "certified")
    grid = [el(0, (40, 300, 340, 600), "照片，6月11日 12:08")]
    home = {"name": "press_home", "parameters": {}}
    ep = phone_episode([grid, grid], [Action("home"), Action("done")], "翻几张照片后回到桌面")
    got = certify_at(ep, 0, "在相册网格。再按一次返回键也能退到桌面，和按 Home 差不多。→ 返回。", home)
    assert got.outcome == "rejected", got.reasons
    splash = [el(0, (340, 1000, 740, 1300), "商城 logo", flags=())]
    ep = phone_episode([splash, FEED], [Action("wait"), Action("done")], "在商城搜跑步鞋")
    got = certify_at(ep, 0, "开屏页。比较一下：等待稳但慢，点击快。我选点击，点中间的 logo 跳过。",
                   {"name": "wait", "parameters": {}})
    assert got.outcome == "rejected", got.reasons


CITY = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "City"),))
FROM = el(1, (40, 200, 600, 260), "", flags=("clickable", "editable"), attrs=(("aria_label", "From"),))


@pytest.mark.parametrize("text", [
    "思考：先在 City 框里填城市 Denver。\n动作：type(“City”, “Denver”)",
    '{"thought": "The City box is empty; fill it with Denver.", "action": "type(\\"City\\", \\"Denver\\")"}',
    "在 City 输入框里打 Denver。",
])
def test_a_call_with_the_field_first_and_a_value_typed_with_da(text):
    expect(certify_text(*typed(CITY, "Denver", "“City”输入框"), text, [CITY, FROM]), "certified")


@pytest.mark.parametrize("text", [
    "在 City 输入框里打 Denver Airport。",  # a longer value than the call's
    "城市填在 From 那个框里，输入 Denver。",  # the other field, named in a clause of its own
])
def test_another_value_or_field_is_not_certified(text):
    assert certify_text(*typed(CITY, "Denver", "“City”输入框"), text, [CITY, FROM]).outcome != "certified"


CART = [el(0, (900, 20, 1200, 60), "Checkout", tag="a"), el(1, (900, 500, 1200, 540), "Add to cart", tag="button")]


def test_what_the_action_brings_told_in_the_present_is_not_certified():
    text = ('{"reason": "Add the blue one to the cart. After clicking the page scrolls to the top with the Checkout '
            'link in view.", "action": "click(\\"Add to cart\\")"}')
    assert certify_text(tap(CART[1]), click("“Add to cart”按钮"), text, CART).outcome != "certified"
    action, function = swipe("up")
    text = "One more swipe up — the Lenovo pair comes into view at ¥89. Swipe up."
    assert certify_at(phone_episode([FEED, FEED], [action, Action("done")], "加一双跑步鞋"), 0, text, function).outcome != \
        "certified"


def _settings(value: str):
    return [el(0, (40, 300, 800, 360), "Battery Saver"), el(1, (40, 370, 800, 410), value, flags=())]


def test_an_earlier_steps_work_said_done_and_a_rows_value_now():
    ep = phone_episode([_settings("Off"), _settings("On"), _settings("On")],
                [tap(_settings("Off")[0]), Action("back"), Action("done")], "打开省电模式")
    back = {"name": "press_back", "parameters": {}}
    for text in ("Go back with the system key. Battery Saver reads On now, so the toggle is done.",
                 "Press back; the toggle is done and I'll leave this page."):
        expect(certify_at(ep, 1, text, back), "certified")
    told = "Tap Battery Saver. The toggle is done."  # this step's own tap, told done
    assert certify_at(ep, 0, told, click("“Battery Saver”元素")).outcome != "certified"


TITLES = [el(i, (180, 100 + 60 * i, 700, 130 + 60 * i), f"Harbour show #{n}", tag="a") for i, n in enumerate((12, 13))]


def test_which_one_the_target_is_said_in_its_own_sentence():
    goal = "Open the 13th harbour show"
    text = "open #13 (Harbour show) from the results, it's the thirteenth show"
    expect(certify_text(tap(TITLES[1]), click("“Harbour show #13”元素"), text, TITLES, goal=goal), "certified")
    told = "点开 Harbour show #13，这是这段记录的第 3 步，也是最后一步。"
    assert certify_text(tap(TITLES[1]), click("“Harbour show #13”元素"), told, TITLES, goal=goal).outcome == "rejected"
    assert (said_rank("the twenty-fifth listing"), said_rank("第二十五个"), said_rank("the thirtieth photo")) == (25, 25, 30)


HOME = [el(0, (40, 300, 300, 500), "相册")]


@pytest.mark.parametrize("text", [
    "We're back on the home screen after flipping a few photos. Everything the task asked for is done — finish.",
    "桌面已经回来了，要看的照片都翻过，可以结束了。",
])
def test_a_finish_after_a_dash_or_said_as_may_end_now(text):
    ep = phone_episode([HOME, HOME], [Action("home"), Action("done")], "翻几张照片后回到桌面")
    expect(certify_at(ep, 1, text, {"name": "done", "parameters": {}}), "certified")


def test_an_action_line_that_says_the_swipes_way_is_no_state():
    action, function = swipe("left")
    text = 'Thought: I am on photo 3/30. To see the next one, swipe the picture to the left.\nAction: swipe(direction="left")'
    expect(certify_at(phone_episode([HOME, HOME], [action, Action("done")], "翻几张照片"), 0, text, function), "certified")
