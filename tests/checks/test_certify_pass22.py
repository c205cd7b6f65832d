"""Pass 22: spaces a hurried Chinese note uses as commas; a field said to hold the typed value before the call types
it; ``leave X alone``; words of grammar that are also a page's labels (``about``, ``from``); ``put 'X' into``; a
result named after its number (``#13, Travel show daily``); ``选它``; ``到时候``; an apposition ``the one inside the
popup``. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from scenes import PHONE, WEB, certify_text, click, expect, tap
from sftdata.checks.certify import Certification, certify
from sftdata.model import Action, Element, Episode, Step


def _el(i: int, box: tuple[int, int, int, int], text: str = "", **kw) -> Element:
    return Element(i, box, text=text, flags=("visible", "clickable") + kw.pop("flags", ()), **kw)


CART = _el(0, (40, 2200, 520, 2320), "加入购物车")
BUY = _el(1, (560, 2200, 1040, 2320), "立即购买")
TITLE = _el(2, (40, 400, 1040, 480), "Anker 保温杯 经典款")
BACK = _el(3, (10, 140, 130, 260), desc="返回")
LIST_ROW = _el(4, (40, 600, 1040, 700), "OPPO 保温杯 旗舰款")


def _phone(action: Action, function: dict, text: str, later: list[Element]) -> Certification:
    steps = [Step(0, PHONE, action, elements=[CART, BUY, TITLE, BACK]),
             Step(1, PHONE, Action("done"), elements=later)]
    return certify(Episode("e", "m", "把这件保温杯加入购物车", steps), 0, {"reasoning": text, "function": function},
                   cjk_threshold=0.0)


def _cart(text: str) -> Certification:
    return _phone(tap(CART), click("“加入购物车”按钮"), text, [CART, BUY, TITLE, BACK])


def _back(text: str) -> Certification:
    return _phone(Action("back"), {"name": "press_back", "parameters": {}}, text, [LIST_ROW])


@pytest.mark.parametrize("text, outcome", [
    ("详情页 先点加入购物车", "certified"),  # the space before 点 opens the decision's clause
    ("点底部左边的 加入购物车", "certified"),  # a space inside the name's phrase stays
    ("Tap 加入购物车 on the left, leave 立即购买 alone.", "certified"),
    ("Tap 加入购物车, not 立即购买.", "certified"),
])
def test_pass_22_cart(text, outcome):
    expect(_cart(text), outcome)


@pytest.mark.parametrize("text, outcome", [
    ("按返回 回到列表了 最上面那个是OPPO", "unsure"),  # what the back shows, said after spaces, is the next screen
    ("按返回 回列表再挑一个", "certified"),
])
def test_pass_22_back(text, outcome):
    expect(_back(text), outcome)


DEST = _el(0, (100, 100, 500, 150), hint="Destination", flags=("editable",), tag="input")
FROM = _el(1, (100, 200, 500, 250), hint="From", flags=("editable",), tag="input")
CABIN = _el(2, (600, 200, 900, 250), "Economy", desc="Cabin", tag="select")
ABOUT = _el(3, (100, 700, 300, 740), "About", tag="a")


def _typing(text: str, value: str = "Lisbon", shown_later=(ABOUT,)) -> Certification:
    steps = [Step(0, WEB, Action("type", text=value, element=DEST, point=DEST.center), elements=[DEST, FROM, CABIN]),
             Step(1, WEB, Action("done"), elements=[DEST, FROM, CABIN, *shown_later])]
    episode = Episode("e", "m", "Plan a trip to Lisbon", steps, platform="web")
    function = {"name": "type", "parameters": {"text": "Lisbon", "target_element": "“Destination”输入框"}}
    return certify(episode, 0, {"reasoning": text, "function": function}, cjk_threshold=0.0)


@pytest.mark.parametrize("text, outcome", [
    ("The trip is about Lisbon, so type Lisbon into Destination.", "certified"),  # "About" is a later page's link
    ("Open About, then type Lisbon into Destination.", "rejected"),
    ("Put 'Lisbon' into the 'Destination' input.", "certified"),
    ("Put 'Porto' into the 'Destination' input.", "rejected"),
    ("Thought: Destination now reads Lisbon and From is empty.\nAction: type Lisbon into Destination", "unsure"),
    ("Thought: Destination is empty, From is empty.\nAction: type Lisbon into Destination", "certified"),
])
def test_pass_22_typing(text, outcome):
    expect(_typing(text), outcome)


def test_a_preposition_is_not_the_from_field():
    select = Action("select", text="Business", element=CABIN, point=CABIN.center)
    function = {"name": "select", "parameters": {"value": "Business", "target_element": "“Cabin”元素"}}
    expect(certify_text(select, function, "Choose Business from the Cabin menu.", [DEST, FROM, CABIN]), "certified")
    expect(certify_text(select, function, "Choose Business in From.", [DEST, FROM, CABIN]), "rejected")


SHOW = _el(0, (100, 300, 700, 340), "Quiet show retro #13", tag="a")
OTHER = _el(1, (100, 400, 700, 440), "Loud show retro #14", tag="a")


@pytest.mark.parametrize("text, outcome", [
    ("go with #13, Quiet show retro", "certified"),
    ("go with #14, Loud show retro", "unsure"),
])
def test_a_result_named_after_its_number(text, outcome):
    expect(certify_text(tap(SHOW), click("“Quiet show retro #13”元素"), text, [SHOW, OTHER]), outcome)


SUGGESTION = _el(0, (40, 500, 1040, 600), "保温杯 热卖")
SUGGESTION2 = _el(1, (40, 620, 1040, 720), "保温杯 学生")


@pytest.mark.parametrize("text, outcome", [
    ("联想词里第一条是“保温杯 热卖”，就选它，销量高的靠谱。", "certified"),
])
def test_pass_22_pick_it(text, outcome):
    expect(certify_text(tap(SUGGESTION), click("“保温杯 热卖”"), text, [SUGGESTION, SUGGESTION2], web=False),
           outcome)


def test_a_later_pick_is_a_plan():
    field = _el(0, (40, 200, 1040, 300), hint="搜索商品", flags=("editable",))
    function = {"name": "type", "parameters": {"text": "保温杯", "target_element": "“搜索商品”输入框"}}
    got = certify_text(Action("type", text="保温杯", element=field, point=field.center), function,
                       "在搜索框输入“保温杯”，联想词出来以后，到时候选它就行。", [field], web=False)
    assert got.outcome != "rejected", got.reasons


DIALOG_DELETE = _el(0, (800, 1900, 1040, 2000), "删除")
TOP_DELETE = _el(1, (800, 140, 1000, 240), "删除")


def test_an_apposition_inside_the_popup():
    got = certify_text(tap(DIALOG_DELETE), click("“删除”按钮"),
                       "A dialog asks to confirm. Tap 删除 at the lower right — the one inside the dialog.",
                       [DIALOG_DELETE, TOP_DELETE], web=False)
    expect(got, "certified")
