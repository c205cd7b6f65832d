"""Draw marks with annotator_image, find them again with detect_marks."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

from sftdata.model import ACTION_TYPES, Action
from sftdata.overlay import MarkStyle, annotator_image, detect_marks
from sftdata.overlay.fonts import load_font

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

# Bright saturated reds (R - max(G, B) >= 185), the range MarkStyle documents for marks.
SHADES = [(255, 0, 0), (255, 30, 30), (240, 10, 10), (230, 0, 20), (220, 20, 0), (255, 50, 40),
          (235, 25, 25), (250, 0, 35), (255, 60, 0), (225, 0, 0)]
VARIANTS = ("ring", "ring_with_dot", "filled_disc")
N_CASES = 400


def _variant_image(rng: random.Random, base: Image.Image) -> Image.Image:
    """The screenshot as is (60%), resized (20%) or cropped (20%)."""
    roll = rng.random()
    if roll < 0.2:
        s = rng.uniform(0.5, 0.9)
        return base.resize((round(base.width * s), round(base.height * s)), Image.BILINEAR)
    if roll < 0.4:
        w, h = rng.randint(700, base.width), rng.randint(1400, base.height)
        x, y = rng.randint(0, base.width - w), rng.randint(0, base.height - h)
        return base.crop((x, y, x + w, y + h))
    return base


def _random_case(rng: random.Random, bases: list[Image.Image]) -> tuple[Image.Image, Action, MarkStyle]:
    img = _variant_image(rng, rng.choice(bases))
    w, h = img.size
    style = MarkStyle(color=rng.choice(SHADES), radius=rng.randint(15, 80), line_width=rng.randint(2, 10),
                      variant=rng.choice(VARIANTS))

    def point() -> tuple[int, int]:  # anywhere on the frame, status bar and edges included
        return (rng.randint(0, w - 1), rng.randint(0, h - 1))

    if rng.random() < 0.5:
        return img, Action(rng.choice(("click", "long_press")), point=point()), style
    while True:
        start, angle = point(), rng.uniform(0, 2 * math.pi)
        length = rng.uniform(120, 0.8 * max(w, h))
        end = (round(start[0] + length * math.cos(angle)), round(start[1] + length * math.sin(angle)))
        if 0 <= end[0] < w and 0 <= end[1] < h:
            return img, Action("swipe", point=start, end=end), style


def _error(action: Action, marks) -> float:
    """Distance from the drawn mark to the detected one (inf when missing or of the wrong kind)."""
    if action.type == "swipe":
        if marks.arrow is None or marks.circle is not None:
            return math.inf
        return max(math.dist(marks.arrow.start, action.point), math.dist(marks.arrow.end, action.end))
    if marks.circle is None or marks.arrow is not None:
        return math.inf
    return math.dist(marks.circle.point, action.point)


def test_random_round_trip_on_real_screenshots(screenshots):
    rng = random.Random(20240607)
    ok, worst, failures, errors = 0, 0.0, [], []
    for k in range(N_CASES):
        img, action, style = _random_case(rng, screenshots)
        marked = annotator_image(img, action, style=style)
        rel = _error(action, detect_marks(marked)) / math.hypot(*marked.size)
        if rel <= 0.01:
            ok += 1
            worst = max(worst, rel)
            errors.append(rel)
        else:
            failures.append(f"case {k}: {marked.size} {action.type} {action.point}->{action.end} "
                            f"r={style.radius} w={style.line_width} {style.variant} {style.color}")
    rate = ok / N_CASES
    print(f"\nround trip: {ok}/{N_CASES} = {rate:.2%} within 1% of the diagonal; "
          f"worst error among those {worst:.3%} of the diagonal, median {float(np.median(errors)):.3%}")
    print("\n".join(failures))
    assert rate >= 0.99, failures


def _synthetic_screen(seed: int, size: tuple[int, int] = (1080, 2400)) -> Image.Image:
    """A UI-like frame: grey cards, dark text bars, and app-red (not mark-red) buttons and tags."""
    rng = random.Random(seed)
    img = Image.new("RGB", size, (245, 246, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, size[0], 90), fill=(30, 40, 50))
    for _ in range(40):
        x, y = rng.randint(0, size[0] - 50), rng.randint(100, size[1] - 50)
        color = rng.choice([(220, 48, 35), (217, 55, 50), (209, 45, 74), (60, 60, 60), (200, 200, 205)])
        d.rounded_rectangle((x, y, x + rng.randint(30, 400), y + rng.randint(20, 120)), radius=12, fill=color)
    return img


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_draw_detect_agree_on_every_action_type(kind):
    img = _synthetic_screen(ACTION_TYPES.index(kind))
    action = {
        "click": Action("click", point=(300, 900)),
        "long_press": Action("long_press", point=(1000, 2300)),
        "swipe": Action("swipe", point=(540, 1900), end=(560, 700)),
        "input": Action("input", text="搜索 wireless earbuds 蓝牙耳机"),
        "open_app": Action("open_app", app="Zoho Meeting"),
        "type": Action("type", point=(400, 700), text="蓝牙耳机 wireless"),
        "select": Action("select", point=(800, 1200), text="价格从低到高"),
        "scroll": Action("scroll", direction="down"),
        "go_to_url": Action("go_to_url", url="https://shop.example.com/search?q=1"),
    }.get(kind) or Action(kind)
    marks = detect_marks(annotator_image(img, action))
    assert marks.label_band is not None and marks.label_band[0] < 40
    if kind in ("click", "long_press", "type", "select"):
        assert marks.circle is not None and math.dist(marks.circle.point, action.point) <= 3
        assert marks.arrow is None
    elif kind == "swipe":
        assert marks.arrow is not None and marks.circle is None
        assert math.dist(marks.arrow.start, action.point) <= 4 and math.dist(marks.arrow.end, action.end) <= 4
    elif kind == "scroll":  # a web scroll's arrow is the drag: pointing up for a view that moves down
        assert marks.arrow is not None and marks.circle is None and marks.arrow.end[1] < marks.arrow.start[1]
    else:
        assert marks.circle is None and marks.arrow is None


def test_style_variants_and_sizes_are_detected():
    img = _synthetic_screen(99)
    for variant in VARIANTS:
        for radius in (15, 40, 80):
            for width in (2, 6, 10):
                style = MarkStyle(radius=radius, line_width=width, variant=variant)
                marks = detect_marks(annotator_image(img, Action("click", point=(700, 1500)), style=style))
                assert marks.circle is not None, (variant, radius, width)
                assert math.dist(marks.circle.point, (700, 1500)) <= 2
                assert abs(marks.circle.radius - radius) <= 2


def test_mark_red_app_elements_are_not_marks(screenshots):
    """Pure-red app UI (a tab underline, red text, a video logo, a badge with a digit, arrows in text)
    away from the marks: label-only frames stay empty and the real marks are still found."""
    rng = random.Random(7)
    red, white = (255, 0, 0), (255, 255, 255)
    for k in range(40):
        img = rng.choice(screenshots).copy()
        d = ImageDraw.Draw(img)
        rows = rng.sample(range(300, 2200, 150), 6)
        d.rectangle((40, rows[0], 440, rows[0] + 8), fill=red)
        d.text((40, rows[1]), "SALE 50% OFF", font=load_font(40), fill=red)
        d.text((40, rows[2]), "限时特价 Recently Viewed!", font=load_font(30), fill=red)
        d.rounded_rectangle((60, rows[3], 180, rows[3] + 84), radius=20, fill=red)
        d.polygon([(108, rows[3] + 24), (108, rows[3] + 60), (140, rows[3] + 42)], fill=white)
        d.ellipse((60, rows[4], 104, rows[4] + 44), fill=red)
        d.text((74, rows[4] + 2), "3", font=load_font(30), fill=white)
        d.text((40, rows[5]), "↑ 1 ! → ¥99", font=load_font(44), fill=red)
        kind = ("wait", "click", "swipe")[k % 3]
        if kind == "click":
            action = Action("click", point=(rng.randint(650, 1050), rng.randint(200, 2300)))
        elif kind == "swipe":
            x, y = rng.randint(650, 1050), rng.randint(700, 1900)
            action = Action("swipe", point=(x, y), end=(x + rng.randint(-40, 40), y - rng.choice((-1, 1)) * rng.randint(250, 500)))
        else:
            action = Action("wait")
        marks = detect_marks(annotator_image(img, action))
        if kind == "wait":
            assert marks.circle is None and marks.arrow is None, (k, marks)
        elif kind == "click":
            assert marks.arrow is None and marks.circle is not None and math.dist(marks.circle.point, action.point) <= 3
        else:
            assert marks.circle is None and marks.arrow is not None, (k, action, marks)
            assert math.dist(marks.arrow.end, action.end) <= 4 and math.dist(marks.arrow.start, action.point) <= 4


def test_detect_accepts_arrays_and_rgba(screenshots):
    img = annotator_image(screenshots[0], Action("click", point=(500, 1000)))
    rgba = np.dstack([np.asarray(img), np.full(img.size[::-1], 255, np.uint8)])
    assert detect_marks(rgba).circle.point == detect_marks(img).circle.point == (500, 1000)
