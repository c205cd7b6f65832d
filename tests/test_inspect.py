import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from built_once import built_once, copy_of
from support import FIXTURES, missing_shared
from sftdata.cli import main

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


def _ingest_the_annotated_fixtures(into: Path) -> None:
    result = CliRunner().invoke(main, ["ingest", "annotated", str(FIXTURES / "annotated"), "--out", str(into / "run"),
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "ingested 3 new annotated episodes, rejected 0" in result.output


@pytest.fixture
def annotated_run(tmp_path):
    """The real annotated fixtures ingested by the CLI (once per session; each test gets its own copy)."""
    if not (FIXTURES / "annotated").exists():
        pytest.skip(missing_shared())
    return copy_of(built_once("annotated-fixtures-cli-run", _ingest_the_annotated_fixtures) / "run", tmp_path / "run")


def test_inspect_draws_a_contact_sheet_with_marks(annotated_run, tmp_path):
    out = tmp_path / "sheet.png"
    result = CliRunner().invoke(main, ["inspect", str(annotated_run), "--episode", "amazon_mobiles", "--out", str(out)])
    assert result.exit_code == 0, result.output
    sheet = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert sheet.shape[1] > 5 * 300  # five steps side by side
    red = (sheet[..., 0] > 200) & (sheet[..., 1] < 60) & (sheet[..., 2] < 60)
    assert red.sum() > 500  # labels, circles and the arrow are drawn


def test_inspect_unknown_episode_is_a_clear_error(annotated_run, tmp_path):
    result = CliRunner().invoke(main, ["inspect", str(annotated_run), "--episode", "nope", "--out", str(tmp_path / "x.png")])
    assert result.exit_code != 0 and "no episode nope in" in result.output
    assert "(its ids: amazon_mobiles, sofa_prices, zoho_meet)" in result.output


def test_one_run_holds_both_sources(annotated_run, ac_fixture):
    result = CliRunner().invoke(main, ["ingest", "androidcontrol", str(ac_fixture), "--out", str(annotated_run),
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "sources: androidcontrol 3, annotated 3" in result.output
    manifest = json.loads((annotated_run / "manifest.json").read_text())
    assert set(manifest["stages"]["ingest"]) == {"androidcontrol", "annotated"}
    assert manifest["totals"]["episodes"] == 6


def test_a_long_caption_is_cut_to_its_frame():
    from PIL import Image, ImageDraw

    from sftdata.inspect import fit
    from sftdata.overlay.fonts import load_font

    draw, font = ImageDraw.Draw(Image.new("RGB", (10, 10))), load_font(18)
    long = "step 8  NEW TAB https://shop.example.com/cart?session=" + "x" * 80
    cut = fit(draw, long, font, 360)
    assert cut.endswith("…") and draw.textlength(cut, font=font) <= 360 and long.startswith(cut[:-1])
    assert fit(draw, "step 1  BACK", font, 360) == "step 1  BACK"
