"""Pass 51: a name inside a longer one is not new on the screen (``耳机`` in ``蓝牙耳机``); a form ``empty so far``; options
listed after a label mid-sentence (``目标是…，可选的办法有：…``); a box's kind (``搜索框``) is a later screen's name only
where the current screen shows no box; an action said as a gerund and judged off (``Opening X again would just be
extra``); ``toggle's been flipped``; ``退回上一屏`` of a swipe; ``call the task finished``; ``pick 4 to be safe``; ``Any
is still selected``; ``the fifth step closes out the task``; ``… move to the top``; what the step before took off the
screen, told before the decision. Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import FEED, certify_at, certify_text, click, el, expect, one_step, phone_episode, swipe, tap, typed

HOME = [el(0, (60, 300, 260, 500), "相册"), el(1, (300, 300, 500, 500), "Chrome"), el(2, (540, 300, 740, 500), "商城"),
        el(3, (50, 2100, 1030, 2240), "", desc="Google 搜索 Search")]
MALL = [el(0, (40, 150, 1040, 260), "", desc="搜索框", flags=("clickable", "editable")), el(1, (40, 300, 200, 360), "耳机"),
        el(2, (40, 400, 1040, 900), "小米 无线蓝牙耳机 降噪"), el(3, (40, 1000, 1040, 1500), "不锈钢保温杯 500ml")]


def test_a_name_said_inside_a_longer_one_is_not_what_the_step_before_brought():
    ep = phone_episode([[el(0, (40, 150, 1040, 260), "商城 logo")], MALL, MALL],
                       [Action("wait"), tap(MALL[0]), Action("done")], "在商城里搜保温杯")
    told = "Tap the search box. The search page popped up with the keyboard and chips like 蓝牙耳机 and 保温杯."
    assert certify_at(ep, 1, told, click("“搜索框”元素")).outcome != "certified"


def test_a_form_empty_so_far_is_the_screen_as_it_is():
    field = el(0, (40, 100, 600, 160), "", flags=("clickable", "editable"), attrs=(("aria_label", "Job title"),))
    action, function = typed(field, "data analyst", "“Job title”元素")
    expect(certify_text(action, function, "Type data analyst into Job title — the form is empty so far.", [field]),
           "certified")


def test_a_value_said_first_as_still_selected_is_the_screen_as_it_is():
    kind = el(0, (40, 100, 300, 140), "Any", tag="select", attrs=(("aria_label", "Job type"),))
    action = Action("select", text="Full-time", element=kind, point=kind.center)
    function = {"name": "select", "parameters": {"value": "Full-time", "target_element": "“Job type”元素"}}
    expect(certify_text(action, function, "Set Job type to Full-time. Any is still selected.", [kind]), "certified")


def test_options_listed_after_a_label_in_mid_sentence_are_no_decision():
    ep = phone_episode([HOME, MALL, MALL], [Action("open_app", app="商城"), tap(MALL[0]), Action("done")],
                       "在商城里搜保温杯")
    text = ("桌面上有相册、Chrome 和商城。目标是在商城里搜东西，可选的办法有：开 Chrome 走网页、或者直接打开商城。"
            "网页绕远。决定：打开商城。")
    expect(certify_at(ep, 0, text, {"name": "open_app", "parameters": {"app_name": "商城"}}), "certified")
    plain = "不走 Google 搜索框，也不开 Chrome，直接打开商城。"
    expect(certify_at(ep, 0, plain, {"name": "open_app", "parameters": {"app_name": "商城"}}), "certified")
    splash = [el(0, (40, 900, 1040, 1100), "商城 logo")]
    ep = phone_episode([splash, MALL, MALL], [Action("wait"), tap(MALL[0]), Action("done")], "在商城里搜保温杯")
    told = "启动页，等一下。首页已经出来了，顶部有个搜索框。"  # no box on the splash: the feed's is a later screen's
    expect(certify_at(ep, 0, told, {"name": "wait", "parameters": {}}), "rejected")


def test_a_gerund_judged_off_and_a_perfect_said_with_s_decide_nothing():
    rows = [el(0, (40, 300, 1040, 400), "Wi-Fi"), el(1, (40, 400, 1040, 500), "Bluetooth")]
    ep = phone_episode([rows, rows], [tap(rows[1]), Action("done")], "Turn on Bluetooth")
    done = {"name": "done", "parameters": {}}
    expect(certify_at(ep, 1, "We're back on the Settings list. Opening Bluetooth again would just be extra. Done.",
                      done), "certified")
    expect(certify_at(ep, 1, "toggle's been flipped and we're back on the list. done.", done), "certified")


def test_back_a_screenful_is_what_the_swipe_does():
    up, _ = swipe("up")
    down, function = swipe("down")
    ep = phone_episode([FEED, FEED, FEED], [up, down, Action("done")], "挑一双跑步鞋")
    expect(certify_at(ep, 1, "这次往下滑，退回上一屏，Nike 那双更合适。", function), "certified")


def test_the_task_called_finished_on_a_home_step_is_not_certified():
    home, function = Action("home"), {"name": "press_home", "parameters": {}}
    told = "I've flipped through the photos. Going home isn't really a separate thing to do. So I'll call the task finished here."
    assert one_step(home, function, told, "看几张照片后回主屏幕", HOME).outcome != "certified"
    expect(one_step(home, function, "So I'll call the task finished here.", "看几张照片后回主屏幕", HOME), "rejected")


def test_a_number_picked_unquoted_is_the_value_decided():
    tickets = el(0, (40, 100, 300, 140), "1 2 3 4", tag="select", attrs=(("aria_label", "Tickets"),))
    action = Action("select", text="2", element=tickets, point=tickets.center)
    function = {"name": "select", "parameters": {"value": "2", "target_element": "“Tickets”元素"}}
    for told in ("In the Tickets dropdown I'll pick 4 to be safe.", "Tickets dropdown: going with 4 just in case."):
        expect(certify_text(action, function, told, [tickets]), "rejected")


def test_the_step_by_its_number_closing_the_task_is_its_length():
    ep = phone_episode([HOME, HOME], [tap(HOME[0]), Action("done")], "打开相册")
    told = "Everything asked for is on screen — the fifth step closes out the task."
    assert certify_at(ep, 1, told, {"name": "done", "parameters": {}}).outcome == "rejected"


def test_what_a_swipe_moves_to_the_top_is_told_after_it():
    action, function = swipe("up")
    told = "Swipe up once more; the Lenovo 跑步鞋 and a Nike pair move to the top."
    assert one_step(action, function, told, "挑一双跑步鞋", FEED).outcome != "certified"


def test_what_the_step_before_scrolled_away_is_seen_now():
    top = [el(0, (40, 200, 1040, 300), "Airplane mode"), el(1, (40, 300, 1040, 400), "Bluetooth")]
    lower = [el(0, (40, 200, 1040, 300), "Display"), el(1, (40, 300, 1040, 400), "Battery")]
    up, _ = swipe("up")
    down, function = swipe("down")
    ep = phone_episode([top, lower, top], [up, down, Action("done")], "打开飞行模式")
    text = "往下滑了一屏，现在是 Display 和 Battery，Airplane mode 已经滚到上面看不见了。它在顶部，那就手指向下，拉回去。"
    expect(certify_at(ep, 1, text, function), "certified")
    text = "手指往下滑，把列表拉回顶部。这屏只有 Display 和 Battery，Airplane mode 被滚上去看不到了。"
    expect(certify_at(ep, 1, text, function), "certified")
