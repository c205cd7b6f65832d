"""Pass 58: the page the agent is on, said open and named by a text of the screen other than the acted-on one's
(``The Lumo lamp detail page is open``, ``显示设置页已经打开``), a decided control named in translation with its value
now (``自适应亮度现在是 Off``) and the task restated after the decision (``目标就是切换它这一项``) are the screen as it
is; the page a tap on the target opens, said open, is not. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, click, el, expect, phone_episode, tap

TITLE = el(0, (40, 100, 1040, 180), "Lumo lamp", flags=())
PRICE = el(1, (40, 200, 400, 260), "¥89", flags=())
CART = el(2, (300, 2200, 780, 2300), "加入购物车", tag="button")
DISPLAY = [el(0, (40, 100, 600, 180), "Display", flags=()), el(1, (40, 300, 800, 400), "Adaptive brightness"),
           el(2, (900, 300, 1040, 400), "Off", flags=())]


def test_the_page_the_agent_is_on_said_open_is_the_screen_as_it_is():
    ep = phone_episode([[TITLE, PRICE, CART], [TITLE, PRICE, CART]], [tap(CART), Action("done")], "把台灯加入购物车")
    expect(certify_at(ep, 0, "Tap 加入购物车 at the bottom. The Lumo lamp detail page is open at ¥89.",
                      click("“加入购物车”元素")), "certified")
    link = el(3, (40, 600, 1040, 700), "Ora lamp")
    ep = phone_episode([[TITLE, link], [TITLE]], [tap(link), Action("done")], "打开 Ora lamp")
    assert certify_at(ep, 0, "Tap the Ora lamp link. The Ora lamp detail page is open.",
                      click("“Ora lamp”元素")).outcome != "certified"


def test_a_control_in_translation_its_value_now_and_the_task_restated_are_the_screen_as_it_is():
    ep = phone_episode([DISPLAY, DISPLAY], [tap(DISPLAY[1]), Action("done")], "打开自适应亮度")
    expect(certify_at(ep, 0, "点 Adaptive brightness。显示设置页已经打开，自适应亮度现在是 Off；目标就是切换它这一项。",
                      click("“Adaptive brightness”元素")), "certified")
