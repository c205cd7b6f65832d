"""The offline template annotator: every item passes check_items, clicks are grounded, output is deterministic,
windows equal the whole episode, no reasoning mentions the marks, and nothing it writes knows the future (the
next screen, the episode's length, the steps left); ineffective steps are reflected on by the step after them."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.checks import hindsight
from built_once import sample_file
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.checks.calls import grounding_label, mentions
from sftdata.checks.check import check_items, mark_words
from sftdata.annotate.template import (TEMPLATE_VERSION, action_summary, observation, place, quote, target_description,
                                    template_items)
from sftdata.rundir import RunDir
from support import missing_shared

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
AC_RECORD = FIXTURES / "androidcontrol" / "android_control-00000-of-00001"
ANNOTATED = FIXTURES / "annotated"
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』")
FIELDS = ("thought", "action_summary", "observation", "memory")
# what a live agent cannot know before acting: the episode's length or steps left, the screen after the action
FUTURE = re.compile(r"第\s*\d+\s*步|共\s*\d+\s*步|剩余\s*\d+\s*步|还剩\s*\d+\s*步|最后一步|"
                    r"执行后|操作后|随后|下一屏|之后(?:的)?(?:页面|界面|屏幕)|(?:页面|界面|屏幕)(?:上)?(?:新)?出现|显示出|露出")


def sentences(text: str) -> int:
    return QUOTED.sub("", text).count("。")


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(missing_shared())


@pytest.fixture(scope="module")
def sample_episodes(tmp_path_factory) -> list[Episode]:
    root = tmp_path_factory.mktemp("template_sample")
    sample_file(root / "sample.tfrecord.gz", n_episodes=12, seed=0, size=(540, 1200))
    run = RunDir(root / "run")
    ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    return list(run.episodes())


@pytest.fixture(scope="module")
def ac_episodes(tmp_path_factory) -> list[Episode]:
    _need(AC_RECORD)
    run = RunDir(tmp_path_factory.mktemp("template_ac") / "run")
    ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    return list(run.episodes())


@pytest.fixture(scope="module")
def annotated_episodes(tmp_path_factory) -> list[Episode]:
    _need(ANNOTATED)
    run = RunDir(tmp_path_factory.mktemp("template_an") / "run")
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    return list(run.episodes())


@pytest.fixture(params=["sample", "androidcontrol", "annotated"])
def episodes(request) -> list[Episode]:
    name = {"sample": "sample_episodes", "androidcontrol": "ac_episodes", "annotated": "annotated_episodes"}
    eps = request.getfixturevalue(name[request.param])
    assert eps, f"no {request.param} episodes were ingested"
    return eps


def test_every_item_passes_the_check(episodes):
    for ep in episodes:
        items = template_items(ep)
        assert check_items(items, ep) == [], ep.id
        assert all(1 <= sentences(it["reasoning"]) <= 4 for it in items), ep.id
        for it in items:
            assert all(isinstance(it[f], str) and it[f].strip() and "\n" not in it[f] for f in FIELDS), it
            assert sentences(it["thought"]) == 1, it["thought"]


def test_nothing_from_the_future(episodes):
    texts = 0
    for ep in episodes:
        for it in template_items(ep):
            for name in ("reasoning",) + FIELDS:
                texts += 1
                assert not FUTURE.search(QUOTED.sub("", it[name])), (ep.id, name, it[name])
    assert texts > 0


def test_no_hindsight_findings(episodes):
    for ep in episodes:
        for it in template_items(ep):
            for name in ("reasoning",) + FIELDS:
                assert hindsight.find_hindsight(it[name]) == [], (ep.id, name, it[name])


def test_clicks_are_grounded_in_target_and_reasoning(episodes):
    grounded = 0
    for ep in episodes:
        for step, item in zip(ep.steps, template_items(ep)):
            label = grounding_label(step)
            if label:
                grounded += 1
                assert mentions(item["function"]["parameters"]["target_element"], label), (ep.id, step.index)
                assert mentions(item["reasoning"], label), (ep.id, step.index)
    if episodes[0].source == "androidcontrol":
        assert grounded > 0


def test_deterministic_and_varied(episodes):
    first = [template_items(ep) for ep in episodes]
    assert first == [template_items(ep) for ep in episodes]
    openings = {it["reasoning"].split("，")[0] for items in first for it in items}
    assert len(openings) > 2, "phrasing never varies"


def test_a_window_equals_the_episode(episodes):
    long = [ep for ep in episodes if len(ep.steps) >= 5]
    if not long:
        pytest.skip("no episode with 5 steps")
    for ep in long:
        window = template_items(ep, ep.steps[2:5], start=2)
        assert window == template_items(ep)[2:5], ep.id
        assert check_items(window, ep, steps=ep.steps[2:5], expect_done=len(ep.steps) == 5) == [], ep.id


def test_the_future_does_not_change_an_item(episodes):
    """An item depends on the goal, the earlier steps and its own screen only: cutting the episode after the
    step, or replacing what follows, leaves it unchanged."""
    for ep in episodes:
        full = template_items(ep)
        for i in range(len(ep.steps) - 1):
            cut = Episode(ep.id, ep.source, ep.goal, ep.steps[:i + 1], ep.meta)
            assert template_items(cut)[i] == full[i], (ep.id, i)


def test_no_mark_words(episodes):
    for ep in episodes:
        for item in template_items(ep):
            assert mark_words(item["reasoning"]) == [], (ep.id, item["reasoning"])


def test_ineffective_step_is_known_by_the_next_one_only():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    el = Element(1, (800, 100, 1000, 200), desc="设置", class_name="android.widget.ImageButton",
                 flags=("clickable", "visible"))
    tap = Action("click", point=(900, 150), element=el)
    steps = [Step(0, shot, tap, elements=[el], meta={"ineffective": True, "screen_change": 0.0}),
             Step(1, shot, tap, elements=[el], meta={"ineffective": False}), Step(2, shot, Action("done"))]
    ep = Episode("retry", "sample", "打开设置", steps)
    first, second, _ = template_items(ep)
    assert "没有变化" not in first["reasoning"] and "没有反应" not in first["reasoning"]
    assert ("没有变化" in second["reasoning"] or "没有反应" in second["reasoning"]) and "再试一次" in second["reasoning"]
    assert "没有反应" in second["memory"] and "没有反应" not in first["memory"]
    assert "再试一次" in second["thought"] and check_items([first, second, _], ep) == []
    plain = template_items(Episode("retry", "sample", "打开设置", [Step(i, s.screenshot, s.action, elements=s.elements)
                                                                  for i, s in enumerate(steps)]))
    assert "没有变化" not in plain[1]["reasoning"] and "没有反应" not in plain[1]["reasoning"]


def test_fields_say_what_the_step_knows():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    el = Element(1, (800, 100, 1000, 200), desc="设置", class_name="android.widget.ImageButton",
                 flags=("clickable", "visible"))
    step = Step(0, shot, Action("click", point=(900, 150), element=el), elements=[el])
    assert action_summary(step) == "点击“设置”图标按钮"
    assert observation(step) in ("当前屏幕上可以看到“设置”", "“设置”都显示在当前界面上", "这个界面上有“设置”",
                                 "屏幕上列着“设置”", "“设置”所在的这个界面还显示着别的内容")
    assert action_summary(Step(0, shot, Action("swipe", point=(540, 1600), end=(540, 800)))) == "向上滑动"
    assert action_summary(Step(0, shot, Action("open_app", app="相册"))) == "打开“相册”应用"


def test_looping_goal_memory_counts(sample_episodes):
    """The sample's looping-goal episode: the template's memory counts the swipes done and those remaining."""
    looping = [ep for ep in sample_episodes if "3 次" in ep.goal or "3 times" in ep.goal]
    assert looping, [ep.goal for ep in sample_episodes]
    for ep in looping:
        memories = [it["memory"] for it in template_items(ep)]
        assert any("1/3" in m and "还剩 2" in m for m in memories), memories
        assert "3/3" in memories[-1], memories


def test_swipe_direction_is_the_fingers(sample_episodes):
    words = {"UP": "向上滑动", "DOWN": "向下滑动", "LEFT": "向左滑动", "RIGHT": "向右滑动"}
    for ep in sample_episodes:
        for step, item in zip(ep.steps, template_items(ep)):
            if step.action.type == "swipe":
                direction = item["function"]["parameters"]["direction"]
                assert direction == step.action.direction.upper()
                assert words[direction] in item["reasoning"]


def test_no_elements_describes_the_point():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    ep = Episode("p", "annotated", "Close the pop-up", [Step(0, shot, Action("click", point=(540, 500))),
                                                        Step(1, shot, Action("done"))])
    items = template_items(ep)
    assert items[0]["function"]["parameters"]["target_element"] == "屏幕上方居中的图标或按钮"
    assert "“Close the pop-up”" in items[0]["reasoning"]
    assert check_items(items, ep) == []
    ep.steps[0].meta["target_colour"] = "蓝色"
    items = template_items(ep)
    assert items[0]["function"]["parameters"]["target_element"] == "屏幕上方居中蓝色的图标或按钮"
    assert "蓝色" in items[0]["observation"] and check_items(items, ep) == []


def test_no_element_under_the_point_names_the_nearest_label():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    label = Element(1, (100, 1000, 400, 1080), text="全部订单", flags=("visible",))
    step = Step(0, shot, Action("click", point=(450, 1040)), elements=[label])
    assert target_description(step) == "屏幕中央“全部订单”旁边的图标或按钮"


def test_annotated_targets_are_never_only_a_place(annotated_episodes):
    for ep in annotated_episodes:
        for step, item in zip(ep.steps, template_items(ep)):
            if step.action.type in ("click", "long_press"):
                target = item["function"]["parameters"]["target_element"]
                assert not target.endswith("位置的控件") and ("色" in target or "“" in target), target
                assert step.meta["target_colour"] in target and step.meta["target_colour"] in item["observation"]
    colours = {ep.id: [s.meta.get("target_colour") for s in ep.steps if s.action.type == "click"]
               for ep in annotated_episodes}
    assert colours["zoho_meet"] == ["深蓝色"]  # the dark navy "PAST" tab under the tap (clean frame)
    assert colours["amazon_mobiles"][1] == "黑色"  # the black close button; the red circle was removed first


def test_target_description_kinds_and_long_labels():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    long = "Realme narzo N53 (Feather Gold, 4GB+64GB) 33W Segment Fastest Charging"
    el = Element(3, (40, 1800, 500, 1900), text=long, class_name="android.widget.Button", flags=("visible",))
    step = Step(0, shot, Action("click", point=(100, 1850), element=el), elements=[el])
    target = target_description(step)
    assert target == f"屏幕左下方的“{long}”按钮"  # never cut: a cut label teaches incomplete names
    assert mentions(target, grounding_label(step))


def test_helpers():
    assert quote("a “b”") == "「a “b”」"
    assert place(1000, 2300, 1080, 2400) == "屏幕右下角"
    assert TEMPLATE_VERSION == "template/v3"


def test_summaries_stay_short():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    long = "这是一段非常非常长的输入文本，" * 6
    el = Element(1, (0, 300, 1080, 400), text="Realme narzo N53 (Feather Gold, 4GB+64GB) 33W Segment Fastest",
                 class_name="android.widget.Button", flags=("clickable", "visible"))
    near = Element(2, (100, 1000, 300, 1080), text="一个相当长的附近标签文字，用来测试长度上限是否生效", flags=("visible",))
    steps = [Step(0, shot, Action("input", text=long)), Step(0, shot, Action("open_app", app="A" * 80)),
             Step(0, shot, Action("click", point=(500, 350), element=el), elements=[el]),
             Step(0, shot, Action("click", point=(320, 1040)), elements=[near], meta={"target_colour": "深蓝色"})]
    for step in steps:
        summary = action_summary(step)
        assert len(summary) <= 40 and "\n" not in summary, summary
    assert action_summary(steps[0]) == "输入文本"  # too long to say whole: left out, never cut
    assert action_summary(steps[0], full=True) == f"输入“{long}”"  # what the memory and the history say
    assert "…" not in "".join(action_summary(step) + action_summary(step, full=True) for step in steps)
