"""Pass 55: a result told as done in Chinese before the decision (``点一下…就…了``, ``…成功了``), ``pressing it``
on a home or back step and a result ``as expected`` are told results; a change said not to have come yet and what
was done so far (``hasn't gone out yet``, ``还没``, ``so far``), a row's default value (``现在默认是 1``) and a place
said after the decision (``, the lower-right button``) are the screen as it is; twins with one name are told apart
by their cards' other words or their place among them, never by the caption each card repeats; a field said with
``填`` before typing is the field; a thing named alone before ``after that`` is a plan. Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, tap, typed

BOX = el(0, (40, 2200, 800, 2300), "See you at six", flags=("clickable", "editable"))
SEND = el(1, (840, 2200, 1040, 2300), "Send", tag="button")
THREAD = el(2, (40, 300, 1040, 400), "Dana: are you coming?", flags=())
SENT = el(3, (400, 500, 1040, 600), "See you at six", flags=())


def chat_episode():
    return phone_episode([[THREAD], [THREAD, BOX, SEND], [THREAD, SENT, BOX]],
                         [Action("open_app", app="Messages"), tap(SEND), Action("done")], "Reply to Dana")


def test_a_result_told_as_done_after_this_steps_kind_of_action_before_the_decision_is_not_certified():
    ep = chat_episode()
    for text in ("框里是 See you at six。点右边的 Send，消息就排到对话里了，回复成功了。所以点 Send。",
                 "回复已经写好，Send 在右下。点下去就发出去了，任务到此结束。点 Send。"):
        expect(certify_at(ep, 1, text, click("“Send”元素")), "unsure")
    for text in ("框里是 See you at six。点右边的 Send 应该就发出去了。所以点 Send。",
                 "回复已经写好，点一下就行了。点 Send。"):
        expect(certify_at(ep, 1, text, click("“Send”元素")), "certified")


def test_a_change_not_come_yet_and_a_place_after_the_decision_are_the_screen_as_it_is():
    ep = chat_episode()
    for text in ("Tap Send, the lower-right button. The reply sits in the box and hasn't gone out yet.",
                 "点 Send。回复还在框里，还没发出去。"):
        expect(certify_at(ep, 1, text, click("“Send”元素")), "certified")
    assert certify_at(ep, 1, "Tap Send. The reply has gone out and sits in the thread.",
                      click("“Send”元素")).outcome != "certified"


def test_pressing_the_key_told_with_its_result_or_a_result_as_expected_is_not_certified():
    icons = [el(0, (100, 600, 300, 800), "Clock"), el(1, (400, 600, 600, 800), "Maps")]
    page = [el(0, (40, 300, 1040, 400), "Alarm set for 7:00", flags=())]
    home = {"name": "press_home", "parameters": {}}
    ep = phone_episode([page, page, icons], [Action("open_app", app="Clock"), Action("home"), Action("done")],
                       "Set an alarm, then go home")
    expect(certify_at(ep, 1, "The alarm is set. Back or home? Home is sure. After pressing it the launcher shows "
                      "Clock and Maps. Pressing home.", home), "unsure")
    expect(certify_at(ep, 1, "The alarm is set. Back or home? Home is sure. Pressing home.", home), "certified")
    cards = [el(0, (40, 300, 1040, 400), "Trail shoe A"), el(1, (40, 420, 400, 480), "¥299", flags=()),
             el(2, (40, 700, 1040, 800), "Road shoe B"), el(3, (40, 820, 400, 880), "¥399", flags=())]
    down = {"name": "swipe", "parameters": {"direction": "DOWN"}}
    ep = phone_episode([cards, cards, cards], [Action("swipe", direction="up"), Action("swipe", direction="down"),
                                               Action("done")], "Browse shoes")
    expect(certify_at(ep, 1, "Seen enough below. Swiping down returns Trail shoe A to the top, as expected. "
                      "Swipe down.", down), "unsure")


def test_a_rows_default_value_is_the_screen_as_it_is():
    guests = el(0, (40, 300, 600, 360), "1", tag="select", attrs=(("aria_label", "Guests"),))
    ep = phone_episode([[guests], [guests]], [Action("select", text="3", element=guests, point=guests.center),
                                             Action("done")], "Book for 3 guests")
    expect(certify_at(ep, 0, "Guests 下拉选 3，现在默认是 1。",
                      {"name": "select", "parameters": {"value": "3", "target_element": "“Guests”元素"}}),
           "certified")


def test_twins_are_told_apart_by_their_cards_words_or_their_place_never_by_the_caption_they_share():
    cards = [el(0, (40, 300, 500, 600), "", desc="商品图片 Lumo 台灯"), el(1, (540, 300, 1040, 360), "Lumo 台灯", flags=()),
             el(2, (540, 450, 800, 510), "¥89", flags=()),
             el(3, (40, 1100, 500, 1400), "", desc="商品图片 Lumo 台灯"), el(4, (540, 1100, 1040, 1160), "Lumo 台灯", flags=()),
             el(5, (540, 1250, 800, 1310), "¥159", flags=())]
    ep = phone_episode([cards, cards], [tap(cards[3]), Action("done")], "挑一盏台灯")
    function = click("“商品图片 Lumo 台灯”元素")
    for text in ("两盏 Lumo 台灯。决定点 ¥159 的 Lumo 台灯图片。", "点下面那个 Lumo 台灯。"):
        expect(certify_at(ep, 0, text, function), "certified")
    for text in ("点 Lumo 台灯。", "两盏 Lumo 台灯，上面那个 ¥89。决定点 ¥89 的 Lumo 台灯图片。"):
        assert certify_at(ep, 0, text, function).outcome != "certified", text


def test_a_field_said_with_fill_before_the_typing_and_a_thing_named_before_after_that():
    origin = el(0, (40, 100, 600, 140), "", flags=("clickable", "editable"), attrs=(("aria_label", "From"),))
    goal = el(1, (40, 160, 600, 200), "", flags=("clickable", "editable"), attrs=(("aria_label", "To"),))
    action, function = typed(origin, "Oslo", "“From”元素")
    assert certify_text(action, function, "先填目的地 To，输入 Oslo。", [origin, goal]).outcome != "certified"
    expect(certify_text(action, function, "先填出发地 From，输入 Oslo。", [origin, goal]), "certified")
    expect(certify_text(action, function, "Both boxes are empty. To after that. Typing Oslo into From.",
                        [origin, goal]), "certified")


# Pass 55's addendum, read against parts 166, 168 and 169 after they were measured.

def test_a_state_said_with_open_a_purpose_after_so_and_a_reason_after_now_that_are_no_other_action():
    rows = [el(0, (40, 300, 1040, 400), "Team chat"), el(1, (40, 500, 1040, 600), "Mia")]
    ep = phone_episode([rows, rows], [Action("long_press", element=rows[0], point=rows[0].center), Action("done")],
                       "Delete the Team chat")
    hold = {"name": "long_press", "parameters": {"target_element": "“Team chat”元素"}}
    assert certify_at(ep, 0, "1. Chats list open.\n2. Team chat is at the top.\n3. Long-press Team chat.",
                      hold).outcome != "rejected"
    up = {"name": "swipe", "parameters": {"direction": "UP"}}
    ep = phone_episode([rows, rows], [Action("swipe", direction="up"), Action("done")], "Find Display")
    assert certify_at(ep, 0, "Display is below. Swipe up so the list scrolls and it comes into view.",
                      up).outcome != "rejected"
    delete = el(2, (900, 100, 1040, 180), "Delete")
    ep = phone_episode([[*rows, delete], rows], [tap(delete), Action("done")], "Delete Mia's chat")
    assert certify_at(ep, 0, "Tap Delete (top right) now that Mia's chat is selected.",
                      click("“Delete”元素")).outcome != "rejected"


def test_the_final_step_by_its_number_and_a_result_after_choosing_are_hindsight():
    done = {"name": "done", "parameters": {}}
    mia = el(0, (40, 300, 1040, 400), "Mia")
    ep = phone_episode([[mia], [mia]], [tap(mia), Action("done")], "Open Mia's chat")
    expect(certify_at(ep, 1, "Done; this was the final, sixth step.", done), "rejected")
    guests = el(0, (40, 300, 600, 360), "1", tag="select", attrs=(("aria_label", "Guests"),))
    extra = el(1, (40, 900, 600, 960), "Sea view loft #9", flags=())
    ep = phone_episode([[guests], [guests, extra]], [Action("select", text="3", element=guests, point=guests.center),
                                                     Action("done")], "Book for 3 guests")
    assert certify_at(ep, 0, "Guests 选 3，选完后列表底部多出一个 Sea view loft #9。",
                      {"name": "select", "parameters": {"value": "3", "target_element": "“Guests”元素"}}
                      ).outcome != "certified"


def test_a_box_ticked_earlier_said_in_translation_is_the_history():
    terms = el(0, (40, 300, 600, 360), "I agree to the terms", flags=("clickable", "checkable"))
    book = el(1, (40, 400, 600, 460), "Book now", tag="button")
    expect(certify_text(tap(book), click("“Book now”元素"), "点 Book now 提交。条款也勾上了。", [terms, book],
                        before=[tap(terms)]), "certified")
