"""What a newcomer meets in the first hour: each wrong turn ends in one clear line, the documented exit status,
and nothing left behind that sftdata created for nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("name, content", [("README.md", None), ("shot.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 200),
                                           ("data.parquet", b"PAR1" + b"x" * 100 + b"PAR1")])
def test_a_file_that_is_not_a_tfrecord_says_so(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if content is not None else (ROOT / "README.md").read_bytes())
    result = invoke("ingest", "androidcontrol", path, "--out", tmp_path / "run", "--no-progress")
    assert result.exit_code == 3, result.output
    assert "not_a_tfrecord" in result.output and "CRC" not in result.output
    assert '"reason":"not_a_tfrecord"' in (tmp_path / "run" / "rejects.jsonl").read_text()


def test_a_wrong_mind2web_file_leaves_no_empty_run(tmp_path):
    bad = tmp_path / "m2w.parquet"
    bad.write_bytes(b"not parquet at all")
    result = invoke("ingest", "mind2web", bad, "--out", tmp_path / "run")
    assert result.exit_code == 1 and "is neither a Parquet shard" in result.output
    assert not (tmp_path / "run").exists()


def test_an_existing_run_is_never_removed_on_failure(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "mine.txt").write_text("keep")
    bad = tmp_path / "m2w.parquet"
    bad.write_bytes(b"not parquet at all")
    assert invoke("ingest", "mind2web", bad, "--out", tmp_path / "run").exit_code == 1
    assert (tmp_path / "run" / "mine.txt").read_text() == "keep"


def test_a_folder_without_trajectories_names_task_json(tmp_path):
    (tmp_path / "root").mkdir()
    result = invoke("ingest", "annotated", tmp_path / "root", "--out", tmp_path / "run")
    assert result.exit_code == 3 and "task.json" in result.output and "no input was selected" not in result.output
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", [["summary"], ["report"], ["inspect", "--episode", "1", "--out", "x.png"]])
def test_readers_refuse_a_folder_that_is_not_a_run(tmp_path, command):
    result = invoke(command[0], tmp_path, *command[1:])
    assert result.exit_code == 1 and "is not an sftdata run" in result.output
    assert not (tmp_path / "report.html").exists()


def test_export_without_annotations_is_nothing_produced(tmp_path):
    run = sample_run(tmp_path, 1)
    result = invoke("export", run.path, "--format", "react-zh", "--out", tmp_path / "sft")
    assert result.exit_code == 3 and "sftdata annotate" in result.output


def test_ctrl_c_says_how_to_resume(tmp_path, monkeypatch):
    from sftdata import rundir

    def interrupted(self):
        raise KeyboardInterrupt
    monkeypatch.setattr(rundir.RunDir, "require_run", interrupted)
    result = invoke("summary", tmp_path)
    assert result.exit_code == 130 and "run the same command again to resume" in result.output
    assert "Traceback" not in result.output


def test_tiny_models_without_the_swift_extra_is_one_line(tmp_path, monkeypatch, capsys):
    from sftdata.preflight import tiny

    def missing(*args, **kwargs):
        raise ImportError("No module named 'transformers'", name="transformers")
    monkeypatch.setattr(tiny, "tiny_model_dir", missing)
    assert tiny.main(["qwen2.5-vl", str(tmp_path / "m")]) == 1
    assert "make swift" in capsys.readouterr().err


def test_two_shards_with_one_name_are_two_inputs(tmp_path):
    """Every record of both files ends in a ledger (the resume key is the path when names collide)."""
    for folder, n in (("a", 2), ("b", 4)):
        (tmp_path / folder).mkdir()
        assert invoke("sample", tmp_path / folder / "part.tfrecord.gz", "--episodes", str(n)).exit_code == 0
    run = tmp_path / "run"
    result = invoke("ingest", "androidcontrol", tmp_path / "a" / "part.tfrecord.gz", tmp_path / "b" / "part.tfrecord.gz",
                    "--out", run, "--no-progress")
    assert result.exit_code == 0, result.output
    episodes = (run / "episodes.jsonl").read_text().splitlines()
    rejects = (run / "rejects.jsonl").read_text().splitlines()
    assert len(episodes) + len(rejects) == 6 and len(episodes) == 4
    assert all('"duplicate_episode"' in r for r in rejects)


def test_screenshots_without_task_json_are_ledgered_once(tmp_path):
    from PIL import Image

    (tmp_path / "root" / "traj1").mkdir(parents=True)
    Image.new("RGB", (64, 128), "white").save(tmp_path / "root" / "traj1" / "step1.png")
    for _ in range(2):  # a rerun does not ledger it again
        result = invoke("ingest", "annotated", tmp_path / "root", "--out", tmp_path / "run", "--no-progress")
        assert result.exit_code == 3 and "no_task_json" in result.output
    rejects = (tmp_path / "run" / "rejects.jsonl").read_text().splitlines()
    assert len(rejects) == 1 and '"episode_id":"traj1"' in rejects[0]


def test_summary_does_not_count_dropped_steps_or_export_exclusions_as_rejected_episodes(tmp_path):
    from sftdata.rundir import RunDir
    from sftdata.summary import format_summary

    run = sample_run(tmp_path, 2)
    with open(run.rejects_path, "a", encoding="utf-8") as f:
        f.write('{"episode_id": "t1", "source": "mind2web", "stage": "ingest:step", "reason": "no_positive_candidate"}\n')
        f.write('{"episode_id": "e1", "source": null, "stage": "export:browser-use", "reason": "platform_not_web"}\n')
    line = format_summary(RunDir(run.path)).splitlines()[1]
    assert "rejected 0 " in line and "1 dropped step," in line and "1 episode left out of an export" in line


def _ledgers(run: Path) -> tuple[list[str], list[str]]:
    read = lambda name: (run / name).read_text().splitlines() if (run / name).exists() else []  # noqa: E731
    return read("episodes.jsonl"), read("rejects.jsonl")


def test_a_second_root_with_the_same_trajectory_id_is_ledgered_not_skipped(tmp_path):
    import shutil

    assert invoke("sample", tmp_path / "a", "--annotated-web", "--episodes", "1").exit_code == 0
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert invoke("ingest", "annotated", tmp_path / "a", "--out", tmp_path / "run", "--no-progress").exit_code == 0
    second = invoke("ingest", "annotated", tmp_path / "b", "--out", tmp_path / "run", "--no-progress")
    assert "rejected 1" in second.output
    episodes, rejects = _ledgers(tmp_path / "run")
    assert len(episodes) == 1 and len(rejects) == 1
    assert '"duplicate_episode"' in rejects[0] and "from another folder" in rejects[0]
    again = invoke("ingest", "annotated", tmp_path / "b", "--out", tmp_path / "run", "--no-progress")
    assert again.exit_code == 0 and len(_ledgers(tmp_path / "run")[1]) == 1  # ledgered once


def test_a_trajectory_fixed_after_its_reject_is_read_again(tmp_path):
    assert invoke("sample", tmp_path / "root", "--annotated-web", "--episodes", "2").exit_code == 0
    task = next((tmp_path / "root").glob("*/task.json"))
    good = task.read_text()
    task.write_text('{"goal": ')
    first = invoke("ingest", "annotated", tmp_path / "root", "--out", tmp_path / "run", "--no-progress")
    assert first.exit_code == 0 and "rejected 1" in first.output
    assert '"bad_task_json"' in _ledgers(tmp_path / "run")[1][0]

    task.write_text(good)  # fixed
    second = invoke("ingest", "annotated", tmp_path / "root", "--out", tmp_path / "run", "--no-progress")
    assert second.exit_code == 0 and "ingested 1 new" in second.output and "read again 1" in second.output
    episodes, rejects = _ledgers(tmp_path / "run")
    assert len(episodes) == 2 and rejects == []

    image = next(task.parent.glob("*.png"))  # changed after it was ingested: said, and the episode kept
    image.write_bytes(image.read_bytes())
    import os
    os.utime(image, ns=(1, 1))
    third = invoke("ingest", "annotated", tmp_path / "root", "--out", tmp_path / "run", "--no-progress")
    assert "1 trajectory changed after ingest" in third.output
    assert _ledgers(tmp_path / "run") == (episodes, [])
