"""export --som: numbered element boxes on derived copies of the screenshots, for mobile-agent only."""
import hashlib
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.config import parse_config
from sftdata.errors import FatalError
from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats.elements import listed
from support import sample_run


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("som"), 3, (360, 800), annotate=True)


def _hashes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "images").rglob("*")) if p.is_file()}


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(out.glob("*-of-*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_som_samples_show_derived_copies_and_the_originals_stay_as_they_were(run, tmp_path):
    before = _hashes(run.path)
    out = tmp_path / "ma"
    export_run(run, out, ExportOptions(format="mobile-agent", som=True, history_images=1, progress=False))
    assert _hashes(run.path) == before  # originals byte-identical
    manifest = json.loads((out / "manifest.json").read_text())
    derived = manifest["images"]["derived_from"]
    assert manifest["options"]["som"] is True and manifest["images"]["derived"] == len(derived) > 0
    steps = [s for e in run.episodes() for s in e.steps]
    rows = _rows(out)
    assert rows
    for row in rows:
        *earlier, current = row["images"]
        name = current.removeprefix("images/")
        data = (out / current).read_bytes()
        if "Interactive Elements:\nNone" in row["messages"][1]["content"]:  # nothing to number (a splash screen)
            assert name not in derived and hashlib.sha256(data).hexdigest() in set(before.values())
            continue
        assert name in derived and derived[name]["kind"] == "som"  # the sample points at the derived copy
        assert hashlib.sha256(data).hexdigest() + ".png" == name  # content-addressed
        origin = derived[name]
        original = (run.path / origin["original_path"]).read_bytes()
        assert hashlib.sha256(original).hexdigest() == origin["original"].split(".")[0] and data != original
        step = next(s for s in steps if s.screenshot.path == origin["original_path"]
                    and len(listed(s)) == origin["boxes"] > 0)
        with Image.open(io.BytesIO(data)) as marked, Image.open(io.BytesIO(original)) as plain:
            assert marked.size == plain.size
            x1, y1, x2, y2 = listed(step)[0].bounds  # element 0's box is outlined
            assert marked.convert("RGB").getpixel((x1 + 1, (y1 + y2) // 2)) != \
                plain.convert("RGB").getpixel((x1 + 1, (y1 + y2) // 2))
        for rel in earlier:  # history images stay the originals
            assert rel.removeprefix("images/") not in derived
            assert hashlib.sha256((out / rel).read_bytes()).hexdigest() in set(before.values())
        assert "labelled with its index" in row["messages"][0]["content"]
    assert any(row["images"][:-1] for row in rows)


def test_som_copies_are_deterministic_and_absent_without_the_option(run, tmp_path):
    export_run(run, tmp_path / "a", ExportOptions(format="mobile-agent", som=True, progress=False))
    export_run(run, tmp_path / "b", ExportOptions(format="mobile-agent", som=True, progress=False))
    export_run(run, tmp_path / "c", ExportOptions(format="mobile-agent", progress=False))
    a, b = (json.loads((tmp_path / d / "manifest.json").read_text()) for d in "ab")
    assert a["images"]["derived_from"] == b["images"]["derived_from"]
    plain = json.loads((tmp_path / "c" / "manifest.json").read_text())
    assert "derived_from" not in plain["images"] and "derived" not in plain["images"]
    originals = {s.screenshot.sha256 for e in run.episodes() for s in e.steps}
    assert all(r["images"][0].removeprefix("images/").split(".")[0] in originals for r in _rows(tmp_path / "c"))


def test_som_is_refused_for_formats_whose_prompt_has_no_numbered_boxes(run, tmp_path):
    with pytest.raises(FatalError, match="--som needs a format"):
        export_run(run, tmp_path / "al", ExportOptions(format="androidlab", som=True, progress=False))
    result = CliRunner().invoke(main, ["export", str(run.path), "--format", "react-zh", "--som",
                                       "--out", str(tmp_path / "rz")])
    assert result.exit_code == 2 and "--som" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "rz").exists() and not (tmp_path / "al").exists()
    config = 'run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a.gz"]\n[[export]]\nformat = "%s"\nsom = true\n'
    with pytest.raises(FatalError, match="som = true needs"):
        parse_config(config % "qwen3-vl", base=tmp_path)
    assert parse_config(config % "mobile-agent", base=tmp_path).exports[0].som is True


def test_the_cli_exports_with_som(run, tmp_path):
    result = CliRunner().invoke(main, ["export", str(run.path), "--format", "mobile-agent", "--som",
                                       "--out", str(tmp_path / "cli"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "cli" / "manifest.json").read_text())["images"]["derived_from"]
