"""Pass 5: certify grounds every slot of the call and reads outcomes by structure, in words other than the blind
parts': a row's control named beside the right row is another element; a typed value into another field; a clause
with its own subject after the decision; a count of the run's steps; an app by its translation; a dialog's button
over a list; a choice of an action and a list of actions done; a pronoun that points two sentences back."""
from __future__ import annotations

import pytest

from sftdata.checks.app_names import same_app
from sftdata.checks.certify import Certification, certify
from sftdata.checks.outcome import outcome_clause, run_position
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")


def _listing() -> list[Element]:
    """Three rows, each a title link, a price and a Wishlist button (the rows' texts hold their children's)."""
    out: list[Element] = []
    for n, name in enumerate(("Alpine tent #1", "Alpine tent #2", "Alpine tent #3")):
        top = 100 + 150 * n
        price = f"${120 + n * 40}.00"
        out += [Element(len(out), (32, top, 1248, top + 137), text=f"{name} {price} Wishlist", tag="li",
                        flags=("visible",)),
                Element(len(out) + 1, (176, top + 18, 696, top + 47), text=name, tag="a", flags=V),
                Element(len(out) + 2, (1040, top + 46, 1220, top + 91), text="Wishlist", tag="button", flags=V),
                Element(len(out) + 3, (176, top + 60, 296, top + 85), text=price, tag="span", flags=("visible",))]
    return out


def _certify(step: Step, text: str, name: str, params: dict, *, web: bool = True, steps: int = 2) -> Certification:
    later = [Step(i, step.screenshot, Action("done")) for i in range(1, steps)]
    episode = Episode("e", "m", "Save the second tent", [step] + later, platform="web" if web else "mobile")
    return certify(episode, 0, {"reasoning": text, "function": {"name": name, "parameters": params}},
                   cjk_threshold=0.0)


def tap_in_listing(text: str, index: int) -> Certification:
    elements = _listing()
    target = elements[index]
    step = Step(0, PAGE, Action("click", point=target.center, element=target), elements=elements)
    return _certify(step, text, "click", {"target_element": f"“{target.text}”元素"})


TITLE_2, WISHLIST_2 = 5, 6


@pytest.mark.parametrize("text", ["第2个是 Alpine tent #2，点它那一行右边的 Wishlist 按钮。",
                                  "Hit the Wishlist next to #2.", "点 Alpine tent #2 那一行的收藏按钮。"])
def test_a_rows_other_control_is_not_the_tapped_title(text):
    assert tap_in_listing(text, TITLE_2).outcome != "certified"


@pytest.mark.parametrize("text", ["Open Alpine tent #2 by its title.", "点第二个帐篷的标题 Alpine tent #2。"])
def test_the_title_itself_still_certifies(text):
    assert tap_in_listing(text, TITLE_2).outcome == "certified"


@pytest.mark.parametrize("text", ["点 #2 那一行的 Wishlist。", "Tap Wishlist for #2.",
                                  "The second tent, Alpine tent #2, is in the middle. Its Wishlist button is at the "
                                  "end of that row — tap it."])
def test_the_rows_control_named_by_its_row_certifies(text):
    assert tap_in_listing(text, WISHLIST_2).outcome == "certified"


def type_into_form(text: str) -> Certification:
    name = Element(0, (32, 100, 332, 145), hint="Full name", tag="input", flags=V + ("editable",))
    mail = Element(1, (356, 100, 656, 145), hint="Email", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("type", text="Ada Lovelace", point=name.center, element=name), elements=[name, mail])
    return _certify(step, text, "type", {"text": "Ada Lovelace", "target_element": "“Full name”输入框"})


def test_the_right_value_into_another_field_does_not_certify():
    assert type_into_form("先在 Email 里输入 Ada Lovelace。").outcome != "certified"
    assert type_into_form("在 Full name 里输入 Ada Lovelace。").outcome == "certified"


def tap_go(text: str) -> Certification:
    go = Element(0, (1100, 20, 1240, 60), text="Go", tag="button", flags=V)
    box = Element(1, (32, 20, 1000, 60), hint="Search tents", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("click", point=go.center, element=go), elements=[box, go])
    return _certify(step, text, "click", {"target_element": "“Go”按钮"})


@pytest.mark.parametrize("text", ["Tap Go; the list stays as it was, still led by the first tent.",
                                  "点 Go，结果直接跳到第二页。", "Press Go — every tent row comes back sorted by price."])
def test_a_clause_with_its_own_subject_after_the_decision_is_an_outcome(text):
    assert tap_go(text).outcome != "certified"
    assert outcome_clause(text, (0, text.index("Go") + 2))


@pytest.mark.parametrize("text", ["Tap Go — the button at the right end of the bar.", "Tap Go, the one from the toolbar.",
                                  "Tap Go, then the list."])
def test_a_phrase_about_the_target_or_a_plan_is_no_outcome(text):
    assert outcome_clause(text, (0, 6)) is None


def test_a_phrase_that_places_the_target_is_no_outcome():
    assert tap_go("Tap Go — the button at the right end of the search bar.").outcome == "certified"


def test_a_value_said_without_a_verb_is_followed_by_its_outcome_too():
    date = Element(0, (32, 100, 332, 145), hint="Date", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("type", text="05/20", point=date.center, element=date), elements=[date])
    c = _certify(step, "Entering 05/20 into Date — the box takes it and shows 05/20.", "type",
                 {"text": "05/20", "target_element": "“Date”输入框"})
    assert c.outcome in ("unsure", "rejected")  # (rejected since pass 57 reads `the box takes it` as a told success)


