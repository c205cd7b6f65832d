"""Pass 24: a run of spaces before a clause of its own (``bt row says off  tap it``); ``afterwards …`` with a state;
a numbered plan's first item (or the one the text says it is on) is the decision, its later items are plans; ``它在…``
describes the target. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import PHONE, certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Step


def _el(i: int, box: tuple[int, int, int, int], text: str = "", **kw) -> Element:
    return Element(i, box, text=text, flags=("visible",) + kw.pop("flags", ("clickable",)), **kw)


WIFI = _el(0, (0, 400, 1080, 500), "Wi-Fi")
NFC = _el(1, (0, 520, 1080, 620), "NFC")


@pytest.mark.parametrize("text, outcome", [
    ("nfc row second from top  tap it", "certified"),
    ("nfc row second from top tap it", "unsure"),  # one space: the pronoun has nothing before it to point to
    ("NFC is off. Tap it; afterwards the row reads On.", "rejected"),  # the wording rules knew this one
    ("NFC is off. Tap it — afterwards the list is as it was, Wi-Fi above NFC.", "unsure"),
    ("NFC is off. Tap it; the row should read On afterwards.", "certified"),
])
def test_pass_24_taps(text, outcome):
    expect(certify_text(tap(NFC), click("“NFC”开关"), text, [WIFI, NFC], web=False), outcome)


FIELD = _el(0, (100, 100, 600, 150), hint="Destination", flags=("clickable", "editable"), tag="input")
GO = _el(1, (650, 100, 800, 150), "Go", tag="button")


def _type(text: str) -> Certification:
    typed = Action("type", text="Lisbon", element=FIELD, point=FIELD.center)
    call = {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Destination”输入框"}}
    return certify_text(typed, call, text, [FIELD, GO], goal="Find tours in Lisbon")


@pytest.mark.parametrize("text, outcome", [
    ("1. 在 Destination 里输入 Lisbon\n2. 点 Go\n3. 打开第一个结果", "certified"),
    ("1. Type Lisbon into Destination\n2. Press Go\n3. Open the first result", "certified"),
    ("1. 在 Destination 里输入 Lisbon\n2. 点 Go\n现在做第 2 步。", "unsure"),  # step 2 is this one: Go, not typing
    ("- header: Tours, Go\n- a form: Destination (empty)\nType Lisbon into Destination.", "certified"),
])
def test_a_numbered_plan(text, outcome):
    expect(_type(text), outcome)


def test_a_pronoun_placing_the_target():
    album = _el(0, (400, 900, 600, 1100), "相册")
    steps = [Step(0, PHONE, Action("open_app", app="相册"), elements=[album]), Step(1, PHONE, Action("done"))]
    got = certify(Episode("e", "m", "翻看最近的照片", steps), 0, {"reasoning": "先打开“相册”应用，它在第二排中间。",
                                                          "function": {"name": "open_app",
                                                                       "parameters": {"app_name": "相册"}}},
                  cjk_threshold=0.0)
    expect(got, "certified")
