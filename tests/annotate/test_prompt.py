"""The reconstruction prompt: v2 is the default and asks for present-only reasoning and the optional fields, v1
stays loadable, the user turn names the ineffective steps, and window history carries no hindsight."""
from __future__ import annotations

from dataclasses import replace

import pytest

from sftdata.errors import FatalError
from sftdata.annotate.annotator import AnnotateOptions, Annotator
from sftdata.checks.hindsight import find_hindsight
from sftdata.annotate.prompt import DEFAULT_PROMPT, history_summary, load_builtin, load_template
from support import sample_run


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("prompt"), 2)


def _texts(messages: list[dict]) -> str:
    user = messages[1]["content"]
    return "\n".join(part["text"] for part in user if part["type"] == "text")


def test_v3_is_the_default_and_v3_asks_for_agreement_memory_and_ordinals():
    v3, v2 = load_template(None), load_template("react_zh_v2")
    assert (DEFAULT_PROMPT, v3.version, v2.version) == ("react_zh_v3", "react_zh_v3", "react_zh_v2")
    for said in ("The decision and the call say the same thing", "finger moving UP", "第二个“加入购物车”按钮",
                 "An ordinal is", "checked against the recorded", "never quote or cite one", "only the next screenshots"):
        assert said in v3.text
    assert "{goal}" in v3.text and "{screenshot_count}" in v3.text


def test_v2_and_v1_stay_loadable():
    v2, v1 = load_template("react_zh_v2"), load_template("react_zh_v1")
    assert (v2.version, v1.version) == ("react_zh_v2", "react_zh_v1")
    assert v1.text != v2.text and "{goal}" in v2.text and "{screenshot_count}" in v2.text
    for field in ("thought", "action_summary", "observation", "memory"):
        assert f'"{field}"' in v2.text and f"- {field}:" in v2.text
    assert "A good reasoning" in v2.text and "A bad reasoning" in v2.text
    assert "never report what it shows" in v2.text
    with pytest.raises(FatalError):
        load_builtin("react_zh_v9")


def test_the_user_turn_names_ineffective_steps(run):
    episode = next(iter(run.episodes()))
    annotator = Annotator(run, AnnotateOptions(backend="openai", model="m"), backend=object())
    try:
        plain = _texts(annotator.messages(episode, 0, len(episode.steps)))
        assert "无效操作" not in plain
        steps = [replace(s, meta={**s.meta, "ineffective": i == 2}) for i, s in enumerate(episode.steps)]
        missed = replace(episode, steps=steps)
        text = _texts(annotator.messages(missed, 0, len(steps)))
        assert "无效操作：截图 3 的动作执行后界面没有任何变化" in text
        window = _texts(annotator.messages(missed, 3, len(steps)))  # the miss is the step before the window
        assert "第 3 步：" in window and "执行后界面没有变化" in window and "截图 4 这一项要意识到上一步没有生效" in window
    finally:
        annotator.pool.shutdown()


def test_history_summary_has_no_hindsight(run):
    for episode in run.episodes():
        assert find_hindsight(history_summary(episode.steps)) == []
