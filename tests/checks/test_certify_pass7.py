"""Pass 7: each class in words other than the blind parts' (docs/checks.md, "Pass 7"): a swipe's direction said
as a gloss of the finger or the content; a clause whose verb moves the agent somewhere as an outcome; a
demonstrative row; a control or field named by its translation; an action label said as the imperative; a cell
of a grid; 'start with'; a part done before the decision and a recount's last item."""
from __future__ import annotations

import pytest

from sftdata.checks.certify import Certification, certify
from sftdata.checks.decision import stated_decision
from sftdata.checks.finger import finger_gloss
from sftdata.checks.outcome import outcome_clause
from sftdata.model import Action, Element, Episode, Screenshot, Step

PAGE = Screenshot("0" * 64, "x.png", 1280, 720)
PHONE = Screenshot("0" * 64, "p.png", 1080, 2400)
V = ("visible", "clickable")


def _episode(step: Step, goal: str = "Browse the plant shop", web: bool = False) -> Episode:
    return Episode("e", "m", goal, [step, Step(1, step.screenshot, Action("done"))],
                   platform="web" if web else "mobile")


def swipe(text: str, direction: str) -> Certification:
    rows = [Element(n, (0, 300 + 200 * n, 1080, 480 + 200 * n), text=name, flags=V)
            for n, name in enumerate(("Fern", "Cactus", "Orchid", "Bonsai"))]
    step = Step(0, PHONE, Action("swipe", direction=direction.lower()), elements=rows)
    return certify(_episode(step), 0, {"reasoning": text, "function": {"name": "swipe", "parameters": {
        "direction": direction}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text,direction", [
    ("Only four plants so far. Scroll the catalogue (finger slides up) to find the succulents.", "UP"),
    ("Too far already — scroll back a bit (the finger heads down) so Fern is in view again.", "DOWN"),
    ("I'll scroll through the list (content moving up) for the rest of the plants.", "UP"),
    ("Swipe up (finger travels up) and look at more pots before picking one.", "UP"),
    ("翻过头了，往回划一点（手指往下），让 Fern 回到中间。", "DOWN"),
    ("往回拖一点，手指向下。", "DOWN"),
    ("把植物列表往上推一下，看后面的盆栽。", "UP")])
def test_a_gloss_of_the_fingers_way_is_the_swipes_direction_not_an_outcome(text, direction):
    got = swipe(text, direction)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text,direction", [
    ("往回划一点（手指往下）。", "UP"),
    ("Scroll the catalogue (finger slides up) to find the succulents.", "DOWN")])
def test_a_gloss_that_says_the_other_way_is_not_certified(text, direction):
    assert swipe(text, direction).outcome == "rejected"


def test_a_result_in_parentheses_is_still_an_outcome():
    text = "Swipe up (the Bonsai row appears)."
    assert outcome_clause(text, (0, len(text)), 8) is not None


def test_the_finger_gloss_reads_explicit_finger_words_only():
    assert finger_gloss("the finger drags down") == "down"
    assert finger_gloss("手指朝上") == "up"
    assert finger_gloss("so the page is in view") is None


def test_a_choice_of_a_latin_option_after_xuan_is_a_decision():
    assert stated_decision("会员等级下拉里选 Premium。").verb == "click"
    assert stated_decision("在 Size 下拉中选 Large。").verb == "click"


@pytest.mark.parametrize("text,outcome", [
    ("Press back — that puts me on the Wi-Fi page with the network list showing.", True),
    ("Tap Archive, which lands us in the folder view.", True),
    ("Hit Save; it sends me straight to the summary.", True),
    ("Tap the field — that lets me type the name.", False),
    ("Tap Save, which should drop me on the summary.", False)])
def test_a_clause_that_moves_the_agent_somewhere_is_an_outcome(text, outcome):
    decision = stated_decision(text)
    found = outcome_clause(text, decision.span, decision.span[1] - len(decision.rest))
    assert (found is not None) is outcome, found


def _listing() -> list[Element]:
    """Four rows of a web listing: the row (its text holds its children's), its title link, its Follow button."""
    out: list[Element] = []
    for n in range(4):
        name, top = f"Lake painter view #{n + 5}", 20 + 170 * n
        parts = ((f"{name} Follow artist", "li", (32, top, 1248, top + 150), ("visible",)),
                 (name, "a", (176, top + 18, 696, top + 47), V),
                 ("Follow artist", "button", (1040, top + 60, 1220, top + 105), V))
        out += [Element(len(out) + k, box, text=text, tag=tag, flags=flags) for k, (text, tag, box, flags) in enumerate(parts)]
    return out


