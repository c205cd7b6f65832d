import hashlib
import json

import pytest

from support import AC_DIR
from sftdata.errors import RecordError
from sftdata.io import ImageStore
from sftdata.loaders.androidcontrol import (decode_features, episode_from_features, iter_episodes, png_size,
                                            to_canonical)
from sftdata.loaders.protos import make_example
from sftdata.model import Element

RELEASE_TO_CANONICAL = {"click": "click", "long_press": "long_press", "scroll": "swipe", "input_text": "input",
                        "open_app": "open_app", "navigate_back": "back", "navigate_home": "home", "wait": "wait"}


@pytest.fixture
def episodes(ac_fixture, tmp_path):
    store = ImageStore(tmp_path)
    out = {ep.id: ep for ep in iter_episodes([ac_fixture], store)}
    assert all(not isinstance(ep, RecordError) for ep in out.values())
    return out


def test_fixture_episode_ids_and_lengths(episodes):
    assert sorted(episodes, key=int) == ["0", "20", "40"]
    assert {k: len(v.steps) for k, v in episodes.items()} == {"0": 4, "20": 5, "40": 2}


def test_goals_actions_instructions_equal_labels(episodes, ac_labels):
    for eid, ep in episodes.items():
        label = ac_labels[eid]
        assert ep.goal == label["goal"]
        assert [s.instruction for s in ep.steps[:-1]] == label["step_instructions"]
        assert ep.steps[-1].action.type == "done" and ep.steps[-1].instruction is None
        for step, raw in zip(ep.steps, label["actions"]):
            assert step.action.type == RELEASE_TO_CANONICAL[raw["action_type"]]
            if "x" in raw:
                assert step.action.point == (raw["x"], raw["y"])
            if raw["action_type"] == "open_app":
                assert step.action.app == raw["app_name"]
            if raw["action_type"] == "input_text":
                assert step.action.text == raw["text"]
        assert [(s.screenshot.width, s.screenshot.height) for s in ep.steps] == list(
            zip(label["screenshot_widths"], label["screenshot_heights"]))


def test_stored_screenshots_are_the_release_bytes(episodes, ac_labels, tmp_path):
    for eid, ep in episodes.items():
        for step, name in zip(ep.steps, ac_labels[eid]["screenshots"]):
            expected = hashlib.sha256((AC_DIR / "screenshots" / name).read_bytes()).hexdigest()
            assert step.screenshot.sha256 == expected
            stored = (tmp_path / step.screenshot.path).read_bytes()
            assert hashlib.sha256(stored).hexdigest() == expected


def test_click_gets_the_smallest_element_containing_it(episodes):
    step = episodes["20"].steps[1]
    assert step.action.point == (110, 506)
    el = step.action.element
    assert el is not None and el.contains((110, 506))
    assert el.text == "Mobiles"
    containing = [e for e in step.elements if e.contains((110, 506)) and e.has("visible") and e.area > 0]
    assert el.area == min(e.area for e in containing)


def test_scroll_down_becomes_finger_swipe_up(episodes):
    swipe = episodes["40"].steps[0].action
    assert swipe.type == "swipe" and swipe.direction == "up"
    assert swipe.end[1] < swipe.point[1] and swipe.end[0] == swipe.point[0]
    assert episodes["20"].steps[3].action.direction == "up"


def test_elements_are_flat_with_pixel_bounds_and_flags(episodes):
    elements = episodes["20"].steps[1].elements
    assert len(elements) > 50
    assert [e.index for e in elements] == list(range(len(elements)))
    assert any(e.has("clickable") for e in elements) and any(e.has("scrollable") for e in elements)
    assert all(len(e.bounds) == 4 for e in elements)


@pytest.mark.parametrize("release,expected", [
    ({"action_type": "scroll", "direction": "up"}, "down"),
    ({"action_type": "scroll", "direction": "left"}, "right"),
    ({"action_type": "scroll", "direction": "right"}, "left"),
])
def test_scroll_direction_is_inverted_for_the_finger(release, expected):
    list_area = Element(0, (0, 300, 1080, 2100), flags=("visible", "scrollable"))
    action = to_canonical(release, [list_area], 1080, 2400)
    assert action.direction == expected
    assert list_area.contains(action.point)


@pytest.mark.parametrize("release,reason", [
    ({"action_type": "teleport"}, "unknown_action"),
    ({"action_type": "click", "x": 5000, "y": 10}, "point_outside_screen"),
    ({"action_type": "click"}, "bad_action"),
    ({"action_type": "scroll", "direction": "sideways"}, "bad_action"),
    ({"action_type": "open_app"}, "bad_action"),
])
def test_bad_actions_are_record_errors(release, reason):
    with pytest.raises(RecordError) as err:
        to_canonical(release, [], 1080, 2400)
    assert err.value.reason == reason


def _png(w, h):
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + w.to_bytes(4, "big") + h.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00"


def test_inconsistent_records_are_rejected_with_reasons():
    base = {"episode_id": [1], "goal": [b"g"], "screenshots": [_png(10, 20)], "screenshot_widths": [10],
            "screenshot_heights": [20], "actions": [json.dumps({"action_type": "wait"}).encode()]}
    with pytest.raises(RecordError) as err:
        episode_from_features(decode_features(make_example(base)))
    assert err.value.reason == "inconsistent_lengths"
    ok = dict(base, screenshots=[_png(10, 20), _png(10, 30)], screenshot_widths=[10, 10], screenshot_heights=[20, 20])
    with pytest.raises(RecordError) as err:
        episode_from_features(decode_features(make_example(ok)))
    assert err.value.reason == "screenshot_size_mismatch"
    with pytest.raises(RecordError) as err:
        decode_features(make_example({"goal": [b"g"]}))
    assert err.value.reason == "missing_feature"
    with pytest.raises(RecordError) as err:
        decode_features(b"\xff\xff\xff garbage")
    assert err.value.reason == "bad_example"
    with pytest.raises(RecordError):
        png_size(b"GIF89a not a png at all")