def test_a_count_of_the_runs_steps_is_its_position():
    assert run_position("Filter is on; the recording has 3 steps and this is the last one.", 2)
    assert run_position("这条轨迹一共就这些，结束。", 2) and run_position("我们走了三步，任务完成", 1)
    assert run_position("I have taken 2 steps so far", 2) is None  # the actions before this one
    assert run_position("第 3 步：确认", 2) is None  # this step's own ordinal


def open_app(text: str) -> Certification:
    step = Step(0, PHONE, Action("open_app", app="Settings"), elements=[])
    return _certify(step, text, "open_app", {"app_name": "Settings"}, web=False)


def test_an_app_named_by_its_translation():
    assert same_app("设置", "Settings") and not same_app("相机", "Settings")
    assert open_app("要改亮度，先打开“设置”应用。").outcome == "certified"
    assert open_app("要改亮度，先打开“相机”应用。").outcome == "rejected"


def test_a_dialogs_button_has_no_rival_behind_the_dialog():
    bar = Element(0, (900, 40, 1060, 200), text="Remove", flags=V)
    rows = [Element(1 + n, (0, 300 + 200 * n, 1080, 480 + 200 * n), text=f"Chat {n}", flags=V) for n in range(6)]
    dialog = Element(7, (80, 700, 1000, 1200), flags=("visible",))
    title = Element(8, (140, 760, 900, 830), text="Remove this chat?", flags=("visible",))
    cancel = Element(9, (560, 1080, 680, 1150), text="Cancel", flags=V)
    remove = Element(10, (760, 1080, 900, 1150), text="Remove", flags=V)
    elements = [bar] + rows + [dialog, title, cancel, remove]
    step = Step(0, PHONE, Action("click", point=remove.center, element=remove), elements=elements)
    c = _certify(step, "对话框弹出来了，点右边的 Remove 确认。", "click", {"target_element": "“Remove”按钮"}, web=False)
    assert c.outcome == "certified"


def test_a_chosen_action_and_a_list_of_done_actions():
    photo = Element(0, (0, 200, 1080, 2200), desc="Photo", flags=("visible",))
    swipe = Step(0, PHONE, Action("swipe", point=(900, 1200), end=(100, 1200)), elements=[photo])
    text = "Looking back, the last swipe worked. Keep going with one more leftward swipe."
    assert _certify(swipe, text, "swipe", {"direction": "LEFT"}, web=False).outcome == "certified"
    episode = Episode("e", "m", "翻看相册", [swipe, Step(1, PHONE, Action("done"), elements=[photo])])
    text = "已经回到桌面，打开相册、翻照片都做了，任务完成。"
    c = certify(episode, 1, {"reasoning": text, "function": {"name": "done", "parameters": {}}}, cjk_threshold=0.0)
    assert c.outcome == "certified"


def test_a_selects_value_in_a_clause_after_its_state():
    size = Element(0, (100, 100, 300, 140), text="Small", tag="select", attrs=(("aria_label", "Size"),), flags=V)
    step = Step(0, PAGE, Action("select", text="Large", point=size.center, element=size), elements=[size])
    c = _certify(step, "Size 现在是 Small，改成 Large。", "select", {"target_element": "“Size”下拉框", "value": "Large"})
    assert c.outcome == "certified"


@pytest.mark.parametrize("text, outcome", [("Thought: shopping comes first.\nAction: open_app(Settings)", "certified"),
                                           ("Thought: shopping comes first. Action: open the Settings app.", "certified"),
                                           ("The Settings icon is on the home screen, so I'll launch it.", "certified"),
                                           # another app, said as a call: a contradiction (read as words since pass 15)
                                           ("Thought: shopping comes first.\nAction: open_app(Clock)", "rejected")])
def test_a_decision_on_an_action_line_or_as_a_call(text, outcome):
    assert open_app(text).outcome == outcome


def test_a_call_notations_target_must_be_the_calls():
    assert tap_in_listing("Thought: the second tent.\nAction: click(Wishlist of Alpine tent #2)", WISHLIST_2).outcome \
        == "certified"
    assert tap_in_listing("Thought: the second tent.\nAction: click(Alpine tent #3)", WISHLIST_2).outcome != "certified"


@pytest.mark.parametrize("text", ["Tap Go — it's the small button at the end of the bar.", "点 Go，就在搜索框右边。",
                                  "Tap Go (right end, $0.00)."])
def test_a_clause_that_describes_the_target_as_it_is_now_is_no_outcome(text):
    assert outcome_clause(text, (0, text.index("Go") + 2)) is None


def test_a_gerund_decision_that_causes_something_is_an_outcome():
    text = "Pressing Go brings the cheapest tent to the top."
    assert outcome_clause(text, (0, len("Pressing Go brings the cheapest tent to the top")), len("Pressing"))


def test_the_task_restated_under_its_label_is_not_the_decision():
    assert tap_go("目标：搜帐篷，收藏第二个，再翻到下一页。先点 Go。").outcome == "certified"


def test_a_row_a_few_pixels_wider_than_its_parents_is_no_dialog():
    from sftdata.checks.target_group import in_front
    screen = [Element(i, (0, 136, 1080, 2337), flags=("visible",)) for i in range(2)]
    strip = Element(2, (0, 412, 1084, 662), flags=("visible",))
    tab = Element(3, (42, 438, 178, 575), text="Mobiles", flags=V)
    elements = screen + [strip, tab]
    step = Step(0, PHONE, Action("click", point=tab.center, element=tab), elements=elements)
    assert in_front(step, tab, elements) == elements
