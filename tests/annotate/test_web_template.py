"""The template backend on web pages: browser functions, targets named by the element's own page text, Chinese
reasoning that quotes English page text, no done after a recording without a final screen, and no hindsight."""
from __future__ import annotations

from dataclasses import replace

import pytest

from sftdata.formats.base import ITEM_FIELDS
from sftdata.model import Action, Element, Step
from sftdata.annotate.progress import task_memory
from sftdata.checks.calls import grounding_label, mentions
from sftdata.checks.check import check_items, cjk_share
from sftdata.checks.hindsight import find_hindsight
from sftdata.annotate.template import template_items
from web_react_cases import SHOT, human_web, mind2web_like, page

EPISODES = {"human": human_web, "mind2web": mind2web_like}


def variants(make, n: int = 25):
    """The same recording under ``n`` ids: the template's phrasing is picked by a hash of id and step."""
    return [make(f"{make.__name__}-{i}") for i in range(n)]


@pytest.mark.parametrize("kind", sorted(EPISODES))
def test_template_items_pass_the_check_and_carry_no_hindsight(kind):
    for episode in variants(EPISODES[kind]):
        items = template_items(episode)
        assert check_items(items, episode) == []
        for item in items:
            for name in ("reasoning",) + ITEM_FIELDS:
                assert find_hindsight(item[name]) == [], (name, item[name])
            assert cjk_share(item["reasoning"]) >= 0.8
            assert set(ITEM_FIELDS) <= set(item)


def test_functions_are_the_browsers_and_a_recording_without_final_screen_has_no_done():
    human, m2w = human_web(), mind2web_like()
    names = [it["function"]["name"] for it in template_items(human)]
    assert names == ["click", "type", "select", "click", "click", "scroll", "scroll", "go_to_url", "go_back",
                     "new_tab", "done"]
    items = template_items(m2w)
    assert len(items) == len(m2w.steps) and "done" not in [it["function"]["name"] for it in items]
    last = items[-1]
    assert "最后" not in last["reasoning"] and "完成" not in last["reasoning"]


def test_parameters_are_the_ground_truth():
    items = template_items(human_web())
    assert items[1]["function"]["parameters"]["text"] == "Seattle"
    assert items[2]["function"]["parameters"]["value"] == "Business"
    assert items[5]["function"]["parameters"] == {"direction": "DOWN"}
    assert items[6]["function"]["parameters"] == {"direction": "UP"}
    assert items[7]["function"]["parameters"] == {"url": "https://www.skytrips.example/deals"}
    assert items[9]["function"]["parameters"] == {"url": "https://maps.example/sea"}
    assert items[8]["function"]["parameters"] == {} and items[10]["function"]["parameters"] == {}


def test_targets_name_the_elements_own_text_in_quotes():
    episode = mind2web_like()
    items = template_items(episode)
    targets = [it["function"]["parameters"].get("target_element") for it in items]
    assert "“Leaving from”输入框" in targets[1]  # placeholder: the field's only text
    assert "名为“dest”的输入框" in targets[2]  # known only by its name attribute
    assert "“Cabin class”下拉框" in targets[3]  # a dropdown is named by its label, not by all its options
    assert "“New York deals”链接" in targets[4] and "“Search flights”按钮" in targets[5]
    for step, target in zip(episode.steps, targets):
        assert mentions(target, grounding_label(step))
    assert "在“Leaving from”输入框中输入“Seattle”" == items[1]["action_summary"]
    assert "在“Cabin class”下拉框中选择“Business”" == items[3]["action_summary"]


def test_reasoning_uses_the_goal_the_history_and_the_page():
    items = template_items(mind2web_like())
    assert "“Find flights from Seattle to New York on June 5th”" in items[0]["reasoning"]
    assert any(w in items[0]["reasoning"] for w in ("还没有进行任何操作", "任务刚开始", "这是第一个操作", "这次的任务",
                                                   "要完成的是", "目标："))
    assert "在“Leaving from”输入框中输入“Seattle”" in items[2]["reasoning"]  # what it did one step before
    assert "“SkyTrips”" in items[0]["observation"] and "“Popular destinations”" in items[0]["observation"]
    assert "任务中给出的是“Seattle”" in items[1]["reasoning"] or "按照任务的要求" in items[1]["reasoning"]


