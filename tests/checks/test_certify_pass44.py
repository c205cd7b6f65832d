"""Pass 44: the writer who decides first and then justifies: the justification's own conclusion (``so I run the
search``, ``so 归档 is the wrong button``), the finger said again, search results named as a noun (``搜索结果目前从
#3 排到 #5``); and a few verbs and marks read where they were missed (``戳``, ``按了返回``, ``回顾：…``, ``没问题``,
``顺利``, ``输入 jazz 缩小范围``, ``the results list …``). Wordings made up here, unlike the labelled parts'."""
from __future__ import annotations

import pytest

from sftdata.checks.agreement import contradictions
from sftdata.checks.decision import action_clauses, stated_decision
from sftdata.checks.hedges import CONCLUSION
from sftdata.checks.outcome import outcome_clause
from sftdata.model import Step

from scenes import WEB, certify_text, click, el, expect, swipe, tap, typed

CITY = el(0, (40, 100, 400, 160), "City", flags=("clickable",))
SEATS = el(1, (440, 100, 640, 160), "Seats", flags=("clickable",))
GO = el(2, (700, 100, 820, 160), "Go")
FORM = [CITY, SEATS, GO]
ROWS = [el(3 + i, (40, 300 + 60 * i, 600, 340 + 60 * i), f"Harbour tour #{n}") for i, n in enumerate((3, 4, 5))]


@pytest.mark.parametrize("text", [
    "Click Go. City and Seats are on the form, so now I submit.",
    "Click Go at the top. City sits on its left, so it's time to send the form.",
    "Click Go. Seats is beside City, so Seats is the wrong button here.",
])
def test_a_conclusion_after_the_justification_is_the_decision_again(text):
    expect(certify_text(tap(GO), click("“Go”按钮"), text, FORM), "certified")


@pytest.mark.parametrize("clause", ["so I see the results for Paris", "so I landed on the results",
                                    "so the page opens with Paris"])
def test_what_the_screen_does_after_so_is_no_conclusion(clause):
    assert CONCLUSION.match(clause) is None
    assert CONCLUSION.match("so I'm using the #4 row") is not None


def test_an_outcome_after_so_still_reads_as_one():
    got = certify_text(tap(GO), click("“Go”按钮"), "Click Go, so I'm back on the results for Paris.", FORM)
    assert got.outcome != "certified"


def test_the_finger_said_again_is_how_the_swipe_goes():
    action, function = swipe("left")
    text = "Swipe left to go on through the photos, so the finger moves leftward again."
    photo = el(0, (0, 0, 1080, 80), "4 / 30", flags=())
    expect(certify_text(action, function, text, [photo], web=False), "certified")
    told = "Swipe left to go on through the photos; the next photo slides in from the right."
    assert certify_text(action, function, told, [photo], web=False).outcome != "certified"


def test_search_results_named_as_a_noun_describe_the_screen():
    text = "点“Harbour tour #4”的标题。搜索结果目前从 #3 排到 #5，第四个在中间。"
    expect(certify_text(tap(ROWS[1]), click("“Harbour tour #4”标题"), text, ROWS), "certified")


def test_poke_is_a_tap_and_a_purpose_after_it_no_decision():
    decision = stated_decision("先戳一下底下那个输入框，好打字")
    assert decision is not None and decision.verb == "click"


def test_a_verb_after_the_past_mark_is_history():
    assert action_clauses("刚才点成 On 了，然后按了返回，现在是设置列表。") == []
    assert [c.verb for c in action_clauses("然后按返回。")] == ["back"]


def test_a_recap_under_its_own_label_is_no_decision():
    decision = stated_decision("回顾：打开相册 → 点开一张 → 返回。现在点 Go。")
    assert decision is not None and decision.verb == "click" and "Go" in decision.phrase


def test_a_page_turn_said_to_work_is_no_decision_and_its_outcome_is_told():
    text = "手指右滑，顺利回到第 8 张，翻页没问题。"
    decision = stated_decision(text)
    assert decision is not None and decision.verb == "swipe" and decision.direction == "right"
    assert outcome_clause(text, decision.span, decision.span[1] - len(decision.rest)) is not None


def test_a_chinese_purpose_after_a_latin_value_is_not_typed():
    step = Step(0, WEB, typed(CITY, "jazz", "“City”")[0], elements=FORM)
    function = typed(CITY, "jazz", "“City”")[1]
    assert contradictions("在 City 里输入 jazz 缩小范围。", function, step) == []
    assert contradictions("在 City 里输入 jazz 音乐。", function, step) != []


