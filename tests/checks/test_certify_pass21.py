"""Pass 21: the free text an action object carries (``"reason": "…"``) is read with it, after the call; ``which then shows`` tells
the next screen; a value said to go in (``Email goes in — the field now displays …``) is this step's typing, so
what follows it is its outcome. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

WEB = Screenshot("1" * 64, "w.png", 1280, 800)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
FIELD = Element(0, (100, 100, 700, 150), hint="Email", flags=("visible", "clickable", "editable"), tag="input",
                attrs=(("type", "text"),))


def _type(text: str) -> Certification:
    step = Step(0, WEB, Action("type", text="a@b.com", element=FIELD, point=FIELD.center), elements=[FIELD])
    ep = Episode("e", "m", "Sign up with a@b.com", [step, Step(1, WEB, Action("done"), elements=[FIELD])], platform="web")
    return certify(ep, 0, {"reasoning": text, "function": {"name": "type", "parameters": {
        "text": "a@b.com", "target_element": "“Email”输入框"}}}, cjk_threshold=0.0)


def _home(text: str) -> Certification:
    ep = Episode("e", "m", "回到桌面", [Step(0, PHONE, Action("home")), Step(1, PHONE, Action("done"))])
    return certify(ep, 0, {"reasoning": text, "function": {"name": "press_home", "parameters": {}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("run, text, outcome", [
    (_home, '{"action": "press_home", "reason": "任务要求回到桌面"}', "certified"),
    (_home, '{"action": "press_home", "reason": "回到桌面后桌面显示了天气"}', "rejected"),  # why it acts, read before
    # the call (pass 48): the outcome it tells is hindsight
    (_type, "Typing a@b.com into Email, which then shows a@b.com.", "rejected"),
    (_type, "Email goes in — the field now displays a@b.com.", "rejected"),
    (_type, "The Email field, which shows nothing yet, gets a@b.com.", "certified"),
])
def test_pass_21_readings(run, text, outcome):
    expect(run(text), outcome)
