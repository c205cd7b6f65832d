"""Pass 53: short descriptions after the decision checked against the current screen (the decided control's value
now, the viewer's counter, the items in sight, a field said empty, a state said ``already``); options that map a
gesture or say what a tap would do are weighed, not decided; a twin picked by ``the lower …`` / ``the one lower down``;
``Enter X in the … box``; ``Return to the previous page``; an ordinal that a name's number holds; what is left
(``就剩…和…``) is no decision; and a figure only a later screen shows, wherever it stands in the text. Wordings made
up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, swipe, tap, typed

GUESTS = el(0, (40, 200, 300, 240), "2", tag="select", attrs=(("aria_label", "Guests"),))
CITY = el(1, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "City"),))


def test_the_decided_controls_value_now_is_the_screen_as_it_is():
    action = Action("select", text="4", element=GUESTS, point=GUESTS.center)
    function = {"name": "select", "parameters": {"value": "4", "target_element": "“Guests”元素"}}
    for text in ("Set Guests to 4 (it shows 2 right now).", "Guests 选 4，现在是 2。", "Choose 4 in Guests; it reads 2 now."):
        expect(certify_text(action, function, text, [CITY, GUESTS]), "certified")
    for text in ("Choose 4 in Guests; it reads 4 now.", "Guests 选 4，现在是 4。"):
        assert certify_text(action, function, text, [CITY, GUESTS]).outcome != "certified"


def viewer(counter: str) -> list:
    return [el(0, (400, 80, 680, 140), counter, flags=()), el(1, (0, 300, 1080, 2000), "", desc="Photo")]


def test_the_viewers_counter_and_the_items_in_sight():
    ep = phone_episode([viewer("3 / 12"), viewer("4 / 12")], [Action("swipe", direction="left"), Action("done")],
                       "Flip through the album")
    left = swipe("left")[1]
    expect(certify_at(ep, 0, "Swipe left, finger moving left, for the next photo; I'm on photo 3 of 12.", left), "certified")
    assert certify_at(ep, 0, "Swipe left, finger moving left, for the next photo; I'm on photo 4 of 12.",
                      left).outcome != "certified"
    cards = [el(0, (40, 300, 1040, 600), "Bose 降噪耳机 A"), el(1, (40, 700, 1040, 1000), "Sony 降噪耳机 B")]
    later = [el(0, (40, 300, 1040, 600), "JBL 运动耳机 C"), el(1, (40, 700, 1040, 1000), "Sony 降噪耳机 B")]
    ep = phone_episode([cards, later], [Action("swipe", direction="up"), Action("done")], "找一副耳机看看")
    up = swipe("up")[1]
    for text in ("Swipe up (finger up) to compare more; Bose and Sony are visible now.",
                 "手指向上滑，多比较几款。已经看到 Bose、Sony 几款。"):
        expect(certify_at(ep, 0, text, up), "certified")
    assert certify_at(ep, 0, "Swipe up (finger up) to compare more; JBL and Sony are visible now.", up).outcome != "certified"


def test_a_field_said_empty_or_a_state_said_already_is_checked_against_the_screen():
    action, function = typed(CITY, "Porto", "“City”元素")
    expect(certify_text(action, function, "Type Porto into City; the form is empty and City comes first.", [CITY, GUESTS]),
           "certified")
    concerts = el(2, (40, 20, 200, 60), "Concerts", tag="a", attrs=(("aria_current", "page"),))
    expect(certify_text(action, function, "Enter Porto in the City box; the Concerts tab is already open.",
                        [CITY, GUESTS, concerts], before=[tap(concerts)]), "certified")


def test_options_that_map_a_gesture_or_say_what_a_tap_would_do_are_weighed():
    ep = phone_episode([viewer("5 / 9"), viewer("6 / 9")], [Action("swipe", direction="left"), Action("done")],
                       "Flip through the album")
    left = swipe("left")[1]
    expect(certify_at(ep, 0, "往左滑是下一张，往右滑是上一张。先看前面的，手指向右滑。", left), "rejected")
    expect(certify_at(ep, 0, "Tapping the back arrow would just close the viewer, and the goal is to flip on. "
                             "Swiping left (finger moves left).", left), "certified")
    expect(certify_at(ep, 0, "I could tap the photo, press back, or flip on. Tapping it rarely does anything. "
                             "So I swipe left, finger to the left.", left), "certified")


def test_a_twin_picked_by_its_place_among_its_alikes():
    cards = [el(0, (40, 300, 500, 600), "", desc="商品图片 Bose 耳机"), el(1, (540, 300, 1040, 360), "Bose 耳机", flags=()),
             el(2, (40, 1100, 500, 1400), "", desc="商品图片 Bose 耳机"), el(3, (540, 1100, 1040, 1160), "Bose 耳机", flags=())]
    ep = phone_episode([cards, cards], [tap(cards[0]), Action("done")], "看一款耳机的详情")
    function = click("“商品图片 Bose 耳机”元素")
    expect(certify_at(ep, 0, "Tap the upper Bose 耳机 card, for its details.", function), "certified")
    for text in ("Tap the lower Bose 耳机 card.", "Tap the other Bose 耳机 card, the one lower down in the middle of the screen."):
        assert certify_at(ep, 0, text, function).outcome != "certified"


def test_enter_in_a_box_return_to_the_previous_page_and_a_rank_by_its_number():
    action, function = typed(CITY, "Porto", "“City”元素")
    expect(certify_text(action, function, "Enter Porto in the City box.", [CITY, GUESTS]), "certified")
    menu = [el(0, (40, 300, 1040, 400), "Sound")]
    page = [el(0, (40, 300, 1040, 400), "Vibrate for calls"), el(1, (40, 400, 1040, 450), "On", flags=())]
    ep = phone_episode([menu, page, menu], [tap(menu[0]), Action("back"), Action("done")], "Turn on call vibration")
    expect(certify_at(ep, 1, "Return to the previous page with the system back key.",
                      {"name": "press_back", "parameters": {}}), "certified")
    rows = [el(0, (40, 300, 700, 360), "Quiet loft #12", tag="a"), el(1, (800, 300, 1000, 360), "Save", tag="button",
                                                                      attrs=(("aria_label", "Save item 12"),)),
            el(2, (0, 280, 1280, 380), "Quiet loft #12 Save", flags=(), tag="div")]
    expect(certify_text(tap(rows[1]), click("“Save item 12”元素"), "Click Save on the Quiet loft #12 row, which is the "
                        "12th listing.", rows, goal="Save the twelfth listing"), "certified")


def test_what_is_left_after_this_step_is_no_decision():
    phone = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Phone"),))
    terms = el(1, (40, 400, 80, 440), "", tag="input", attrs=(("type", "checkbox"), ("aria_label", "I agree")))
    action, function = typed(phone, "555-0188", "“Phone”元素")
    expect(certify_text(action, function, "电话栏输入 555-0188，接下来就剩州和勾选条款。", [phone, terms]), "certified")
    expect(certify_text(action, function, "电话栏输入 555-0188，填进去了，接下来就剩州和勾选条款。", [phone, terms]), "rejected")


def test_the_finger_glossed_a_field_after_the_value_and_a_noun_type():
    rows = [el(0, (40, 300, 1040, 600), "Bose 降噪耳机 A"), el(1, (40, 700, 1040, 1000), "Sony 降噪耳机 B")]
    ep = phone_episode([rows, rows], [Action("swipe", direction="up"), Action("done")], "找一副耳机看看")
    expect(certify_at(ep, 0, "先往下滑（手指上移），多看几款再挑。", swipe("up")[1]), "certified")
    where = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Where to?"),))
    action, function = typed(where, "Lisbon", "“Where to?”元素")
    expect(certify_text(action, function, "Thought: 目的地框是空的。 Action: 输入 Lisbon 到 Where to?", [where]), "certified")
    jobs = [where, el(1, (40, 200, 600, 260), "Any", tag="select", attrs=(("aria_label", "Job type"),))]
    expect(certify_text(action, function, "I could set the type now or fill the place. The place first: type Lisbon into "
                        "Where to?", jobs), "certified")


def test_what_an_option_amounts_to_is_weighed():
    box = el(0, (40, 100, 800, 160), "耳机", flags=("clickable", "editable"))
    search = el(1, (840, 100, 1040, 160), "搜索")
    hint = el(2, (40, 200, 1040, 260), "耳机 降噪款")
    ep = phone_episode([[box, search, hint]] * 2, [tap(hint), Action("done")], "搜索耳机")
    expect(certify_at(ep, 0, "点搜索则是泛搜，联想词更准。决定点联想词“耳机 降噪款”。", click("“耳机 降噪款”元素")), "certified")


def test_a_select_named_by_its_kind_word_and_a_change_told_without_a_verb():
    kind = el(0, (40, 200, 600, 260), "Any", tag="select", attrs=(("aria_label", "Job type"),))
    action = Action("select", text="Full-time", element=kind, point=kind.center)
    function = {"name": "select", "parameters": {"value": "Full-time", "target_element": "“Job type”元素"}}
    expect(certify_text(action, function, "Job type → Full-time, as the goal asks.", [kind]), "certified")
    expect(certify_text(action, function, "Job type switched to Full-time successfully.", [kind]), "unsure")


def test_a_figure_only_a_later_screen_shows_is_doubted_wherever_it_stands():
    menu = [el(0, (40, 300, 1040, 400), "Display"), el(1, (40, 400, 1040, 500), "Sound")]
    page = [el(0, (40, 300, 1040, 400), "Brightness 62%"), el(1, (40, 400, 1040, 500), "Dark theme")]
    ep = phone_episode([menu, page], [tap(menu[0]), Action("done")], "Turn on the dark theme")
    display = click("“Display”元素")
    expect(certify_at(ep, 0, "Display 在中间。进去能调亮度和深色主题。点 Display。", display), "certified")
    expect(certify_at(ep, 0, "Display 在中间。点进去就是 Brightness 62% 等选项。点 Display。", display), "unsure")