def tap_follow(text: str, index: int = 5) -> Certification:
    elements = _listing()
    target = elements[index]  # 5: the Follow artist of #6
    step = Step(0, PAGE, Action("click", point=target.center, element=target), elements=elements)
    episode = _episode(step, "Follow the sixth artist", web=True)
    return certify(episode, 0, {"reasoning": text, "function": {"name": "click", "parameters": {
        "target_element": f"“{target.text}”元素"}}}, cjk_threshold=0.0)


@pytest.mark.parametrize("text", ["第六位是 Lake painter view #6，在第二行。点这一排右侧的 Follow artist。",
                                  "#6 is the second row; press the Follow artist on that row.",
                                  "Lake painter view #6 sits near the top — click Follow artist in the same row."])
def test_a_demonstrative_row_stands_for_the_card_named_before(text):
    got = tap_follow(text)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text", ["#7 在中间偏下，点这一排右侧的 Follow artist。",
                                  "Lake painter view #8 is at the bottom — click Follow artist in the same row."])
def test_a_demonstrative_row_of_another_card_does_not_certify(text):
    assert tap_follow(text).outcome != "certified"


def tap(elements: list[Element], index: int, text: str, web: bool = True) -> Certification:
    target = elements[index]
    step = Step(0, PAGE if web else PHONE, Action("click", point=target.center, element=target), elements=elements)
    return certify(_episode(step, "Keep the draft", web=web), 0, {"reasoning": text, "function": {
        "name": "click", "parameters": {"target_element": f"“{target.text or target.desc}”元素"}}}, cjk_threshold=0.0)


def _editor(saves: int = 1) -> list[Element]:
    out = [Element(0, (32, 100, 900, 140), hint="Title", tag="input", flags=V + ("editable",)),
           Element(1, (940, 20, 1040, 60), text="Discard", tag="button", flags=V)]
    for n in range(saves):
        out.append(Element(len(out), (1100, 20 + 300 * n, 1240, 60 + 300 * n), text="Save", tag="button", flags=V))
    return out


@pytest.mark.parametrize("text", ["草稿写好了，点右上角的保存。", "标题已经填了，点一下保存按钮。"])
def test_a_control_named_by_its_translation_certifies(text):
    got = tap(_editor(), 2, text)
    assert got.outcome == "certified", got.reasons


def test_a_translation_that_fits_twins_gives_no_evidence():
    assert tap(_editor(saves=2), 2, "点保存。").outcome != "certified"


def test_a_chinese_label_named_in_english_certifies():
    icons = [Element(0, (40, 900, 240, 1100), desc="设置", flags=V), Element(1, (300, 900, 500, 1100), desc="相机", flags=V)]
    got = tap(icons, 0, "The gear icon — tap Settings.", web=False)
    assert got.outcome == "certified", got.reasons


def _form(names: tuple[str, str], into: int, value: str, text: str) -> Certification:
    """Two text fields side by side, named by their placeholders; the call types ``value`` into ``names[into]``."""
    fields = [Element(n, (32 + 400 * n, 100, 400 + 400 * n, 140), hint=name, tag="input", flags=V + ("editable",),
                      attrs=(("placeholder", name), ("type", "text"))) for n, name in enumerate(names)]
    step = Step(0, PAGE, Action("type", point=fields[into].center, text=value, element=fields[into]), elements=fields)
    return certify(_episode(step, "Fill the form", web=True), 0, {"reasoning": text, "function": {
        "name": "type", "parameters": {"target_element": f"“{fields[into].hint}”元素", "text": value}}},
        cjk_threshold=0.0)


def _booking(into: int, value: str, text: str) -> Certification:
    return _form(("Check-in", "Check-out"), into, value, text)


def test_a_field_named_by_its_translation_must_be_the_calls():
    assert _booking(1, "07/09", "退房日期填 07/09。").outcome == "certified"
    assert _booking(1, "07/09", "入住那一栏填 07/09。").outcome != "certified"
    assert _booking(0, "07/02", "入住那一栏填 07/02。").outcome == "certified"


def test_a_quoted_translation_of_a_label_on_screen_is_no_unknown_name():
    got = tap(_editor(), 2, "标题填好了，点“保存”（Save）。")
    assert got.outcome == "certified", got.reasons


