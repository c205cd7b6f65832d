"""Pass 20: a place that fits a twin covered by the dialog (``右上角那个删除`` with the toolbar's 删除 behind it) names
that twin; ``30 张里的第 1 张`` tells a viewer's position only the next screen shows; ``it returns to …`` after the
decision is a result; a button's label after ``into the`` (``into the trip search``) is a field on a typing step.
Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
WEB = Screenshot("1" * 64, "w.png", 1280, 800)
V = ("visible", "clickable")
TOOLBAR_DELETE = Element(0, (940, 146, 1060, 266), desc="删除", flags=V)
ROW_A = Element(1, (0, 900, 1080, 1000), text="张伟 周末一起去爬山吗？", flags=V)  # rows the dialog partly covers
ROW_B = Element(6, (0, 1350, 1080, 1450), text="李娜 照片收到了", flags=V)
DIALOG = Element(2, (100, 950, 980, 1400), flags=("visible",))
ASK = Element(3, (144, 1015, 468, 1085), text="删除此对话？", flags=("visible",))
CANCEL = Element(4, (574, 1291, 670, 1349), text="取消", flags=V)
DIALOG_DELETE = Element(5, (794, 1291, 890, 1349), text="删除", flags=V)
DIALOG_SCREEN = [TOOLBAR_DELETE, ROW_A, ROW_B, DIALOG, ASK, CANCEL, DIALOG_DELETE]


def _confirm(text: str) -> Certification:
    step = Step(0, PHONE, Action("click", element=DIALOG_DELETE, point=DIALOG_DELETE.center), elements=DIALOG_SCREEN)
    ep = Episode("e", "m", "删除张伟的对话", [step, Step(1, PHONE, Action("done"))])
    return certify(ep, 0, {"reasoning": text, "function": {"name": "click", "parameters": {"target_element": "“删除”按钮"}}},
                   cjk_threshold=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("弹窗出来了，点对话框里右边那个“删除”。", "certified"),
    ("弹窗出来了，点对话框里的“删除”。", "certified"),
    ("弹窗出来了，再点一次右上角那个删除。", "unsure"),  # the toolbar's 删除, covered by the dialog
])
def test_a_place_that_fits_a_covered_twin(text, outcome):
    expect(_confirm(text), outcome)


def test_a_viewer_position_only_the_next_screen_shows():
    photo = Element(0, (0, 300, 360, 660), desc="照片，6月12日 8:00", flags=V)
    counter = Element(1, (400, 100, 700, 160), text="1 / 30", flags=("visible",))
    step = Step(0, PHONE, Action("click", element=photo, point=photo.center), elements=[photo])
    later = Step(1, PHONE, Action("done"), elements=[counter])
    ep = Episode("e", "m", "翻看最近的照片", [step, later])
    got = certify(ep, 0, {"reasoning": "左上第一张 6月12日 8:00（30 张里的第 1 张），点开它。",
                          "function": {"name": "click", "parameters": {"target_element": "“照片，6月12日 8:00”"}}},
                  cjk_threshold=0.0)
    assert got.outcome == "rejected" and got.first == "future_screen_text", (got.reasons, got.evidence)


def test_it_returns_to_after_the_decision_is_a_result():
    ep = Episode("e", "m", "回到相册", [Step(0, PHONE, Action("back")), Step(1, PHONE, Action("done"))])
    got = certify(ep, 0, {"reasoning": "Back key — it returns to the photo grid.",
                          "function": {"name": "press_back", "parameters": {}}}, cjk_threshold=0.0)
    assert got.outcome != "certified", (got.reasons, got.evidence)


def test_a_buttons_label_after_into_the_is_a_field():
    field = Element(0, (100, 100, 700, 150), hint="Where to?", flags=V + ("editable",), tag="input",
                    attrs=(("type", "text"),))
    search = Element(1, (720, 100, 900, 150), text="Search", flags=V, tag="button", attrs=(("type", "submit"),))
    step = Step(0, WEB, Action("type", text="Lisbon", element=field, point=field.center), elements=[field, search])
    ep = Episode("e", "m", "Plan a trip to Lisbon", [step, Step(1, WEB, Action("done"), elements=[field, search])],
                 platform="web")
    got = certify(ep, 0, {"reasoning": "Type Lisbon into the trip search.",
                          "function": {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Where to?”输入框"}}},
                  cjk_threshold=0.0)
    assert got.outcome != "rejected", (got.reasons, got.evidence)
