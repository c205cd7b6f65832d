"""The generated annotated web set: deterministic, its clean frames carry no marks, it never writes over a
directory it did not make, and `sftdata sample --annotated-web` writes it."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.errors import FatalError
from sftdata.overlay import detect_marks
from sftdata.synthetic.web_annotated import MARKER, trajectory, write_web_annotated


def test_the_set_is_deterministic(tmp_path):
    write_web_annotated(tmp_path / "a", n_episodes=1, seed=3)
    write_web_annotated(tmp_path / "b", n_episodes=1, seed=3)
    (folder,) = [p.name for p in (tmp_path / "a").iterdir() if p.is_dir()]
    for name in ("task.json", "004.png", "clean/004.png"):
        assert (tmp_path / "a" / folder / name).read_bytes() == (tmp_path / "b" / folder / name).read_bytes()


def test_clean_frames_are_the_marked_frames_without_the_marks():
    folder, task, frames = trajectory(0)
    assert task["platform"] == "web" and len(task["actions"]) == len(task["urls"]) == len(frames)
    for clean, marked in frames:
        assert clean.size == marked.size == (1280, 800)
        marks = detect_marks(marked)
        assert marks.label_band is not None
        again = detect_marks(clean)
        assert again.label_band is None and again.circle is None and again.arrow is None
        differ = np.any(np.asarray(clean) != np.asarray(marked), axis=2)
        assert 0 < differ.mean() < 0.1  # the marks cover a little of the frame


def test_a_directory_it_did_not_make_is_refused_and_its_own_is_rewritten(tmp_path):
    (tmp_path / "theirs").mkdir()
    (tmp_path / "theirs" / "notes.txt").write_text("keep me")
    with pytest.raises(FatalError, match="was not written by"):
        write_web_annotated(tmp_path / "theirs", n_episodes=1)
    assert (tmp_path / "theirs" / "notes.txt").read_text() == "keep me"
    ours = tmp_path / "ours"
    write_web_annotated(ours, n_episodes=2)
    write_web_annotated(ours, n_episodes=1)  # the earlier second trajectory goes
    assert (ours / MARKER).is_file()
    assert sorted(p.name for p in ours.iterdir() if p.is_dir()) == ["web_000_search_sort_1280x800"]


def test_sample_command_writes_the_set(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["sample", str(tmp_path / "web"), "--annotated-web", "--episodes", "1"])
    assert result.exit_code == 0, result.output
    assert "wrote 1 annotated web trajectory " in result.output
    task = json.loads((tmp_path / "web" / "web_000_search_sort_1280x800" / "task.json").read_text(encoding="utf-8"))
    assert task["actions"][0] == "打开网址 https://shop.example.com/" and task["actions"][-1] == "完成"
    assert Image.open(tmp_path / "web" / "web_000_search_sort_1280x800" / "000.png").size == (1280, 800)
    clash = runner.invoke(main, ["sample", str(tmp_path / "x"), "--annotated-web", "--mind2web"])
    assert clash.exit_code == 2 and "choose one" in clash.output
    not_dir = runner.invoke(main, ["sample", str(tmp_path / "web")])
    assert not_dir.exit_code == 2 and "is a directory" in not_dir.output
