"""Pass 45: the writer who decides first and justifies after it, and the one who weighs the options before choosing:
values earlier steps typed said as held (``The City box already reads 'Paris'``, ``City and Seats are both set``),
the goal's value said as the goal's, a restated conclusion, a neighbour in the row (``Seats 右边的 Go``), the
keyboard said up while its keys show, an option weighed and set aside (``I could tap …, but``, ``可以直接…，但``,
``单击会…``), the one to tap said as a noun (``要点的是 …``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.decision import stated_decision
from sftdata.checks.hindsight import find_hindsight
from sftdata.model import Action, Element

from scenes import certify_text, click, el, expect, tap, typed

CITY = el(0, (40, 100, 400, 160), "City", flags=("clickable",))
SEATS = el(1, (440, 100, 640, 160), "Seats", flags=("clickable",))
GO = el(2, (700, 100, 820, 160), "Go")
FORM = [CITY, SEATS, GO]
ROWS = [el(3 + i, (40, 300 + 60 * i, 600, 340 + 60 * i), f"Harbour tour #{n}") for i, n in enumerate((3, 4, 5))]
TYPED_CITY = typed(CITY, "Paris", "“City”输入框")[0]


def test_a_value_an_earlier_step_typed_quoted_in_its_field_is_the_screen():
    action, function = typed(SEATS, "2", "“Seats”输入框")
    text = "Type 2 into Seats. The City box already reads 'Paris'."
    expect(certify_text(action, function, text, FORM, before=[TYPED_CITY]), "certified")
    other = "Type 2 into Seats. The City box already reads 'Rome'."  # typed by no step: what may come
    assert certify_text(action, function, other, FORM, before=[TYPED_CITY]).outcome != "certified"


def test_an_earlier_value_quoted_outside_a_field_is_no_name():
    action, function = typed(SEATS, "2", "“Seats”输入框")
    text = "Type 2 into Seats. The 'Paris' trip now sits at the top of the results."
    assert certify_text(action, function, text, FORM, before=[TYPED_CITY]).outcome != "certified"


def test_the_value_the_goal_asks_for_said_as_the_goals():
    cabin = el(0, (40, 100, 300, 160), "Economy", tag="select", attrs=(("aria_label", "Cabin"),))
    select = el(1, (900, 300, 1000, 340), "Select", tag="button")
    function = {"name": "select", "parameters": {"value": "Business", "target_element": "“Cabin”下拉框"}}
    action = Action("select", text="Business", element=cabin, point=cabin.center)
    goal = "Find a business class seat to Lisbon"
    text = "Choose Business in the Cabin select. Cabin still reads Economy and the goal wants business class."
    expect(certify_text(action, function, text, [cabin, select], goal=goal), "certified")
    told = "Choose Business in the Cabin select. The Cabin box shows Business class."  # what the choice brings
    assert certify_text(action, function, told, [cabin, select], goal=goal).outcome != "certified"


def test_a_short_field_name_inside_a_typed_value_is_not_said():
    to_box = el(1, (440, 100, 640, 160), "To", flags=("clickable",))
    before = [typed(CITY, "Boston", "“City”输入框")[0]]
    action, function = typed(to_box, "Denver", "“To”输入框")
    text = "Type Denver into the To field. City already says Boston."
    expect(certify_text(action, function, text, [CITY, to_box, GO], before=before), "certified")


def test_fields_said_both_set_after_earlier_steps_typed_them():
    before = [TYPED_CITY, typed(SEATS, "2", "“Seats”输入框")[0]]
    text = "Click Go. City “Paris” and Seats “2” are both set."
    expect(certify_text(tap(GO), click("“Go”按钮"), text, FORM, before=before), "certified")


def test_an_order_of_work_is_no_move():
    action, function = typed(CITY, "Paris", "“City”输入框")
    text = "Type Paris into City. Seats still reads Seats; the city comes first."
    expect(certify_text(action, function, text, FORM), "certified")


def test_a_conclusion_that_restates_the_opening_decision_in_fewer_words():
    text = ("Tap the Harbour tour #4 title, middle row. The #3 row above it is cut off at the top, "
            "so that middle title is what I tap.")
    expect(certify_text(tap(ROWS[1]), click("“Harbour tour #4”标题"), text, ROWS), "certified")


def test_a_state_told_after_the_decision_is_no_appositive():
    before = [TYPED_CITY, typed(SEATS, "2", "“Seats”输入框")[0]]
    expect(certify_text(tap(GO), click("“Go”按钮"), "点顶部右边的 Go 按钮，City 和 Seats 都已经填好了。", FORM,
                        before=before), "certified")


@pytest.mark.parametrize("text, outcome", [("点 Seats 右边的 Go。", "certified"),
                                           ("点 City 右边的 Go。", "unsure")])  # Seats stands between them
def test_a_neighbour_in_the_row_places_the_target(text, outcome):
    assert certify_text(tap(GO), click("“Go”按钮"), text, FORM).outcome == outcome


def _sms(keys: bool) -> list[Element]:
    field = el(0, (40, 1500, 900, 1600), "", flags=("clickable", "editable"), desc="短信输入框")
    send = el(1, (920, 1500, 1040, 1600), "发送")
    extra = [el(2, (300, 2200, 700, 2300), "", desc="空格"), el(3, (800, 2200, 1040, 2300), "", desc="换行")]
    return [field, send] + (extra if keys else [])


def test_the_keyboard_said_up_while_its_keys_show():
    elements = _sms(True)
    action, function = typed(elements[0], "好的", "“短信输入框”")
    text = "输入“好的”；键盘已经弹出，光标在短信框里。"
    expect(certify_text(action, function, text, elements, web=False), "certified")
    bare = _sms(False)
    action, function = typed(bare[0], "好的", "“短信输入框”")
    assert certify_text(action, function, text, bare, web=False).outcome != "certified"


def test_it_said_of_the_target_by_its_own_card():
    cards, titles, saves = [], [], []
    for i, n in enumerate((3, 4, 5)):
        top = 300 + 80 * i
        cards.append(el(20 + i, (40, top, 720, top + 70), f"Harbour tour #{n} Save", tag="li", flags=()))
        titles.append(el(30 + i, (60, top + 10, 500, top + 40), f"Harbour tour #{n}", tag="a"))
        saves.append(el(40 + i, (620, top + 10, 700, top + 50), "Save", tag="button"))
    text = "点右边中间那个 Save，它属于 Harbour tour #4。上面那个是 #3 的。"
    expect(certify_text(tap(saves[1]), click("“Save”按钮"), text, cards + titles + saves), "certified")


@pytest.mark.parametrize("text, verb", [
    ("I could tap Seats, but the form wants the city first. Tap City.", "click"),
    ("可以直接按 Home，但我想先退出大图。用系统返回键。", "back_key"),
    ("单击会进聊天页，所以长按她的头像。", "long_press"),
])
def test_an_option_weighed_and_set_aside_is_no_decision(text, verb):
    assert stated_decision(text).verb == verb


def test_the_one_to_tap_said_as_a_noun_is_the_decision():
    decision = stated_decision("City 和 Seats 都填好了。现在要点的是右上角的 Go。")
    assert decision is not None and decision.verb == "click" and "Go" in decision.rest


def test_an_action_label_that_would_do_something_else_is_no_decision():
    decision = stated_decision("立即购买 would skip the cart, and 收藏 only bookmarks it. So 加入购物车 it is.")
    assert decision is not None and "加入购物车" in decision.phrase


@pytest.mark.parametrize("text", ["Tap the search field; the keyword goes in after that.",
                                  "Type the reply exactly, Chinese comma included: 好的，马上到"])
def test_a_plan_and_a_manner_are_no_hindsight(text):
    assert find_hindsight(text) == []
    assert find_hindsight("Tap Save. The list is refreshed after that.") != []


def test_a_row_gone_since_the_last_step_is_not_hindsight():
    rows = [el(0, (40, 300, 600, 360), "Alice"), el(1, (40, 360, 600, 420), "Bob")]
    toast = el(2, (300, 2000, 800, 2060), "已删除 1 个对话", flags=())
    before = [el(9, (40, 300, 600, 360), "Carol")] + rows
    steps_before = [Action("click", element=before[0], point=before[0].center)]
    from scenes import PHONE
    from sftdata.checks.certify import certify
    from sftdata.model import Episode, Step
    episode = Episode("e", "m", "Delete Carol's chat, then open Alice's", [
        Step(0, PHONE, steps_before[0], elements=before), Step(1, PHONE, tap(rows[0]), elements=rows + [toast]),
        Step(2, PHONE, Action("done"), elements=rows)])
    text = "Tap Alice's row at the top. Carol's thread is gone from the list and the toast shows at the bottom."
    got = certify(episode, 1, {"reasoning": text, "function": click("“Alice”对话")}, cjk_threshold=0.0)
    assert got.outcome != "rejected", got.reasons


def test_a_translated_label_names_the_one_link_it_translates():
    reserve = el(0, (900, 300, 1000, 340), "Reserve", tag="button")
    following = el(1, (500, 700, 640, 740), "Next page", tag="a")
    text = "先点下一页，看看最后一家到底是哪个。"
    assert certify_text(tap(reserve), click("“Reserve”按钮"), text, [reserve, following]).outcome != "certified"


def _settings(value: str) -> list[Element]:
    return [el(0, (40, 300, 800, 360), "Bluetooth"), el(1, (40, 360, 800, 400), value, flags=()),
            el(2, (40, 420, 800, 480), "Airplane mode"), el(3, (40, 480, 800, 520), "Off", flags=())]


@pytest.mark.parametrize("value, outcome", [("On", "certified"), ("Off", "unsure")])
def test_a_row_named_in_translation_is_read_on_the_screen(value, outcome):
    home = Action("home")
    got = certify_text(home, {"name": "press_home", "parameters": {}}, "按 Home 回桌面；蓝牙那一行已经是 On 了。",
                       _settings(value), web=False)
    expect(got, outcome)


def test_a_described_clause_left_out_keeps_its_sentence_apart_from_the_next():
    from sftdata.checks.decision import stated_decision as decided
    from sftdata.checks.described import described_sentences
    from sftdata.model import Episode, Step
    from scenes import PHONE
    text = "点 Bluetooth。已经回到顶部，蓝牙是 Off。点完状态就从 Off 变成了 On。"
    steps = [Step(0, PHONE, Action("swipe", direction="down"), elements=_settings("Off")),
             Step(1, PHONE, tap(_settings("Off")[0]), elements=_settings("Off")), Step(2, PHONE, Action("done"))]
    spans = described_sentences(text, decided(text).span, Episode("e", "m", "Turn Bluetooth on", steps), 1)
    assert [text[a:b] for a, b in spans] == ["蓝牙是 Off"]
    got = certify_text(tap(_settings("Off")[0]), click("“Bluetooth”开关"), text, _settings("Off"), web=False,
                       before=[Action("swipe", direction="down")])
    assert got.outcome != "certified"  # what the tap brings, after a sentence that describes the screen


def test_the_value_the_decided_row_still_holds_in_the_decision_sentence():
    state = el(0, (40, 100, 300, 160), "Alabama", tag="select", attrs=(("aria_label", "State"),))
    function = {"name": "select", "parameters": {"value": "Texas", "target_element": "“State”下拉框"}}
    action = Action("select", text="Texas", element=state, point=state.center)
    expect(certify_text(action, function, "在 State 下拉里选 Texas，现在还是默认的 Alabama。", [state, GO]), "certified")
    other = "在 State 下拉里选 Texas，现在还是默认的 Ohio。"  # no such value shown
    assert certify_text(action, function, other, [state, GO]).outcome != "certified"


@pytest.mark.parametrize("text, verb", [
    ("To write the reply I first focus the message box at the bottom.", "click"),
    ("In order to search I first tap the box.", "click"),
])
def test_a_purpose_that_opens_the_sentence_is_not_the_decision(text, verb):
    assert stated_decision(text).verb == verb


@pytest.mark.parametrize("text", ["The box first. Typing comes after.", "删除，右上角那个。选中的正是李娜这一条。"])
def test_what_comes_after_and_what_is_selected_are_no_decision(text):
    assert stated_decision(text) is None


def test_a_way_through_the_photos_is_no_time():
    assert find_hindsight("往左滑。大图模式下往左滑就是往后看。") == []
    assert find_hindsight("往左滑。左滑后显示第 5 张。") != []


def test_a_result_told_in_the_gestures_own_clause_is_hindsight():
    assert find_hindsight("向上一滑 Display 就出来了，下面还有 Dark theme。") != []
    assert find_hindsight("往上滑，应该就出来了。") == []


@pytest.mark.parametrize("text, verb", [("要打开的是相册。", "open"), ("我点的是中间那张。", "click")])
def test_the_one_i_tap_said_as_a_noun_stays_the_decision(text, verb):
    assert stated_decision(text).verb == verb


def test_its_other_control_named_after_the_card_is_not_the_title():
    card = el(0, (40, 300, 1200, 380), "Harbour tour #4 Add to cart", tag="li", flags=())
    title = el(1, (60, 310, 500, 350), "Harbour tour #4", tag="a")
    cart = el(2, (1000, 310, 1180, 350), "Add to cart", tag="button")
    text = "Fourth item is Harbour tour #4 — click its Add to cart now."
    assert certify_text(tap(title), click("“Harbour tour #4”链接"), text, [card, title, cart]).outcome != "certified"
