"""The reasoning-action agreement check: unit cases, the labelled sets, and every real item passing."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.checks.agreement import contradictions
from sftdata.checks.check import check_items
from sftdata.checks.completion import claims_complete
from sftdata.checks.decision import finger_direction, stated_decision

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from agreement import evaluate, load_steps  # noqa: E402

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
WIFI = Element(0, (0, 300, 1080, 400), text="WLAN", flags=("visible", "clickable"))
BT = Element(1, (0, 400, 1080, 500), text="蓝牙", flags=("visible", "clickable"))
TAP = Step(0, SHOT, Action("click", point=(540, 350), element=WIFI), elements=[WIFI, BT])
CLICK = {"name": "click", "parameters": {"target_element": "“WLAN”选项"}}
UP = {"name": "swipe", "parameters": {"direction": "UP"}}
SWIPE_UP = Step(0, SHOT, Action("swipe", point=(540, 1800), end=(540, 800), direction="up"))


@pytest.mark.parametrize("text", [
    "向下滚动页面，查看下方更多的选项。",  # the example: a scroll decided, a click called
    "Nothing useful here, so let me swipe up.",
    "所以点击“蓝牙”。",  # another element of the same screen
    "I'll tap “蓝牙” to continue.",
    "界面已经符合要求，任务已经完成。",  # complete, yet not done
    "在输入框中输入“你好”。",
    "长按“WLAN”调出菜单。",
    "I'll go with “蓝牙”.",  # a choice idiom instead of an action verb
    "这里就挑“蓝牙”。",
])
def test_contradictions_on_a_click(text):
    assert contradictions(text, CLICK, TAP)


@pytest.mark.parametrize("text", [
    "上一步已经向下滚动，现在点击“WLAN”进入无线设置。",  # history with another verb
    "如果找不到就向下滑动，不过“WLAN”已经在屏幕上了，直接点击它。",  # a condition, then the decision
    "屏幕上有“蓝牙”和“WLAN”，任务要的是“WLAN”，所以点击“WLAN”，然后再输入密码。",  # description and a later plan
    "页面还可以继续向下滚动，但没有必要，点击“WLAN”即可。",  # ability, not a decision
    "I scrolled down earlier; now I'll tap “WLAN”.",
    "点击“WLAN”后应该会进入无线网络列表。",  # an expectation about this very tap
    "The screen lists WLAN and Bluetooth.",  # no decision at all: silence passes
    "点击“WLAN”以完成任务。",  # completing is the purpose, not a claim
])
def test_aligned_texts_pass(text):
    assert contradictions(text, CLICK, TAP) == []


def test_directions_are_the_fingers():
    assert finger_direction("手指向上滑动") == "up" and finger_direction("向下滚动页面") == "up"
    assert finger_direction("swipe down to refresh") == "down" and finger_direction("scroll up") == "down"
    assert contradictions("向下滚动页面，查看下方更多的选项。", UP, SWIPE_UP) == []
    assert contradictions("手指向下滑动，回到顶部。", UP, SWIPE_UP)
    assert contradictions("I will scroll up to the top.", UP, SWIPE_UP)


def test_typed_text_and_app():
    step = Step(0, SHOT, Action("input", text="机械键盘"))
    call = {"name": "input", "parameters": {"text": "机械键盘"}}
    assert contradictions("输入框已经激活，直接输入“机械键盘”。", call, step) == []
    assert contradictions("输入框已经激活，直接输入“蓝牙耳机”。", call, step)
    app = {"name": "open_app", "parameters": {"app_name": "淘宝"}}
    assert contradictions("首先打开“京东”应用。", app, Step(0, SHOT, Action("open_app", app="淘宝")))
    assert contradictions("首先打开“淘宝”应用。", app, Step(0, SHOT, Action("open_app", app="淘宝"))) == []


def test_typing_is_exact_and_unquoted_values_count():
    step = Step(0, SHOT, Action("input", text="wireless earbuds"))
    call = {"name": "input", "parameters": {"text": "wireless earbuds"}}
    assert contradictions("在搜索框输入“earbuds”。", call, step)  # part of the text is another text
    assert contradictions("Type earbuds into the search box.", call, step)
    assert contradictions("Type wireless earbuds into the search box.", call, step) == []
    phone = Step(0, SHOT, Action("input", text="5550134"))
    assert contradictions("Enter 5550143 in the Phone number field.", {"name": "input", "parameters": {"text": "5550134"}},
                          phone)


def test_an_app_or_element_named_without_quotes():
    camera = Element(2, (0, 500, 1080, 600), text="相机", flags=("visible", "clickable"))
    chrome = Element(3, (0, 600, 1080, 700), text="Chrome", flags=("visible", "clickable"))
    gallery = Element(4, (0, 700, 1080, 800), text="相册", flags=("visible", "clickable"))
    tap = Step(0, SHOT, Action("click", point=(540, 750), element=gallery), elements=[camera, chrome, gallery])
    click = {"name": "click", "parameters": {}}
    assert contradictions("I'll launch the Camera (相机) and check recent shots.", click, tap)
    assert contradictions("打开“相机”应用。", click, tap)
    assert contradictions("打开相册，看看最近的照片。", click, tap) == []
    launcher = Step(0, SHOT, Action("open_app", app="商城"), elements=[camera, chrome])
    app = {"name": "open_app", "parameters": {"app_name": "商城"}}
    assert contradictions("要搜索蓝牙耳机，先打开 Chrome 浏览器进行搜索。", app, launcher)
    assert contradictions("先打开商城。", app, launcher) == []


def test_states_and_refusals_are_not_decisions():
    done = {"name": "done", "parameters": {}}
    assert contradictions("The detail page is open with the buttons, so there's no need to add it. Done.", done,
                          Step(0, SHOT, Action("done"))) == []
    assert contradictions("Results are shown. I won't scroll further; tap “WLAN”.", CLICK, TAP) == []
    assert contradictions("The item has been added to the cart. Task complete.", {"name": "press_back", "parameters": {}},
                          Step(0, SHOT, Action("back")))


def test_plans_conditions_and_ambiguous_directions_pass():
    wait = {"name": "wait", "parameters": {}}
    assert contradictions("The splash screen is up. Once the home page loads I'll tap the search box; for now, wait.",
                          wait, Step(0, SHOT, Action("wait"))) == []
    assert contradictions("I want more options before picking one, so scroll down the list.", UP, SWIPE_UP) == []
    # 向下滑动浏览更多: the view's direction in everyday Chinese, the finger's by our convention: ambiguous, unsaid
    assert contradictions("已进入耳机分类，向下滑动浏览更多耳机。", UP, SWIPE_UP) == []
    assert contradictions("手指向下滑动，浏览更多耳机。", UP, SWIPE_UP)
    # again, not later
    back = {"name": "press_back", "parameters": {}}
    assert contradictions("再点一次“蓝牙”，确认开关真的切换了。", back, Step(0, SHOT, Action("back")))
    assert contradictions("All fields are filled in, so the reservation is complete.", CLICK, TAP)


def test_round_four_classes():
    # a condition word after the verb does not make the decision conditional
    assert contradictions("Scroll up to check whether there are more items above.", UP, SWIPE_UP)
    # a quote that is part of another element's label
    photo = Element(2, (0, 500, 1080, 600), text="照片，6月12日 8:00", flags=("visible", "clickable"))
    tap = Step(0, SHOT, Action("click", point=(540, 350), element=WIFI), elements=[WIFI, BT, photo])
    assert contradictions("点击最近的第一张照片“6月12日 8:00”打开。", CLICK, tap)
    # V得太多了 is what happened, not the decision
    down = {"name": "swipe", "parameters": {"direction": "DOWN"}}
    swipe_down = Step(0, SHOT, Action("swipe", point=(540, 800), end=(540, 1800), direction="down"))
    assert contradictions("往下翻得太多了，手指向下滑，回到上面那一款。", down, swipe_down) == []
    assert contradictions("信息都已经填写完毕，预订已完成。", CLICK, TAP)


def test_done_agrees_only_with_a_finished_task():
    done = {"name": "done", "parameters": {}}
    step = Step(0, SHOT, Action("done"))
    assert contradictions("之前已经点击了保存，任务已经完成。", done, step) == []
    assert contradictions("还需要点击“保存”按钮。", done, step)
    assert claims_complete("任务尚未完成，继续。") is None


def test_the_decision_reader_skips_history_conditions_and_plans():
    d = stated_decision("刚才已经输入了关键词。如果没有结果就返回，现在点击“搜索”，之后再看结果。")
    assert d is not None and d.verb == "click" and d.quotes == ("搜索",)


def test_check_reports_it_once_with_the_field():
    ep = Episode("e", "sample", "打开WLAN", [TAP, Step(1, SHOT, Action("done"))])
    items = [{"reasoning": "向下滚动页面，查看下方更多的选项。", "function": CLICK},
             {"reasoning": "任务已经完成。", "function": {"name": "done", "parameters": {}}}]
    failures = check_items(items, ep)
    assert [(f.index, f.reason) for f in failures] == [(0, "reasoning_contradicts_action")]
    assert failures[0].detail.startswith("reasoning: the reasoning decides to swipe")


def test_the_development_set_scores_at_least_095():
    records = [json.loads(line) for line in (ROOT / "tests/annotate/agreement_dev.jsonl").open(encoding="utf-8")]
    assert len(records) >= 400 and sum(r["label"] == "contradicts" for r in records) >= 150
    e = evaluate(records, load_steps())
    assert e["tp"] / (e["tp"] + e["fp"]) >= 0.95 and e["tp"] / (e["tp"] + e["fn"]) >= 0.95


def _cards(kind: str = "") -> tuple[list[Element], Step]:
    """Three product cards (image, title, an “Add to cart” button each); the call taps the second card's."""
    elements = []
    for row, name in enumerate(("Anker 降噪耳机 经典款", "Sony 降噪耳机 旗舰款", "Nike 运动水壶 轻便款")):
        top = 300 + row * 400
        elements += [Element(3 * row, (30, top, 270, top + 240), desc=f"商品图片 {name}", class_name=kind,
                             flags=("visible", "clickable")),
                     Element(3 * row + 1, (300, top, 900, top + 60), text=name, flags=("visible",)),
                     Element(3 * row + 2, (800, top + 180, 1050, top + 240), text="加入购物车", class_name="button",
                             flags=("visible", "clickable"))]
    return elements, elements


