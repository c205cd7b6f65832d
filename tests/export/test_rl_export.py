"""``sftdata export --rl``: the command, train_grpo.sh (its checks, its flags), the reward plugin loaded by path
as verl and ms-swift load it, the options it refuses, a killed export, --som and resume."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run
from sftdata.export.trainsh import SWIFT_REQUIREMENT
from sftdata.rewards.ms_swift import ORMS
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


@pytest.fixture(scope="module")
def annotated_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("rl-export"), 6, (540, 1200), annotate=True)


def _rows(out):
    return [json.loads(line) for p in sorted(out.glob("*.jsonl")) for line in p.read_text(encoding="utf-8").splitlines()]


def test_the_command_writes_rl_rows_and_train_grpo_sh(annotated_run, tmp_path):
    out = tmp_path / "rl"
    result = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "qwen2.5-vl", "--rl",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"train with: bash {out}/train_grpo.sh" in result.output
    rows = _rows(out)
    assert rows and all(set(r) == {"id", "messages", "images", "solution"} for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["options"]["rl"] is True and not (out / "train.sh").exists()
    script = (out / "train_grpo.sh").read_text()
    assert os.access(out / "train_grpo.sh", os.X_OK)
    assert subprocess.run(["bash", "-n", str(out / "train_grpo.sh")]).returncode == 0
    for flag in ("swift rlhf", "--rlhf_type grpo", "--external_plugins sftdata_rewards.py", "--use_vllm false",
                 "--num_generations 8", "--tuner_type full", "--dataset train-00000-of-00001.jsonl"):
        assert flag in script, flag
    funcs = script.split("--reward_funcs ", 1)[1].split(" \\", 1)[0].split()
    weights = script.split("--reward_weights ", 1)[1].split(" \\", 1)[0].split()
    assert funcs[0] == "sftdata_score" and set(funcs) <= set(ORMS) and len(weights) == len(funcs)
    longest = int(script.split("--max_completion_length ", 1)[1].split()[0])
    assert longest >= 128 and longest % 64 == 0


def test_the_plugin_loads_by_path_without_ms_swift_and_scores(annotated_run, tmp_path):
    """verl imports custom_reward_function.path by file; without ms-swift the plugin gives compute_score alone."""
    out = tmp_path / "rl"
    export_run(annotated_run, out, ExportOptions(format="ui-tars", rl=True, split_ratio=0, progress=False))
    code = ("import importlib.util, json, sys\n"
            "spec = importlib.util.spec_from_file_location('plugin', sys.argv[1])\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "row = json.loads(open(sys.argv[2], encoding='utf-8').readline())\n"
            "answer = json.loads(row['solution'])['answer']\n"
            "print(json.dumps([m.compute_score('sftdata', answer, row['solution']),\n"
            "                  m.compute_score('sftdata', 'no answer', row['solution'], {})]))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p and "site-packages" in p)}
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "swift.py").write_text("raise ImportError('no ms-swift here')\n")  # as on a machine without it
    env["PYTHONPATH"] = os.pathsep.join([str(blocker), env["PYTHONPATH"]])
    done = subprocess.run([sys.executable, "-c", code, str(out / "sftdata_rewards.py"),
                           str(out / "train-00000-of-00001.jsonl")], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    good, bad = json.loads(done.stdout)
    assert good["score"] == 1.0 and bad["score"] == 0.0 and bad["format"] == 0.0


def test_train_grpo_sh_without_ms_swift_says_what_to_install(annotated_run, tmp_path):
    out = tmp_path / "rl"
    export_run(annotated_run, out, ExportOptions(format="qwen3-vl", rl=True, progress=False))
    env = {k: v for k, v in os.environ.items() if k != "PYTHON"}
    env["PATH"] = "/usr/bin:/bin"  # no swift command
    done = subprocess.run(["bash", str(out / "train_grpo.sh")], env=env, capture_output=True, text=True)
    assert done.returncode == 3 and done.stderr.strip().splitlines() == [
        f"train_grpo.sh: ms-swift is not installed (no swift command on PATH); install: pip install "
        f"'{SWIFT_REQUIREMENT}' (in an sftdata checkout: make swift)"]


def test_rl_refuses_the_tool_variant_and_a_killed_export_leaves_the_previous_one(annotated_run, tmp_path,
                                                                                 monkeypatch):
    refused = CliRunner().invoke(main, ["export", str(annotated_run.path), "--format", "qwen2.5-vl", "--rl",
                                        "--agent-tools", "--out", str(tmp_path / "x")])
    assert refused.exit_code == 1 and "drop --agent-tools" in refused.output and "Traceback" not in refused.output
    assert not (tmp_path / "x").exists()
    out = tmp_path / "rl"
    export_run(annotated_run, out, ExportOptions(format="qwen2.5-vl", rl=True, progress=False))
    before = sorted(p.name for p in out.iterdir())
    from sftdata.export import bundle  # writes the training script

    def killed(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(bundle, "grpo_script", killed)
    with pytest.raises(KeyboardInterrupt):
        export_run(annotated_run, out, ExportOptions(format="qwen3-vl", rl=True, progress=False), force=True)
    assert sorted(p.name for p in out.iterdir()) == before
    assert json.loads((out / "manifest.json").read_text())["format"] == "qwen2.5-vl"
    assert not list(tmp_path.glob(".rl.*"))


def test_rl_rows_with_numbered_boxes_show_the_sft_samples_images(annotated_run, tmp_path):
    for rl in (True, False):
        export_run(annotated_run, tmp_path / str(rl), ExportOptions(format="mobile-agent", rl=rl, som=True,
                                                                    progress=False))
    rl_rows, sft_rows = _rows(tmp_path / "True"), _rows(tmp_path / "False")
    derived = json.loads((tmp_path / "True" / "manifest.json").read_text())["images"]["derived_from"]
    assert sorted(r["images"] for r in rl_rows) == sorted(r["images"] for r in sft_rows)
    assert any(r["images"][-1].split("/")[-1] in derived for r in rl_rows)


def test_the_hugging_face_dataset_keeps_the_id_and_the_solution(annotated_run, tmp_path):
    from datasets import load_from_disk

    out, hf = tmp_path / "rl", tmp_path / "hf"
    export_run(annotated_run, out, ExportOptions(format="gui-agent-zh", rl=True, split_ratio=0, hf_dataset=str(hf),
                                                 progress=False))
    train = load_from_disk(str(hf))["train"]
    by_id = {r["id"]: r["solution"] for r in _rows(out)}
    assert len(train) == len(by_id) and {r["id"]: r["solution"] for r in train} == by_id


def test_sftdata_run_exports_sft_and_rl_of_one_format_side_by_side(tmp_path):
    from built_once import sample_file

    sample_file(tmp_path / "s.tfrecord.gz", n_episodes=3, seed=1, size=(360, 800))
    (tmp_path / "cfg.toml").write_text(
        'run_dir = "run"\n[[sources]]\ntype = "androidcontrol"\npaths = ["s.tfrecord.gz"]\n[annotate]\n'
        'backend = "template"\n[[export]]\nformat = "qwen3-vl"\n[[export]]\nformat = "qwen3-vl"\nrl = true\n'
        '[report]\nenabled = false\n')
    result = CliRunner().invoke(main, ["run", str(tmp_path / "cfg.toml"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "run/export/qwen3-vl/train.sh" in result.output and "run/export/qwen3-vl-rl/train_grpo.sh" in result.output
    assert (tmp_path / "run" / "export" / "qwen3-vl-rl" / "sftdata_rewards.py").is_file()
