import pytest

from sftdata.model import Action, Element, Episode, Screenshot, Step, check_episode, finger_direction, from_relative, to_relative


def _step(i, action):
    return Step(i, Screenshot("0" * 64, f"images/00/{i}.png", 1080, 2400), action)


def test_episode_json_round_trip_keeps_unicode():
    el = Element(3, (10, 20, 110, 220), text="搜索", flags=("clickable", "visible"), depth=2)
    ep = Episode("e1", "androidcontrol", "打开设置", [
        _step(0, Action("click", point=(50, 60), element=el)),
        _step(1, Action("input", text="蓝牙耳机 \u200f")),
        _step(2, Action("swipe", point=(500, 1500), end=(500, 700))),
        _step(3, Action("done")),
    ], meta={"split": "train"})
    line = ep.to_json()
    assert "搜索" in line and "蓝牙耳机" in line  # ensure_ascii=False
    back = Episode.from_json(line)
    assert back == ep
    assert back.steps[2].action.direction == "up"
    assert set(ep.to_dict()["steps"][0]["action"]) == {"type", "point", "end", "direction", "text", "app", "element"}


@pytest.mark.parametrize("start,end,direction", [
    ((500, 1500), (500, 700), "up"), ((500, 700), (500, 1500), "down"),
    ((900, 1000), (100, 1100), "left"), ((100, 1000), (900, 900), "right"),
])
def test_finger_direction(start, end, direction):
    assert finger_direction(start, end) == direction
    assert Action("swipe", point=start, end=end).direction == direction


def test_invalid_actions_are_refused():
    with pytest.raises(ValueError):
        Action("teleport")
    with pytest.raises(ValueError):
        Action("click")
    with pytest.raises(ValueError):
        Action("swipe", point=(1, 1))
    with pytest.raises(ValueError):
        Action("swipe")
    assert Action("click", target="“设置”按钮").target == "“设置”按钮"
    assert Action("swipe", direction="up").point is None
    with pytest.raises(ValueError):
        Action("swipe", point=(1, 1), end=(1, 1))
    with pytest.raises(ValueError):
        Action("swipe", point=(0, 500), end=(0, 100), direction="down")
    with pytest.raises(ValueError):
        Action("open_app")


def test_relative_coordinates_round_trip_within_a_pixel():
    for x, y in [(0, 0), (1079, 2399), (110, 506), (540, 1200)]:
        rel = to_relative((x, y), 1080, 2400)
        back = from_relative(rel, 1080, 2400)
        assert abs(back[0] - x) <= 1.08 and abs(back[1] - y) <= 2.4
    assert from_relative((1000, 1000), 1080, 2400) == (1079, 2399)


def test_check_episode_finds_structure_problems():
    good = Episode("e", "androidcontrol", "g", [_step(0, Action("back")), _step(1, Action("done"))])
    assert check_episode(good) == []
    bad = Episode("e", "androidcontrol", "g", [_step(0, Action("done")), _step(1, Action("back"))])
    problems = check_episode(bad)
    assert any("done before the last step" in p for p in problems)
    assert any("not done" in p for p in problems)
