"""Pass 43: words that name an action without deciding it: the goal's own wording (``The goal only asked to toggle
it``), an action as the subject of what it brought (``where the Back press took me``), and ``the input box`` as a
noun. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.decision import action_clauses, stated_decision


@pytest.mark.parametrize("text", [
    "Finished. The goal only asked to toggle it, and it reads On.",
    "Finished: the list is what the Back press took me to, and nothing else is asked.",
])
def test_told_actions_are_no_decision(text):
    assert stated_decision(text) is None


def test_the_input_box_is_a_noun():
    clauses = action_clauses("Post it — the Post button, right of the input box.")
    assert "input" not in [c.verb for c in clauses]
    assert [c.verb for c in action_clauses("Input 42 in the box.")] == ["input"]


def test_an_action_the_goal_asks_for_later_in_the_text_still_decides():
    assert stated_decision("The goal asks for Wi-Fi, so tap Wi-Fi.").verb == "click"