def test_whose_control_among_alike_ones():
    elements, _ = _cards("android.widget.ImageView")
    button = Step(0, SHOT, Action("click", point=(900, 910), element=elements[5]), elements=elements)
    image = Step(0, SHOT, Action("click", point=(150, 800), element=elements[3]), elements=elements)
    click = {"name": "click", "parameters": {}}
    # the shared label is qualified by another card's title: after it, in an appositive, or before a pronoun
    assert contradictions("Tap '加入购物车' under Nike 运动水壶 轻便款.", click, button)
    assert contradictions("Open the third product, Nike 运动水壶 轻便款.", click, image)
    assert contradictions("Anker 降噪耳机 经典款 的评价最好，点它的图片。", click, image)
    # the right card, or a relation that says the named one is elsewhere, passes
    assert contradictions("Tap '加入购物车' for Sony 降噪耳机 旗舰款.", click, button) == []
    assert contradictions("Sony 降噪耳机 旗舰款 looks right — tap its picture.", click, image) == []
    assert contradictions("Sony 降噪耳机 旗舰款 在 Anker 降噪耳机 经典款 下面，点它的图片。", click, image) == []


def test_typed_text_after_a_colon_or_as_a_value():
    field = Element(0, (0, 300, 1080, 400), text="Message", flags=("visible", "editable"))
    step = Step(0, SHOT, Action("input", text="好的，马上到", element=field), elements=[field])
    typing = {"name": "input", "parameters": {"text": "好的，马上到"}}
    assert contradictions("Write back: 好的", typing, step)  # the colon's text is typed, and it is partial
    assert contradictions("Write back: 好的，马上到", typing, step) == []
    assert contradictions("不点历史记录，直接打字最快：输入“好的，马上到”。", typing, step) == []
    date = {"name": "type", "parameters": {"text": "2024-06-01"}}
    assert contradictions("Enter the arrival date as June 2 in the field.", date, step)
    assert contradictions("Enter the arrival date as 2024-06-01.", date, step) == []


