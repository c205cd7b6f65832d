"""Pass 8: each class in words other than the blind parts' (docs/checks.md, "Pass 8"): an outcome told after the
decision behind a semicolon, a dash, an arrow or a parenthesis (and the next screen told as fact); a plan's later
item; typing said as 打「…」; an app opened as 把这个应用打开; a control used "with the … button"; switch … to; the
back key used; try / take / focus the …; a purpose after the decision; a hyphenated noun (check-in); a subject
before an English verb; a swipe said twice; a card's word beside a twin's name; an Action line with bare
arguments."""
from __future__ import annotations

import pytest

from sftdata.checks.calls import said_as_word
from sftdata.checks.certify import Certification, certify
from sftdata.checks.decision import stated_decision
from sftdata.checks.outcome import outcome_clause
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")


def _episode(steps: list[Step], goal: str, web: bool = False) -> Episode:
    steps = [Step(i, s.screenshot, s.action, elements=s.elements) for i, s in enumerate(steps)]
    return Episode("e", "m", goal, steps + [Step(len(steps), steps[0].screenshot, Action("done"))],
                   platform="web" if web else "mobile")


def _certify(step: Step, function: dict, text: str, goal: str = "Play the evening playlist", web: bool = False,
             later: list[Step] = ()) -> Certification:
    return certify(_episode([step, *later], goal, web), 0, {"reasoning": text, "function": function},
                   cjk_threshold=0.0)


def _library() -> list[Element]:
    """A music app's list: three playlists, each a row with its title, and a bottom bar with Play and Share."""
    rows = [Element(n, (0, 400 + 220 * n, 1080, 600 + 220 * n), text=name, flags=V)
            for n, name in enumerate(("Morning run", "Evening calm", "Road trip"))]
    return rows + [Element(3, (100, 2200, 500, 2330), text="播放", flags=V),
                   Element(4, (600, 2200, 1000, 2330), text="分享", flags=V)]


def tap(index: int, text: str, later: list[Step] = ()) -> Certification:
    elements = _library()
    target = elements[index]
    step = Step(0, PHONE, Action("click", point=target.center, element=target), elements=elements)
    return _certify(step, {"name": "click", "parameters": {"target_element": f"“{target.text}”元素"}}, text,
                    later=later)


def _next_screen() -> Step:
    """What opens after the tap: the playlist's tracks."""
    tracks = [Element(n, (0, 300 + 200 * n, 1080, 480 + 200 * n), text=name, flags=V)
              for n, name in enumerate(("Moonlight Sonata", "Clair de Lune", "Gymnopedie"))]
    return Step(1, PHONE, Action("click", point=tracks[0].center, element=tracks[0]), elements=tracks)


# -- certified-bad: an outcome told after the decision ------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Choosing Evening calm; tracks open with Moonlight Sonata on top.",
    "Opening Evening calm — it holds Clair de Lune and Gymnopedie.",
    "Tap Evening calm -> Moonlight Sonata plays first.",
    "Evening calm it is (that brings up Clair de Lune).",
    "点开 Evening calm（下一页是 Moonlight Sonata）。",
    "点 Evening calm，接着看到 Gymnopedie 这一首。",
    "Tap Evening calm. The next screen lists Gymnopedie.",
    "Tap Evening calm, the row next to Road trip. Now the screen reads Gymnopedie.",
    "点 Evening calm，打开后 Clair de Lune 在最上面。",
])
def test_an_outcome_after_the_decision_is_never_certified(text):
    assert tap(1, text, later=[_next_screen()]).outcome != "certified"


def test_an_english_clause_citing_chinese_words_reads_its_hedges_in_english():
    text = "Open Evening calm — it has the 晚安吗 note from earlier."
    decision = stated_decision(text)
    assert outcome_clause(text, decision.span, decision.span[1] - len(decision.rest)) is not None


