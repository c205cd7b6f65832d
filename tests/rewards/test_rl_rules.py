"""The reward rules on hand-made ground truths: boxes, the disc without a box, the size guard, the Gaussian,
targets in words, text, direction, app, and the verl and ms-swift entries."""
import json
import math

import pytest

from sftdata.model import Action, Element
from sftdata.rewards import compute_score, read_solution, score_answer
from sftdata.rewards.ms_swift import ORMS, rewards
from sftdata.rewards.rules import (Prediction, app_reward, direction_reward, target_gaussian_reward, target_reward,
                                   text_exact_reward, text_f1_reward, token_f1)

SCREEN = [1000, 2000]


def sol(action, box=None, fmt="qwen2.5-vl", **extra):
    return read_solution({"format": fmt, "id": "e:0", "source": "s", "platform": "mobile", "screen": SCREEN,
                          "action": action, "box_px": box, "answer": "", "context": {}, **extra})


def click(x, y, **kw):
    return Prediction(Action("click", point=(x, y), **kw.pop("action", {})), **kw)


def test_target_is_the_box_and_without_one_a_disc_of_four_percent():
    boxed = sol({"type": "click", "point": [150, 120]}, [100, 100, 200, 140])
    assert target_reward(click(100, 100), boxed) == 1.0 and target_reward(click(199, 139), boxed) == 1.0
    assert target_reward(click(200, 120), boxed) == 0.0 and target_reward(click(150, 99), boxed) == 0.0
    bare = sol({"type": "click", "point": [500, 1000]})
    assert target_reward(click(539, 1000), bare) == 1.0 and target_reward(click(541, 1000), bare) == 0.0
    assert target_reward(Prediction(Action("back")), boxed) == 0.0  # aims at nothing
    assert target_reward(Prediction(Action("back")), sol({"type": "back"})) == 1.0  # neither aims
    assert target_reward(click(1, 1), sol({"type": "back"})) == 0.0
    assert target_reward(Prediction(None, error="x"), sol({"type": "back"})) == 0.0


def test_the_box_size_guard():
    truth = sol({"type": "click", "point": [150, 120]}, [100, 100, 200, 140])  # 100 x 40
    assert target_reward(click(150, 120, box=(50, 80, 250, 160)), truth) == 1.0  # exactly 4x the area
    assert target_reward(click(150, 120, box=(50, 80, 250, 161)), truth) == 0.0  # over 4x
    assert target_gaussian_reward(click(150, 120, box=(0, 0, 1000, 2000)), truth) == 0.0


def test_gaussian_point_reward_sigma_is_half_the_box():
    truth = sol({"type": "click", "point": [150, 120]}, [100, 100, 200, 140])
    assert target_gaussian_reward(click(150, 120), truth) == 1.0
    assert target_gaussian_reward(click(200, 120), truth) == pytest.approx(math.exp(-0.5))  # one sigma in x
    assert target_gaussian_reward(click(200, 140), truth) == pytest.approx(math.exp(-1.0))
    bare = sol({"type": "click", "point": [500, 1000]})  # no box: sigma = 4% of the screen's sides
    assert target_gaussian_reward(click(540, 1000), bare) == pytest.approx(math.exp(-0.5))


def test_a_target_in_words_scores_the_descriptions_token_f1():
    truth = sol({"type": "click", "point": None, "target": "底部的“发送”按钮"}, [0, 0, 10, 10], fmt="react-zh")
    same = Prediction(Action("click", target="底部的“发送”按钮"))
    other = Prediction(Action("click", target="顶部的搜索框"))
    assert target_reward(same, truth) == 1.0 and target_reward(other, truth) == pytest.approx(token_f1("顶部的搜索框", "底部的“发送”按钮"))
    assert 0 < target_reward(other, truth) < 0.5


def test_text_direction_and_app():
    typed = sol({"type": "input", "text": "晚上七点到家"})
    assert text_exact_reward(Prediction(Action("input", text=" 晚上七点到家 ")), typed) == 1.0
    assert text_exact_reward(Prediction(Action("input", text="晚上八点到家")), typed) == 0.0
    assert text_f1_reward(Prediction(Action("input", text="晚上八点到家")), typed) == pytest.approx(5 / 6)
    assert text_f1_reward(Prediction(Action("back")), typed) == 0.0
    assert text_f1_reward(Prediction(Action("back")), sol({"type": "back"})) == 1.0
    url = sol({"type": "go_to_url", "url": "https://example.com/a"})
    assert text_exact_reward(Prediction(Action("go_to_url", url="https://example.com/a")), url) == 1.0
    swipe = sol({"type": "swipe", "direction": "up"})
    assert direction_reward(Prediction(Action("swipe", direction="up")), swipe) == 1.0
    assert direction_reward(Prediction(Action("swipe", direction="down")), swipe) == 0.0
    app = sol({"type": "open_app", "app": "Zoho  Meeting"})
    assert app_reward(Prediction(Action("open_app", app="zoho meeting")), app) == 1.0
    assert app_reward(Prediction(Action("open_app", app="Zoom")), app) == 0.0


def test_token_f1():
    assert token_f1("Search 蓝牙 headphones", "search headphones") == pytest.approx(2 * (2 / 4) * 1 / (2 / 4 + 1))
    assert token_f1("", "") == 1.0 and token_f1("!!", "??") == 0.0 and token_f1("a", None) == 0.0


ANSWER = ('Thought: 点击发送。\nAction: 点击“发送”\n<tool_call>\n'
          '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [%d, %d]}}\n</tool_call>')


def test_compute_score_for_verl_and_the_ms_swift_rewards():
    truth = {"format": "qwen2.5-vl", "id": "e:0", "source": "s", "platform": "mobile", "screen": [1080, 2400],
             "action": {"type": "click", "point": [980, 2200]}, "box_px": [920, 2150, 1040, 2250], "answer": "",
             "context": {"min_pixels": None, "max_pixels": None, "previous_click": None}}
    hit, miss = ANSWER % (991, 2208), ANSWER % (500, 500)
    got = compute_score("sftdata", hit, json.dumps(truth))
    assert got["score"] == 1.0 and got["target"] == 1.0
    assert compute_score("sftdata", miss, truth)["score"] == pytest.approx(0.1)
    assert compute_score("sftdata", miss, truth, {"target": "gaussian"})["score"] == pytest.approx(
        0.1 + 0.9 * score_answer(miss, truth)["target_gaussian"])
    assert compute_score("sftdata", "<tool_call>{</tool_call>", truth)["score"] == 0.0
    solutions = [json.dumps(truth)] * 3
    assert rewards([hit, miss, "garbage"], solutions, ORMS["sftdata_target"]) == [1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="solution"):
        rewards([hit], None, "score")


def test_an_element_answer_gives_the_picked_elements_box():
    elements = [Element(0, (0, 0, 540, 1200), class_name="android.widget.FrameLayout", flags=("visible",)),
                Element(1, (20, 100, 520, 200), text="Wi-Fi", class_name="android.widget.TextView",
                        flags=("clickable", "visible"))]
    truth = sol({"type": "click", "point": [270, 150]}, [20, 100, 520, 200], fmt="mobile-agent",
                context={"elements": [e.to_dict() for e in elements]})
    parts = score_answer('{"thought": "t", "action": [{"tap": {"index": 0}}]}', truth)
    assert parts["target"] == 1.0, parts