def test_the_step_after_an_ineffective_one_reflects_and_retries():
    items = template_items(human_web())  # step 4 (index 3) clicked "Search flights" and nothing changed
    assert "没有变化" not in items[3]["reasoning"] and "没有反应" not in items[3]["reasoning"]
    assert ("没有变化" in items[4]["reasoning"] or "没有反应" in items[4]["reasoning"]) and "再试一次" in items[4]["reasoning"]


def test_the_page_address_names_the_site():
    items = template_items(human_web())
    assert items[0]["observation"].startswith("当前是“www.skytrips.example”的网页")


def test_memory_lists_web_actions_without_step_counts():
    episode = human_web()
    assert task_memory(episode, 3, None, "zh") == ("已做：点击“leaving from”、在“leaving from”中输入“Seattle”、"
                                                   "在“cabin class”中选择“Business”；目标：“Find business class "
                                                   "flights from Seattle to New York”")
    assert "scrolled down" in task_memory(episode, 6, None, "en")
    items = template_items(episode)
    assert items[8]["memory"].startswith("已做：点击“Leaving from”输入框、") and "打开网址“https://www.skytrips.example/deals”" in items[8]["memory"]


def test_an_element_without_any_label_is_described_by_kind_and_place():
    bare = Element(0, (1180, 600, 1240, 660), tag="button", flags=("clickable", "visible"))
    steps = [Step(0, SHOT, Action("click", point=(1200, 630), element=bare), elements=[bare]),
             Step(1, SHOT, Action("done"))]
    episode = replace(human_web(), steps=steps)
    items = template_items(episode)
    assert items[0]["function"]["parameters"]["target_element"] == "页面右下方的按钮"
    assert check_items(items, episode) == []


def test_long_labels_and_texts_are_left_out_of_the_summary_never_cut():
    long_id = Element(0, (300, 100, 700, 140), tag="input", attrs=(("id", "ctl00_main_searchbox_destination_city"),),
                      flags=("editable", "visible"))
    long_hint = Element(1, (300, 200, 700, 240), hint="Enter the city, airport or train station you leave from",
                        tag="input", flags=("editable", "visible"))
    text = "Seattle-Tacoma International Airport (SEA), Washington"
    steps = [Step(0, SHOT, Action("type", point=(500, 120), text=text, element=long_id), elements=[long_id]),
             Step(1, SHOT, Action("type", point=(500, 220), text=text, element=long_hint), elements=[long_hint]),
             Step(2, SHOT, Action("done"))]
    episode = replace(human_web(), steps=steps)
    items = template_items(episode)
    assert check_items(items, episode) == []
    assert [len(it["action_summary"]) <= 40 for it in items] == [True] * 3
    assert items[0]["function"]["parameters"]["text"] == text and "…" not in "".join(str(it) for it in items)
    assert items[0]["action_summary"] == "在名为“ctl00_main_searchbox_destination_city”的输入框中输入文本"[:40] or \
        items[0]["action_summary"] == "在输入框中输入文本"
    assert f"输入“{text}”" in items[2]["memory"]  # the memory says the whole value


def test_template_is_deterministic():
    assert template_items(mind2web_like()) == template_items(mind2web_like())
    assert page() == page()


def test_a_twin_button_is_named_by_its_cards_own_title_not_a_shared_photo_label():
    from sftdata.annotate.template_web import target_description
    from sftdata.model import Screenshot
    shot = Screenshot("2" * 64, "w.png", 1280, 800)
    elements = []
    for i, title in enumerate(("Quiet flight #1", "Loud flight #2")):
        top = 100 + 200 * i
        elements += [Element(4 * i, (0, top, 1280, top + 180), tag="li", flags=("visible",)),
                     Element(4 * i + 1, (10, top + 10, 110, top + 110), desc="Flight photo", tag="img", flags=("visible",)),
                     Element(4 * i + 2, (130, top + 10, 600, top + 40), text=title, tag="a", flags=("visible", "clickable")),
                     Element(4 * i + 3, (1100, top + 60, 1250, top + 100), text="Select", tag="button",
                             flags=("visible", "clickable"))]
    select = elements[7]
    step = Step(0, shot, Action("click", element=select, point=select.center), elements=elements)
    said = target_description(step)
    assert "Loud flight #2" in said and "Flight photo" not in said, said