def test_completion_said_in_a_word_and_scratched_swipes():
    assert claims_complete("The form has every value now — done.") and claims_complete("Everything is set. Done!")
    assert claims_complete("照片都看过了，搞定。") and claims_complete("Back on the list — task complete.")
    assert claims_complete("Tap Done.") is None and claims_complete("Not done yet.") is None
    left = {"name": "swipe", "parameters": {"direction": "LEFT"}}
    assert contradictions("手指往右划一下，回到上一张。", left, Step(0, SHOT, Action("swipe", direction="left")))
    done = {"name": "done", "parameters": {}}  # an outcome told after 返回 is not a decision to go back
    assert contradictions("返回后首页显示“已收藏 1 件”，任务完成。", done, Step(0, SHOT, Action("done"))) == []


def test_ninth_pass_classes():
    elements, _ = _cards()
    image = Step(0, SHOT, Action("click", point=(150, 800), element=elements[3]), elements=elements)
    click = {"name": "click", "parameters": {}}
    # 点 before an ordinal, a place or an unquoted Latin name is a tap
    assert stated_decision("点第三个商品").verb == "click" and stated_decision("点 Nike 那一款").verb == "click"
    assert stated_decision("这是重点，注意一点。") is None
    # a name after a contrast is not the target; a later plan is not the decision
    assert contradictions("打开 Sony 降噪耳机 旗舰款 的图片，而不是 Anker 降噪耳机 经典款。", click, image) == []
    assert contradictions("先点它的图片，接下来再输入“耳机”。", click, image) == []
    assert contradictions("Open this one's picture; I'll type a review on the next step.", click, image) == []
    # a price says which card when one card shows it
    priced = elements + [Element(20, (300, 1100, 420, 1160), text="¥88", flags=("visible",))]
    tap = Step(0, SHOT, Action("click", point=(150, 800), element=elements[3]), elements=priced)
    assert contradictions("The ¥88 one is cheapest — tap its picture.", click, tap)
    # a finger pulled down is a DOWN swipe
    up = {"name": "swipe", "parameters": {"direction": "UP"}}
    assert contradictions("把手指往下拖一下，回到顶部。", up, SWIPE_UP)


