"""Pass 10: a mention a ruling-out excludes is neither evidence nor a contradiction (ruled_out); the rejecting
readers ask for a clear contradiction or hindsight. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.checks.ruled_out import mask_ruled_out
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")


def _episode(step: Step, goal: str) -> Episode:
    return Episode("e", "m", goal, [step, Step(1, step.screenshot, Action("done"))], platform="mobile")


def notes_step(target: int) -> Step:
    labels = ("Search notes", "New note", "Not now", "Shopping list", "Trip ideas")
    boxes = [(40, 200, 1040, 320), (760, 2150, 1040, 2330), (40, 2150, 400, 2330), (0, 400, 1080, 600),
             (0, 600, 1080, 800)]
    els = [Element(n, b, text=t, flags=V) for n, (t, b) in enumerate(zip(labels, boxes))]
    return Step(0, PHONE, Action("click", point=els[target].center, element=els[target]), elements=els)


def tap(text: str, target: int) -> Certification:
    label = notes_step(target).elements[target].text
    item = {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": f"“{label}”按钮"}}}
    return certify(_episode(notes_step(target), "Write a new note"), 0, item, cjk_threshold=0.0)


@pytest.mark.parametrize("text, target, never", [
    ("No need to use Search notes — tap New note at the bottom right.", 1, "rejected"),
    ("Rather than Search notes, go straight for New note.", 1, "rejected"),
    ("不必用 Search notes，直接点 New note。", 1, "rejected"),
    ("别点 Search notes，点右下角的 New note。", 1, "rejected"),
    ("Search notes is the wrong control for this; tap New note.", 1, "rejected"),
    ("Search notes 不对，点 New note。", 1, "rejected"),
    # the ruled-out mention is the call's target: no evidence for it
    ("the note is right there already, no need to open Search notes — just tap that card", 0, "certified"),
    ("用不着 Search notes 了，直接点那条笔记", 0, "certified"),
    ("Skip Search notes and tap that one.", 0, "certified"),
    # the decision beside a ruled-out target still names another element
    ("Search notes is the wrong one here, so tap New note.", 0, "certified"),
    ("不是 Search notes，要点 New note。", 0, "certified"),
])
def test_a_ruled_out_mention_is_neither_contradiction_nor_evidence(text, target, never):
    got = tap(text, target)
    assert got.outcome != never, (got.reasons, got.evidence)


@pytest.mark.parametrize("text", ["Search notes is the wrong one here, so tap New note.", "不是 Search notes，要点 New note。"])
def test_a_decision_naming_another_element_is_rejected(text):
    assert tap(text, 0).outcome == "rejected"


def test_a_label_that_holds_a_ruling_word_is_a_name():
    assert tap("A prompt is in the way: tap Not now at the bottom left.", 2).outcome == "certified"


@pytest.mark.parametrize("text, word, kept", [
    # a doubt, a reminder or a condition rules nothing out
    ("Don't forget to tap Save first.", "Save", True),
    ("Not sure the list has it; tap Search anyway.", "Search", True),
    ("是不是要点保存？先点保存。", "保存", True),
    ("Tap Send whether or not the preview loaded.", "Send", True),
    # what a ruling-out excludes is blanked
    ("Instead of the filter chip, open the sort menu.", "filter chip", False),
    ("先不管那个广告，往下翻。", "那个广告", False),
    ("the banner isn't the one, the Buy button is", "banner", False),
    ("不需要点放大镜，搜索框已经在上面", "放大镜", False),
])
def test_what_a_ruling_out_blanks(text, word, kept):
    assert (word in mask_ruled_out(text)) is kept


def _done(text: str) -> Certification:
    done = Step(1, PHONE, Action("done"), elements=notes_step(1).elements)
    return certify(Episode("e", "m", "Turn on sync", [notes_step(1), done], platform="mobile"), 1,
                   {"reasoning": text, "function": {"name": "done", "parameters": {}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text", ["Switch reads Enabled at last. Job complete.", "Slider shows 80% already. All done."])
def test_a_noun_before_shows_or_reads_is_a_subject_not_a_verb(text):
    assert _done(text).outcome != "rejected"


def test_a_tap_beside_a_subject_that_shows_is_still_a_decision():
    assert _done("Switch to the Sync tab and tap it.").outcome == "rejected"


@pytest.mark.parametrize("text, found", [
    ("Close the viewer with the back key, and after that go home.", []),
    ("Leave the album with the back key; right after that get back home.", []),
    ("Press back. After that the album grid reloads.", ["After that"]),
    ("Open the second note, the one titled Trip ideas.", []),
    ("Pick the cheapest mug, the one priced ¥39.", []),
])
def test_after_that_before_an_action_and_a_property_participle_are_no_hindsight(text, found):
    from sftdata.checks.hindsight import find_hindsight
    assert find_hindsight(text) == found
