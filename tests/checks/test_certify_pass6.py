"""Pass 6: the card a twin is placed by must be the target's own, in words other than the blind parts': a row's
other control named whole beside the row's ordinal; a place that picks another of the alike controls (``the
lower one``, ``左上角那个``) while the target sits in the middle or the far half of them."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.checks.decision import stated_decision
from sftdata.checks.hindsight import find_hindsight
from sftdata.checks.outcome import outcome_clause
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")


def _listing() -> list[Element]:
    """Four rows, each a title link and a Follow button (the rows' texts hold their children's)."""
    out: list[Element] = []
    for n, name in enumerate(("Harbor artist view #5", "Harbor artist view #6", "Harbor artist view #7",
                              "Harbor artist view #8")):
        top = 20 + 170 * n
        out += [Element(len(out), (32, top, 1248, top + 150), text=f"{name} Follow artist", tag="li",
                        flags=("visible",)),
                Element(len(out) + 1, (176, top + 18, 696, top + 47), text=name, tag="a", flags=V),
                Element(len(out) + 2, (1040, top + 60, 1220, top + 105), text="Follow artist", tag="button", flags=V)]
    return out


def _certify(step: Step, text: str, *, web: bool = True) -> Certification:
    target = step.action.element
    episode = Episode("e", "m", "Follow the seventh artist", [step, Step(1, step.screenshot, Action("done"))],
                      platform="web" if web else "mobile")
    return certify(episode, 0, {"reasoning": text, "function": {"name": "click", "parameters": {
        "target_element": f"“{target.text}”元素"}}}, cjk_threshold=0.0)


def tap_in_listing(text: str, index: int) -> Certification:
    elements = _listing()
    target = elements[index]
    return _certify(Step(0, PAGE, Action("click", point=target.center, element=target), elements=elements), text)


TITLE_7, FOLLOW_7 = 7, 8


@pytest.mark.parametrize("text", ["第 7 个排在中间偏下，点它那行右边的 Follow artist 就行。",
                                  "#7 is in view; press the Follow artist that sits to its right."])
def test_the_rows_other_control_named_whole_is_not_the_title(text):
    assert tap_in_listing(text, TITLE_7).outcome != "certified"


@pytest.mark.parametrize("text", ["The Follow artist at the top right is the one for #7 — press it.",
                                  "Follow artist in the upper right belongs to #7; press it."])
def test_a_place_that_picks_another_twin_does_not_certify(text):
    assert tap_in_listing(text, FOLLOW_7).outcome != "certified"


@pytest.mark.parametrize("text", ["Press the Follow artist of #7, on the right side of its row.",
                                  "#7 sits in the lower half; its Follow artist is at the lower right — press it."])
def test_a_place_that_fits_the_targets_own_twin_certifies(text):
    assert tap_in_listing(text, FOLLOW_7).outcome == "certified"


def _switches() -> list[Element]:
    """Two settings rows whose subtitles are the same word (``Off``) and one above them."""
    rows = []
    for n, (title, sub) in enumerate((("Location", "On"), ("Hotspot", "Off"), ("NFC", "Off"))):
        top = 700 + 190 * n
        rows += [Element(len(rows), (0, top, 1080, top + 180), flags=V),
                 Element(len(rows) + 1, (184, top + 30, 560, top + 90), text=title, flags=("visible",)),
                 Element(len(rows) + 2, (184, top + 100, 245, top + 146), text=sub, flags=("visible",))]
    return rows


@pytest.mark.parametrize("text,outcome", [("两行都写着 Off，点下面那个 Off 就是 NFC。", "certified"),
                                          ("两行都写着 Off，点上面那个 Off。", "not"),
                                          ("Both say Off; tap the upper one, the Off row.", "not")])
def test_a_place_among_alike_rows_must_pick_the_targets(text, outcome):
    rows = _switches()
    target = rows[7]  # NFC's title, in the lower of the two Off rows
    step = Step(0, PHONE, Action("click", point=target.center, element=target), elements=rows)
    got = _certify(step, text, web=False).outcome
    assert (got == "certified") == (outcome == "certified"), got


def tap_go(text: str) -> Certification:
    go = Element(0, (1100, 20, 1240, 60), text="Go", tag="button", flags=V)
    box = Element(1, (32, 20, 1000, 60), hint="Search lamps", tag="input", flags=V + ("editable",))
    return _certify(Step(0, PAGE, Action("click", point=go.center, element=go), elements=[box, go]), text)


@pytest.mark.parametrize("text", [
    "Tap Go; the grid beneath it remains unchanged (Brass lamp on top) until the filter is applied.",
    "Tap Go; a table of lamps comes up and that is the whole task.",
    "Tap Go; the panel under the bar stays the same until I click Apply."])
def test_an_outcome_with_a_relation_in_its_subject_or_a_second_sentence_joined_to_it(text):
    assert tap_go(text).outcome != "certified"


def test_a_label_that_holds_stays_and_a_purpose_are_no_outcome():
    assert tap_go("Tap Go to run the search.").outcome == "certified"
    text = "Press Book stays at the bottom, the blue one."
    assert outcome_clause(text, (0, 30), 6) is None


def test_a_sentence_that_restates_the_task_holds_the_goals_words_not_a_later_screens():
    home = Element(0, (40, 900, 200, 1060), text="花店", flags=V)
    basket = Element(0, (40, 200, 400, 260), text="我的花篮", flags=V)
    steps = [Step(0, PHONE, Action("open_app", app="花店"), elements=[home]),
             Step(1, PHONE, Action("click", point=basket.center, element=basket), elements=[basket]),
             Step(2, PHONE, Action("done"), elements=[basket])]
    episode = Episode("e", "m", "Order a bouquet in 花店 and put it in the basket", steps, platform="mobile")
    item = {"reasoning": "任务是在花店里挑一束花放进我的花篮。现在在桌面，先打开花店。",
            "function": {"name": "open_app", "parameters": {"app_name": "花店"}}}
    assert certify(episode, 0, item, cjk_threshold=0.0).outcome != "rejected"
    item["reasoning"] = "现在在桌面，先打开花店，我的花篮里已经有东西了。"
    assert certify(episode, 0, item, cjk_threshold=0.0).outcome == "rejected"


@pytest.mark.parametrize("text,found", [
    ("Swiped once; now the feed shows Oak desk ¥199 and Pine shelf ¥89. Keep going — swipe up once more.", False),
    ("Pressed Play and it now reads Pause.", True)])
def test_a_past_action_and_its_state_before_a_decision_is_the_last_step(text, found):
    assert bool(find_hindsight(text)) is found


def test_a_clause_that_says_when_is_not_the_decision():
    assert stated_decision("往下翻之后，第三本书评分最高，点它的封面。").verb == "click"
    assert stated_decision("向左滑，看下一张。").verb == "swipe"


def test_a_clause_that_ends_on_a_state_reached_is_not_the_decision():
    assert stated_decision("打开王芳的主页了。先点右上角的关注按钮。").verb == "click"
    assert stated_decision("信息都填好，该点提交按钮了。").verb == "click"


def test_after_a_named_tab_is_a_place_not_a_time():
    assert find_hindsight("要看相机类，点分类栏里全部、电脑之后的第三个标签“相机”。") == []
    assert find_hindsight("点击电脑之后，相机标签出现了。")


def test_a_control_placed_in_the_top_bar_is_not_a_dialogs():
    bar_icon = Element(0, (940, 140, 1060, 260), desc="更多", flags=V)
    sheet = Element(1, (80, 900, 1000, 1400), flags=("visible",))
    title = Element(2, (140, 960, 700, 1030), text="移除这张照片？", flags=("visible",))
    remove = Element(3, (780, 1290, 900, 1350), text="移除", class_name="android.widget.Button", flags=V)
    step = Step(0, PHONE, Action("click", point=remove.center, element=remove), elements=[bar_icon, sheet, title, remove])
    assert _certify(step, "Press the 移除 up in the toolbar.", web=False).outcome != "certified"
    assert _certify(step, "Press 移除 in the box to confirm.", web=False).outcome == "certified"


def test_a_label_that_holds_a_result_verb_is_a_name():
    title = Element(0, (176, 200, 696, 240), text="Evening show opens #3", tag="a", flags=V)
    step = Step(0, PAGE, Action("click", point=title.center, element=title), elements=[title])
    assert _certify(step, "点标题 Evening show opens #3。").outcome == "certified"
    assert _certify(step, "点标题 Evening show opens #3，详情页随即出现了。").outcome != "certified"


def test_a_place_said_after_the_decision_is_where_the_target_is():
    text = "先打开图库应用，在第二排靠右。"
    assert outcome_clause(text, (0, 7)) is None
    assert outcome_clause("先打开图库应用，照片在中间一排显示出来了。", (0, 7))


def test_a_place_is_read_whole_not_also_as_the_places_inside_it():
    from sftdata.checks.screen_places import whole_places
    assert [w for w, _, _ in whole_places("屏幕左上方的第二个“商品图片”")] == ["左上"]
    assert [w for w, _, _ in whole_places("the Save at the upper right")] == ["upper right"]
