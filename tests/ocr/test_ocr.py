"""OCR text elements: real fixture frames, the cache, the annotator's label band, ingest and element formats."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.io import sha256_hex
from sftdata.model import Episode
from sftdata.ocr import elements as ocr_module
from sftdata.ocr import ocr_elements
from support import missing_shared

pytestmark = pytest.mark.ocr  # needs the ocr extra (tests/extras.py)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent / "shared" / "fixtures"
FRAME = FIXTURES / "androidcontrol" / "screenshots" / "0" / "screenshot_2.png"  # Zoho Meeting's home screen


@pytest.fixture
def fixtures():
    if not FIXTURES.is_dir():
        pytest.skip(missing_shared())
    return FIXTURES


def test_a_real_frame_gives_its_texts_inside_the_frame(fixtures):
    data = FRAME.read_bytes()
    elements = ocr_elements(data, sha256_hex(data))
    texts = {e.text for e in elements}
    assert {"PAST", "UPCOMING"} <= texts  # the two tabs, verified by eye on the frame
    assert all(0 <= e.bounds[0] < e.bounds[2] <= 1080 and 0 <= e.bounds[1] < e.bounds[3] <= 2400 for e in elements)
    assert all(e.flags == ("visible", "ocr") and e.class_name == "ocr.TextLine" for e in elements)


def test_the_cache_spares_the_engine(fixtures, tmp_path, monkeypatch):
    data = FRAME.read_bytes()
    digest = sha256_hex(data)
    first = ocr_elements(data, digest, cache_dir=tmp_path)
    assert (tmp_path / digest[:2] / f"{digest}.json").is_file()
    monkeypatch.setattr(ocr_module, "read_lines", lambda _: pytest.fail("the engine ran again"))
    assert ocr_elements(data, digest, cache_dir=tmp_path) == first


def test_ingest_with_ocr_never_reads_the_label_band(fixtures, tmp_path):
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["ingest", "annotated", str(fixtures / "annotated"), "--out", str(run), "--ocr",
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    episodes = [Episode.from_dict(json.loads(line)) for line in (run / "episodes.jsonl").open(encoding="utf-8")]
    steps = [s for ep in episodes for s in ep.steps]
    labelled = [s for s in steps if s.elements]
    assert len(labelled) >= len(steps) - 2 and all(s.meta.get("elements_from") == "ocr" for s in labelled)
    texts = " ".join(e.text for s in steps for e in s.elements).upper()
    for label in ("CLICK", "SWIPE", "DONE", "OPEN APP", "[102,211]"):
        assert label not in texts
    tap = next(s for ep in episodes if ep.id == "zoho_meet" for s in ep.steps if s.action.type == "click")
    assert tap.action.element is not None and tap.action.element.text == "PAST"  # the tapped tab, by its text


def test_element_formats_export_ocr_screens(fixtures, tmp_path):
    runner = CliRunner()
    run = tmp_path / "run"
    for args in (["ingest", "annotated", str(fixtures / "annotated"), "--out", str(run), "--ocr", "--no-progress"],
                 ["annotate", str(run), "--no-progress"]):
        assert runner.invoke(main, args).exit_code == 0
    result = runner.invoke(main, ["export", str(run), "--format", "androidlab", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "exported 7 train" in result.output  # was 0: every step dropped with no_accessibility_tree


def test_a_frame_the_engine_cannot_take_is_ocr_failed_and_the_run_goes_on(tmp_path):
    """RapidOCR raises its own ResizeImgError on a 20x3200 strip (an aspect ratio ingest still takes): the
    trajectory is ledgered as ocr_failed, never unexpected_error, and the others are read."""
    from PIL import Image

    from sftdata.io import iter_jsonl

    root = tmp_path / "in"
    for name, size in (("a_strip", (20, 3200)), ("b_phone", (270, 600))):
        (root / name).mkdir(parents=True)
        for i in range(2):
            Image.new("RGB", size, (250, 250, 250)).save(root / name / f"{i:03d}.png")
        (root / name / "task.json").write_text(json.dumps({"goal": "看看", "actions": ["BACK", "DONE"],
                                                           "marked": False}))
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["ingest", "annotated", str(root), "--out", str(run), "--ocr", "--no-progress"])
    assert result.exit_code == 0, result.output
    (reject,) = list(iter_jsonl(run / "rejects.jsonl"))
    assert reject["episode_id"] == "a_strip" and reject["reason"] == "ocr_failed"
    assert reject["detail"].startswith("step 1: OCR cannot read this 20x3200 frame (ResizeImgError")
    assert [e["id"] for e in iter_jsonl(run / "episodes.jsonl")] == ["b_phone"]
