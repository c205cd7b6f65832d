"""Pass 54: the chosen action's result told as certain before the decision (a gerund and a present result naming
what it brings, a change told after an action of this step's kind, the results of the search the step starts);
a row's value said ``already`` of a row named by its label, or in an aside after its place; an option judged not
needed (``is optional``, ``isn't asked for``, ``no reason to``, ``多余``) decides nothing. Wordings made up here,
unlike the labelled parts'."""
from __future__ import annotations

from sftdata.model import Action

from scenes import certify_at, certify_text, click, el, expect, phone_episode, tap

WIFI = el(0, (40, 300, 600, 380), "Wi-Fi")
WIFI_OFF = el(1, (900, 300, 1040, 380), "Off", flags=())
NFC = el(2, (40, 500, 600, 580), "NFC")
NFC_ON = el(3, (900, 500, 1040, 580), "On", flags=())
SETTINGS = [WIFI, WIFI_OFF, NFC, NFC_ON]


def settings_episode():
    turned = [WIFI, el(1, (900, 300, 1040, 380), "On", flags=()), NFC, NFC_ON]
    return phone_episode([SETTINGS, SETTINGS, turned], [Action("open_app", app="Settings"), tap(WIFI), Action("done")],
                         "Turn on Wi-Fi")


def test_a_gerund_then_its_result_in_the_present_naming_what_it_brings_is_not_certified():
    ep = settings_episode()
    for text in ("Wi-Fi shows Off. Pressing the row switches it to On. So: tap Wi-Fi.",
                 "Two ways: the row or the quick panel. Hitting the row puts Wi-Fi at On right away, so tap Wi-Fi."):
        expect(certify_at(ep, 1, text, click("“Wi-Fi”元素")), "unsure")
    for text in ("Wi-Fi shows Off. Tapping Wi-Fi should switch it to On, so tap Wi-Fi.",
                 "Wi-Fi shows Off; pressing the row is the quickest way. Tap Wi-Fi."):
        expect(certify_at(ep, 1, text, click("“Wi-Fi”元素")), "certified")


def test_a_change_told_after_this_steps_own_kind_of_action_before_the_decision_is_not_certified():
    ep = settings_episode()
    expect(certify_at(ep, 1, "Wi-Fi 现在是 Off，快捷面板太绕。点一下 Wi-Fi 就变成 On 了。决定点 Wi-Fi。",
                      click("“Wi-Fi”元素")), "unsure")
    expect(certify_at(ep, 1, "Wi-Fi 现在是 Off，快捷面板太绕。点一下 Wi-Fi 应该会变成 On。决定点 Wi-Fi。",
                      click("“Wi-Fi”元素")), "certified")


def test_the_results_of_the_search_this_step_starts_told_as_certain_are_not_certified():
    query = el(0, (40, 100, 600, 140), "", flags=("clickable", "editable"), attrs=(("value", "tents"),))
    go = el(1, (620, 100, 760, 140), "Search", tag="button")
    result = el(2, (40, 300, 900, 360), "Trail tent compact #2 $88.50", flags=())
    ep = phone_episode([[query, go, result], [query, go, result]], [tap(go), Action("done")], "Search for tents")
    expect(certify_at(ep, 0, "The query is in. Click Search. In the results the second one is Trail tent compact #2 "
                      "at $88.50. Click Search.", click("“Search”元素")), "unsure")
    expect(certify_at(ep, 0, "The query is in. Click Search, then I'll check whether the results have a tent.",
                      click("“Search”元素")), "certified")


def test_a_rows_value_said_already_of_another_row_or_in_an_aside_is_the_screen_as_it_is():
    ep = settings_episode()
    expect(certify_at(ep, 1, "Tap Wi-Fi, since NFC already shows On and only Wi-Fi is left.", click("“Wi-Fi”元素")),
           "certified")
    assert certify_at(ep, 1, "Tap Wi-Fi; NFC already shows Off.", click("“Wi-Fi”元素")).outcome != "certified"
    expect(certify_at(ep, 1, "Tap the Wi-Fi row (upper left, shows Off) to switch it on.", click("“Wi-Fi”元素")),
           "certified")
    expect(certify_at(ep, 1, "Tap Wi-Fi — it shows Off and the goal is to switch it on.", click("“Wi-Fi”元素")),
           "certified")


def test_an_option_judged_not_needed_decides_nothing():
    done = {"name": "done", "parameters": {}}
    for text in ("Wi-Fi reads On now. Going back to check is optional; the task is complete.",
                 "Wi-Fi is On. Returning home isn't asked for. Done.",
                 "Wi-Fi is On, no reason to go back or tap anything else. Finished.",
                 "Wi-Fi 已经是 On，再点别的都是多余。任务完成。"):
        assert certify_text(Action("done"), done, text, [WIFI, el(1, (900, 300, 1040, 380), "On", flags=())],
                            web=False, before=[tap(WIFI)]).outcome != "rejected", text


def test_one_more_of_the_same_action_or_the_back_key_told_with_its_result_is_not_certified():
    cards = [el(0, (40, 300, 1040, 600), "Bose 降噪耳机 A"), el(1, (40, 700, 1040, 1000), "Sony 降噪耳机 B")]
    later = [el(0, (40, 300, 1040, 600), "Sony 降噪耳机 B"), el(1, (40, 700, 1040, 1000), "JBL 运动耳机 C")]
    up = {"name": "swipe", "parameters": {"direction": "UP"}}
    ep = phone_episode([cards, cards, later], [Action("swipe", direction="up"), Action("swipe", direction="up"),
                                               Action("done")], "找一副耳机看看")
    expect(certify_at(ep, 1, "Still browsing. Another swipe up; the next view shows Sony 降噪耳机 B at the top. "
                      "Swiping up.", up), "unsure")
    expect(certify_at(ep, 1, "Still browsing, nothing picked yet. Another swipe up to see more. Swiping up.", up),
           "certified")
    photo = [el(0, (400, 80, 680, 140), "3 / 12", flags=()), el(1, (0, 300, 1080, 2000), "", desc="Photo")]
    ep = phone_episode([photo, photo, []], [Action("swipe", direction="left"), Action("back"), Action("done")],
                       "翻一张照片后退出")
    expect(certify_at(ep, 1, "翻过一张了，先退出大图。按系统返回键后回到了相册网格页。按返回。",
                      {"name": "press_back", "parameters": {}}), "unsure")


def test_an_earlier_field_said_filled_in_translation_is_the_history():
    name = el(0, (40, 100, 600, 140), "", flags=("clickable", "editable"), attrs=(("aria_label", "Full name"),))
    email = el(1, (40, 160, 600, 200), "", flags=("clickable", "editable"), attrs=(("aria_label", "Email"),))
    action = Action("type", text="jane@example.com", element=email, point=email.center)
    function = {"name": "type", "parameters": {"text": "jane@example.com", "target_element": "“Email”元素"}}
    earlier = Action("type", text="Jane Doe", element=name, point=name.center)
    expect(certify_text(action, function, "邮箱框填 jane@example.com，名字已经填好了。", [name, email],
                        before=[earlier]), "certified")
