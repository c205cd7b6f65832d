"""`sftdata sample OUT --annotated`: annotated phone trajectories a newcomer can ingest at once. The sample ingests
with zero rejects, the marks the detector finds agree with task.json (and recover the coordinates it leaves out),
the episodes are the synthetic phone episodes they were drawn from, and the directory rules are the web sample's."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner
from PIL import Image

from sftdata.cli import main
from sftdata.errors import FatalError
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.loaders.action_text import parse_action
from sftdata.loaders.androidcontrol import decode_features, episode_from_features
from sftdata.model import from_relative
from sftdata.overlay.detect import detect_marks
from sftdata.rundir import RunDir
from sftdata.synthetic.phone_annotated import MARKER, write_phone_annotated
from sftdata.synthetic.sample import generate_records
from sftdata.synthetic.web_annotated import write_web_annotated

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

SIZE = (540, 1200)
N = 4  # every style: coords, marks, clean (and coords again)


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    out = tmp_path_factory.mktemp("raw") / "mine"
    assert write_phone_annotated(out, N, seed=0, size=SIZE) == N
    return out


def _folders(out):
    return sorted(p for p in out.iterdir() if p.is_dir())


def test_the_sample_ingests_with_zero_rejects_as_the_episodes_it_was_drawn_from(sample, tmp_path):
    run = RunDir(tmp_path / "run")
    result = ingest_annotated(sample, run, IngestOptions(), progress=False)
    assert (result.exported, result.rejected) == (N, 0) and list(run.rejects()) == []
    truth = [episode_from_features(decode_features(r), screen_change=False) for r in generate_records(N, 0, SIZE)]
    episodes = {e.id: e for e in run.episodes()}
    assert sorted(episodes) == [f.name for f in _folders(sample)]
    for folder, want in zip(_folders(sample), truth):
        got = episodes[folder.name]
        assert got.goal == want.goal and len(got.steps) == len(want.steps)
        for a, b in zip(got.steps, want.steps):
            assert a.action.type == b.action.type and a.action.text == b.action.text and a.action.app == b.action.app
            for p, q in ((a.action.point, b.action.point), (a.action.end, b.action.end)):
                assert (p is None) == (q is None) and (q is None or math.dist(p, q) <= 2), (folder.name, a.index)
            assert a.instruction == b.instruction
        styles = {"coords": "restored", "marks": "restored", "clean": "clean"}
        assert all(s.meta.get(styles[folder.name.split("_")[-2]]) for s in got.steps), folder.name


def test_the_detected_marks_agree_with_task_json(sample):
    recovered = 0
    for folder in _folders(sample):
        task = json.loads((folder / "task.json").read_text(encoding="utf-8"))
        assert task["actions"][-1] == "DONE" and len(task["actions"]) == len(list(folder.glob("*.png")))
        for i, text in enumerate(task["actions"]):
            raw = parse_action(text)
            marks = detect_marks(Image.open(folder / f"{i:03d}.png").convert("RGB"))
            assert marks.label_band is not None, (folder.name, i)  # every frame carries its label
            near = 0.02 * math.hypot(*SIZE)
            if raw.type in ("click", "long_press"):
                if raw.point is None:
                    recovered += 1
                    assert marks.circle is not None
                else:  # a circle the detector finds is where task.json says
                    assert marks.circle is None or math.dist(marks.circle.point, from_relative(raw.point, *SIZE)) <= near
            elif raw.type == "swipe":
                assert marks.arrow is not None, (folder.name, i)
                if raw.point is None:
                    recovered += 1
                    assert raw.direction is not None
                else:
                    assert math.dist(marks.arrow.start, from_relative(raw.point, *SIZE)) <= near
                    assert math.dist(marks.arrow.end, from_relative(raw.end, *SIZE)) <= near
            # other actions draw only the label (a red app icon may still look like a circle: the loader leaves it)
    assert recovered >= 3  # the "marks" style leaves coordinates to the marks


def test_clean_frames_are_the_phone_screenshots_byte_for_byte(sample):
    clean = next(f for f in _folders(sample) if f.name.endswith(f"_clean_{SIZE[0]}x{SIZE[1]}"))
    record = list(generate_records(3, 0, SIZE))[2]
    shots = decode_features(record)["screenshots"]
    assert [(clean / "clean" / f"{i:03d}.png").read_bytes() for i in range(len(shots))] == shots


def test_a_directory_it_did_not_make_is_refused_and_a_sample_directory_is_shared(tmp_path):
    (tmp_path / "theirs").mkdir()
    (tmp_path / "theirs" / "notes.txt").write_text("keep me")
    with pytest.raises(FatalError, match="was not written by `sftdata sample --annotated`"):
        write_phone_annotated(tmp_path / "theirs", 1, size=SIZE)
    assert (tmp_path / "theirs" / "notes.txt").read_text() == "keep me"
    ours = tmp_path / "ours"
    write_web_annotated(ours, n_episodes=1)
    write_phone_annotated(ours, 2, size=SIZE)
    write_phone_annotated(ours, 1, size=SIZE)  # the earlier second phone trajectory goes, the web one stays
    assert (ours / MARKER).is_file()
    assert [p.name for p in _folders(ours)] == ["phone_000_mall_search_coords_540x1200", "web_000_search_sort_1280x800"]


def test_sample_annotated_then_ingest_annotated(tmp_path):
    runner = CliRunner()
    out = tmp_path / "raw" / "mine"
    result = runner.invoke(main, ["sample", str(out), "--annotated", "--episodes", "2", "--size", "540x1200"])
    assert result.exit_code == 0, result.output
    assert f"wrote 2 annotated phone trajectories to {out}; next: sftdata ingest annotated {out}" in result.output
    ingested = runner.invoke(main, ["ingest", "annotated", str(out), "--out", str(tmp_path / "run"), "--no-progress"])
    assert ingested.exit_code == 0 and "episodes 2   steps 16   rejected 0" in ingested.output, ingested.output
    clash = runner.invoke(main, ["sample", str(tmp_path / "x"), "--annotated", "--annotated-web"])
    assert clash.exit_code == 2 and "choose one" in clash.output
