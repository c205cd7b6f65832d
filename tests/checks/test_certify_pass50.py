"""Pass 50: what a deliberation tells after an earlier decision that its closing one says again (``点发送，气泡出现在
右侧。决定点发送。``); options offered with ``可以继续`` or ``可以就在这里``, one judged off as ``太宽泛``; ``决定点 …``; a value
tapped rather than typed (``决定点历史记录里的 保温杯``); as mended, what the page then does (``the list then has …``,
``页面滚到结果区``, ``打开的会话里…``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action, Episode, Step

from scenes import CHAT, FEED, PHONE, certify_at, certify_text, click, el, expect, phone_episode, swipe, tap





def test_what_follows_a_decision_the_closing_one_says_again_is_read_as_after_it():
    ep = phone_episode([CHAT, CHAT, CHAT], [Action("input", text="好的，明天见"), tap(CHAT[1]), Action("done")],
                "回复 Alice：好的，明天见")
    told = "文字已就位。点右边的发送 Send，“好的，明天见”作为气泡出现在对话右侧，输入框又空了。决定点发送 Send。"
    assert certify_at(ep, 1, told, click("“发送 Send”元素")).outcome != "certified"
    weighed = "输入框里是“好的，明天见”。可以点发送 Send，也可以再检查一遍；文字没问题。决定点发送 Send。"
    expect(certify_at(ep, 1, weighed, click("“发送 Send”元素")), "certified")


def test_options_offered_and_judged_off_are_no_decision():
    up, _ = swipe("up")
    down, function = swipe("down")
    ep = phone_episode([FEED, FEED, FEED], [up, down, Action("done")], "挑一双跑步鞋")
    text = "这一屏有 Nike 和 Lenovo。可以就在这里挑一个，也可以继续往下翻。我想回去对比上一屏的几款。那就往回滑：手指向下。"
    expect(certify_at(ep, 1, text, function), "certified")
    nav = [el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Search books"),)),
           el(1, (640, 100, 800, 160), "Fiction", tag="a")]
    steps = [Step(0, PHONE, Action("type", text="mystery novels", element=nav[0], point=nav[0].center), elements=nav),
             Step(1, PHONE, Action("done"), elements=nav)]
    ep = Episode("e", "m", "Search mystery novels", steps, platform="web")
    function = {"name": "type", "parameters": {"text": "mystery novels", "target_element": "“Search books”元素"}}
    expect(certify_at(ep, 0, "点 Fiction 又太宽泛。先在 Search books 里输入 mystery novels。", function), "certified")


def test_a_value_tapped_in_the_history_is_not_typed():
    box = el(0, (40, 150, 1040, 260), "", flags=("clickable", "editable"))
    chip = el(1, (40, 300, 300, 360), "保温杯")
    ep = phone_episode([[box, chip], [box, chip]], [Action("input", text="保温杯"), Action("done")], "搜索保温杯")
    text = "键盘已经弹出。历史搜索里正好有“保温杯”这一项，点它比打字快多了，还不会打错字。决定点历史记录里的 保温杯。"
    assert certify_at(ep, 0, text, {"name": "input", "parameters": {"text": "保温杯"}}).outcome != "certified"


def test_what_the_page_then_does_is_told_after_the_action():
    rows = [el(0, (40, 200, 400, 260), "Laptops", tag="a"), el(1, (40, 300, 400, 360), "Phones", tag="a")]
    told = "Click Laptops; the list then has a new gadget right in the middle of the view."
    assert certify_text(tap(rows[0]), click("“Laptops”元素"), told, rows).outcome != "certified"
    go = [el(0, (40, 100, 600, 160), "Go", tag="button")]
    told = "关键词填好了。点 Go，页面滚到结果区，从第二条开始往下排。决定点 Go。"
    assert certify_text(tap(go[0]), click("“Go”按钮"), told, go).outcome != "certified"
    chats = [el(0, (40, 300, 300, 400), "快递驿站 的头像")]
    told = "点快递驿站头像，打开的会话里最后一条是取件通知，下面就是输入框。"
    ep = phone_episode([chats, chats], [tap(chats[0]), Action("done")], "回复快递驿站")
    assert certify_at(ep, 0, told, click("“快递驿站 的头像”元素")).outcome != "certified"
