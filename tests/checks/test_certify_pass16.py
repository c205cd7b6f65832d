"""Pass 16: an action object in JSON (``{"action": "click", "target": "Tours"}``, ``{"name": "type", "arguments":
{...}}``) and ``<think>`` tags read as the spoken line they stand for, and the object's keys are no names of the
screen; a ``## Action`` heading is a heading; ``先把 X 改成 …`` decides now; a row named by the row above or below it
(``the row just above Hotels``) is the row the screen puts there, and any other row is a contradiction; ``submit with Reserve now`` decides a tap; ``Viewer open at 6 / 30``
is a state. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
V = ("visible", "clickable")
FIELD = Element(0, (100, 100, 700, 150), hint="Where to?", flags=V + ("editable",), tag="input",
                attrs=(("type", "text"), ("placeholder", "Where to?")))
GUIDES = Element(1, (100, 250, 700, 290), text="Guides", flags=V, tag="a")
TOURS = Element(2, (100, 300, 700, 340), text="Tours", flags=V, tag="a")
HOTELS = Element(3, (100, 350, 700, 390), text="Hotels", flags=V, tag="a")
SORT = Element(4, (100, 450, 500, 490), text="Relevance Price", flags=V, tag="select", attrs=(("aria_label", "Sort by"),))
SCENE = [FIELD, GUIDES, TOURS, HOTELS, SORT]


def _run(action: Action, function: dict, text: str) -> Certification:
    return certify_text(action, function, text, SCENE)


def _tap_tours(text: str) -> Certification:
    return _run(tap(TOURS), click("“Tours”元素"), text)


def _type_lisbon(text: str) -> Certification:
    return _run(Action("type", text="Lisbon", element=FIELD, point=FIELD.center),
                {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Where to?”元素"}}, text)


@pytest.mark.parametrize("run, text, outcome", [
    (_tap_tours, 'The tours are next.\n{"action": "click", "target": "Tours"}', "certified"),
    (_tap_tours, '## Observation\nGuides, Tours, Hotels.\n## Action\n{"action_type": "tap", "element": "Tours"}', "certified"),
    (_tap_tours, '<think>行程在中间那一行。</think>\n{"name": "click", "arguments": {"target_element": "Tours"}}', "certified"),
    (_tap_tours, 'The tours are next.\n{"action": "click", "target": "Hotels"}', "rejected"),
    (_type_lisbon, '**操作**：{"action_type": "type", "target": "Where to?", "text": "Lisbon"}', "certified"),
    (_type_lisbon, 'The destination first.\n{"action_type": "type", "text": "Lisbn"}', "rejected"),
])
def test_an_action_object_reads_as_its_words(run, text, outcome):
    expect(run(text), outcome)


@pytest.mark.parametrize("text, outcome", [
    ("Tap the row just above Hotels.", "certified"),    # Tours is that row on the screen: its neighbour places it
    ("Tap the link right below Guides.", "certified"),
    ("Tap Tours, the row just below Guides.", "certified"),  # named by its own label; the neighbour is its place
    ("Tap the row just below Hotels.", "rejected"),     # the row below Hotels is not Tours: another row named
    ("Tap the row just above Tours.", "unsure"),        # Guides, by its neighbour: never certified
    ("It's time to submit with Hotels.", "rejected"),  # a tap of another element, said with submit
])
def test_rows_named_by_their_neighbours_and_submitting_with(text, outcome):
    expect(_tap_tours(text), outcome)


def test_a_select_changed_first_decides_now():
    got = _tap_tours("先把 Sort by 改成按价格排序，再点 Tours。")
    assert got.outcome == "rejected", (got.reasons, got.evidence)


def test_a_viewer_open_at_a_page_is_a_state():
    phone = Screenshot("0" * 64, "p.png", 1080, 2400)
    swipe = Step(0, phone, Action("swipe", point=(900, 1200), end=(200, 1200)))
    ep = Episode("e", "m", "翻看照片", [swipe, Step(1, phone, Action("done"))])
    got = certify(ep, 0, {"reasoning": "Viewer open at 6 / 30. Next photo → swipe left.",
                          "function": {"name": "swipe", "parameters": {"direction": "left"}}}, cjk_threshold=0.0)
    assert got.outcome != "rejected", (got.reasons, got.evidence)
