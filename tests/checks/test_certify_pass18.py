"""Pass 18: a call line with a clause after it (``swipe(direction="LEFT")，翻到下一张``) is still a call; ``the next
batch has …`` tells the next screen; a perfective narration before (``提示删除了 1 个对话``) does not make this
step's own action and purpose (``点她的头像打开对话``) an outcome; ``打开成功`` reports, it does not open; a result
said after the decision (``booking confirmed``) is not accounted for; ``切一下开关`` and ``勾一下`` are the tap
itself. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Screenshot, Step

PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")
MOM = Element(0, (40, 300, 160, 420), desc="妈妈 的头像", flags=V)
ROW = Element(1, (0, 300, 1080, 420), text="妈妈 晚上回家吃饭吗？", flags=("visible",))
TOGGLE = Element(2, (0, 600, 1080, 700), text="Vibrate for calls", flags=V + ("checkable",))


def _run(action: Action, function: dict, text: str, elements=(MOM, ROW, TOGGLE)) -> Certification:
    ep = Episode("e", "m", "回复妈妈，并打开来电振动",
                 [Step(0, PHONE, action, elements=list(elements)), Step(1, PHONE, Action("done"), elements=list(elements))])
    return certify(ep, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


def _tap(element: Element, label: str, text: str) -> Certification:
    return _run(Action("click", element=element, point=element.center),
                {"name": "click", "parameters": {"target_element": f"“{label}”选项"}}, text)


def _swipe(text: str) -> Certification:
    return _run(Action("swipe", point=(900, 1200), end=(200, 1200)),
                {"name": "swipe", "parameters": {"direction": "left"}}, text)


@pytest.mark.parametrize("run, text, outcome", [
    (lambda t: _swipe(t), 'Thought: 现在是第 6 张，往后翻。\nAction: swipe(direction="LEFT")，翻到下一张。', "certified"),
    (lambda t: _swipe(t), "Swipe left once more; the next batch has the photos from June.", "rejected"),
    (lambda t: _tap(MOM, "妈妈 的头像", t), "底部提示删除了 1 个对话。接下来回复妈妈，点她的头像打开对话。", "certified"),
    (lambda t: _tap(TOGGLE, "Vibrate for calls", t), "点“Vibrate for calls”这一项，切一下开关。", "certified"),
    (lambda t: _tap(TOGGLE, "Vibrate for calls", t), "勾一下 Vibrate for calls 那一项", "certified"),
    (lambda t: _tap(TOGGLE, "Vibrate for calls", t), "Tap Vibrate for calls — setting confirmed for every call.", "rejected"),
])
def test_pass_18_readings(run, text, outcome):
    expect(run(text), outcome)


def test_a_success_reported_is_no_decision_to_open():
    got = _run(Action("home"), {"name": "press_home", "parameters": {}}, "蓝牙已经显示 On，打开成功。任务后半句是回桌面，按 Home 键。")
    assert got.outcome == "certified", (got.reasons, got.evidence)
