"""An annotated step's action (sftdata.loaders.annotated_action): direction-only swipes take the documented
default geometry (the function AndroidControl's scrolls use), and a mark that disagrees with coordinates that
were written as pixels says to set ``"coordinates": "pixels"``; a list one action short asks for DONE."""
from __future__ import annotations

import json

import pytest
from PIL import Image

from sftdata.errors import RecordError
from sftdata.loaders.a11y import scroll_gesture
from sftdata.loaders.annotated import load_trajectory
from sftdata.model import Action
from sftdata.overlay.draw import annotator_image, draw_label

SIZE = (540, 1200)


def _folder(root, name, actions, frames, **task):
    folder = root / name
    folder.mkdir(parents=True)
    for i, frame in enumerate(frames):
        frame.save(folder / f"{i:03d}.png")
    (folder / "task.json").write_text(json.dumps({"goal": "看看下面的内容", "actions": actions, **task},
                                                 ensure_ascii=False), encoding="utf-8")
    return folder


def _plain(n, size=SIZE):
    return [Image.new("RGB", size, (235, 240 - 20 * i, 250)) for i in range(n)]


@pytest.mark.parametrize("marked", [False, None, True])
@pytest.mark.parametrize("swipe, finger", [("SWIPE UP", "up"), ("swipe left", "left"),
                                           ({"type": "swipe", "direction": "up"}, "up"),
                                           ({"type": "swipe", "direction": "right"}, "right")])
def test_a_direction_only_swipe_takes_the_default_geometry(swipe, finger, marked, tmp_path):
    frames = _plain(2)
    if marked:  # the label is burned in, but no arrow: nothing to take the path from
        draw_label(frames[0], swipe if isinstance(swipe, str) else "SWIPE")
    folder = _folder(tmp_path, "t", [swipe, "DONE"], frames,
                     **({} if marked is None else {"marked": marked}))
    action = load_trajectory(folder, tmp_path).steps[0].action
    assert (action.point, action.end) == scroll_gesture((), *SIZE, finger) == {
        "up": ((270, 600), (270, 200)), "left": ((270, 600), (90, 600)), "right": ((270, 600), (450, 600))}[finger]
    assert action.direction == finger  # the finger's direction: SWIPE UP moves the finger up (end above start)


def test_a_drawn_arrow_still_gives_the_path_of_a_direction_only_swipe(tmp_path):
    drawn = Action("swipe", point=(270, 1000), end=(270, 500))
    frames = [annotator_image(_plain(1)[0], drawn), _plain(1)[0]]
    folder = _folder(tmp_path, "t", ["SWIPE UP", "DONE"], frames, marked=True)
    action = load_trajectory(folder, tmp_path).steps[0].action
    assert abs(action.point[1] - 1000) < 30 and abs(action.end[1] - 500) < 30
    folder = _folder(tmp_path, "down", ["SWIPE DOWN", "DONE"], frames, marked=True)
    with pytest.raises(RecordError, match="SWIPE DOWN but the arrow goes up") as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "mark_mismatch"


def test_a_bare_swipe_without_an_arrow_still_needs_its_coordinates(tmp_path):
    folder = _folder(tmp_path, "t", ["SWIPE", "DONE"], _plain(2), marked=False)
    with pytest.raises(RecordError, match="no coordinates, no direction") as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "missing_coordinates"


@pytest.mark.parametrize("marked", [True, None])
def test_pixels_written_without_the_setting_are_named(marked, tmp_path):
    """The circle is at pixel (400, 300); task.json wrote those pixels but left the default 0..1000 units."""
    frames = [annotator_image(_plain(1)[0], Action("click", point=(400, 300))), _plain(1)[0]]
    folder = _folder(tmp_path, "t", ["CLICK [400,300]", "DONE"], frames,
                     **({} if marked is None else {"marked": marked}))
    with pytest.raises(RecordError) as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "mark_mismatch"
    assert 'on them as pixels: add "coordinates": "pixels" to task.json' in err.value.detail
    fixed = _folder(tmp_path, "fixed", ["CLICK [400,300]", "DONE"], frames, coordinates="pixels", marked=True)
    assert load_trajectory(fixed, tmp_path).steps[0].action.point == (400, 300)


def test_a_swipe_written_in_pixels_is_named_too(tmp_path):
    frames = [annotator_image(_plain(1)[0], Action("swipe", point=(270, 900), end=(270, 400))), _plain(1)[0]]
    folder = _folder(tmp_path, "t", ["SWIPE [270,900] to [270,400]", "DONE"], frames, marked=True)
    with pytest.raises(RecordError, match='as pixels: add "coordinates": "pixels"'):
        load_trajectory(folder, tmp_path)


def test_values_over_1000_are_said_to_look_like_pixels(tmp_path):
    folder = _folder(tmp_path, "t", ["CLICK [270,1100]", "DONE"], _plain(2), marked=False)
    with pytest.raises(RecordError) as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "point_outside_screen"
    assert 'look like pixels of the 540x1200 frame, add "coordinates": "pixels"' in err.value.detail


def test_one_action_short_asks_for_done_on_the_last_screenshot(tmp_path):
    folder = _folder(tmp_path, "t", ["CLICK [500,500]", "BACK"], _plain(3), marked=False)
    with pytest.raises(RecordError) as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "missing_done"
    assert err.value.detail == ("3 screenshots but 2 actions: the last screenshot needs an action too, add DONE as "
                                "the last action (one action per screenshot)")
    folder = _folder(tmp_path, "extra", ["BACK", "DONE"], _plain(3), marked=False)  # DONE is there: a frame too many
    with pytest.raises(RecordError, match="2 actions for 3 screenshots") as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "action_count_mismatch"
