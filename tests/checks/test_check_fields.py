"""The alignment check on the optional item fields (thought, action_summary, observation, memory) and the
``hindsight`` reason, in check_items, in the repair prompt's summary and in `sftdata validate` on a hand-written
annotations file."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.formats.base import ITEM_FIELDS
from sftdata.model import Action, Episode, Screenshot, Step
from sftdata.checks.check import ACTION_SUMMARY_MAX, check_items, failure_summary
from sftdata.validate import validate_files

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
EPISODE = Episode("e1", "annotated", "返回上一页", [Step(0, SHOT, Action("back")), Step(1, SHOT, Action("done"))])
FIELDS = {"thought": "当前不在目标页面，所以按返回键回到上一页。", "action_summary": "按返回键",
          "observation": "屏幕显示的是应用的设置页面，顶部有“设置”标题。", "memory": "尚未开始，目标是返回上一页。"}


def items(**first) -> list[dict]:
    back = {"reasoning": "当前页面不是目标页面，需要先返回上一页。", "function": {"name": "press_back", "parameters": {}}}
    done = {"reasoning": "已经回到目标页面，任务完成。", "function": {"name": "done", "parameters": {}}}
    return [{**back, **first}, done]


def reasons(its: list[dict]) -> list[str]:
    return [f.reason for f in check_items(its, EPISODE)]


def test_the_fields_are_the_shared_ones():
    assert ITEM_FIELDS == ("thought", "action_summary", "observation", "memory")


def test_items_with_good_fields_or_without_them_pass():
    assert check_items(items(), EPISODE) == []
    assert check_items(items(**FIELDS), EPISODE) == []
    assert check_items(items(thought=None, memory=""), EPISODE) == []  # null and blank count as absent


@pytest.mark.parametrize("name", ITEM_FIELDS)
def test_a_field_that_is_not_a_string_is_a_bad_item(name):
    failures = check_items(items(**{name: ["一", "二"]}), EPISODE)
    assert [(f.index, f.reason) for f in failures] == [(0, "bad_item")]
    assert f"'{name}' is list" in failures[0].detail


@pytest.mark.parametrize("name", ITEM_FIELDS)
def test_every_field_must_be_chinese(name):
    failures = check_items(items(**{name: "Go back to the previous page"}), EPISODE)
    assert [f.reason for f in failures] == ["field_not_chinese"] and failures[0].detail.startswith(f"{name}:")
    assert reasons(items(**{name: "返回“Settings”"})) == []  # quoted UI text may be in any language


def test_thought_is_one_sentence_on_one_line():
    assert reasons(items(thought="先返回上一页。然后再找设置。")) == ["thought_not_one_sentence"]
    assert reasons(items(thought="先返回上一页，\n再找设置")) == ["thought_not_one_sentence"]
    assert reasons(items(thought="按返回键回到“设置。通用”页面！")) == []  # quoted punctuation is not a sentence end


def test_action_summary_is_short():
    assert reasons(items(action_summary="点" * ACTION_SUMMARY_MAX)) == []
    assert reasons(items(action_summary="点" * (ACTION_SUMMARY_MAX + 1))) == ["action_summary_too_long"]
    assert reasons(items(action_summary="按返回键\n回到上一页")) == ["action_summary_too_long"]


def test_a_field_may_not_mention_the_marks():
    failures = check_items(items(observation="屏幕左上角有红圈标记的返回按钮。"), EPISODE)
    assert [f.reason for f in failures] == ["mentions_marks"] and "红圈" in failures[0].detail


@pytest.mark.parametrize("field, text, phrase", [
    ("reasoning", "这是第 1 步，共 2 步。当前页面不是目标页面，需要先返回上一页。", "共 2 步"),
    ("reasoning", "需要先返回上一页。返回后回到了聊天列表。", "返回后回到了聊天列表"),
    ("memory", "已完成 0 步，剩余 2 步。", "剩余 2 步"),
    ("observation", "下一张截图显示已经回到了聊天列表。", "下一张截图"),
    ("thought", "按返回键，随后页面显示出聊天列表。", "随后页面显示出聊天列表"),
])
def test_hindsight_in_the_reasoning_or_any_field(field, text, phrase):
    failures = check_items(items(**{field: text}), EPISODE)
    assert [(f.index, f.reason) for f in failures] == [(0, "hindsight")]
    assert f"{field}: " in failures[0].detail and phrase in failures[0].detail
    assert "(hindsight)" in failure_summary(failures) and phrase in failure_summary(failures)


def test_hindsight_comes_with_the_other_reasons():
    bad = items(reasoning="Step 1 of 2: go back.", action_summary="Press back, step 1 of 2")
    assert reasons(bad) == ["reasoning_not_chinese", "field_not_chinese", "hindsight"]


def test_validate_reports_hindsight_in_a_hand_written_file(tmp_path):
    episodes = tmp_path / "episodes.jsonl"
    other = Episode("e2", "annotated", "回到桌面", [Step(0, SHOT, Action("home")), Step(1, SHOT, Action("done"))])
    episodes.write_text(EPISODE.to_json() + "\n" + other.to_json() + "\n", encoding="utf-8")
    annotations = tmp_path / "mine.jsonl"
    annotations.write_text(
        '{"id": "e1", "items": [{"reasoning": "这是第 1 步，共 2 步。当前页面不是目标页面，需要先返回上一页。",'
        ' "function": {"name": "press_back", "parameters": {}}},'
        ' {"reasoning": "已经回到目标页面，任务完成。", "function": {"name": "done", "parameters": {}}}]}\n'
        '{"id": "e2", "items": [{"reasoning": "需要回到桌面，按下主页键。", "memory": "尚未开始。",'
        ' "function": {"name": "press_home", "parameters": {}}},'
        ' {"reasoning": "已经在桌面上，任务完成。", "function": {"name": "done", "parameters": {}}}]}\n',
        encoding="utf-8")
    report = validate_files(episodes, annotations)
    assert (report.checked, report.passed, report.failed) == (2, 1, 1)
    assert dict(report.by_reason) == {"hindsight": 1}
    [failing] = report.episodes
    [failure] = failing["failures"]
    assert failing["id"] == "e1" and failure["index"] == 0 and "共 2 步" in failure["detail"]

    out = tmp_path / "report.json"
    result = CliRunner().invoke(main, ["validate", "--episodes", str(episodes), "--annotations", str(annotations),
                                       "--report", str(out)], catch_exceptions=False)
    assert result.exit_code == 1 and "hindsight" in result.output
    assert json.loads(out.read_text())["failures_by_reason"] == {"hindsight": 1}
