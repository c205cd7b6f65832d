"""Mark detection and removal on the real annotated fixture frames."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image

from sftdata.overlay import detect_marks, mark_mask, remove_marks

EPISODES = ("amazon_mobiles", "zoho_meet")


def _tolerance(img: Image.Image) -> float:
    return 0.01 * math.hypot(img.width, img.height)


@pytest.mark.parametrize("episode", EPISODES)
def test_marks_match_task_json(annotated, episode):
    frames = annotated(episode)
    assert frames
    for i, (img, action, text) in enumerate(frames):
        marks = detect_marks(img)
        tol = _tolerance(img)
        assert marks.label_band is not None and marks.label_band[0] < 40, f"frame {i} ({text}): no label band"
        if action.type in ("click", "long_press"):
            assert marks.circle is not None, f"frame {i} ({text}): circle not found"
            err = math.dist(marks.circle.point, action.point)
            print(f"{episode}/{i:03d} {text}: circle at {marks.circle.point}, error {err:.1f} px (tolerance {tol:.1f})")
            assert err <= tol
            assert marks.arrow is None
        elif action.type == "swipe":
            assert marks.arrow is not None, f"frame {i} ({text}): arrow not found"
            err = max(math.dist(marks.arrow.start, action.point), math.dist(marks.arrow.end, action.end))
            print(f"{episode}/{i:03d} {text}: arrow {marks.arrow.start}->{marks.arrow.end}, error {err:.1f} px")
            assert err <= tol
            assert marks.circle is None
        else:  # BACK, WAIT, OPEN APP, DONE: a label and nothing else
            assert marks.circle is None and marks.arrow is None, f"frame {i} ({text}): spurious mark {marks}"


def _label_rows(marked: np.ndarray, clean: np.ndarray) -> tuple[int, int]:
    rows = np.flatnonzero((marked[:120] != clean[:120]).any(axis=(1, 2)))
    return int(rows[0]), int(rows[-1])


def test_clean_originals_detect_nothing(screenshots):
    for img in screenshots:
        marks = detect_marks(img)
        assert marks.circle is None and marks.arrow is None and marks.label_band is None


def test_marked_frames_differ_from_originals_only_at_the_marks(fixtures_dir, annotated):
    """The annotated frames are the originals plus marks: every changed pixel is inside the mark mask,
    and the detected label band spans the changed rows at the top (the white outline adds ~2 px)."""
    pairs = [(img, fixtures_dir / "androidcontrol" / "screenshots" / "20" / f"screenshot_{i}.png")
             for i, (img, _, _) in enumerate(annotated("amazon_mobiles"))]
    pairs += [(img, fixtures_dir / "annotated" / "zoho_meet" / "clean" / f"{i:03d}.png")
              for i, (img, _, _) in enumerate(annotated("zoho_meet"))]
    for img, original_path in pairs:
        marked = np.asarray(img)
        original = np.asarray(Image.open(original_path).convert("RGB"))
        assert marked.shape == original.shape
        changed = (marked != original).any(axis=2)
        marks = detect_marks(img)
        assert not (changed & ~mark_mask(img, marks)).any(), f"{original_path}: changes outside the marks"
        top, bottom = _label_rows(marked, original)
        assert marks.label_band is not None
        assert abs(marks.label_band[0] - top) <= 4 and abs(marks.label_band[1] - bottom) <= 4


def test_zoho_clean_frames_are_the_androidcontrol_originals(fixtures_dir):
    for i in range(4):
        clean = np.asarray(Image.open(fixtures_dir / "annotated" / "zoho_meet" / "clean" / f"{i:03d}.png").convert("RGB"))
        orig = np.asarray(Image.open(fixtures_dir / "androidcontrol" / "screenshots" / "0" / f"screenshot_{i}.png").convert("RGB"))
        assert np.array_equal(clean, orig)


def test_remove_marks_restores_amazon_frames(fixtures_dir, annotated):
    for i, (img, action, text) in enumerate(annotated("amazon_mobiles")):
        original = np.asarray(Image.open(
            fixtures_dir / "androidcontrol" / "screenshots" / "20" / f"screenshot_{i}.png").convert("RGB"))
        clean, mask = remove_marks(img)
        restored = np.asarray(clean)
        assert clean.mode == "RGB" and restored.shape == original.shape and mask.shape == original.shape[:2]
        assert mask.any()
        again = detect_marks(clean)
        assert again.circle is None and again.arrow is None and again.label_band is None, f"{text}: {again}"
        assert np.array_equal(restored[~mask], original[~mask]), f"frame {i}: pixels outside the mask changed"
        inside = np.abs(restored[mask].astype(int) - original[mask].astype(int)).mean()
        print(f"amazon_mobiles/{i:03d} {text}: mask {int(mask.sum())} px, mean |restored - original| inside {inside:.1f}")


def test_remove_marks_leaves_clean_frames_alone(screenshots):
    img = screenshots[0]
    clean, mask = remove_marks(img)
    assert not mask.any()
    assert np.array_equal(np.asarray(clean), np.asarray(img))
