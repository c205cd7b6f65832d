"""future_screen_text: words of a reasoning that only a later screen shows, with the screen they come from."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.checks.check import check_items
from sftdata.checks.future_text import FutureText, future_screen_text

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from future_text import load_episodes, scores  # noqa: E402

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)


def screen(i, *labels, action=None, off_screen=()):
    els = [Element(j, (0, 100 * j + 100, 1080, 100 * j + 190), text=t, flags=("visible",)) for j, t in enumerate(labels)]
    els += [Element(50 + j, (0, 2500, 1080, 2600), text=t, flags=("visible",)) for j, t in enumerate(off_screen)]
    return Step(i, SHOT, action or Action("click", point=(540, 150)), elements=els)


EP = Episode("e", "sample", "打开蓝牙并连接耳机", [
    screen(0, "设置", "显示与亮度", off_screen=("关于手机",)),
    screen(1, "蓝牙", "已配对的设备", "可用设备"),
    screen(2, "蓝牙", "Sony WH-1000XM4", "关于手机", action=Action("done")),
])


def test_a_later_screens_words_are_flagged_with_their_screen():
    assert future_screen_text("点击“设置”，已配对的设备列表就出来了。", EP, 0) == [FutureText("已配对的设备", 1)]
    assert future_screen_text("Tap Settings and the Sony WH-1000XM4 entry shows up.", EP, 0) == \
        [FutureText("sony wh-1000xm4", 2)]


def test_what_the_agent_can_know_passes():
    assert future_screen_text("点击“设置”，应该能找到蓝牙开关。", EP, 0) == []  # 蓝牙 is in the goal
    assert future_screen_text("屏幕上有“显示与亮度”，先点击“设置”。", EP, 0) == []
    assert future_screen_text("刚才在“设置”里，现在点击“已配对的设备”。", EP, 1) == []  # on the current screen
    assert future_screen_text("点击“确定”。", EP, 0) == []  # on no screen at all: not a future word


def test_an_off_screen_node_is_not_known_before_it_scrolls_in():
    assert future_screen_text("下面还有“关于手机”，先点击“设置”。", EP, 0) == [FutureText("关于手机", 2)]


def test_unknown_screens_prove_nothing():
    blank = Episode("b", "annotated", "打开蓝牙", [Step(0, SHOT, Action("click", point=(5, 5))),
                                                screen(1, "已配对的设备", action=Action("done"))])
    assert future_screen_text("点击后已配对的设备就出来了。", blank, 0) == []


def test_the_check_names_the_field_and_screen():
    items = [{"reasoning": "点击“设置”，已配对的设备列表就出来了。", "function": {"name": "click",
                                                                       "parameters": {"target_element": "“设置”"}}},
             {"reasoning": "点击“已配对的设备”。", "function": {"name": "click",
                                                          "parameters": {"target_element": "“已配对的设备”"}}},
             {"reasoning": "耳机已经连接，任务完成。", "function": {"name": "done", "parameters": {}}}]
    failures = [f for f in check_items(items, EP) if f.reason == "future_screen_text"]
    assert [(f.index, f.detail) for f in failures] == [
        (0, "reasoning: “已配对的设备” appears on screen 2, not on screens 1–1")]


def test_the_development_set():
    records = [json.loads(line) for line in (ROOT / "tests/annotate/future_text_dev.jsonl").open(encoding="utf-8")]
    assert len(records) >= 400 and sum(r["label"] == "hindsight" for r in records) >= 100
    tp, fp, fn, _ = scores(records, load_episodes())["union"]
    assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.95


def test_a_viewers_position_and_counted_units():
    photos = Episode("p", "sample", "翻看几张照片", [screen(0, "相册", "3 / 12", "已选 2 个文件"),
                                                 screen(1, "4 / 12", action=Action("swipe", direction="left")),
                                                 screen(2, "5 / 12", "共 2 个文件", action=Action("done"))])
    assert future_screen_text("向左滑，到第 5 / 12 张。", photos, 0) == [FutureText("5 / 12", 2)]
    assert future_screen_text("现在是 3 / 12，向左滑。", photos, 0) == []  # shown now
    assert future_screen_text("还是第 15 / 120 张。", photos, 0) == []  # digits are not part of another number
    assert future_screen_text("已经选了 2 个文件，向左滑。", photos, 0) == []  # "个文件" alone is no name


def test_a_position_said_in_words():
    photos = Episode("p", "sample", "翻看照片", [screen(0, "相册", "3 / 12"), screen(1, "5 / 12", action=Action("done"))])
    assert future_screen_text("Swipe on to photo 5 of 12.", photos, 0) == [FutureText("5 / 12", 1)]
