"""The generated ``train_grpo.sh`` runs ms-swift's GRPO for two steps on a tiny local model (CPU overrides only:
dtype, a group of two answers of 16 tokens, two steps) with the export's rewards as its external plugin; and
`sftdata eval` reads the real result file of `swift infer` on the export's rows."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rl_support import ground_truth_lines
from sftdata.cli import main
from sftdata.evaluate.matchers import MATCHERS
from sftdata.export.grpo import REWARDS
from sftdata.export.stage import ExportOptions, export_run

pytestmark = pytest.mark.swift

CPU = ["--torch_dtype", "float32", "--num_generations", "2", "--per_device_train_batch_size", "2",
       "--per_device_eval_batch_size", "2", "--gradient_accumulation_steps", "1", "--max_completion_length", "16",
       "--max_steps", "2"]


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}  # the script finds swift's own Python
    env.update(USE_HF="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", **extra)
    return env


@pytest.fixture(scope="module")
def rl_export(mixed_run, tmp_path_factory):
    out = tmp_path_factory.mktemp("grpo") / "rl"
    # screenshots at most ~0.25 MP (train_grpo.sh's MAX_PIXELS follows): a CPU's minutes go to the steps, not to
    # the vision tower of full-resolution phone screens
    export_run(mixed_run, out, ExportOptions(format="qwen2.5-vl", rl=True, split_ratio=0.2, max_pixels=250_000,
                                             progress=False))
    return out


def test_generated_train_grpo_sh_trains_two_steps(rl_export, tiny_models, tmp_path):
    done = subprocess.run(["bash", str(rl_export / "train_grpo.sh"), *CPU], capture_output=True, text=True,
                          env=_env(MODEL=str(tiny_models["qwen2.5-vl"]), OUTPUT_DIR=str(tmp_path / "ckpt")),
                          timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    logs = list((tmp_path / "ckpt").glob("v*/logging.jsonl"))
    assert logs, done.stderr[-2000:]
    records = [json.loads(line) for line in logs[0].read_text().splitlines()]
    steps = [r["global_step/max_steps"] for r in records if "global_step/max_steps" in r]
    assert steps[-1] == "2/2"
    trained = [r for r in records if "rewards/sftdata_score/mean" in r]
    assert trained and all(f"rewards/{name}/mean" in trained[0] for name in REWARDS)  # every rule logged
    assert all(0.0 <= r["rewards/sftdata_score/mean"] <= 1.0 for r in trained)
    assert any("eval_rewards/sftdata_score/mean" in r for r in records)  # and the val shard rolled out, scored


def test_eval_reads_the_real_swift_infer_result_file(rl_export, tiny_models, tmp_path):
    manifest = json.loads((rl_export / "manifest.json").read_text())
    val = manifest["shards"]["val"]
    assert val
    result = tmp_path / "infer.jsonl"
    done = subprocess.run([str(Path(sys.executable).parent / "swift"), "infer", "--model", str(tiny_models["qwen2.5-vl"]),
                           "--model_type", "qwen2_5_vl", "--template", "qwen2_5_vl", "--val_dataset", *val,
                           "--infer_backend", "transformers", "--max_new_tokens", "12", "--torch_dtype", "float32",
                           "--attn_impl", "sdpa", "--result_path", str(result)],
                          cwd=rl_export, capture_output=True, text=True, timeout=1500,
                          env=_env(ROOT_IMAGE_DIR=str(rl_export), MAX_PIXELS="250000"))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = result.read_text(encoding="utf-8").splitlines()
    assert len(lines) == manifest["samples"]["val"] and "id" not in json.loads(lines[0])  # swift keeps no id
    shown = CliRunner().invoke(main, ["eval", str(result), "--export", str(rl_export)])
    assert shown.exit_code == 0, shown.output
    r = json.loads((rl_export / "eval" / "infer.json").read_text(encoding="utf-8"))
    assert r["matched"] == len(lines) and r["unknown"]["count"] == 0 and r["unreadable"]["count"] == 0
    assert r["missing"]["count"] == manifest["samples"]["train"]  # the train rows had no prediction: said
    assert r["unparsed"]["count"] == r["matched"] - r["overall"]["parsed"]  # a random model's answers, counted
    assert f"export rows without a prediction: {r['missing']['count']}" in shown.output
    if r["unparsed"]["count"]:
        assert "answers that do not parse in qwen2.5-vl" in shown.output
    # the ground truth through the same command: 100% under every matcher
    truth = tmp_path / "truth.jsonl"
    truth.write_text(ground_truth_lines(rl_export), encoding="utf-8")
    assert CliRunner().invoke(main, ["eval", str(truth), "--export", str(rl_export)]).exit_code == 0
    r = json.loads((rl_export / "eval" / "truth.json").read_text(encoding="utf-8"))
    assert r["matched"] == r["export_rows"] and all(r["overall"]["step_success"][m] == 1.0 for m in MATCHERS)
