"""The offline template annotator: every item passes check_items, clicks are grounded, output is deterministic,
windows number and look ahead like the whole episode, and no reasoning mentions the annotation marks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.synthetic.sample import write_sample
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.react.calls import grounding_label, mentions
from sftdata.react.check import check_items, mark_words
from sftdata.react.template import TEMPLATE_VERSION, new_labels, place, quote, target_description, template_items
from sftdata.rundir import RunDir

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
AC_RECORD = FIXTURES / "androidcontrol" / "android_control-00000-of-00001"
ANNOTATED = FIXTURES / "annotated"
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』")


def sentences(text: str) -> int:
    return QUOTED.sub("", text).count("。")


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"real fixture not found at {path}")


@pytest.fixture(scope="module")
def sample_episodes(tmp_path_factory) -> list[Episode]:
    root = tmp_path_factory.mktemp("template_sample")
    write_sample(root / "sample.tfrecord.gz", n_episodes=12, seed=0, size=(540, 1200))
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
        assert all(1 <= sentences(it["reasoning"]) <= 3 for it in items), ep.id


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


def test_window_numbers_and_looks_ahead_like_the_episode(episodes):
    long = [ep for ep in episodes if len(ep.steps) >= 5]
    if not long:
        pytest.skip("no episode with 5 steps")
    for ep in long:
        window = template_items(ep, ep.steps[2:5], start=2)
        assert window == template_items(ep)[2:5], ep.id
        assert "第 3 步" in window[0]["reasoning"] and "第 5 步" in window[2]["reasoning"]
        assert f"共 {len(ep.steps)} 步" in window[0]["reasoning"] or len(ep.steps) == 3
        assert check_items(window, ep, steps=ep.steps[2:5], expect_done=len(ep.steps) == 5) == [], ep.id
        ahead = new_labels(ep.steps[4], ep.steps[5]) if len(ep.steps) > 5 else []
        for label in ahead:
            assert mentions(window[2]["reasoning"], label), (ep.id, label)


def test_no_mark_words(episodes):
    for ep in episodes:
        for item in template_items(ep):
            assert mark_words(item["reasoning"]) == [], (ep.id, item["reasoning"])


def test_next_screen_comes_from_the_episode(sample_episodes):
    checked = 0
    for ep in sample_episodes:
        for i in range(len(ep.steps) - 1):
            labels = new_labels(ep.steps[i], ep.steps[i + 1])
            if labels:
                checked += 1
                reasoning = template_items(ep, [ep.steps[i]], start=i)[0]["reasoning"]
                assert all(mentions(reasoning, label) for label in labels)
    assert checked > 0


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
    assert items[0]["function"]["parameters"]["target_element"] == "屏幕上方居中位置的控件"
    assert "“Close the pop-up”" in items[0]["reasoning"]
    assert check_items(items, ep) == []


def test_target_description_kinds_and_long_labels():
    shot = Screenshot("0" * 64, "x.png", 1080, 2400)
    long = "Realme narzo N53 (Feather Gold, 4GB+64GB) 33W Segment Fastest Charging"
    el = Element(3, (40, 1800, 500, 1900), text=long, class_name="android.widget.Button", flags=("visible",))
    step = Step(0, shot, Action("click", point=(100, 1850), element=el), elements=[el])
    target = target_description(step)
    assert target.startswith("屏幕左下方的“Realme narzo N53") and target.endswith("…”按钮")
    assert mentions(target, grounding_label(step))


def test_helpers():
    assert quote("a “b”") == "「a “b”」"
    assert place(1000, 2300, 1080, 2400) == "屏幕右下角"
    assert TEMPLATE_VERSION == "template/v1"