@pytest.mark.parametrize("index,text", [
    (1, "Tap Evening calm; it should list the quiet tracks."),  # an expectation
    (1, "点 Evening calm，应该会看到里面的曲目。"),
    (1, "点 Evening calm，打开后应该会列出曲目。"),
    (1, "Tap Evening calm, the one in the middle."),  # the target described as it is now
    (1, "Tap Evening calm — it's the second row."),
    (3, "选中后点播放。"),  # a when-clause before the tap
    # rejected-good on part 19: a plan's later item is not the decision
    (1, "1) Library is showing.\n2) The goal wants the evening list, so tap Evening calm.\n3) Next I'll press 播放."),
    (1, "- 列表已经出来了\n- 先点 Evening calm\n- 之后再点播放"),
])
def test_hedges_descriptions_and_a_plans_later_items_leave_the_tap_certified(index, text):
    got = tap(index, text)
    assert got.outcome == "certified", got.reasons


def test_a_subject_before_an_english_verb_is_no_decision():
    assert stated_decision("Results open with a red kettle.") is None
    assert stated_decision("The Color select shows Black still.") is None
    assert stated_decision("This time select the Blue one.").verb == "click"


def test_next_without_an_earlier_decision_is_still_the_decision():
    assert stated_decision("The list is up. Next I'll press 播放.").verb == "click"


# -- unsure-aligned: decision verbs and shapes ---------------------------------------------------------------

def _composer(value: str, text: str) -> Certification:
    box = Element(0, (40, 2000, 900, 2100), hint="说点什么", flags=V + ("editable",))
    step = Step(0, PHONE, Action("input", text=value, element=box), elements=[box])
    return _certify(step, {"name": "input", "parameters": {"text": value}}, text)


@pytest.mark.parametrize("text", ["光标已经在框里了，打「晚安」两个字。", "敲上“晚安”就行。"])
def test_typing_said_as_da_or_qiao_is_typing(text):
    got = _composer("晚安", text)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text", ["打电话给她。", "打开输入法。"])
def test_da_without_a_quoted_value_is_no_typing(text):
    decision = stated_decision(text)
    assert decision is None or decision.verb != "input"


def _launcher(text: str, app: str = "音乐") -> Certification:
    icons = [Element(0, (40, 900, 240, 1100), desc="音乐", flags=V), Element(1, (300, 900, 500, 1100), desc="相机", flags=V)]
    step = Step(0, PHONE, Action("open_app", app=app), elements=icons)
    return _certify(step, {"name": "open_app", "parameters": {"app_name": app}}, text)


def test_an_app_named_before_ba_is_the_app_opened():
    got = _launcher("桌面第一排有个「音乐」图标，把这个应用启动起来。")
    assert got.outcome == "certified", got.reasons
    assert _launcher("桌面第一排有个「相机」图标，把这个应用启动起来。").outcome != "certified"


@pytest.mark.parametrize("text,index", [
    ("The evening list is picked. Start it with the 播放 button at the bottom left.", 3),
    ("Send it to a friend with the 分享 button.", 4),
    ("I'll try the Evening calm row in the middle.", 1),
    ("I'll take the Road trip one, the last row.", 2),
    ("Evening calm is it, so the right button is 播放 at the bottom.", 3),
])
def test_a_control_used_with_its_button_tried_or_taken_is_a_tap(text, index):
    got = tap(index, text)
    assert got.outcome == "certified", got.reasons


def test_a_control_used_with_another_button_is_not_certified():
    assert tap(3, "Share it with the 分享 button.").outcome != "certified"


def test_a_setting_switched_to_a_value_is_a_choice():
    menu = Element(0, (40, 100, 600, 160), text="Small Medium Large", tag="select", flags=V,
                   attrs=(("aria_label", "Size"),))
    step = Step(0, PAGE, Action("select", point=menu.center, text="Large", element=menu), elements=[menu])
    call = {"name": "select", "parameters": {"target_element": "“Size”元素", "value": "Large"}}
    got = _certify(step, call, "The Size menu still says Medium. Flip it to Large.", goal="Order a large tee", web=True)
    assert got.outcome == "certified", got.reasons
    assert _certify(step, call, "Flip it to Small.", goal="Order a large tee", web=True).outcome != "certified"


