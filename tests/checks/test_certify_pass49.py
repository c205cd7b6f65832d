"""Pass 49: an option listed on after one weighed (``I could go through X, or search with Y``); a suggestion told
apart from the box that holds the same word (``the first suggestion``, ``联想里的``); a bare ``Send it.``; what came
after the action told as done (``之后 X 又回到了中间``); where an earlier swipe left the list (``现在回到了顶部``,
``刚被滑过去了``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action, Episode, Step

from scenes import CHAT, FEED, PHONE, certify_at, certify_text, click, el, expect, phone_episode, swipe, tap, typed

LAUNCHER = [el(0, (40, 300, 300, 500), "图库"), el(1, (320, 300, 580, 500), "相机"),
            el(2, (40, 2100, 1040, 2200), "Google 搜索 Search")]
BOX = el(0, (140, 150, 880, 260), "保温杯", flags=("clickable", "editable"))
SUGGESTIONS = [BOX, el(1, (110, 320, 260, 380), "保温杯"), el(2, (110, 450, 420, 510), "保温杯 学生")]




def test_options_listed_after_one_weighed_are_no_decision():
    ep = phone_episode([LAUNCHER, LAUNCHER], [tap(LAUNCHER[0]), Action("done")], "打开图库看照片")
    text = ("The launcher is up. I could also reach photos through 相机's preview, or search with the Google bar, "
            "but both are detours. Tap 图库.")
    expect(certify_at(ep, 0, text, click("“图库”元素")), "certified")
    chosen = "I could tap 图库, or search with the Google bar. Search with the Google bar."
    assert certify_at(ep, 0, chosen, click("“图库”元素")).outcome != "certified"


def test_a_suggestion_is_told_apart_from_the_box_that_holds_the_same_word():
    ep = phone_episode([SUGGESTIONS, FEED], [tap(SUGGESTIONS[1]), Action("done")], "搜索保温杯")
    for text in ("点第一条联想“保温杯”，和输入的一模一样。", "Tap the first suggestion, plain 保温杯."):
        expect(certify_at(ep, 0, text, click("“保温杯”元素")), "certified")
    assert certify_at(ep, 0, "点搜索框里的“保温杯”。", click("“保温杯”元素")).outcome != "certified"


def test_a_bare_send_it_names_the_one_send_button():
    ep = phone_episode([CHAT, CHAT], [tap(CHAT[1]), Action("done")], "回复 Alice：好的，明天见")
    expect(certify_at(ep, 0, "The reply 好的，明天见 is in the box. Send it.", click("“发送 Send”元素")), "certified")
    assert certify_at(ep, 0, "The reply is in the box. Save it.", click("“发送 Send”元素")).outcome != "certified"


def test_what_came_after_the_action_told_as_done_is_not_certified():
    action, function = swipe("down")
    ep = phone_episode([FEED, FEED], [action, Action("done")], "找回 Nike 跑步鞋")
    told = "手指往下拖，之后 Nike 跑步鞋又回到了屏幕中间。"
    assert certify_at(ep, 0, told, function).outcome != "certified"
    expect(certify_at(ep, 0, "手指往下拖，之后 Nike 跑步鞋应该会回到屏幕中间。", function), "certified")


def test_where_an_earlier_swipe_left_the_list_is_history():
    top = [el(0, (40, 300, 800, 360), "Airplane mode"), el(1, (40, 370, 800, 410), "Off", flags=())]
    down, _ = swipe("down")
    ep = phone_episode([top, top, top], [down, tap(top[0]), Action("done")], "打开飞行模式")
    got = certify_at(ep, 1, "点 Airplane mode。现在回到了顶部，点一下就能打开。", click("“Airplane mode”元素"))
    assert got.outcome != "rejected", got.reasons
    up, function = swipe("up")
    ep = phone_episode([FEED, FEED, FEED], [up, down, Action("done")], "找回 Nike 跑步鞋")
    got = certify_at(ep, 1, "往下拉回去一点，Nike 那双刚被滑过去了。", swipe("down")[1])
    assert got.outcome != "rejected", got.reasons


def test_an_earlier_deletion_said_done_in_its_own_words():
    inbox = [el(0, (40, 300, 300, 400), "Alice 的头像"), el(1, (800, 2200, 1040, 2300), "删除")]
    ep = phone_episode([inbox, inbox, inbox], [tap(inbox[1]), tap(inbox[0]), Action("done")], "删掉银行的短信，再回复 Alice")
    expect(certify_at(ep, 1, "点 Alice 的头像。银行那条已经删掉了，接下来回复她。", click("“Alice 的头像”元素")), "certified")
    told = "点右下角的删除。银行那条已经删掉了。"  # this step's own deletion, told done
    assert certify_at(ep, 0, told, click("“删除”元素")).outcome != "certified"


def test_the_decision_said_again_and_the_acted_on_row_in_sight():
    rows = [el(0, (40, 300, 800, 360), "Display"), el(1, (40, 380, 800, 440), "Sound")]
    ep = phone_episode([rows, rows], [tap(rows[0]), Action("done")], "打开 Display 设置")
    for text in ("现在要点中间偏上的 Display。", "Tap Display. The Display row is visible now, near the top.",
                 "Tap Display; the only thing left is to open it."):
        expect(certify_at(ep, 0, text, click("“Display”元素")), "certified")
    box = el(0, (40, 150, 1040, 260), "", flags=("clickable", "editable"))
    ep = phone_episode([[box], [box]], [Action("input", text="保温杯"), Action("done")], "搜索保温杯")
    text = "Type 保温杯. The search field is focused, so the keyword goes in now."
    expect(certify_at(ep, 0, text, {"name": "input", "parameters": {"text": "保温杯"}}), "certified")


def test_a_later_pick_a_ticked_list_and_dian_guoqu():
    action, function = swipe("up")
    ep = phone_episode([FEED, FEED], [action, Action("done")], "挑一双跑步鞋")
    expect(certify_at(ep, 0, "再往上滑一屏（手指上移），多看几款再挑一个点进去。", function), "certified")
    tabs = [el(0, (40, 200, 200, 260), "推荐"), el(1, (220, 200, 380, 260), "手机")]
    ep = phone_episode([tabs, FEED], [tap(tabs[1]), Action("done")], "看看手机")
    expect(certify_at(ep, 0, "分类条里第二个就是“手机”，点过去。", click("“手机”元素")), "certified")
    ticked = "1. city: Lisbon ✓\n2. type: Tours ✓\n→ tap 手机 at the top."
    expect(certify_at(ep, 0, ticked, click("“手机”元素")), "certified")


def test_a_value_decided_without_a_verb_then_what_followed():
    guests = el(0, (40, 200, 400, 260), "1", tag="select", attrs=(("aria_label", "Guests"),))
    steps = [Step(0, PHONE, Action("select", text="3", element=guests, point=guests.center), elements=[guests]),
             Step(1, PHONE, Action("done"), elements=[guests])]
    ep = Episode("e", "m", "Book for 3 guests", steps, platform="web")
    function = {"name": "select", "parameters": {"value": "3", "target_element": "“Guests”元素"}}
    told = "Guests -> 3; afterwards the list shifts and a new hotel peeks in at the bottom."
    assert certify_at(ep, 0, told, function).outcome != "certified"


def test_put_a_value_in_a_field_and_the_goal_said_in_translation():
    artist = el(0, (40, 200, 600, 260), "", flags=("clickable", "editable"), attrs=(("aria_label", "Artist, team or venue"),))
    text = "Put jazz in the Artist, team or venue field."
    expect(certify_text(*typed(artist, "jazz", "“Artist, team or venue”元素"), text, [artist], goal="Find jazz concerts"),
           "certified")
    grid = [el(0, (40, 300, 300, 500), "相册"), el(1, (320, 300, 580, 500), "相机")]
    later = [el(0, (40, 200, 400, 260), "Recent photos", flags=())]
    ep = phone_episode([grid, later], [tap(grid[0]), Action("done")], "打开相册，翻看最近的照片")
    text = "Tap 相册 in the top left. The goal is to look through recent photos."
    expect(certify_at(ep, 0, text, click("“相册”元素")), "certified")


def test_where_the_target_is_and_a_value_after_a_spaced_quote():
    shots = [el(0, (40, 300, 520, 900), "商品图片 Nike 跑步鞋"), el(1, (560, 300, 1040, 900), "商品图片 Lenovo 跑步鞋")]
    ep = phone_episode([shots, FEED], [tap(shots[1]), Action("done")], "看一双跑步鞋")
    for text in ("点 Lenovo 跑步鞋的商品图，在右上方第二个位置。", "点 Lenovo 跑步鞋的商品图，它就在右上角。"):
        expect(certify_at(ep, 0, text, click("“商品图片 Lenovo 跑步鞋”元素")), "certified")
    box = el(0, (40, 200, 600, 260), "", flags=("clickable", "editable"), attrs=(("aria_label", "Search books"),))
    action, function = typed(box, "mystery novels", "“Search books”元素")
    for text in ("在 Search books 输入框里填 “mystery novels”，排序和点 Go 放后面。",
                 "左上角有 Search books 输入框，把 mystery novels 输进去，下一步再点 Go。"):
        expect(certify_text(action, function, text, [box], goal="Search mystery novels"), "certified")


def test_a_date_with_a_comma_and_a_swipe_just_done():
    photos = [el(0, (40, 300, 340, 600), "照片，6月11日 12:08"), el(1, (360, 300, 660, 600), "照片，6月11日 19:25")]
    ep = phone_episode([photos, FEED], [tap(photos[1]), Action("done")], "打开 6 月 11 日晚上的照片")
    expect(certify_at(ep, 0, "Tap the June 11, 19:25 photo in the middle of the top row.", click("“照片，6月11日 19:25”元素")),
           "certified")
    left, _ = swipe("left")
    right, function = swipe("right")
    ep = phone_episode([FEED, FEED, FEED], [left, right, Action("done")], "左右翻看照片")
    expect(certify_at(ep, 1, "思考：刚左滑到了下一张，再往右滑回去看看上一张。\n动作：swipe(direction=\"right\")", function), "certified")


def test_a_typed_reply_said_as_a_bubble_before_it_is_sent():
    typing = Action("input", text="好的，明天见")
    ep = phone_episode([CHAT, CHAT, CHAT], [typing, tap(CHAT[1]), Action("done")], "回复 Alice：好的，明天见")
    told = "Send it. The 好的，明天见 bubble now sits in the thread under Alice's message."
    assert certify_at(ep, 1, told, click("“发送 Send”元素")).outcome != "certified"
    done = "结束任务。对话里现在能看到我发的“好的，明天见”。"  # sent by the step before: the screen as it is
    expect(certify_at(ep, 2, done, {"name": "done", "parameters": {}}), "certified")
