"""Pass 52: a value said after ``Fill … with``; what the field or page will read or show afterwards, said as certain
(``it will read 2 afterwards``, ``we'll land on the list showing …``, ``拉回去之后 X 就又出现了``), is told after the
action; a target said alone with its place (``Delete, top right``) or after a marker (``Now the Home button``);
``open_app Settings``, ``Switch to the 家居 tab``, ``按 Find homes``; actions still to come counted; an option named as one
of several (``一个办法是…``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, tap, typed

FIELD = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Arrival date"),))
PEOPLE = el(1, (40, 200, 300, 240), "1", tag="select", attrs=(("aria_label", "People"),))


def test_a_value_after_fill_with_is_the_decision():
    action, function = typed(FIELD, "07/21", "“Arrival date”元素")
    expect(certify_text(action, function, "Fill Arrival date with 07/21. The people picker comes next.", [FIELD, PEOPLE]),
           "certified")
    expect(certify_text(action, function, "Fill the Arrival date box with 07/21.", [FIELD, PEOPLE]), "certified")
    assert certify_text(action, function, "Fill Arrival date with 07/12.", [FIELD, PEOPLE]).outcome != "certified"


def test_what_the_select_will_read_afterwards_is_told_after_the_action():
    action = Action("select", text="2", element=PEOPLE, point=PEOPLE.center)
    function = {"name": "select", "parameters": {"value": "2", "target_element": "“People”元素"}}
    expect(certify_text(action, function, "Choose 2 in People.", [FIELD, PEOPLE]), "certified")
    for told in ("Choose 2 in People; the picker will read 2 afterwards.", "Choose 2 in People; it'll show 2 then."):
        expect(certify_text(action, function, told, [FIELD, PEOPLE]), "unsure")
    expect(certify_text(action, function, "Choose 2 in People; it should read 2 afterwards.", [FIELD, PEOPLE]),
           "certified")


def test_where_back_lands_and_what_that_screen_shows_is_told_after_the_action():
    menu = [el(0, (40, 300, 1040, 400), "Sound"), el(1, (40, 400, 1040, 500), "Storage")]
    page = [el(0, (40, 300, 1040, 400), "Ringtone"), el(1, (40, 400, 1040, 500), "Vibrate")]
    ep = phone_episode([menu, page, menu], [tap(menu[0]), Action("back"), Action("done")], "Open Sound, then leave it")
    back = {"name": "press_back", "parameters": {}}
    expect(certify_at(ep, 1, "Press back to leave the Sound page.", back), "certified")
    expect(certify_at(ep, 1, "Press back; we'll land on the menu showing Sound and Storage at the top.", back), "unsure")
    expect(certify_at(ep, 1, "Press back; we'll land back on the menu.", back), "certified")


def test_a_target_said_alone_with_its_place_is_a_tap_on_it():
    bar = [el(0, (40, 100, 300, 180), "Cancel"), el(1, (400, 100, 700, 180), "Archive"), el(2, (800, 100, 1040, 180), "Delete")]
    ep = phone_episode([bar, bar], [tap(bar[2]), Action("done")], "Delete the selected chat")
    delete = click("“Delete”元素")
    expect(certify_at(ep, 0, "Delete, top right: the goal is to remove this chat.", delete), "certified")
    expect(certify_at(ep, 0, "Thought: one chat is selected. Action: the Delete option at the far right of the bar.",
                      delete), "certified")
    expect(certify_at(ep, 0, "Archive, top centre: the goal is to remove this chat.", delete), "rejected")
    assert certify_at(ep, 0, "Results are listed, top to bottom.", delete).outcome != "certified"


def test_a_key_named_after_a_marker_is_its_press():
    grid = [el(0, (40, 300, 520, 800), "", desc="Photo 1"), el(1, (560, 300, 1040, 800), "", desc="Photo 2")]
    ep = phone_episode([grid, grid], [Action("home"), Action("done")], "Look at a photo, then go home")
    expect(certify_at(ep, 0, "The grid is back. Now the Home button, for the last part of the goal.",
                      {"name": "press_home", "parameters": {}}), "certified")


def test_open_app_by_the_calls_name_a_tab_switched_to_and_a_label_pressed():
    home = [el(0, (60, 300, 260, 500), "Settings"), el(1, (300, 300, 500, 500), "Clock")]
    ep = phone_episode([home, home], [Action("open_app", app="Settings"), Action("done")], "Turn on airplane mode")
    expect(certify_at(ep, 0, "open_app Settings, for airplane mode.",
                      {"name": "open_app", "parameters": {"app_name": "Settings"}}), "certified")
    tabs = [el(0, (40, 200, 300, 260), "耳机"), el(1, (320, 200, 580, 260), "家居"), el(2, (600, 200, 860, 260), "运动")]
    ep = phone_episode([tabs, tabs], [tap(tabs[1]), Action("done")], "浏览家居分类")
    expect(certify_at(ep, 0, "Switch to the 家居 tab (top centre).", click("“家居”元素")), "certified")
    form = [el(0, (40, 200, 600, 260), "Maple Street", flags=("editable",)), el(1, (640, 200, 900, 260), "Find homes")]
    ep = phone_episode([form, form], [tap(form[1]), Action("done")], "Find homes on Maple Street")
    expect(certify_at(ep, 0, "地址有了，按 Find homes。", click("“Find homes”元素")), "certified")


def test_what_shows_once_the_swipe_is_done_is_told_after_it():
    rows = [el(0, (40, 300, 1040, 400), "Notifications"), el(1, (40, 400, 1040, 500), "Battery")]
    top = [el(0, (40, 300, 1040, 400), "Wi-Fi"), el(1, (40, 400, 1040, 500), "Airplane mode")]
    ep = phone_episode([top, rows, top], [Action("swipe", direction="up"), Action("swipe", direction="down"),
                                          Action("done")], "Turn on airplane mode")
    down = {"name": "swipe", "parameters": {"direction": "down"}}
    expect(certify_at(ep, 1, "往回拉一下，手指向下滑。", down), "certified")
    expect(certify_at(ep, 1, "往回拉一下，拉回去之后 Airplane mode 就又出现在中间了。手指向下滑。", down), "unsure")
    expect(certify_at(ep, 1, "往回拉一下，拉回去之后 Airplane mode 应该会出现。手指向下滑。", down), "certified")


def test_what_a_search_went_by_and_a_plan_ending_a_sentence_are_accounted_for():
    search = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Category"),))
    rows = [search, el(1, (40, 300, 1040, 400), "Deal earbuds premium #1"), el(2, (40, 400, 1040, 500), "Deal earbuds premium #2")]
    ep = phone_episode([[search], rows, rows], [Action("type", text="Electronics", element=search, point=search.center),
                                                tap(rows[2]), Action("done")], "Open the second Electronics result")
    expect(certify_at(ep, 1, "点第二个结果“Deal earbuds premium #2”。已经按 Electronics 搜过了。",
                      click("“Deal earbuds premium #2”元素")), "certified")
    box = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Keyword"),))
    tickets = el(1, (40, 200, 300, 240), "1", tag="select", attrs=(("aria_label", "Tickets"),))
    action, function = typed(box, "jazz", "“Keyword”元素")
    expect(certify_text(action, function, "Fill Keyword with jazz; the Tickets select and the search button come after.",
                        [box, tickets]), "certified")


def test_actions_still_to_come_counted_tell_the_runs_length():
    action, function = typed(FIELD, "07/21", "“Arrival date”元素")
    expect(certify_text(action, function, "Putting 07/21 in Arrival date; after this two more actions before Book.",
                        [FIELD, PEOPLE]), "unsure")


def test_an_option_named_as_one_of_several_is_no_decision():
    feed = [el(0, (40, 150, 1040, 260), "", desc="搜索框", flags=("clickable", "editable")), el(1, (40, 300, 200, 360), "推荐"),
            el(2, (40, 400, 1040, 900), "Anker 通勤双肩包 ¥1299")]
    ep = phone_episode([feed, feed], [tap(feed[0]), Action("done")], "在商城里搜索双肩包")
    text = "一个办法是直接点这款推荐的双肩包，还有就是点搜索框打字。目标要的是搜索，所以点顶部的搜索框。"
    assert certify_at(ep, 0, text, click("“搜索框”元素")).outcome != "rejected"
