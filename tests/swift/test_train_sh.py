"""The generated ``train.sh`` itself trains a tiny model for two steps (CPU overrides only: dtype, attention,
packing off, two steps), and ``sftdata preflight`` finds what training would lose."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run

CPU = ["--torch_dtype", "float32", "--attn_impl", "sdpa", "--packing", "false", "--max_steps", "2"]


@pytest.mark.swift
def test_generated_train_sh_trains_two_steps(mixed_run, tiny_models, tmp_path):
    out = tmp_path / "sft"
    export_run(mixed_run, out, ExportOptions(format="qwen2.5-vl", memory=True, split_ratio=0.2, progress=False))
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}  # the script finds swift's own Python
    env.update(MODEL=str(tiny_models["qwen2.5-vl"]), OUTPUT_DIR=str(tmp_path / "ckpt"), USE_HF="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1")
    done = subprocess.run(["bash", str(out / "train.sh"), *CPU], env=env, capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    logs = list((tmp_path / "ckpt").glob("v*/logging.jsonl"))
    assert logs, done.stderr[-2000:]
    records = [json.loads(line) for line in logs[0].read_text().splitlines()]
    steps = [r["global_step/max_steps"] for r in records if "global_step/max_steps" in r]
    assert steps[-1] == "2/2" and any("loss" in r for r in records)  # two training steps with a loss
    assert any("eval_loss" in r for r in records)  # and the val shard evaluated


@pytest.mark.swift
def test_preflight_passes_an_export_and_finds_lost_rows(mixed_run, tiny_models, tmp_path):
    out = tmp_path / "sft"
    export_run(mixed_run, out, ExportOptions(format="qwen3-vl", history_images=2, split_ratio=0.2, progress=False))
    result = CliRunner().invoke(main, ["preflight", str(out)])  # the built-in Qwen3-VL processor
    assert result.exit_code == 0, result.output
    report = json.loads((out / "preflight.json").read_text())
    assert report["lost"] == [] and report["rows"] == sum(json.loads((out / "manifest.json").read_text())["samples"].values())
    assert all(s["under_estimates"] == 0 and s["packs_equal"] for s in report["splits"].values())
    assert "no row would be lost" in result.output
    longest = max(max(s["real_lengths"]) for s in report["splits"].values())
    short = CliRunner().invoke(main, ["preflight", str(out), "--model", str(tiny_models["qwen3-vl"]),
                                      "--max-length", str(longest - 1), "--json", str(tmp_path / "p.json")])
    assert short.exit_code == 1
    lost = json.loads((tmp_path / "p.json").read_text())["lost"]
    assert lost and {x["reason"] for x in lost} == {"over_max_length"}
    assert "over_max_length" in short.output


@pytest.mark.swift
def test_preflight_reports_a_missing_image_without_a_traceback(mixed_run, tiny_models, tmp_path):
    out = tmp_path / "sft"
    export_run(mixed_run, out, ExportOptions(format="qwen2.5-vl", split_ratio=0, progress=False))
    first = json.loads((out / "train-00000-of-00001.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (out / first["images"][0]).unlink()
    result = CliRunner().invoke(main, ["preflight", str(out), "--model", str(tiny_models["qwen2.5-vl"])])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lost = json.loads((out / "preflight.json").read_text())["lost"]
    assert lost and all(x["reason"] in ("encode_error", "unreadable_image") for x in lost)


def test_preflight_of_something_that_is_not_an_export(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["preflight", str(tmp_path)])
    assert result.exit_code == 1 and "not an sftdata export" in result.output
    assert "Traceback" not in result.output