def _back(text: str) -> Certification:
    step = Step(0, PHONE, Action("back"), elements=_library())
    return _certify(step, {"name": "press_back", "parameters": {}}, text)


def test_the_back_key_used_is_going_back():
    got = _back("Playlist saved. Using the phone's back key to leave this page.")
    assert got.outcome == "certified", got.reasons


def test_a_purpose_after_the_decision_is_no_outcome():
    got = tap(3, "Evening calm is selected; hit 播放 so the music starts.")
    assert got.outcome == "certified", got.reasons
    got = tap(3, "歌单选好了，点播放让音乐响起来。")
    assert got.outcome == "certified", got.reasons


def test_a_purpose_before_de_xian_is_not_the_decision():
    assert stated_decision("要听歌得先点播放。").verb == "click"
    assert stated_decision("要留言得先激活输入框。").verb == "click"


def test_a_hyphenated_noun_is_no_verb():
    assert stated_decision("sign-in = done -> type 12/05 in the Check-out box").verb == "input"


def test_a_state_entered_is_no_navigation():
    assert stated_decision("现在进入编辑模式，点保存。").phrase == "点保存"


def test_a_swipe_said_twice_in_a_sentence_takes_the_direction_of_either():
    assert stated_decision("列表拉过了，手指往上推一点，往前翻几首。").direction == "up"
    assert stated_decision("往前翻几首，手指往上推一点。").direction == "up"
    assert stated_decision("手指往上推一点，往后翻几首。").direction == "up"


def test_a_bare_verb_acts_on_what_its_sentence_named_before():
    got = tap(3, "底部左边是播放，点一下准备开听。")
    assert got.outcome == "certified", got.reasons


def test_nothing_before_a_verb_negates_it():
    assert stated_decision("Nothing I can press yet — wait for the list to load.").verb == "wait"


def test_an_action_line_with_bare_arguments_is_call_notation():
    got = _launcher("Thought: the launcher shows 音乐 top left.\nAction: open_app 音乐")
    assert got.outcome == "certified", got.reasons
    assert _launcher("Thought: the launcher.\nAction: open_app 相机").outcome != "certified"


def test_words_in_a_bare_calls_parentheses_are_no_argument():
    step = Step(0, PHONE, Action("home"), elements=_library())
    got = _certify(step, {"name": "press_home", "parameters": {}}, "Action: press_home (the launcher shows up)")
    assert got.outcome != "certified"


def _twins() -> list[Element]:
    """Three listings of the same kettle, told apart by their prices."""
    out = []
    for n, price in enumerate(("¥59", "¥129", "¥99")):
        top = 400 + 400 * n
        out += [Element(len(out), (36, top, 276, top + 250), desc="商品图片 Vega 电水壶", flags=V),
                Element(len(out) + 1, (302, top, 900, top + 60), text="Vega 电水壶", flags=V),
                Element(len(out) + 2, (302, top + 150, 500, top + 210), text=price, flags=V)]
    return out


@pytest.mark.parametrize("text,index,certified", [
    ("点 Vega 电水壶（¥129 那个）的商品图。", 3, True),
    ("点 Vega 电水壶（¥59 那个）的商品图。", 3, False),
    ("Tap the Vega 电水壶 photo, the ¥99 one.", 3, False),
])
def test_a_cards_word_beside_a_twins_name_singles_out_the_target(text, index, certified):
    elements = _twins()
    target = elements[index]
    step = Step(0, PHONE, Action("click", point=target.center, element=target), elements=elements)
    got = _certify(step, {"name": "click", "parameters": {"target_element": f"“{target.desc}”元素"}}, text)
    assert (got.outcome == "certified") is certified, got.reasons


def test_said_as_word_keeps_each_callers_reading():
    assert said_as_word("Search", "tap the search key")
    assert not said_as_word("search", "researcher")
    assert said_as_word("in", "check-in") and not said_as_word("in", "check-in", joiners="-")
    assert not said_as_word("on", "it is on", shortest=4)
    assert said_as_word("播放", "点播放", shortest=4, shortest_cjk=2)
