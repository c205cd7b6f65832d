"""Pass 46: the writer who decides first and justifies after it. A twin button placed by the title of its own row
(``Harbour tour #4 右边的 Book``), the demonstrative that goes with the row's name (``要点的是 #4 这一行``), and a
value of the decided row said with a pronoun or no subject at all (``它现在显示 Off``, ``It still reads Economy``,
``点 Wi-Fi，现在是 Off``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.model import Action, Element

from scenes import certify_text, click, el, expect, tap

# three cards of a list, each with its title, its price and a Book button at its right end
TITLES = [el(i, (180, 100 + 150 * i, 700, 130 + 150 * i), f"Harbour tour #{n}") for i, n in enumerate((3, 4, 5))]
PRICES = [el(3 + i, (740, 100 + 150 * i, 860, 130 + 150 * i), f"${40 + i}.00", flags=()) for i in range(3)]
BOOKS = [el(6 + i, (1040, 95 + 150 * i, 1220, 140 + 150 * i), "Book", tag="button") for i in range(3)]
CARDS = [el(9 + i, (32, 90 + 150 * i, 1248, 180 + 150 * i), f"Harbour tour #{n} ${40 + i}.00 Book", flags=())
         for i, n in enumerate((3, 4, 5))]
LIST = CARDS + TITLES + PRICES + BOOKS


@pytest.mark.parametrize("text", [
    "点 Harbour tour #4 右边的 Book（靠上偏右）。最上面那个 Book 属于 #3，要点的是 #4 这一行。",
    "点 Harbour tour #4 右边的 Book（靠上偏右）。",  # a rough place: its row says which
    "Tap the Book to the right of Harbour tour #4 (upper right). The topmost Book is #3's.",
])
def test_a_twin_placed_by_the_title_of_its_row(text):
    expect(certify_text(tap(BOOKS[1]), click("“Book”按钮"), text, LIST), "certified")


@pytest.mark.parametrize("text", [
    "点 Harbour tour #3 右边的 Book（中间偏右）。",  # the row above's button
    "Tap the Book button to the right of Harbour tour #5.",
])
def test_a_twin_placed_by_another_rows_title_is_not_the_target(text):
    assert certify_text(tap(BOOKS[1]), click("“Book”按钮"), text, LIST).outcome != "certified"


def _settings(value: str) -> list[Element]:
    return [el(0, (40, 300, 800, 360), "Wi-Fi"), el(1, (40, 360, 800, 400), "Connected", flags=()),
            el(2, (40, 420, 800, 480), "Location"), el(3, (40, 480, 800, 520), value, flags=())]


@pytest.mark.parametrize("text", [
    "点 Location 这一行（屏幕中间偏上）。它现在显示 Off，点一下就能切换。",
    "Tap Location, the second row. It currently reads Off.",
    "点 Location（中间偏上），现在是 Off，点一下切过去。",
])
def test_a_value_of_the_decided_row_said_without_its_name(text):
    screen = _settings("Off")
    expect(certify_text(tap(screen[2]), click("“Location”开关"), text, screen, web=False), "certified")


@pytest.mark.parametrize("text", [
    "点 Location 这一行（屏幕中间偏上）。它现在显示 On。",  # the value the tap brings, said as if it held
    "点 Location（中间偏上），现在是 On 了。",
])
def test_the_value_the_tap_brings_said_of_the_row_is_not_the_screen(text):
    screen = _settings("Off")
    assert certify_text(tap(screen[2]), click("“Location”开关"), text, screen, web=False).outcome != "certified"


def test_the_value_a_select_still_holds_said_with_a_pronoun():
    cabin = el(0, (40, 100, 300, 160), "Economy", tag="select", attrs=(("aria_label", "Cabin"),))
    function = {"name": "select", "parameters": {"value": "Business", "target_element": "“Cabin”下拉框"}}
    action = Action("select", text="Business", element=cabin, point=cabin.center)
    expect(certify_text(action, function, "Choose Business in the Cabin select. It still reads Economy.", [cabin]),
           "certified")
    told = "Choose Business in the Cabin select. It still reads Business."  # what the choice brings
    assert certify_text(action, function, told, [cabin]).outcome != "certified"


def test_a_value_before_the_quoted_name_of_its_field():
    box = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Where to?"),))
    action, function = Action("type", text="Porto", element=box, point=box.center), {
        "name": "type", "parameters": {"text": "Porto", "target_element": "“Where to?”输入框"}}
    expect(certify_text(action, function, "Fill in the destination first: Porto into 'Where to?'.", [box]), "certified")
    other = "Fill in the destination first: Lisbon into 'Where to?'."
    assert certify_text(action, function, other, [box]).outcome == "rejected"


@pytest.mark.parametrize("text", [
    "Thought: the tour's page is open, as the goal asked. 加入购物车 / 立即购买 aren't part of the goal.\nAction: finish",
    "当前是 Harbour tour #4 的详情页，目标已经达成；加入购物车、立即购买都不在任务范围里。任务完成。",
])
def test_controls_said_to_be_outside_the_goal_are_set_aside(text):
    page = [el(0, (40, 100, 600, 160), "Harbour tour #4", flags=()), el(1, (40, 700, 300, 760), "加入购物车", tag="button"),
            el(2, (340, 700, 600, 760), "立即购买", tag="button")]
    got = certify_text(Action("done"), {"name": "done", "parameters": {}}, text, page, goal="Open Harbour tour #4",
                       before=[tap(page[0])])
    expect(got, "certified")
