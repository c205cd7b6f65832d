"""sftdata.checks.certify: certified only with positive evidence, rejected on a contradiction or hindsight, unsure
otherwise; each kind of evidence on small screens, in Chinese and English and in wordings other than the labelled
sets', and the development figures of the labelled sets (training figures: the honest ones come from parts
written after the freeze, see docs/checks.md)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sftdata.checks.certify import Certification, certify, certify_items, outcome_counts
from sftdata.model import Action, Element, Episode, Screenshot, Step

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
V = ("visible", "clickable")


def row(i: int, text: str, top: int, **kw) -> Element:
    return Element(i, (0, top, 1080, top + 100), text=text, flags=V, **kw)


def episode(step: Step, goal: str = "打开蓝牙", later: list[Step] | None = None) -> Episode:
    steps = [step] + (later or []) + [Step(1 + len(later or []), SHOT, Action("done"))]
    return Episode("e", "sample", goal, steps)


def settings_step() -> Step:
    rows = [row(0, "WLAN", 300), row(1, "蓝牙", 400), row(2, "显示", 500)]
    return Step(0, SHOT, Action("click", point=(540, 450), element=rows[1]), elements=rows)


def click(text: str, step: Step | None = None, target: str = "“蓝牙”选项", goal: str = "打开蓝牙",
          later: list[Step] | None = None) -> Certification:
    step = step or settings_step()
    item = {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": target}}}
    return certify(episode(step, goal, later), 0, item, cjk_threshold=0.0)


@pytest.mark.parametrize("text", ["所以点击“蓝牙”。", "Tap Bluetooth's row — 蓝牙.", "点蓝牙那一行，进去再打开开关。",
                                  "The row between WLAN and 显示 is 蓝牙; tap it."])
def test_a_decision_that_names_the_target_is_certified(text):
    got = click(text)
    assert got.outcome == "certified", got
    assert {e.kind for e in got.evidence} & {"name", "card"} and got.reasons == ()


@pytest.mark.parametrize("text, code", [
    ("要打开无线网络设置，所以点击“WLAN”。", "reasoning_contradicts_action"),  # another element of this screen
    ("这是第 1 步，共 2 步。点击“蓝牙”。", "hindsight"),  # the episode's length
])
def test_contradictions_and_hindsight_are_rejected_with_their_reason(text, code):
    got = click(text)
    assert got.outcome == "rejected" and got.first == code


@pytest.mark.parametrize("text, code", [
    ("先看看这个页面。", "no_decision"),
    ("Tap the row.", "decision_not_grounded"),  # which one?
    ("点击“蓝牙”，进去后开关在最上面。", "outcome_after_action"),  # an outcome, whatever its words
    ("Tap 蓝牙 — the page has the switch on top.", "outcome_after_action"),
    ("Tap 蓝牙. The switch sits at the top of that page.", "outcome_after_action"),
])
def test_without_positive_evidence_or_with_an_outcome_it_is_unsure(text, code):
    got = click(text)
    assert got.outcome == "unsure" and got.first == code, got
    assert got.reasons[0].detail


def test_a_plan_naming_a_later_screen_is_never_hindsight():
    later = Step(1, SHOT, Action("click", point=(540, 350)), elements=[row(0, "已配对的设备", 300)])
    expected = click("点击“蓝牙”，应该会看到“已配对的设备”。", later=[later])
    assert expected.outcome == "unsure" and "plan_names_later_screen" in {r.code for r in expected.reasons}
    plan = click("点击“蓝牙”，进去以后再点“已配对的设备”。", later=[later])  # a later action's target: a plan
    assert plan.outcome == "certified"
    told = click("点击“蓝牙”，列表顶上是“已配对的设备”。", later=[later])  # told as fact: hindsight
    assert told.outcome == "rejected" and told.first == "future_screen_text"


def test_twins_need_an_ordinal_a_place_or_their_card():
    cards = []
    for i, name in enumerate(["Soft earbuds #1", "Pro earbuds #2", "Max earbuds #3"]):
        top = 300 + 400 * i
        cards += [Element(10 + i, (0, top, 1080, top + 380), flags=("visible",)),
                  Element(20 + i, (40, top + 20, 700, top + 80), text=name, flags=V),
                  Element(30 + i, (760, top + 250, 1040, top + 340), text="Add to cart", flags=V)]
    target = cards[-1 - 3]  # the second card's button
    step = Step(0, SHOT, Action("click", point=(900, 1000), element=target), elements=cards)
    assert click("Tap Add to cart.", step, "“Add to cart”按钮").first == "decision_not_grounded"
    for text in ("Tap Add to cart on Pro earbuds #2.", "点第二个 Add to cart。", "Tap the second Add to cart button."):
        assert click(text, step, "“Add to cart”按钮").outcome == "certified", text
    assert click("Tap Add to cart on Soft earbuds #1.", step, "“Add to cart”按钮").outcome != "certified"
    assert click("点第三个 Add to cart。", step, "“Add to cart”按钮").outcome != "certified"


def test_a_role_singles_out_the_only_element_of_its_kind():
    box = Element(0, (36, 150, 1044, 260), desc="搜索框", hint="搜索商品", flags=V + ("editable",))
    cam = Element(1, (944, 160, 1034, 250), desc="拍照搜索", flags=V)
    step = Step(0, SHOT, Action("click", point=(500, 200), element=box), elements=[box, cam])
    assert click("Tapping the search box at the top.", step, "“搜索框”").outcome == "certified"
    assert click("点拍照搜索图标。", step, "“搜索框”").outcome != "certified"


def typing(text: str, typed: str = "OK, 没问题") -> Certification:
    field = Element(0, (130, 2189, 920, 2309), desc="短信输入框", flags=V + ("editable",))
    step = Step(0, SHOT, Action("input", text=typed), elements=[field])
    item = {"reasoning": text, "function": {"name": "input", "parameters": {"text": typed}}}
    return certify(episode(step, "回复“OK, 没问题”"), 0, item, cjk_threshold=0.0)


def test_typing_is_certified_by_the_whole_typed_value_only():
    for text in ("Keyboard is up. Type the reply: OK, 没问题", "输入 OK, 没问题 然后发送。", "输入“OK, 没问题”。"):
        assert typing(text).outcome == "certified", text
    assert typing("输入“OK，没问题，马上到”。").outcome != "certified"  # a longer value in quotes
    assert typing("Type the reply.").first == "decision_not_grounded"


def test_a_select_value_said_without_a_verb_is_evidence_and_another_option_is_not():
    state = Element(0, (1004, 120, 1224, 165), text="Texas Florida", tag="select",
                    attrs=(("aria_label", "State"),), flags=V)
    step = Step(0, Screenshot("0" * 64, "x.png", 1280, 720), Action("select", text="Texas", point=(1100, 140),
                                                                   element=state), elements=[state])
    ep = Episode("w", "m", "Reserve a car in Texas", [step, Step(1, step.screenshot, Action("done"))], platform="web")

    def cert(text):
        item = {"reasoning": text, "function": {"name": "select", "parameters": {"target_element": "“State”下拉框",
                                                                                 "value": "Texas"}}}
        return certify(ep, 0, item, cjk_threshold=0.0)
    assert cert("State: Texas.").outcome == "certified"
    assert cert("State 下拉框选 Texas。").outcome == "certified"
    assert cert("State dropdown → Florida.").outcome != "certified"
    assert cert("Texas is now selected.").outcome != "certified"  # a result, not the decision


@pytest.mark.parametrize("action, name, params, good, bad", [
    (Action("swipe", point=(540, 1600), end=(540, 800)), "swipe", {"direction": "UP"},
     "往下翻一翻，看看后面还有什么。", "手指往下滑，回到开头。"),
    (Action("swipe", point=(900, 1200), end=(100, 1200)), "swipe", {"direction": "LEFT"},
     "First of three swipes: finger moves from right to left.", "Swipe right to see the next photo."),
    (Action("open_app", app="商城"), "open_app", {"app_name": "商城"}, "直接启动商城 App。", "先启动“相册”应用看看。"),
    (Action("back"), "press_back", {}, "按系统返回键退出大图。", "点击左上角的返回箭头。"),
    (Action("home"), "press_home", {}, "Press the home key now.", "看看桌面。"),
    (Action("wait"), "wait", {}, "I'll hold on a moment and let the home page load.", "页面上没有可点的。"),
])
def test_the_call_itself_is_what_the_decision_must_say(action, name, params, good, bad):
    step = Step(0, SHOT, action, elements=[row(0, "商城", 300)])
    item = lambda text: {"reasoning": text, "function": {"name": name, "parameters": params}}  # noqa: E731
    assert certify(episode(step), 0, item(good), cjk_threshold=0.0).outcome == "certified"
    assert certify(episode(step), 0, item(bad), cjk_threshold=0.0).outcome != "certified"


def test_done_needs_a_completion_and_no_other_decision():
    ep = Episode("e", "sample", "打开蓝牙", [settings_step(), Step(1, SHOT, Action("done"))])
    done = lambda text: {"reasoning": text, "function": {"name": "done", "parameters": {}}}  # noqa: E731
    assert certify(ep, 1, done("删除和回复两件事都完成了。"), cjk_threshold=0.0).outcome == "certified"
    assert certify(ep, 1, done("Goal satisfied — finishing here."), cjk_threshold=0.0).outcome == "certified"
    assert certify(ep, 1, done("为了完成任务，接下来向上滑动查看更多内容。"), cjk_threshold=0.0).outcome != "certified"


def test_a_description_of_the_current_state_is_not_the_decision():
    assert click("The list is scrolled to WLAN and 蓝牙. Tap 蓝牙.").outcome == "certified"
    assert click("下拉框现在显示 WLAN，不用管它，点击“蓝牙”。").outcome == "certified"


def test_certify_items_rejects_every_item_on_a_list_failure_and_counts_outcomes():
    ep = Episode("e", "sample", "打开蓝牙", [settings_step(), Step(1, SHOT, Action("done"))])
    good = [{"reasoning": "所以点击“蓝牙”。", "function": {"name": "click", "parameters": {"target_element": "“蓝牙”"}}},
            {"reasoning": "蓝牙设置已打开，任务完成。", "function": {"name": "done", "parameters": {}}}]
    assert [c.outcome for c in certify_items(good, ep)] == ["certified", "certified"]
    got = certify_items(good[:1], ep)  # one item for two screenshots
    assert [c.first for c in got] == ["item_count_mismatch"]
    assert outcome_counts(got) == {"certified": 0, "unsure": 0, "rejected": 1}
    assert got[0].to_dict()["reasons"][0]["code"] == "item_count_mismatch"


@pytest.fixture(scope="module")
def development_figures():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import certify as bench  # noqa: PLC0415

    episodes, steps = bench.load_episodes(), bench.load_steps()
    results = []
    for part in bench.PARTS:
        results += bench.run(bench.certify_records(bench.HERE, part, episodes, steps))
    return bench, results


@pytest.mark.parametrize("group", ["pooled", "zh", "en", "phone", "web"])
def test_development_figures_meet_the_targets_comfortably(development_figures, group):
    bench, results = development_figures
    if group != "pooled":
        key = "lang" if group in ("zh", "en") else "platform"
        results = [(r, c) for r, c in results if r[key] == group]
    f = bench.figures(results)
    ratio = {k: n / d for k, (n, d) in f.items()}
    assert ratio["bad certified"] <= 0.01 and ratio["aligned certified"] >= 0.87
    assert ratio["rejected precision"] >= 0.99
