"""Pass 56: a result told after ``点完`` or as ``…成功``/``生效`` is hindsight, a sentence that opens on the screen
now ends at its semicolon, ``出现在`` is no ``现在``, a return said ``showing again`` after going back is the
result; a scroll word whose purpose seeks the other side stays unsure, and the decision's own direction is the one
read; a candidate asked about and refused, or granted and set aside, is no decision; a constraint on a typed value
and an item's stamp are no past report; ``nothing comes after`` tells the episode's end; the numbered cards in
sight and a decided control placed first are the screen as it is. Wordings made up here, unlike the labelled
parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, swipe, tap, typed

DARK = el(0, (40, 300, 700, 400), "Dark mode")
OFF = el(1, (900, 300, 1040, 400), "Off", flags=())
GALLERY = [el(0, (40, 300, 1040, 400), "Mia"), el(1, (40, 500, 1040, 600), "Leo")]
DONE = {"name": "done", "parameters": {}}


def toggle_episode():
    return phone_episode([[DARK, OFF], [DARK, OFF]], [tap(DARK), Action("done")], "Turn on dark mode")


def test_a_result_after_tapping_done_or_told_as_a_success_is_hindsight():
    ep = toggle_episode()
    for text in ("点 Dark mode。现在是 Off；点完就变成 On，深色模式开启成功。", "点 Dark mode。点完变成 On，切换成功。",
                 "点 Dark mode，点一下它就切成了 On。"):
        assert certify_at(ep, 0, text, click("“Dark mode”元素")).outcome != "certified", text
    expect(certify_at(ep, 0, "点 Dark mode。现在是 Off；要把它打开。", click("“Dark mode”元素")), "certified")


def test_appearing_is_no_now_and_a_return_after_going_back_is_the_result():
    down = {"name": "swipe", "parameters": {"direction": "DOWN"}}
    ep = phone_episode([GALLERY, GALLERY], [Action("swipe", direction="down"), Action("done")], "Find Mia")
    expect(certify_at(ep, 0, "往下划回到顶部，Mia 和 Leo 又出现在上面了。", down), "rejected")
    back = {"name": "press_back", "parameters": {}}
    ep = phone_episode([[DARK], GALLERY], [Action("back"), Action("done")], "Go back to the chats")
    assert certify_at(ep, 0, "Thought: press back. The chat list with Mia at the top is showing again.\n"
                      "Action: press_back()", back).outcome != "certified"


def test_a_scroll_word_against_the_place_it_seeks_and_the_decisions_own_direction():
    cards = [el(0, (40, 300, 1040, 700), "Trail shoe"), el(1, (40, 2200, 1040, 2400), "Road shoe")]
    action, function = swipe("down")
    ep = phone_episode([cards, cards], [action, Action("done")], "Browse shoes")
    for text in ("Scroll further up to bring the Road shoe at the bottom fully into view.",
                 "Nothing grabs me here, so keep scrolling up to see even more."):
        assert certify_at(ep, 0, text, function).outcome != "certified", text
    assert certify_at(ep, 0, "Keep scrolling up, or scroll back down? The Trail shoe was on the first screen, so "
                      "scroll back down to it.", function).outcome != "rejected"


def test_a_candidate_asked_about_and_refused_or_granted_and_set_aside_is_no_decision():
    ep = phone_episode([GALLERY, GALLERY], [tap(GALLERY[0]), Action("done")], "Open Mia's chat")
    for text in ("Mia's chat is open. Open Leo's too? No — only Mia's was asked. Done.",
                 "Mia's chat is open. Re-open the list to check? Not needed. Finish.",
                 "Mia's chat is open. I could go back to double-check, but it plainly shows her name. Done."):
        expect(certify_at(ep, 1, text, DONE), "certified")
    box = el(0, (40, 100, 800, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "City"),))
    go = el(1, (840, 100, 1040, 160), "Search", tag="button")
    action, function = typed(box, "Oslo", "“City”元素")
    expect(certify_text(action, function, "现在点 Search 只会列出全部城市，没意义。先在 City 里输入 Oslo。", [box, go]),
           "certified")
    hold = {"name": "long_press", "parameters": {"target_element": "“Mia”元素"}}
    ep = phone_episode([GALLERY, GALLERY], [Action("long_press", element=GALLERY[0], point=GALLERY[0].center),
                                            Action("done")], "Delete Mia's chat")
    expect(certify_at(ep, 0, "点进去不方便删，长按 Mia 那一行。", hold), "certified")


def test_a_constraint_on_the_typed_value_and_a_photos_stamp_are_no_past_report():
    box = el(0, (40, 2200, 800, 2300), "", flags=("clickable", "editable"), desc="Message")
    action, function = typed(box, "See you at six", "“Message”元素")
    expect(certify_text(action, function, "Enter See you at six in the box exactly as the goal has it, with no period added.",
                        [box], web=False, goal="Reply See you at six"), "certified")
    photos = [el(0, (40, 300, 500, 700), "", desc="Photo 7:05"), el(1, (540, 300, 1040, 700), "", desc="Photo 9:40")]
    assert certify_text(tap(photos[1]), click("“Photo 9:40”元素"), "Open the second photo, the one stamped 9:40.",
                        photos, web=False, goal="Open the 9:40 photo").outcome != "rejected"


def test_nothing_coming_after_this_step_tells_the_episodes_end():
    ep = phone_episode([GALLERY, GALLERY], [tap(GALLERY[0]), Action("done")], "Open Mia's chat")
    expect(certify_at(ep, 1, "Done. Mia's chat is open and nothing comes after this step.", DONE), "rejected")


def test_a_field_said_to_hold_the_typed_words_by_a_pronoun_before_the_action_line():
    box = el(0, (40, 100, 800, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Search books"),))
    action, function = typed(box, "sea stories", "“Search books”元素")
    assert certify_text(action, function, "在 Search books 里输入 sea stories，框里已显示这几个词。\n"
                        "动作：type(element=\"Search books\", text=\"sea stories\")", [box]).outcome != "certified"


def test_the_numbered_cards_in_sight_and_a_decided_control_placed_first_are_the_screen_as_it_is():
    cards = [el(n, (40, 200 + 300 * n, 1040, 440 + 300 * n), f"Harbour tour #{n + 3}") for n in range(4)]
    ep = phone_episode([cards, cards], [tap(cards[1]), Action("done")], "Open the fourth tour")
    expect(certify_at(ep, 0, "点 Harbour tour #4。列表现在是 #3 到 #6，#4 在第二行。", click("“Harbour tour #4”元素")),
           "certified")
    assert certify_at(ep, 0, "点 Harbour tour #4。列表现在是 #7 到 #10。",
                      click("“Harbour tour #4”元素")).outcome != "certified"
    guests = el(0, (40, 300, 600, 360), "1", tag="select", attrs=(("aria_label", "Guests"),))
    ep = phone_episode([[guests], [guests]], [Action("select", text="3", element=guests, point=guests.center),
                                             Action("done")], "Book for 3 guests")
    expect(certify_at(ep, 0, "Guests 选 3。左边的 Guests 下拉框还是 1。",
                      {"name": "select", "parameters": {"value": "3", "target_element": "“Guests”元素"}}),
           "certified")

