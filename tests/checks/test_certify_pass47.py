"""Pass 47: the writer who decides first and describes the screen after it, and the deliberating model. The other
control of the target's row named after a demonstrative (``直接点那个 Book 按钮``), options weighed under a label of
their own (``Options: …``), a viewer's counter said without its spaces (``now on 7/30``), what went off the screen
since (``Wi-Fi scrolled off the top``), a field an earlier step filled (``Name is filled``), the target said by the
goal's count (``就是第 4 个行程``), a typed value with a comma inside it, a judgement (``which is the safest pick``);
and what an action's screen shows, told (``进入大图后顶部显示 5 / 30``, ``返回后回到设置主页``). Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import certify
from sftdata.model import Action, Episode, Step

from scenes import PHONE, certify_text, click, el, expect, swipe, tap, typed

TITLES = [el(i, (180, 100 + 150 * i, 700, 130 + 150 * i), f"Harbour tour #{n}", tag="a") for i, n in enumerate((3, 4, 5))]
BOOKS = [el(3 + i, (1040, 95 + 150 * i, 1220, 140 + 150 * i), "Book", tag="button") for i in range(3)]
CARDS = [el(6 + i, (32, 90 + 150 * i, 1248, 180 + 150 * i), f"Harbour tour #{n} Book", flags=())
         for i, n in enumerate((3, 4, 5))]
LIST = CARDS + TITLES + BOOKS
GOAL = "Open the 4th harbour tour"


@pytest.mark.parametrize("text", [
    "第 4 个是 Harbour tour #4，它那一行右边就有 Book，直接点那个 Book 按钮。",
    "The fourth is Harbour tour #4, and its Book button sits at the right. Just click that Book directly.",
])
def test_the_other_control_of_the_row_after_a_demonstrative_is_not_the_title(text):
    assert certify_text(tap(TITLES[1]), click("“Harbour tour #4”元素"), text, LIST, goal=GOAL).outcome != "certified"


@pytest.mark.parametrize("text", [
    "Harbour tour #4 is the fourth. Options: click its Book now, or open the title first. Click the Harbour tour #4 "
    "title.",
    "列表里有 #3 到 #5。选项：1）直接点 Book；2）点标题进详情。先点 Harbour tour #4 的标题。",
    "点 Harbour tour #4 的标题链接，就是第 4 个行程。",
    "Click the Harbour tour #4 title. It's the fourth tour, which is the safest pick before booking.",
])
def test_options_weighed_and_the_goals_count_leave_the_title_certified(text):
    expect(certify_text(tap(TITLES[1]), click("“Harbour tour #4”元素"), text, LIST, goal=GOAL), "certified")


def _episode(screens, actions, goal="翻几张照片"):
    steps = [Step(i, PHONE, a, elements=list(s)) for i, (s, a) in enumerate(zip(screens, actions))]
    return Episode("e", "m", goal, steps)


def _viewer(n: int):
    return [el(0, (40, 60, 200, 120), "返回"), el(1, (420, 60, 700, 120), "6月11日 12:08", flags=()),
            el(2, (880, 60, 1040, 120), f"{n} / 30", flags=()), el(3, (0, 300, 1080, 2000), f"照片 {n}/30", flags=())]


@pytest.mark.parametrize("text, outcome", [
    ("Swipe left. Now on 7/30 (6月11日 12:08); a couple more before going home.", "certified"),
    ("向左滑。已经到 7/30 了，再翻两张。", "certified"),
    ("Swipe left. Now on 8/30, one more to go.", "unsure"),  # the next photo's counter
])
def test_a_viewer_counter_said_without_its_spaces(text, outcome):
    action, function = swipe("left")
    ep = _episode([_viewer(6), _viewer(7), _viewer(8)], [swipe("left")[0], action, Action("done")])
    got = certify(ep, 1, {"reasoning": text, "function": function}, cjk_threshold=0.0)
    assert got.outcome == outcome or (outcome == "unsure" and got.outcome != "certified"), got.reasons


def test_what_the_action_brings_told_after_it_is_not_certified():
    grid = [el(0, (40, 300, 340, 600), "照片，6月11日 12:08")]
    ep = _episode([grid, _viewer(5), _viewer(6)], [tap(grid[0]), swipe("left")[0], Action("done")])
    got = certify(ep, 0, {"reasoning": "点开 6月11日 12:08 的照片，进入大图后顶部显示 5 / 30。",
                          "function": click("“照片，6月11日 12:08”元素")}, cjk_threshold=0.0)
    assert got.outcome == "rejected", got.reasons
    settings = [el(0, (40, 300, 800, 360), "Battery percentage"), el(1, (40, 360, 800, 400), "On", flags=())]
    home = [el(0, (40, 300, 800, 360), "Wi-Fi"), el(1, (40, 400, 800, 460), "Battery")]
    ep = _episode([settings, home], [Action("back"), Action("done")], goal="打开电量百分比")
    got = certify(ep, 0, {"reasoning": "按返回。Battery percentage 已经是 On。返回后回到设置主页。",
                          "function": {"name": "press_back", "parameters": {}}}, cjk_threshold=0.0)
    assert got.outcome != "certified", got.reasons


def test_a_row_that_went_off_the_screen_since_is_the_screen_as_it_is():
    top = [el(0, (40, 300, 800, 360), "Wi-Fi"), el(1, (40, 420, 800, 480), "Display")]
    lower = [el(0, (40, 300, 800, 360), "Display"), el(1, (40, 420, 800, 480), "Storage")]
    action, function = swipe("down")
    ep = _episode([top, lower, top], [swipe("up")[0], action, Action("done")], goal="打开 Wi-Fi")
    for text in ("Swipe down. Wi-Fi scrolled off the top a moment ago.", "往下滑（手指下移）。Wi-Fi 那项被滑到上面去了。"):
        expect(certify(ep, 1, {"reasoning": text, "function": function}, cjk_threshold=0.0), "certified")
    told = "Swipe down. Display scrolled off the top."  # Display is on the screen now: not gone
    assert certify(ep, 1, {"reasoning": told, "function": function}, cjk_threshold=0.0).outcome != "certified"


def test_a_field_an_earlier_step_filled_and_a_value_with_a_comma():
    name = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Full name"),))
    mail = el(1, (40, 200, 600, 260), "", flags=("clickable", "editable"), attrs=(("aria_label", "Email address"),))
    action, function = typed(mail, "ann@example.com", "“Email address”输入框")
    text = "I'll type ann@example.com into Email address. Name is filled; the phone comes after."
    expect(certify_text(action, function, text, [name, mail], before=[typed(name, "Ann Lee", "")[0]]), "certified")
    told = "I'll type ann@example.com into Email address. Email is filled."  # this step's field, told done
    assert certify_text(action, function, told, [name, mail],
                        before=[typed(name, "Ann Lee", "")[0]]).outcome != "certified"
    box = el(0, (40, 2000, 1000, 2100), "", flags=("clickable", "editable"), attrs=(("aria_label", "Message"),))
    action, function = typed(box, "好的，马上到", "“Message”输入框")
    expect(certify_text(action, function, "Type 好的，马上到 into the message box.", [box], web=False), "certified")


BAR = [el(0, (40, 2200, 300, 2300), "收藏"), el(1, (320, 2200, 640, 2300), "加入购物车", tag="button"),
       el(2, (660, 2200, 1040, 2300), "立即购买", tag="button")]


@pytest.mark.parametrize("text", [
    "Bottom bar: 收藏, 加入购物车, 立即购买.\n1. 立即购买 goes straight to checkout.\n2. 收藏 only saves it.\n"
    "3. 加入购物车 is what the goal asks.\nTap 加入购物车.",
    "底部有收藏、加入购物车、立即购买。可以点立即购买，或者加入购物车；任务只要加购，所以点加入购物车。",
])
def test_options_listed_or_weighed_before_the_choice_are_no_decision(text):
    expect(certify_text(tap(BAR[1]), click("“加入购物车”按钮"), text, BAR, goal="把耳机加入购物车", web=False), "certified")
    chosen = text.rsplit("加入购物车", 1)[0] + "立即购买" + ("。" if text.endswith("。") else ".")  # the other one chosen
    assert certify_text(tap(BAR[1]), click("“加入购物车”按钮"), chosen, BAR, goal="把耳机加入购物车",
                        web=False).outcome == "rejected"


def test_addendum_a_named_value_an_absent_box_and_a_result_before_the_action_line():
    box = el(0, (40, 2000, 1000, 2100), "", flags=("clickable", "editable"), attrs=(("aria_label", "Message"),))
    action, function = typed(box, "我七点到", "“Message”输入框")
    expect(certify_text(action, function, "type the reply 我七点到 into the message box", [box], web=False), "certified")
    splash = [el(0, (300, 1000, 780, 1100), "商城", flags=())]
    home = [el(0, (40, 100, 1040, 200), "搜索框"), el(1, (40, 400, 1040, 500), "推荐", flags=())]
    ep = _episode([splash, home], [Action("wait"), Action("done")], goal="在商城里搜索保温杯")
    text = "等首页加载。屏幕上只有商城 logo，是启动页，搜索框也还没出来。"  # said absent: no word of the later screen
    got = certify(ep, 0, {"reasoning": text, "function": {"name": "wait", "parameters": {}}}, cjk_threshold=0.0)
    assert got.outcome != "rejected", got.reasons
    rows = [el(0, (40, 300, 1040, 400), "Anker 保温杯"), el(1, (40, 1900, 1040, 2000), "Sony 保温杯 Max")]
    action, function = swipe("up")
    told = '{"thought": "向上滑动列表，滑完顶部是 Sony 保温杯 Max", "action": "swipe up"}'  # where the swipe leaves it
    assert certify_text(action, function, told, rows, web=False).outcome != "certified"
    plain = '{"thought": "向上滑动列表，看看 Sony 保温杯 Max 下面还有什么", "action": "swipe up"}'
    expect(certify_text(action, function, plain, rows, web=False), "certified")
