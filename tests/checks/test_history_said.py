"""history_said.earlier_done: a claim of what earlier steps did holds when the history has an action of its kind
(on what it names) and this step's action is not of that kind."""
from __future__ import annotations

import pytest

from sftdata.checks.history_said import earlier_done
from sftdata.model import Action, Element, Episode, Screenshot, Step

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
BOX = Element(0, (0, 100, 1080, 200), text="Search", flags=("visible", "clickable", "editable"))
DATE = Element(1, (0, 300, 1080, 400), text="Date", flags=("visible", "clickable"))


def episode(*actions: Action) -> Episode:
    return Episode("e", "m", "search", [Step(i, SHOT, a, elements=[BOX, DATE]) for i, a in enumerate(actions)])


TAP_BOX = Action("click", BOX.center, element=BOX)
TYPE = Action("type", BOX.center, text="Lisbon", element=BOX)
SWIPE = Action("swipe", direction="up")


@pytest.mark.parametrize("said, actions", [
    ("The search page is open", (TAP_BOX, TYPE)),
    ("列表已经滚过了", (SWIPE, TAP_BOX)),
    ("Everything is set", (TYPE, TAP_BOX)),
    ("照片已经翻过几张了", (SWIPE, Action("home"))),
    ("已经回到桌面了", (Action("home"), Action("done"))),
    ("Two scrolls in", (SWIPE, SWIPE, TAP_BOX)),
    ("Lisbon and Date are all set", (TYPE, TAP_BOX)),
    ("I clicked Search and the list shifted", (TAP_BOX, TYPE)),  # the earlier click's result, not a swipe
])
def test_a_claim_the_history_holds(said, actions):
    rest = earlier_done(said, episode(*actions), len(actions) - 1)
    assert rest is not None and len(rest) == len(said)


@pytest.mark.parametrize("said, actions", [
    ("The search page is open", (TYPE,)),  # nothing before: no history to hold it
    ("The search page is open", (SWIPE, TAP_BOX)),  # this step's click is what opens it
    ("列表已经滚过了", (TAP_BOX, SWIPE)),
    ("Everything is set", (TAP_BOX, TYPE)),
    ("Date was clicked earlier", (TAP_BOX, TYPE)),  # the earlier click was on another element
])
def test_a_claim_the_history_does_not_hold(said, actions):
    assert earlier_done(said, episode(*actions), len(actions) - 1) is None


def test_a_text_without_claims_is_left_alone():
    assert earlier_done("The Date row is below the box", episode(TAP_BOX, TYPE), 1) is None
