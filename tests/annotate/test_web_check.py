"""The alignment check on web episodes: browser function names, typed text, selected value, scroll direction,
address, element grounding, and no done for a recording without a final screen; the rules judge and validate
read web episodes the same way."""
from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.judge.rules import rules_verdict
from sftdata.model import Action
from sftdata.checks.calls import function_name
from sftdata.checks.check import check_items
from sftdata.checks.schema import schema_failures
from sftdata.annotate.template import template_items
from sftdata.validate import validate_files
from web_react_cases import human_web, mind2web_like, web_run


def reasons(items, episode) -> list[tuple[int | None, str]]:
    return [(f.index, f.reason) for f in check_items(items, episode)]


def changed(items, index: int, **params):
    out = copy.deepcopy(items)
    out[index]["function"]["parameters"].update(params)
    return out


@pytest.fixture
def m2w():
    episode = mind2web_like()
    return episode, template_items(episode)


@pytest.fixture
def human():
    episode = human_web()
    return episode, template_items(episode)


def test_wrong_typed_text_and_wrong_select_value(m2w):
    episode, items = m2w
    assert reasons(changed(items, 1, text="Seatle"), episode) == [(1, "input_text_mismatch")]
    assert reasons(changed(items, 3, value="First"), episode) == [(3, "select_value_mismatch")]
    no_value = copy.deepcopy(items)
    del no_value[3]["function"]["parameters"]["value"]
    assert reasons(no_value, episode) == [(3, "select_value_mismatch")]
    assert [f.reason for f in schema_failures(no_value)] == ["schema_invalid"]  # the schema asks for it too


def test_wrong_element_is_not_grounded(m2w):
    episode, items = m2w
    wrong = changed(items, 5, target_element="页面左上方的“SkyTrips”链接")
    assert reasons(wrong, episode) == [(5, "target_not_grounded")]
    typed_elsewhere = changed(items, 1, target_element="名为“dest”的输入框")
    assert reasons(typed_elsewhere, episode) == [(1, "target_not_grounded")]
    english = changed(items, 3, target_element="the Cabin class dropdown")
    assert reasons(english, episode) == [(3, "target_not_chinese")]
    missing = copy.deepcopy(items)
    del missing[2]["function"]["parameters"]["target_element"]
    assert reasons(missing, episode) == [(2, "missing_target")]


def test_done_in_a_recording_without_final_screen(m2w):
    episode, items = m2w
    done = {"reasoning": "任务目标已经完成。", "function": {"name": "done", "parameters": {}}}
    assert reasons(items + [done], episode) == [(None, "item_count_mismatch"), (6, "unexpected_done")]
    assert reasons(items[:-1] + [done], episode) == [(5, "unexpected_done"), (5, "function_mismatch")]
    assert reasons(items, episode) == []  # and no missing_done without it


def test_an_annotated_web_episode_still_needs_its_done(human):
    episode, items = human
    assert reasons(items[:-1], episode) == [(None, "item_count_mismatch"), (None, "missing_done")]


def test_scroll_direction_url_and_function_names(human):
    episode, items = human
    assert reasons(changed(items, 5, direction="UP"), episode) == [(5, "scroll_direction_mismatch")]
    assert reasons(changed(items, 7, url="https://www.skytrips.example/deal"), episode) == [(7, "url_mismatch")]
    assert reasons(changed(items, 7, url=" https://www.skytrips.example/deals/"), episode) == []
    assert reasons(changed(items, 9, url="https://maps.example/nyc"), episode) == [(9, "url_mismatch")]
    phone_back = copy.deepcopy(items)
    phone_back[8]["function"]["name"] = "press_back"
    assert reasons(phone_back, episode) == [(8, "function_mismatch")]
    swiped = copy.deepcopy(items)
    swiped[5]["function"]["name"] = "swipe"
    assert reasons(swiped, episode) == [(5, "function_mismatch")]


def test_reasoning_stays_chinese_while_quoting_english_page_text(m2w):
    episode, items = m2w
    english = copy.deepcopy(items)
    english[0]["reasoning"] = "I click the Leaving from field to enter the departure city."
    assert reasons(english, episode) == [(0, "reasoning_not_chinese")]
    quoted = copy.deepcopy(items)
    quoted[0]["reasoning"] = "点击“Leaving from - enter the city or airport you depart from”输入框。"
    assert reasons(quoted, episode) == []


def test_function_names_per_platform():
    assert [function_name(Action("back")), function_name(Action("back"), web=True)] == ["press_back", "go_back"]
    assert function_name(Action("wait"), web=True) == "wait"  # a phone-only action keeps its name
    assert function_name(Action("scroll", direction="down")) == "scroll"


def test_rules_judge_on_web_episodes(m2w, human):
    for episode, items in (m2w, human):
        verdicts, ep_verdict = rules_verdict(episode, items)
        assert all(v.aligned and v.grounded and not v.hindsight and v.score == 5 for v in verdicts)
    assert rules_verdict(*m2w)[1].task_completed is None  # no final screen: the rules cannot tell
    assert rules_verdict(*human)[1].task_completed is True
    episode, items = m2w
    bad = rules_verdict(episode, changed(items, 3, value="First"))[0][3]
    assert not bad.aligned and bad.score == 2 and "select_value_mismatch" in bad.why


def test_validate_a_run_with_web_episodes(tmp_path):
    run = web_run(tmp_path / "run", [human_web(), mind2web_like()])
    lines = [json.dumps({"id": ep.id, "items": template_items(ep)}, ensure_ascii=False) for ep in run.episodes()]
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = validate_files(run.episodes_path, good)
    assert (report.checked, report.passed, report.failed) == (2, 2, 0)
    record = json.loads(lines[1])
    record["items"][1]["function"]["parameters"]["text"] = "Seatle"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--episodes", str(run.episodes_path), "--annotations", str(bad)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "checked 2   passed 1   failed 1" in result.output and "input_text_mismatch" in result.output
    result = CliRunner().invoke(main, ["validate", "--episodes", str(run.episodes_path), "--annotations", str(good)])
    assert result.exit_code == 0 and "checked 2   passed 2   failed 0" in result.output