def test_ninth_pass_values_apps_and_completion():
    field = Element(0, (0, 300, 1080, 400), text="Country", flags=("visible",), tag="select")
    pick = Step(0, SHOT, Action("select", text="Canada", element=field), elements=[field])
    chosen = {"name": "select", "parameters": {"value": "Canada"}}
    assert contradictions("Choose Mexico from the Country list.", chosen, pick)
    assert contradictions("Choose Canada from the Country list.", chosen, pick) == []
    icons = [Element(0, (0, 300, 300, 400), text="Google 地图 Maps", flags=("visible",)),
             Element(1, (300, 300, 600, 400), text="日历 Calendar", flags=("visible",))]
    home = Step(0, SHOT, Action("open_app", app="日历"), elements=icons)
    launch = {"name": "open_app", "parameters": {"app_name": "日历"}}
    assert contradictions("打开 Google 地图，看看会议在哪里。", launch, home)
    assert contradictions("打开日历，不用 Google 地图。", launch, home) == []
    assert claims_complete("Both items are in the cart. That's everything — finishing.")
    assert claims_complete("That's all I can see on this page, so scroll.") is None


def test_tenth_pass_classes():
    assert stated_decision("Now open the chat with Bob.").verb == "open"
    assert stated_decision("The page is now open.") is None
    assert stated_decision("我先点取消，再看看。").verb == "click"
    email = Element(0, (0, 300, 1080, 400), text="Email", flags=("visible", "editable"), tag="input")
    phone = Element(1, (0, 400, 1080, 500), text="Phone", flags=("visible", "editable"), tag="input")
    step = Step(0, SHOT, Action("type", text="a@b.com", element=email, point=(540, 350)), elements=[email, phone])
    typing = {"name": "type", "parameters": {"text": "a@b.com"}}
    assert contradictions("邮箱填 c@d.com。", typing, step)
    assert contradictions("邮箱填 a@b.com。", typing, step) == []
    assert contradictions("Email: c@d.com", typing, step)  # no verb: the field's value
    assert contradictions("Email: a@b.com", typing, step) == []
    assert contradictions("Type a@b.com into the Phone box.", typing, step)  # another field of the page
    assert contradictions("先填 Email，输入“a@b.com”。", typing, step) == []  # the field, not the text
    date = {"name": "type", "parameters": {"text": "06/01"}}
    assert contradictions("日期输入 06/02。", date, Step(0, SHOT, Action("type", text="06/01", element=email,
                                                                         point=(540, 350)), elements=[email]))
    # an appositive after 也就是 names the target; a tag inside the target's own card describes it
    elements, _ = _cards()
    tags = [Element(30, (310, 770, 400, 820), text="秒杀", flags=("visible",)),
            Element(31, (310, 1170, 400, 1220), text="秒杀", flags=("visible",)),
            Element(32, (0, 690, 1080, 950), flags=("visible",))]  # the second card's box
    image = Step(0, SHOT, Action("click", point=(150, 800), element=elements[3]), elements=elements + tags)
    click = {"name": "click", "parameters": {}}
    assert contradictions("点开第一个，也就是 Anker 降噪耳机 经典款。", click, image)
    assert contradictions("Open the Sony one — the card with the 秒杀 tag — by tapping its picture.", click, image) == []


