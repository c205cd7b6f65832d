"""Classes of certify's mistakes on blind text, each in words other than the text that showed it: a control's
current state is not the decision, a typed-into field's quoted label is not the typed value, and a decision that
names the call's own target while another clause names another element is unsure, not rejected."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
V = ("visible", "clickable")


def web(step: Step, goal: str) -> Episode:
    return Episode("w", "m", goal, [step, Step(1, PAGE, Action("done"))], platform="web")


def form_item(text: str, name: str, params: dict, step: Step, goal: str) -> Certification:
    return certify(web(step, goal), 0, {"reasoning": text, "function": {"name": name, "parameters": params}},
                   cjk_threshold=0.0)


def size_select(text: str) -> Certification:
    size = Element(0, (100, 100, 300, 140), text="Small Medium Large", tag="select", attrs=(("aria_label", "Size"),),
                   flags=V)
    step = Step(0, PAGE, Action("select", text="Large", point=(200, 120), element=size), elements=[size])
    return form_item(text, "select", {"target_element": "“Size”下拉框", "value": "Large"}, step, "Order a large tee")


@pytest.mark.parametrize("text", ["Size 这一项当前显示 Small，换成 Large。", "Size 框目前是 Small，选 Large。",
                                  "The Size dropdown is currently Small; pick Large."])
def test_a_controls_current_state_is_not_read_as_the_decision(text):
    assert size_select(text).outcome != "rejected"


def test_another_option_in_the_decision_is_still_rejected():
    assert size_select("Size 现在是 Small，选“Medium”。").outcome == "rejected"


def city_typing(text: str) -> Certification:
    box = Element(0, (100, 100, 500, 140), text="City name", tag="input", flags=V + ("editable",))
    step = Step(0, PAGE, Action("type", text="Oslo", point=(300, 120), element=box), elements=[box])
    return form_item(text, "type", {"text": "Oslo", "target_element": "“City name”输入框"}, step, "Weather in Oslo")


def test_a_quoted_field_label_after_into_is_the_field_not_the_typed_value():
    assert city_typing("First the city: enter Oslo into \"City name\".").outcome == "certified"
    assert city_typing("Put it in: type Oslo in the 'City name' box.").outcome != "rejected"
    assert city_typing("Type Bergen into \"City name\".").outcome == "rejected"


def dialog_click(text: str) -> Certification:
    title = Element(0, (300, 200, 980, 260), text="Remove this item? 不可恢复", flags=("visible",))
    no = Element(1, (300, 400, 620, 460), text="取消", flags=V)
    yes = Element(2, (660, 400, 980, 460), text="确定", flags=V)
    nav = [Element(3 + i, (0, 600 + 40 * i, 200, 640 + 40 * i), text=t, flags=V) for i, t in enumerate(("Home", "Help"))]
    step = Step(0, PAGE, Action("click", point=(820, 430), element=yes), elements=[title, no, yes, *nav])
    return form_item(text, "click", {"target_element": "“确定”按钮"}, step, "Remove the item from the list")


@pytest.mark.parametrize("text", [
    "The 'Remove this item? 不可恢复' prompt is showing; hit its 确定 on the right.",  # a dialog's title
    "The footer has Home and Help. 确定 is what removes it, so click that button first and then Help.",  # a plan
])
def test_a_decision_naming_the_target_beside_another_element_is_unsure_not_rejected(text):
    got = dialog_click(text)
    assert got.outcome == "unsure" and got.first == "conflicting_decision", got


@pytest.mark.parametrize("text", ["点取消。", "Click Help, next to 确定.", "Tap 取消 to keep 确定 for later."])
def test_a_decision_naming_another_element_stays_rejected(text):
    assert dialog_click(text).outcome == "rejected"


@pytest.mark.parametrize("text", ["输入地址，末尾的句号也别落下了。", "Type the code; make sure the dash got in too.",
                                  "输入邮箱，记得 @ 后面的部分都填上了。"])
def test_an_instruction_not_to_miss_something_is_not_an_outcome(text):
    from sftdata.checks.hindsight import find_hindsight
    assert find_hindsight(text) == []


@pytest.mark.parametrize("text, index, told", [
    ("表单 5 个步骤都做完了，提交。", 4, True), ("Submitting now — the sixth and final move of this session.", 5, True),
    ("这是整个流程的最后一个操作：点提交。", 2, True), ("That makes nine actions in all.", 8, True),
    ("第一步，先点搜索框。", 0, False),  # this step's own ordinal: the agent counts its own actions
    ("任务最后一步是回到主屏幕，按 Home 键。", 3, False), ("The last step is to go home, so press Home.", 3, False),
    ("健康应用显示今天走了 8526 步。", 2, False),
])
def test_where_the_step_stands_in_the_run_leaves_it_unsure(text, index, told):
    from sftdata.checks.outcome import run_position
    assert bool(run_position(text, index)) is told


def test_a_decision_that_also_counts_the_runs_steps_is_not_certified():
    got = dialog_click("Tap 确定 — the third and last action here.")
    assert got.outcome == "unsure" and "run_position" in {r.code for r in got.reasons}


@pytest.mark.parametrize("text, outcome", [
    ("Tap 确定 -> the list comes back without it.", True),  # what an arrow points to
    ("Tapping 确定 brings the Home row back into view.", True),
    ("Click 确定; the page then starts with the Help section.", True),  # a subject's "then" is no plan
    ("点确定，页面往上滚了一截，Help 到了最上面。", True),  # a movement of the page in the perfective
    ("Tap 确定 to bring the list back.", False), ("Click 确定, then I'll check Help.", False),
])
def test_a_result_after_the_decision_is_an_outcome(text, outcome):
    from sftdata.checks.outcome import outcome_clause
    from sftdata.checks.decision import stated_decision
    decision = stated_decision(text)
    assert bool(outcome_clause(text, decision.span, decision.span[1] - len(decision.rest))) is outcome


@pytest.mark.parametrize("text", ["上一步已经做完，现在点确定。", "这一步做完再说。", "前一步操作完成了。"])
def test_the_last_or_this_step_is_no_count(text):
    from sftdata.checks.outcome import run_position
    assert run_position(text, 3) is None
