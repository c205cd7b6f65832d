"""sftdata.annotate.parse: getting the item list out of an LLM reply, and schema failures."""
from __future__ import annotations

import json
import time

import pytest

from sftdata.errors import RecordError
from sftdata.annotate.parse import ReplyError, extract_json, parse_reply
from sftdata.checks.schema import schema_failures

REASONING = "当前页面是“设置”，需要点击“蓝牙”开关：打开蓝牙。"
TARGET = "“蓝牙”右侧的开关，位于列表第二项"
ITEMS = [
    {"reasoning": REASONING, "function": {"name": "click", "parameters": {"target_element": TARGET}}},
    {"reasoning": "向上滑动，查看更多选项。", "function": {"name": "swipe", "parameters": {"direction": "UP"}}},
    {"reasoning": "蓝牙已经打开，任务完成。", "function": {"name": "done", "parameters": {}}},
]


def reason(text: str, **limits) -> str:
    with pytest.raises(ReplyError) as info:
        parse_reply(text, **limits)
    return info.value.reason


def test_clean_list():
    assert parse_reply(json.dumps(ITEMS, ensure_ascii=False)) == ITEMS
    assert parse_reply(json.dumps(ITEMS, indent=2)) == ITEMS


def test_fenced_reply_with_prose_around():
    text = ("好的，下面是重建的结果 [共 3 项]：\n```json\n" + json.dumps(ITEMS, ensure_ascii=False, indent=2)
            + "\n```\n如有问题请告诉我 {谢谢}。")
    assert parse_reply(text) == ITEMS
    assert parse_reply("Here it is:\n```\n" + json.dumps(ITEMS) + "\n```") == ITEMS
    assert parse_reply("Sure. " + json.dumps(ITEMS, ensure_ascii=False) + " Hope this helps!") == ITEMS


def test_single_object_becomes_a_list():
    assert parse_reply(json.dumps(ITEMS[2], ensure_ascii=False)) == [ITEMS[2]]


@pytest.mark.parametrize("key", ["items", "actions", "steps"])
def test_wrapper_object_is_unwrapped(key):
    assert parse_reply(json.dumps({key: ITEMS}, ensure_ascii=False)) == ITEMS


def test_objects_one_per_line_become_a_list():
    assert parse_reply("\n".join(json.dumps(it, ensure_ascii=False) for it in ITEMS)) == ITEMS


def test_fullwidth_syntax_outside_strings_leaves_string_content_byte_identical():
    text = json.dumps(ITEMS, ensure_ascii=False)
    for inside in (REASONING, TARGET):  # hide the string contents, swap the syntax, put the contents back
        text = text.replace(json.dumps(inside, ensure_ascii=False), "\0" + str(len(inside)))
    broken = (text.replace('", "', '"，"').replace('": ', '"：').replace("}, {", "}，{")
              .replace('"name"', "“name”").replace('"click"', "“click”").replace("[", "【", 1))
    broken = broken[:-1] + "】"
    for inside in (REASONING, TARGET):
        broken = broken.replace("\0" + str(len(inside)), json.dumps(inside, ensure_ascii=False))
    assert "，" in broken and "：" in broken and "“name”" in broken and broken.startswith("【")
    got = parse_reply(broken)
    assert got == ITEMS
    assert got[0]["reasoning"].encode() == REASONING.encode()
    assert got[0]["function"]["parameters"]["target_element"].encode() == TARGET.encode()


def test_curly_quoted_strings_keep_their_fullwidth_commas():
    assert extract_json("[{“reasoning”：“你好，世界。”，“n”：1}]") == [{"reasoning": "你好，世界。", "n": 1}]


def test_trailing_commas_and_single_quotes():
    text = json.dumps(ITEMS, ensure_ascii=False, indent=1).replace("}\n}", "},\n}").replace("\n]", ",\n]")
    assert ",\n]" in text
    assert parse_reply(text) == ITEMS
    assert parse_reply("[{'reasoning': '好的，“是”。', 'function': {'name': 'done', 'parameters': {},},},]") == [
        {"reasoning": "好的，“是”。", "function": {"name": "done", "parameters": {}}}]


def test_content_is_not_fixed():
    item = {"reasoning": "滑动。", "function": {"name": "scroll", "parameters": {"direction": "up"}}}
    assert parse_reply(json.dumps([item])) == [item]


def test_huge_reply_is_rejected_without_parsing():
    text = "[" + " " * (50 * 1024 * 1024) + "]"
    start = time.process_time()  # this process's CPU time: the same on a loaded machine
    assert reason(text) == "reply_too_large"
    assert time.process_time() - start < 0.5
    assert reason("[1, 2, 3]", max_chars=5) == "reply_too_large"


@pytest.mark.parametrize("text", ["[" * 10000 + "]" * 10000, '{"a":' * 10000 + "1" + "}" * 10000,
                                  "prose " + "【" * 10000])
def test_deep_nesting_is_rejected_quickly(text):
    start = time.process_time()  # this process's CPU time: the same on a loaded machine
    assert reason(text) == "reply_too_deep"
    assert time.process_time() - start < 0.5


def test_nesting_within_the_limit_parses():
    value, depth = parse_reply("[" * 64 + "]" * 64), 1
    while value:
        value, depth = value[0], depth + 1
    assert depth == 64


def test_depth_limit_counts_outside_strings_only():
    assert parse_reply(json.dumps([{"reasoning": "[" * 100}])) == [{"reasoning": "[" * 100}]
    assert reason("[[[1]]]", max_depth=2) == "reply_too_deep"


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_reply(text):
    assert reason(text) == "empty_reply"


@pytest.mark.parametrize("text", ["抱歉，我无法完成这个任务。", "I cannot help with that.", "The answer is 42.",
                                  "```\n```", '{"foo": 1}', "[", "{"])
def test_unparseable_reply(text):
    assert reason(text) == "unparseable_reply"


def test_reply_error_is_a_record_error():
    with pytest.raises(RecordError):
        parse_reply("")


def test_schema_clean_items_have_no_failures():
    assert schema_failures(ITEMS) == []


def test_schema_failures_name_the_index_and_path():
    items = [dict(it, function=dict(it["function"])) for it in ITEMS]
    items[1]["function"]["parameters"] = {}  # swipe without direction
    items[2] = {"reasoning": 7, "function": {"name": "tap", "parameters": {}}}
    got = schema_failures(items)
    assert {f.reason for f in got} == {"schema_invalid"}
    assert [f.index for f in got] == [1, 2, 2]
    assert got[0].detail == "function.parameters: 'direction' is a required property"
    assert got[1].detail.startswith("function.name: 'tap' is not one of [")
    assert got[2].detail == "reasoning: 7 is not of type 'string'"


def test_schema_failures_top_level_and_deduplicated():
    assert [(f.index, f.detail) for f in schema_failures([])] == [(None, "list: [] should be non-empty")]
    assert [f.index for f in schema_failures({"items": []})] == [None]
    got = schema_failures(["not an item", {"function": {"name": "click", "parameters": {}}}])
    assert [f.index for f in got] == [0, 1, 1]
    assert len(set(got)) == len(got)
    assert got[1].detail == "function.parameters: 'target_element' is a required property"
    assert got[2].detail == "item: 'reasoning' is a required property"


def test_schema_failure_detail_is_short():
    got = schema_failures([{"reasoning": "很长" * 5000, "function": "click"}])
    assert got and all(len(f.detail) < 260 for f in got)