def test_eleventh_pass_classes():
    left = {"name": "swipe", "parameters": {"direction": "RIGHT"}}
    right_step = Step(0, SHOT, Action("swipe", direction="right"))
    assert contradictions("Let me go back one photo — swipe right.", left, right_step) == []  # the dash says how
    assert contradictions("Go back up a bit — swipe left with the finger.", left, right_step)
    down = {"name": "swipe", "parameters": {"direction": "DOWN"}}
    assert contradictions("Pull down on the feed to refresh it.", down, Step(0, SHOT, Action("swipe", direction="down"))) == []
    assert contradictions("Pull up on the feed to load more.", down, Step(0, SHOT, Action("swipe", direction="down")))
    home = {"name": "press_home", "parameters": {}}
    assert contradictions("All set here, so I'll hit the home key — no need to open more.", home,
                          Step(0, SHOT, Action("home"))) == []
    assert stated_decision("保存完再去点“下一页”。") is None  # after saving: a later step
    assert stated_decision("先打开相册翻一下之前拍的照片。").verb == "open"  # 之前拍的: taken before, not "before"
    assert claims_complete("Dark mode toggled on — that's the whole task, finished.")


def test_twelfth_pass_classes():
    field = Element(0, (0, 300, 1080, 400), text="Cabin", flags=("visible",), tag="select")
    pick = Step(0, SHOT, Action("select", text="Business", element=field), elements=[field])
    chosen = {"name": "select", "parameters": {"value": "Business"}}
    assert contradictions("在 Cabin 这一栏直接输入“Business”。", chosen, pick)  # typing is not choosing
    phone = Element(1, (0, 400, 1080, 500), text="Phone number", flags=("visible", "editable"), tag="input")
    typing = {"name": "type", "parameters": {"text": "555-0134"}}
    step = Step(0, SHOT, Action("type", text="555-0134", element=phone, point=(540, 450)), elements=[phone])
    assert contradictions("Click the Phone number field first; I'll type the number in the next step.", typing, step)
    assert contradictions("Click the Phone number field and type 555-0134.", typing, step) == []
    assert contradictions("在 Phone number 里输入号码 BOS。", typing, step)  # a value after a descriptor
    done = {"name": "done", "parameters": {}}
    assert contradictions("已经回到主屏幕了。先等几秒让状态稳定。", done, Step(0, SHOT, Action("done")))
    assert claims_complete("The item is in the cart. Everything's finished.")
    assert stated_decision("下拉联想出来好几个，选第一个“耳机 2024新款”。").verb == "click"
    launch = {"name": "open_app", "parameters": {"app_name": "商城"}}
    assert contradictions("The goal lives inside 商城, so I'll launch that app.", launch,
                          Step(0, SHOT, Action("open_app", app="商城"))) == []
