"""Pass 25: a swipe's manner said after it (``拉回去``), and ``Reason:`` / ``理由：`` as headings. Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import PHONE, expect
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Step


def _swipe(text: str) -> Certification:
    row = Element(0, (0, 300, 1080, 400), text="Airplane mode", flags=("visible", "clickable"))
    steps = [Step(0, PHONE, Action("swipe", direction="down"), elements=[row]),
             Step(1, PHONE, Action("done"), elements=[row])]
    return certify(Episode("e", "m", "打开飞行模式", steps), 0, {"reasoning": text, "function": {
        "name": "swipe", "parameters": {"direction": "DOWN"}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("飞行模式在上面，手指往下滑，拖回去。", "certified"),
    ("动作：swipe(direction='DOWN')\n理由：要回到列表顶部找飞行模式", "certified"),
    ("手指往下滑，拖回去以后飞行模式就出现了。", "rejected"),
])
def test_pass_25_swipes(text, outcome):
    expect(_swipe(text), outcome)
