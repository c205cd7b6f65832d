"""Screen change on the real fixture frames (unchanged re-encodes, a repainted clock, consecutive real frames)
and the ineffective-step marks that ingest writes for both sources."""
from __future__ import annotations

import io
import json
import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.loaders.androidcontrol import iter_episodes
from sftdata.loaders.protos import make_example, parse_example
from sftdata.loaders.screen_change import (INEFFECTIVE_BELOW, STATUS_BAR, grid_or_none, is_ineffective,
                                           screen_change, screen_grid)
from sftdata.loaders.tfrecord import read_tfrecords, write_tfrecords
from sftdata.rundir import RunDir
from support import AC_DIR, AC_RECORD, ANNOTATED, needs_shared

pytestmark = [needs_shared, pytest.mark.slow]  # every test here reads the real frames

SHOTS = AC_DIR / "screenshots"


def frame(episode: str, i: int) -> Image.Image:
    return Image.open(SHOTS / episode / f"screenshot_{i}.png").convert("RGB")


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def repaint_clock(image: Image.Image, clock: str = "12:59") -> Image.Image:
    """The same screen with another time and battery drawn in its status bar."""
    out = image.copy()
    w, h = out.size
    band = int(h * STATUS_BAR)
    background = out.getpixel((w // 2, 8))
    ink = (0, 0, 0) if sum(background) > 384 else (255, 255, 255)
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, 0, w, band - 1), fill=background)
    draw.text((w * 0.07, band * 0.4), clock, fill=ink, font_size=band // 3)
    draw.rectangle((w * 0.9, band * 0.4, w * 0.93, band * 0.75), fill=ink)
    return out


REAL = [("0", 4), ("20", 5), ("40", 2)]


@pytest.mark.parametrize("episode,i", [(e, i) for e, n in REAL for i in range(n)])
def test_a_re_encoded_frame_is_unchanged(episode, i):
    image = frame(episode, i)
    jpeg = io.BytesIO()
    image.save(jpeg, format="JPEG", quality=85)
    assert screen_change(image, png(image)) == 0.0
    assert is_ineffective(screen_change(image, jpeg.getvalue()))


@pytest.mark.parametrize("episode,i", [(e, i) for e, n in REAL for i in range(n - 1)])
def test_consecutive_real_frames_changed(episode, i):
    score = screen_change(frame(episode, i), frame(episode, i + 1))
    assert not is_ineffective(score)
    assert score > 10 * INEFFECTIVE_BELOW  # the smallest real change (a tab switch) is 28x the threshold


@pytest.mark.parametrize("episode,i", [("0", 2), ("20", 1), ("40", 0)])
def test_a_changed_clock_alone_is_unchanged(episode, i):
    image = frame(episode, i)
    repainted = repaint_clock(image)
    assert np.asarray(repainted).tobytes() != np.asarray(image).tobytes()  # the pixels did change, up there
    assert screen_change(image, repainted) == 0.0
    assert is_ineffective(screen_change(image, repainted))


def test_a_blinking_cursor_is_unchanged_and_a_small_widget_is_a_change():
    image = frame("0", 2)  # Zoho Meet's mostly white meetings page
    cursor, tick = image.copy(), image.copy()
    ImageDraw.Draw(cursor).rectangle((380, 1200, 384, 1262), fill=(0, 0, 0))  # 2 dp x 24 dp
    ImageDraw.Draw(tick).rectangle((860, 1500, 923, 1563), fill=(26, 115, 232))  # a 24 dp checkbox, ticked
    assert is_ineffective(screen_change(image, cursor))
    assert not is_ineffective(screen_change(image, tick))


def test_grids_bytes_and_sizes():
    image = frame("40", 0)
    grid = screen_grid(png(image))
    assert screen_change(grid, image) == 0.0
    assert screen_change(image, image.resize((540, 1200))) == 0.0  # the same screen at half the resolution
    assert screen_change(image, image.rotate(90, expand=True)) == 1.0  # turned to landscape: changed
    assert grid_or_none(b"\x89PNG\r\n\x1a\n broken") is None


# --- ingest: step.meta["ineffective"] / ["screen_change"] ------------------------------------------------------
def _ac_meta(run: RunDir) -> dict[str, list[dict]]:
    return {e.id: [s.meta for s in e.steps] for e in run.episodes()}


def test_androidcontrol_ingest_marks_every_step_with_a_next_screenshot(tmp_path):
    run = RunDir(tmp_path / "run")
    ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    metas = _ac_meta(run)
    assert sorted(metas) == ["0", "20", "40"]
    for steps in metas.values():
        # decided from the visible elements (every real pair differs in them): no score, the pixels were not needed
        assert all(m["ineffective"] is False and "screen_change" not in m for m in steps[:-1])
        assert "ineffective" not in steps[-1] and "screen_change" not in steps[-1]  # done: no next frame


def test_androidcontrol_step_that_left_the_screen_unchanged_is_ineffective(tmp_path):
    """Episode 20 with its second tap repeated: the first tap's next frame is the same screen, re-encoded
    with another clock (a misclick), then the real next frame follows."""
    features = parse_example(next(f.data for f in read_tfrecords(AC_RECORD) if b"mobile category" in f.data))
    again = png(repaint_clock(frame("20", 1)))
    for key, value in (("screenshots", again), ("screenshot_widths", 1080), ("screenshot_heights", 2400)):
        features[key].insert(2, value)
    features["accessibility_trees"].insert(2, features["accessibility_trees"][1])
    features["actions"].insert(1, features["actions"][1])
    features["step_instructions"].insert(1, features["step_instructions"][1])
    path = tmp_path / "ac.tfrecord.gz"
    write_tfrecords(path, [make_example(features)])
    (episode,) = iter_episodes([path])
    assert [s.action.type for s in episode.steps] == ["back", "click", "click", "click", "swipe", "done"]
    assert [s.meta.get("ineffective") for s in episode.steps] == [False, True, False, False, False, None]
    assert episode.steps[1].meta["screen_change"] == 0.0


def _annotated_copy(tmp_path):
    """sofa_prices with a tap that did nothing before the swipe: its next frame is the same screen with
    another clock."""
    root = tmp_path / "annotated"
    folder = root / "sofa_retry"
    folder.mkdir(parents=True)
    first = Image.open(ANNOTATED / "sofa_prices" / "000.png")
    shutil.copy(ANNOTATED / "sofa_prices" / "000.png", folder / "000.png")
    repaint_clock(first.convert("RGB"), "9:08").save(folder / "001.png")
    shutil.copy(ANNOTATED / "sofa_prices" / "001.png", folder / "002.png")
    task = {"goal": "查看推荐的沙发商品并比较价格", "marked": False,
            "actions": ["CLICK [500,30]", "SWIPE [500,708] to [500,375]", "DONE"]}
    (folder / "task.json").write_text(json.dumps(task, ensure_ascii=False), encoding="utf-8")
    for name in ("zoho_meet", "amazon_mobiles"):  # clean/ frames, and frames with the marks removed
        shutil.copytree(ANNOTATED / name, root / name)
    return root


def test_annotated_ingest_compares_the_stored_frames(tmp_path):
    run = RunDir(tmp_path / "run")
    ingest_annotated(_annotated_copy(tmp_path), run, IngestOptions(), progress=False)
    metas = _ac_meta(run)
    assert [m.get("ineffective") for m in metas["sofa_retry"]] == [True, False, None]
    assert [m.get("ineffective") for m in metas["zoho_meet"]] == [False, False, False, None]
    assert all(m.get("clean") for m in metas["zoho_meet"])
    amazon = metas["amazon_mobiles"]
    assert all(m.get("restored") for m in amazon) and [m.get("ineffective") for m in amazon] == [False] * 4 + [None]


def test_no_screen_change_skips_the_comparison_from_the_command_line(tmp_path):
    from click.testing import CliRunner

    from sftdata.cli import main

    result = CliRunner().invoke(main, ["ingest", "androidcontrol", str(AC_RECORD), "--out", str(tmp_path / "run"),
                                       "--no-screen-change", "--workers", "2"])
    assert result.exit_code == 0, result.output
    episodes = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    assert len(episodes) == 3
    assert all("ineffective" not in s.get("meta", {}) for e in episodes for s in e["steps"])
