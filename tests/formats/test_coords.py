"""Coordinate spaces: smart-resized pixels follow sftdata.families.smart_resize; the 999 grid's ends are the
first and last pixel; forward then back is stable (quantizing twice changes nothing)."""
from __future__ import annotations

import pytest

from sftdata.families import FAMILIES, smart_resize
from sftdata.formats import coords

SIZES = [(1080, 2400), (540, 1200), (1440, 3120), (720, 1280), (2400, 1080)]
Q25, Q3 = "qwen2.5-vl", "qwen3-vl"


@pytest.mark.parametrize("size", SIZES)
def test_resized_size_is_smart_resize(size):
    fam = FAMILIES["qwen2.5-vl"]
    h, w = smart_resize(size[1], size[0], factor=fam.factor, min_pixels=fam.min_pixels, max_pixels=fam.max_pixels)
    assert coords.resized_size(size, "qwen2.5-vl") == (w, h)
    assert w % 28 == 0 and h % 28 == 0


def test_1080x2400_is_1092x2408():
    assert coords.resized_size((1080, 2400), "qwen2.5-vl") == (1092, 2408)
    assert coords.to_resized((1079, 2399), (1080, 2400), "qwen2.5-vl") == (1091, 2407)
    assert coords.to_resized((0, 0), (1080, 2400), "qwen2.5-vl") == (0, 0)


@pytest.mark.parametrize("size", SIZES)
def test_round_trips_are_stable_and_close(size):
    w, h = size
    for x in range(0, w, 37):
        for y in (0, h // 3, h - 1):
            p = (x, y)
            q = coords.from_resized(coords.to_resized(p, size, Q25), size, Q25)
            assert coords.from_resized(coords.to_resized(q, size, Q25), size, Q25) == q
            assert abs(q[0] - x) <= 1 and abs(q[1] - y) <= 1
            g = coords.from_grid(coords.to_grid(p, size, Q3), size, Q3)
            assert coords.from_grid(coords.to_grid(g, size, Q3), size, Q3) == g
            assert abs(g[0] - x) <= w / 999 and abs(g[1] - y) <= h / 999


@pytest.mark.parametrize("size", SIZES)
def test_grid_ends(size):
    w, h = size
    assert coords.to_grid((0, 0), size, Q3) == (0, 0)
    assert coords.to_grid((w - 1, h - 1), size, Q3) == (999, 999)
    assert coords.from_grid((999, 999), size, Q3) == (w - 1, h - 1)
    assert coords.from_grid((0, 0), size, Q3) == (0, 0)


def test_other_pixel_limits_change_the_space_when_the_context_carries_them(tiny):
    from dataclasses import dataclass

    from sftdata.formats import StepContext, get_format

    @dataclass(frozen=True)
    class Limited(StepContext):
        max_pixels: int | None = None

    episode, items = tiny
    small = Limited(episode, 0, items, max_pixels=1280 * 28 * 28)
    assert coords.limits(small) == {"min_pixels": None, "max_pixels": 1280 * 28 * 28}
    assert coords.resized_size((1080, 2400), "qwen2.5-vl", max_pixels=1280 * 28 * 28) == (672, 1484)
    for name in ("qwen2.5-vl", "ui-tars"):
        fmt = get_format(name)
        assert "<point>187 1360</point>" in fmt.render(small) or '"coordinate": [187, 1360]' in fmt.render(small)
        assert fmt.parse(fmt.render(small), small) == fmt.quantize(small)
    assert "The screen's resolution is 672x1484." in get_format("qwen2.5-vl").system_prompt(small)