def test_the_results_list_as_a_verb_tells_the_next_screen():
    text = "Click Go; the results list Harbour tour #3 first."
    decision = stated_decision(text)
    assert outcome_clause(text, decision.span, decision.span[1] - len(decision.rest)) is not None


def test_a_stroke_said_with_yi_is_a_swipe_and_where_it_got_is_its_outcome():
    text = "手指往左一划，翻到第 10 张了。"
    decision = stated_decision(text)
    assert decision is not None and decision.verb == "swipe" and decision.direction == "left"
    assert outcome_clause(text, decision.span, decision.span[1] - len(decision.rest)) == "翻到第 10 张了"
    assert outcome_clause("手指往左一划，翻到第 10 张就好了。", (0, 6), 6) is None  # enough said, no outcome


def test_the_finger_said_in_so_many_words_outweighs_a_scroll():
    assert stated_decision("Keep scrolling up — finger up again.").direction == "up"
    assert stated_decision("Scroll down to see more, finger moving up.").direction == "up"
    assert stated_decision("Keep scrolling up.").direction == "down"  # a scroll alone says the view's way


PHOTO = el(0, (0, 0, 1080, 80), "9 / 30", flags=())


@pytest.mark.parametrize("text, outcome", [
    ("左滑。顶部显示 9 / 30，已经往后翻了两张，再翻一张。", "certified"),  # two swipes before this one
    ("左滑。顶部显示 9 / 30，已经往后翻了三张，再翻一张。", "unsure"),  # the history holds two
])
def test_swipes_counted_in_chinese_are_history_when_the_history_holds_as_many(text, outcome):
    action, function = swipe("left")
    got = certify_text(action, function, text, [PHOTO], web=False, before=[swipe("left")[0], swipe("left")[0]])
    expect(got, outcome)


def test_a_value_said_already_in_place_in_the_decision_sentence_is_history():
    before = [typed(CITY, "Paris", "“City”")[0]]
    text = "点 Go 提交，City 框里已经是 Paris 了。"
    expect(certify_text(tap(GO), click("“Go”按钮"), text, FORM, before=before), "certified")
    told = "点 Go 提交，City 框里已经是 Rome 了。"  # no earlier step typed Rome: what the click brings?
    assert certify_text(tap(GO), click("“Go”按钮"), told, FORM, before=before).outcome != "certified"


def test_a_field_said_empty_right_now_in_the_decision_sentence_is_the_screen():
    empty = el(0, (40, 100, 400, 160), "", flags=("clickable", "editable"), hint="City")
    action, function = typed(empty, "Paris", "“City”输入框")
    got = certify_text(action, function, "Type 'Paris' into City; the box is empty right now.", [empty, SEATS, GO])
    expect(got, "certified")


def test_because_after_the_decision_is_its_reason():
    text = "在 City 里输入 Paris，因为要找的是巴黎的行程。"
    action, function = typed(CITY, "Paris", "“City”输入框")
    expect(certify_text(action, function, text, FORM), "certified")


@pytest.mark.parametrize("text, way", [("To flip on, swipe left — finger moving right to left.", "left"),
                                       ("Going back one — swipe right, finger left to right.", "right")])
def test_a_finger_said_from_side_to_side_goes_toward_the_second_side(text, way):
    assert stated_decision(text).direction == way


def test_a_chinese_purpose_after_a_pronoun_names_no_other_element():
    suggestion = el(0, (40, 200, 600, 260), "机械键盘")
    search = el(1, (900, 100, 1000, 160), "搜索")
    text = "下面第一条联想词就是“机械键盘”，点它来搜索。"
    got = certify_text(tap(suggestion), click("联想词“机械键盘”"), text, [suggestion, search])
    assert got.outcome != "rejected", got.reasons
    told = "下面第一条联想词就是“机械键盘”，点“搜索”。"  # the search button is another element
    assert certify_text(tap(suggestion), click("联想词“机械键盘”"), told, [suggestion, search]).outcome == "rejected"


def test_what_a_plain_tap_would_only_do_is_weighed_not_decided():
    decision = stated_decision("长按张伟那一行的头像。直接点只会打开聊天。")
    assert decision is not None and decision.verb == "long_press"


def test_my_last_tap_is_a_noun():
    assert action_clauses("Auto-rotate reads On, switched from Off by my last tap.") == []
    assert [c.verb for c in action_clauses("Last, tap Save.")] == ["click"]


def test_a_list_not_filtered_yet_is_the_screen_as_it_is():
    from sftdata.checks.hindsight import find_hindsight
    assert find_hindsight("Type jazz. The listings are not filtered yet.") == []
    assert find_hindsight("Type jazz. The listings are filtered now.") != []
