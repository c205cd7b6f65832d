"""Pass 42: the describing writer's history in a few more shapes: the last steps named as the source of what is
set (``in place from the last two steps``, ``前两步设好的``), a pick told with ``选成了``, and a dialog confirmed in so
many words. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.checks.decision import stated_decision
from sftdata.checks.history_said import earlier_done
from sftdata.checks.outcome import run_position
from sftdata.model import Action, Episode, Screenshot, Step

from scenes import certify_text, click, el, tap, typed

SHOT = Screenshot("1" * 64, "w.png", 1280, 800)


def test_the_last_steps_as_the_source_of_a_value_are_no_run_length():
    text = "Title and city are both in place from the last two steps; pick Remote next."
    assert run_position(text, 3) is None
    assert run_position("Title and city came from the last two steps.", 1) == "two steps"  # only one step before
    assert run_position("That was the eighth and last step of this run.", 3) is not None


CITY = el(0, (40, 100, 400, 160), "City", flags=("clickable",))
TICKETS = el(1, (440, 100, 640, 160), "Seats", flags=("clickable",))
GO = el(2, (700, 100, 820, 160), "Go")
FORM = [CITY, TICKETS, GO]


def test_a_pick_told_with_cheng_le_is_history():
    before = [typed(CITY, "Paris", "“City”")[0], Action("select", element=TICKETS, point=TICKETS.center, text="3")]
    text = "点 Go。城市是 Paris，座位数选成了 3，这两项都是前两步设好的。"
    got = certify_text(tap(GO), click("“Go”按钮"), text, FORM, before=before)
    assert got.outcome == "certified", got.reasons


def test_a_value_filled_in_the_first_step_is_history():
    steps = [Step(0, SHOT, Action("type", text="Paris", element=CITY, point=CITY.center), elements=FORM),
             Step(1, SHOT, Action("click", element=GO, point=GO.center), elements=FORM)]
    episode = Episode("e", "m", "Find seats in Paris", steps, platform="web")
    assert earlier_done("City filled in on the first step", episode, 1) is not None
    assert earlier_done("City filled in on the first step", episode, 0) is None  # nothing before the first step


def test_a_dialog_confirmed_in_so_many_words_is_a_click():
    decision = stated_decision("Confirm in the dialog — its Remove button on the right, not Keep.")
    assert decision is not None and decision.verb == "click"
    assert stated_decision("I want to confirm in my head that this is the right row.") is None or \
        stated_decision("I want to confirm in my head that this is the right row.").verb != "click"


def test_a_form_not_yet_filled_is_no_outcome():
    from sftdata.checks.hindsight import find_hindsight
    assert find_hindsight("Type Ada into Name. No field has been filled in yet.") == []
    assert find_hindsight("Type Ada into Name. The field has been filled in.") != []


def test_gerunds_listed_before_was_describe_the_goal():
    assert stated_decision("Finding the cheapest seat and opening its page was the whole task.") is None
    assert stated_decision("Finding the cheapest seat and opening its page now.") is not None


def test_what_an_earlier_search_returned_is_history():
    field = el(0, (40, 100, 600, 160), "Search", flags=("clickable", "editable"))
    steps = [Step(0, SHOT, Action("type", text="desk lamp", element=field, point=field.center), elements=[field]),
             Step(1, SHOT, Action("swipe", direction="up"), elements=[field])]
    episode = Episode("e", "m", "Find a desk lamp", steps, platform="web")
    assert earlier_done("The search for desk lamp has returned a list", episode, 1) is not None


def test_swipes_counted_as_many_as_the_history_holds_are_history():
    shot = Screenshot("0" * 64, "p.png", 1080, 2400)
    steps = [Step(i, shot, Action("swipe", direction="left")) for i in range(3)] + [Step(3, shot, Action("done"))]
    episode = Episode("e", "m", "Flip through a few photos", steps)
    assert earlier_done("It is the 6th shot, after two left swipes", episode, 2) is not None
    assert earlier_done("It is the 6th shot, after two left swipes", episode, 1) is None  # only one before


SEATS = el(0, (440, 100, 640, 160), "Seats", flags=("clickable",))


def select_seats(text: str, value: str = "2"):
    action = Action("select", element=SEATS, point=SEATS.center, text=value)
    function = {"name": "select", "parameters": {"value": value, "target_element": "“Seats”下拉框"}}
    return certify_text(action, function, text, [SEATS])


def test_set_a_select_to_another_option_contradicts():
    assert select_seats("Set Seats to 4.").outcome == "rejected"
    assert select_seats("Set Seats to 2.").outcome == "certified"


def test_set_a_select_then_its_new_value_is_hindsight():
    assert select_seats("Set Seats to 2; the dropdown now reads 2.").outcome == "rejected"


def test_an_action_said_for_next_is_a_later_plan():
    decision = stated_decision("Paris is typed. Click Go; I'll set Seats to 2 next.")
    assert decision is not None and decision.phrase.startswith("Click Go")
    assert stated_decision("Tap Next.").phrase == "Tap Next"
