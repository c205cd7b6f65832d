"""Without the ocr extra, ``--ocr`` is one clear line saying how to install it: no traceback, nothing ingested
(runs everywhere: the extra is hidden from the import system here)."""
from __future__ import annotations

import json
import sys

from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.ocr import engine


def test_ocr_without_the_extra_is_one_line_naming_the_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # makes `import rapidocr_onnxruntime` fail
    monkeypatch.setattr(engine, "_ENGINE", None)
    folder = tmp_path / "in" / "phone_task"
    folder.mkdir(parents=True)
    for i in range(2):
        Image.new("RGB", (40, 80), "white").save(folder / f"{i:03d}.png")
    (folder / "task.json").write_text(json.dumps({"goal": "打开设置", "actions": ["CLICK [500,500]", "DONE"],
                                                  "marked": False}))
    result = CliRunner().invoke(main, ["ingest", "annotated", str(tmp_path / "in"), "--out", str(tmp_path / "run"),
                                       "--ocr", "--no-progress"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "make ocr" in lines[0] and "rapidocr-onnxruntime" in lines[0], result.output
    assert not (tmp_path / "run" / "episodes.jsonl").exists()
