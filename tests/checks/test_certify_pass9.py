"""Pass 9: certified only when the rest of the text is accounted for as known before acting (after_decision), and
a decision that names another numbered card, another control of the call's card or another quoted value is not
certified (named_other). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.after_decision import unaccounted_after_decision
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
PAGE = Screenshot("0" * 64, "w.png", 1280, 720)
V = ("visible", "clickable")


def _episode(step: Step, goal: str, web: bool = False) -> Episode:
    return Episode("e", "m", goal, [step, Step(1, step.screenshot, Action("done"))],
                   platform="web" if web else "mobile")


def player_step() -> Step:
    rows = [Element(n, (0, 300 + 150 * n, 1080, 440 + 150 * n), text=name, flags=V)
            for n, name in enumerate(("Equalizer", "Sleep timer", "Crossfade", "Lyrics"))]
    return Step(0, PHONE, Action("click", point=rows[1].center, element=rows[1]), elements=rows)


def tap_timer(text: str) -> Certification:
    item = {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": "“Sleep timer”选项"}}}
    return certify(_episode(player_step(), "Set a sleep timer in the music player"), 0, item, cjk_threshold=0.0)


@pytest.mark.parametrize("text", [
    "Tap Sleep timer so the duration options come up.",
    "点 Sleep timer，就是 Equalizer 下面那一行。",
    "点 Sleep timer，应该会弹出时长列表。",
    "点一下 Sleep timer，之前已经看过 Equalizer 了。",
    "Tap Sleep timer, the second row under Equalizer.",
    "Tap Sleep timer (just below Equalizer), then choose a duration.",
    "点 Sleep timer，时长在下一屏再挑，别点 Crossfade。",
])
def test_each_clause_after_the_decision_is_accounted_for(text):
    assert unaccounted_after_decision(text, _episode(player_step(), "Set a sleep timer"), 0) is None


@pytest.mark.parametrize("text", [
    "Tap Sleep timer, the second row of the list.",
    "Tap Sleep timer, not Crossfade.",
    "Tap Sleep timer; after that I'll pick thirty minutes.",
    "Tap Sleep timer — it should open a list of durations.",
    "Thought: the timer is the second row.\nAction: tap Sleep timer",
    "点 Sleep timer，而不是 Crossfade。",
    "点 Sleep timer，进去以后再选时长。",
    "点 Sleep timer，看看有哪些时长可选。",
])
def test_a_clause_after_the_decision_that_an_agent_knows_before_acting_certifies(text):
    got = tap_timer(text)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text", [
    "Tap Sleep timer; a sheet with 15, 30 and 60 minutes slides in.",
    "Tap Sleep timer, and the countdown is running.",
    "Tap Sleep timer. Timer set, that wraps up the session.",
    "点 Sleep timer，倒计时已经开始走了。",
    "点 Sleep timer，底部浮出三个时长按钮。",
    "点 Sleep timer，设置好，整段操作就此收尾。",
    "点 Sleep timer 之后 Lyrics 就挪到了顶上。",
])
def test_a_state_or_an_end_told_after_the_decision_is_never_certified(text):
    got = tap_timer(text)
    assert got.outcome != "certified", text


def test_the_gate_never_rejects_and_quotes_the_clause():
    got = tap_timer("点 Sleep timer，底部浮出三个时长按钮。")
    assert got.outcome == "unsure"
    assert [r.code for r in got.reasons] == ["unaccounted_after_decision"]
    assert "底部浮出三个时长按钮" in got.reasons[0].detail


def test_a_change_on_the_screen_words_is_still_a_change():
    # Crossfade and Lyrics are on the screen, but "again" and "已经 … 了" tell what the screen is after the tap
    step, episode = player_step(), _episode(player_step(), "Set a sleep timer")
    assert unaccounted_after_decision("Tap Sleep timer, Crossfade is on top again.", episode, 0) is not None
    assert unaccounted_after_decision("点 Sleep timer，Lyrics 已经排到最上面了。", episode, 0) is not None
    assert unaccounted_after_decision("Tap Sleep timer, right above Crossfade.", episode, 0) is None
    assert step.elements


def shop_step(target: int) -> Step:
    """Three listing cards; each has its title link and a Wishlist button. ``target``: the tapped element."""
    elements = []
    for n in range(3):
        top = 150 + 160 * n
        elements += [Element(3 * n, (20, top, 1260, top + 140), text=f"Garden hose deluxe #{n + 7} $19.99 Wishlist",
                             flags=("visible",), tag="div"),
                     Element(3 * n + 1, (40, top + 10, 600, top + 50), text=f"Garden hose deluxe #{n + 7}", flags=V,
                             tag="a"),
                     Element(3 * n + 2, (1040, top + 50, 1220, top + 100), text="Wishlist", flags=V, tag="button")]
    return Step(0, PAGE, Action("click", point=elements[target].center, element=elements[target]), elements=elements)


def shop_click(text: str, target: int) -> Certification:
    step = shop_step(target)
    label = step.action.element.text
    item = {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": f"“{label}”按钮"}}}
    return certify(_episode(step, "Add the eighth garden hose to the wishlist", web=True), 0, item, cjk_threshold=0.0)


def test_a_numbered_card_other_than_the_calls_is_not_certified():
    # the call taps the Wishlist of card #8; the text names #9's row
    got = shop_click("点 #9 Garden hose deluxe 那一行右边的 Wishlist。", 5)
    assert got.outcome != "certified"
    assert "other_card_named" in {r.code for r in got.reasons}
    assert shop_click("点 #8 Garden hose deluxe 那一行右边的 Wishlist。", 5).outcome == "certified"


def test_another_numbered_card_ruled_out_is_no_doubt():
    got = shop_click("Click the Wishlist button on the #8 row, not the one for #9.", 5)
    assert got.outcome == "certified", got.reasons


def test_another_control_of_the_calls_card_is_not_certified():
    # the call taps the title link of #8; the text names that card's Wishlist button
    got = shop_click("第二张卡片右边的 Wishlist 直接点掉", 4)
    assert got.outcome != "certified"
    assert "other_card_control" in {r.code for r in got.reasons}


def form_step() -> Step:
    field = Element(0, (100, 200, 700, 250), text="", hint="City", flags=V, tag="input")
    return Step(0, PAGE, Action("type", point=field.center, element=field, text="Lyon"), elements=[field])


def type_city(text: str) -> Certification:
    item = {"reasoning": text, "function": {"name": "type", "parameters": {"target_element": "“City”输入框",
                                                                           "text": "Lyon"}}}
    return certify(_episode(form_step(), "Find hotels in Lyon", web=True), 0, item, cjk_threshold=0.0)


def test_a_quoted_value_that_differs_from_the_typed_one_is_not_certified():
    got = type_city("Pop 'Lyon, France' in the City box.")  # no verb the decision reader knows: the value alone would have grounded it
    assert got.outcome == "unsure"
    assert "other_value_quoted" in {r.code for r in got.reasons}


def test_a_differing_quoted_value_after_a_typing_verb_is_still_rejected():
    assert type_city("Enter 'Lyon, France' in the City box.").outcome == "rejected"
    assert type_city("Put 'Lyon, France' in the City box.").outcome == "rejected"  # put 'X' into: a typing verb


@pytest.mark.parametrize("text", ["Enter 'Lyon' in the City box.", "在 City 框里输入“Lyon”。"])
def test_the_same_value_quoted_certifies(text):
    got = type_city(text)
    assert got.outcome == "certified", got.reasons
