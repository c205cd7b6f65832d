"""Pass 17: a JSON object of free-text fields (``{"thought": "…", "action": "tap Tours"}``) and a one-key action object
with a comment (``{"click": "Tours"}  // the row …``) read as lines; ``part one of the goal is finished`` is no claim
that the task is; ``start from the Tours link`` taps it; ``Job type`` is a name, not typing; ``左右翻看`` has no
direction; what follows ``再`` is a later step; a state after ``after the swipe``, said after the decision, is not
accounted for. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")
GUIDES = Element(0, (100, 250, 700, 290), text="Guides", flags=V, tag="a")
TOURS = Element(1, (100, 300, 700, 340), text="Tours", flags=V, tag="a")
KIND = Element(2, (100, 450, 500, 490), text="Any Full-time Part-time", flags=V, tag="select",
               attrs=(("aria_label", "Job type"),))
SCENE = [GUIDES, TOURS, KIND]


def _web(action: Action, function: dict, text: str) -> Certification:
    return certify_text(action, function, text, SCENE, goal="Look at the tours, then find a full-time job")


def _tap_tours(text: str) -> Certification:
    return _web(tap(TOURS), click("“Tours”元素"), text)


def _select_full_time(text: str) -> Certification:
    return _web(Action("select", text="Full-time", element=KIND, point=KIND.center),
                {"name": "select", "parameters": {"target_element": "“Job type”下拉框", "value": "Full-time"}}, text)


def _swipe(text: str, direction: str = "right") -> Certification:
    start, end = ((200, 1200), (900, 1200)) if direction == "right" else ((540, 1800), (540, 600))
    ep = Episode("e", "m", "左右翻看照片", [Step(0, PHONE, Action("swipe", point=start, end=end)),
                                        Step(1, PHONE, Action("done"))])
    return certify(ep, 0, {"reasoning": text, "function": {"name": "swipe", "parameters": {"direction": direction}}},
                   cjk_threshold=0.0)


@pytest.mark.parametrize("run, text, outcome", [
    (_tap_tours, '{"thought": "The tours are what the task wants first.", "action": "tap Tours"}', "certified"),
    (_tap_tours, 'Action: {"click": "Tours"}  // the second row, under Guides', "certified"),
    (_tap_tours, '{"thought": "The tours are what the task wants first.", "action": "tap Guides"}', "rejected"),
    (_tap_tours, "Part one of the goal is finished (nothing else is open). Part two: tap Tours.", "certified"),
    (_tap_tours, "The tours come first, so I'll start from the Tours link.", "certified"),
    (_tap_tours, "先点 Tours，再找 Guides 看看。", "certified"),  # Guides: a later step, not this tap's object
    (_select_full_time, "Thought: the keyword is in, Job type still says Any.\nAction: 在 Job type 里选 Full-time",
     "certified"),
])
def test_fields_parts_starts_and_names(run, text, outcome):
    expect(run(text), outcome)


def test_both_ways_is_no_direction():
    got = _swipe("I've gone forward once; to cover the 左右翻看 part I'll swipe right and go back a picture.")
    assert got.outcome != "rejected", (got.reasons, got.evidence)


def test_a_state_after_the_swipe_said_after_the_decision_is_not_certified():
    got = _swipe("Swipe up a bit; after the swipe the Anker case sits at the top.", "up")
    assert got.outcome != "certified", (got.reasons, got.evidence)
    got = _swipe("After the last swipe the list is in the middle. Swipe up a bit.", "up")
    assert got.outcome == "certified", (got.reasons, got.evidence)  # before the decision: the last step's