def _product() -> list[Element]:
    """A product page's bottom bar: a favourite star, Add to basket and Buy now."""
    return [Element(0, (20, 2164, 200, 2334), desc="收藏", flags=V),
            Element(1, (300, 2194, 640, 2304), text="加入购物车", flags=V),
            Element(2, (700, 2194, 1050, 2304), text="立即购买", flags=V)]


@pytest.mark.parametrize("text", ["加入购物车（底部中间那个）。", "- add to cart, the middle button of the bottom bar"])
def test_a_label_said_as_the_imperative_is_a_tap_of_that_control(text):
    got = tap(_product(), 1, text, web=False)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text", ["底部有收藏、加入购物车、立即购买，先看看详情。",
                                  "Add to cart should work once the size is chosen; first the size."])
def test_a_label_in_a_list_or_as_a_subject_is_no_decision(text):
    assert stated_decision(text) is None or stated_decision(text).phrase.strip() not in ("加入购物车", "立即购买")
    assert tap(_product(), 1, text, web=False).outcome != "certified"


def test_the_other_label_said_as_the_imperative_is_not_the_call():
    assert tap(_product(), 1, "立即购买。", web=False).outcome == "rejected"


def test_the_home_key_named_alone_is_pressing_it():
    assert stated_decision("home key, then done.").verb == "home"


def _gallery() -> list[Element]:
    """Three rows of four tiles, each tile described by its date only (no two alike in words said here)."""
    out = []
    for r in range(3):
        for c in range(4):
            left, top = 270 * c, 400 + 270 * r
            out.append(Element(len(out), (left, top, left + 266, top + 266), desc=f"图片 {r * 4 + c + 1:02d}", flags=V))
    return out


@pytest.mark.parametrize("text,index", [
    ("打开第二排最右边那张。", 7),
    ("I'll open the second picture of the bottom row.", 9),
    ("Tap the leftmost tile in row 2.", 4),
    ("第一行第三张点开看大图。", 2)])
def test_a_cell_of_a_grid_is_read_from_the_tiles_positions(text, index):
    got = tap(_gallery(), index, text, web=False)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text,index", [
    ("打开第二排最右边那张。", 3),  # the first row's rightmost tile
    ("Tap the leftmost tile in row 2.", 0),
    ("I'll open the second picture of the bottom row.", 1)])
def test_another_cell_of_the_grid_does_not_certify(text, index):
    assert tap(_gallery(), index, text, web=False).outcome != "certified"


def test_a_row_without_a_column_does_not_single_out_a_tile():
    assert tap(_gallery(), 5, "Open a picture in the second row.", web=False).outcome != "certified"


def _search_form(into: int, value: str, text: str) -> Certification:
    return _form(("Make or model", "Zip"), into, value, text)


@pytest.mark.parametrize("text", ["Two boxes here. Start with the car — Civic.",
                                  "Form has make and zip; so begin with 'Civic' in Make or model."])
def test_start_with_chooses_what_is_acted_on_first(text):
    got = _search_form(0, "Civic", text)
    assert got.outcome == "certified", got.reasons


def test_start_with_before_a_colon_leaves_the_decision_to_the_colon():
    assert stated_decision("Start with the car: type Civic into Zip.").verb == "input"
    assert _search_form(0, "Civic", "Start with the car: type Civic into Zip.").outcome != "certified"


def test_a_description_that_starts_with_is_no_decision():
    assert stated_decision("The results start with a red Civic.") is None


def _checkout() -> list[Element]:
    return [Element(0, (32, 100, 900, 140), hint="Card number", tag="input", flags=V + ("editable",)),
            Element(1, (32, 600, 300, 650), text="Pay now", tag="button", flags=V)]


@pytest.mark.parametrize("text", ["Card number entered, expiry too — that part is done. Click Pay now.",
                                  "- card number ✓\n- expiry ✓\nAll filled in, finished with the form. Press Pay now."])
def test_a_part_done_before_the_decision_is_no_claim_that_the_task_is_complete(text):
    got = tap(_checkout(), 1, text)
    assert got.outcome == "certified", got.reasons


@pytest.mark.parametrize("text", ["Pay now was pressed, the task is complete.", "任务完成了。"])
def test_the_whole_task_said_complete_beside_a_tap_is_still_no_certificate(text):
    assert tap(_checkout(), 1, text).outcome != "certified"


def test_a_recount_of_what_was_done_is_history_to_its_last_item():
    text = "Typed the card number, picked the month, hit Pay now, and the receipt shows. Finishing here."
    assert stated_decision(text) is None or stated_decision(text).verb != "click"
