"""What an export promises the trainer, checked without ms-swift: train.sh's flags and version check, one
format one family, lengths in shard row order, exact Qwen lengths, no duplicated tool text."""
import json
import os
import re
import subprocess
import sys
import tomllib

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.chat import template_text
from sftdata.export.lengths import LengthModel
from sftdata.export.stage import ExportOptions, export_run
from sftdata.export.trainsh import SWIFT_REQUIREMENT
from sftdata.export.vocab import qwen_encoding
from support import ROOT, sample_run


@pytest.fixture(scope="module")
def annotated_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("contract"), 8, (1080, 2400), annotate=True)


def _rows(out, split="train"):
    rows = []
    for name in json.loads((out / "manifest.json").read_text())["shards"][split]:
        rows += [json.loads(line) for line in (out / name).read_text(encoding="utf-8").splitlines()]
    return rows


def test_pyproject_pins_the_range_train_sh_checks():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["swift"][0] == SWIFT_REQUIREMENT


def test_train_sh_uses_the_4x_flags_and_checks_the_installed_release(annotated_run, tmp_path):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(format="qwen2.5-vl", progress=False))
    script = (out / "train.sh").read_text()
    assert "--tuner_type full" in script and "--train_type" not in script
    assert "--packing true" in script and "flash-attention" in script.splitlines()[2]
    fake = tmp_path / "site"
    for version, code in (("4.2.0", 3), ("5.0.1", 3)):
        meta = fake / version / f"ms_swift-{version}.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: ms-swift\nVersion: {version}\n")
        env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": str(fake / version)}
        done = subprocess.run(["bash", str(out / "train.sh")], env=env, capture_output=True, text=True)
        assert done.returncode == code
        assert done.stderr.strip().splitlines() == [
            f"train.sh: ms-swift {version} does not take this script's flags; install: pip install '{SWIFT_REQUIREMENT}' "
            "(in an sftdata checkout: make swift)"]


def test_train_sh_without_ms_swift_says_what_to_install(annotated_run, tmp_path):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(format="react-zh", progress=False))
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    env["PATH"] = "/usr/bin:/bin"  # no swift command
    done = subprocess.run(["bash", str(out / "train.sh")], env=env, capture_output=True, text=True)
    assert done.returncode == 3 and done.stderr.strip().splitlines() == [
        f"train.sh: ms-swift is not installed (no swift command on PATH); install: pip install '{SWIFT_REQUIREMENT}' "
        "(in an sftdata checkout: make swift)"]


@pytest.mark.parametrize("fmt,family,model,image_tokens", [
    ("qwen3-vl", "qwen3-vl", "Qwen/Qwen3-VL-8B-Instruct", 2550 + 2),
    ("qwen2.5-vl", "qwen2.5-vl", "Qwen/Qwen2.5-VL-7B-Instruct", 3354 + 2),
    ("react-zh", "glm-4.1v", "zai-org/GLM-4.1V-9B-Base", 3354 + 2),
])
def test_one_format_one_family(annotated_run, tmp_path, fmt, family, model, image_tokens):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(format=fmt, split_ratio=0, progress=False))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["family"] == family
    assert manifest["tokens"]["image"]["max"] == image_tokens  # one 1080x2400 screenshot per sample
    assert f'MODEL="${{MODEL:-{model}}}"' in (out / "train.sh").read_text()


def test_a_family_override_that_cannot_be_right_is_refused(annotated_run, tmp_path):
    result = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "qwen3-vl",
                                       "--family", "qwen2.5-vl", "--out", str(tmp_path / "x")])
    assert result.exit_code == 1 and "would train wrong coordinates" in result.output
    assert not (tmp_path / "x").exists()
    ok = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "react-zh", "--family", "qwen3-vl",
                                   "--out", str(tmp_path / "y")])
    assert ok.exit_code == 0, ok.output
    assert json.loads((tmp_path / "y" / "manifest.json").read_text())["family"] == "qwen3-vl"


@pytest.mark.parametrize("fmt,opts", [("qwen2.5-vl", {}), ("qwen3-vl", {"memory": True, "history_images": 2}),
                                      ("react-zh", {"agent_tools": True}), ("qwen2.5-vl", {"agent_tools": True})])
def test_lengths_follow_shard_rows(annotated_run, tmp_path, fmt, opts):
    out = tmp_path / "sft"
    export_run(annotated_run, out, ExportOptions(format=fmt, split_ratio=0.3, shard_size=7, progress=False, **opts))
    manifest = json.loads((out / "manifest.json").read_text())
    lengths = json.loads((out / "lengths.json").read_text())
    model = LengthModel(manifest["family"])
    for split in ("train", "val"):
        rows = _rows(out, split)
        assert len(rows) == len(lengths[split])
        for row, length in zip(rows, lengths[split]):
            pads = sum(model.family.image_tokens(1080, 2400) + 2 for _ in row["images"])
            text = model.render(row)
            counted = (len(qwen_encoding(manifest["family"]).encode(text, allowed_special="all"))
                       if model.exact else len(text.encode()))
            assert length == counted - 2 * len(row["images"]) + pads


def test_qwen_lengths_are_exact_and_glm_lengths_a_bound(annotated_run, tmp_path):
    for fmt, method in (("qwen2.5-vl", "exact"), ("qwen3-vl", "exact"), ("react-zh", "bound")):
        out = tmp_path / fmt
        export_run(annotated_run, out, ExportOptions(format=fmt, progress=False))
        assert json.loads((out / "manifest.json").read_text())["text_tokens"]["method"] == method


def test_agent_tools_text_is_said_once(annotated_run, tmp_path):
    for fmt in ("qwen2.5-vl", "qwen3-vl", "react-zh"):
        out = tmp_path / fmt
        export_run(annotated_run, out, ExportOptions(format=fmt, agent_tools=True, split_ratio=0, progress=False))
        for row in _rows(out):
            text = template_text(row, "qwen2.5-vl")
            assert text.count("<tools>\n") == 1 and text.count("For each function call") == 1
            assert "Write each function call" not in text and "可调用的函数" not in text
            assert re.search(r"\n<tool_call>\n\{", text)  # the call starts on its own line, as in the plain answer
            assert "可用工具" in template_text(row, "glm-4.1v") and text.count('"name": "') >= 1


def test_template_text_matches_the_plain_answer(annotated_run, tmp_path):
    """The tool-call variant renders to the same assistant text as the plain variant."""
    plain, tools = tmp_path / "plain", tmp_path / "tools"
    export_run(annotated_run, plain, ExportOptions(format="qwen2.5-vl", split_ratio=0, progress=False))
    export_run(annotated_run, tools, ExportOptions(format="qwen2.5-vl", agent_tools=True, split_ratio=0, progress=False))
    answers = lambda out: sorted(template_text(r, "qwen2.5-vl").rsplit("<|im_start|>assistant\n", 1)[1]  # noqa: E731
                                 for r in _rows(out))
    assert answers(plain) == answers(tools)
