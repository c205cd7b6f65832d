"""Human-annotated folders: the real fixtures, every reject reason, and mark recovery."""
import hashlib
import json
import math
import shutil

import numpy as np
import pytest
from PIL import Image

from support import AC_DIR, ANNOTATED, missing_shared
from sftdata.errors import RecordError
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.io import iter_jsonl
from sftdata.loaders.annotated import AnnotatedOptions, load_trajectory
from sftdata.rundir import RunDir




@pytest.fixture
def annotated_root():
    if not ANNOTATED.exists():
        pytest.skip(missing_shared())
    return ANNOTATED


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    if not ANNOTATED.exists():
        pytest.skip(missing_shared())
    run = RunDir(tmp_path_factory.mktemp("run"))
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    return run


def _task(name):
    return json.loads((ANNOTATED / name / "task.json").read_text())


def _rel_to_px(xy, w, h):
    return (xy[0] * w / 1000, xy[1] * h / 1000)


def test_three_episodes_with_their_step_counts(fixture_run):
    episodes = {e.id: e for e in fixture_run.episodes()}
    assert {k: len(v.steps) for k, v in episodes.items()} == {"zoho_meet": 4, "amazon_mobiles": 5, "sofa_prices": 2}
    assert list(fixture_run.rejects()) == []
    assert episodes["zoho_meet"].goal == _task("zoho_meet")["goal"]


def test_pixel_coordinates_match_task_json(fixture_run):
    episodes = {e.id: e for e in fixture_run.episodes()}
    checked = 0
    for name in ("amazon_mobiles", "zoho_meet"):
        for step, text in zip(episodes[name].steps, _task(name)["actions"]):
            nums = [float(v) for v in text.replace("[", " ").replace("]", " ").replace(",", " ").split()[1:]
                    if v.replace(".", "").isdigit()]
            if step.action.point is None:
                continue
            w, h = step.screenshot.width, step.screenshot.height
            expected = [_rel_to_px(nums[0:2], w, h)] + ([_rel_to_px(nums[2:4], w, h)] if len(nums) == 4 else [])
            got = [step.action.point] + ([step.action.end] if step.action.end else [])
            for e, g in zip(expected, got):
                assert abs(e[0] - g[0]) <= 1 and abs(e[1] - g[1]) <= 1
                checked += 1
    sofa = episodes["sofa_prices"].steps[0].action
    assert sofa.type == "swipe" and sofa.direction == "up"
    assert checked == 5


def test_zoho_uses_clean_frames_byte_for_byte(fixture_run):
    zoho = next(e for e in fixture_run.episodes() if e.id == "zoho_meet")
    for step in zoho.steps:
        clean = (ANNOTATED / "zoho_meet" / "clean" / step.meta["frame"]).read_bytes()
        assert step.meta.get("clean") and not step.meta.get("restored")
        assert (fixture_run.path / step.screenshot.path).read_bytes() == clean
        assert step.screenshot.sha256 == hashlib.sha256(clean).hexdigest()


def test_amazon_frames_are_restored_without_marks(fixture_run):
    from sftdata.overlay.detect import detect_marks, mark_mask

    amazon = next(e for e in fixture_run.episodes() if e.id == "amazon_mobiles")
    for i, step in enumerate(amazon.steps):
        assert step.meta.get("restored") is True
        restored = np.asarray(Image.open(fixture_run.path / step.screenshot.path).convert("RGB"))
        marks = detect_marks(Image.fromarray(restored))
        assert marks.circle is None and marks.arrow is None and marks.label_band is None, f"frame {i}"
        marked = Image.open(ANNOTATED / "amazon_mobiles" / step.meta["frame"]).convert("RGB")
        mask = mark_mask(marked, detect_marks(marked))
        original = np.asarray(Image.open(AC_DIR / "screenshots" / "20" / f"screenshot_{i}.png").convert("RGB"))
        outside = ~mask
        assert outside.sum() > 0.9 * mask.size
        assert np.array_equal(restored[outside], original[outside]), f"frame {i} changed outside the mark mask"


def _copy(src, dst, **task_changes):
    shutil.copytree(src, dst)
    task = json.loads((dst / "task.json").read_text())
    task.update(task_changes)
    (dst / "task.json").write_text(json.dumps(task, ensure_ascii=False))
    return dst


def test_coordinates_disagreeing_with_marks_are_mark_mismatch(annotated_root, tmp_path):
    actions = _task("amazon_mobiles")["actions"]
    actions[1] = "CLICK [602,511]"  # the circle is at [102,211]
    folder = _copy(annotated_root / "amazon_mobiles", tmp_path / "off", actions=actions)
    with pytest.raises(RecordError) as err:
        load_trajectory(folder, tmp_path)
    assert err.value.reason == "mark_mismatch"
    assert "[650, 1226]" in err.value.detail and "[110, 506]" in err.value.detail


def test_omitted_coordinates_are_recovered_from_the_marks(annotated_root, tmp_path):
    folder = _copy(annotated_root / "amazon_mobiles", tmp_path / "bare",
                   actions=["BACK", "CLICK", "CLICK", "SWIPE", "DONE"])
    episode = load_trajectory(folder, tmp_path)
    diag = math.hypot(1080, 2400)
    assert math.dist(episode.steps[1].action.point, (110, 506)) < 0.01 * diag
    assert math.dist(episode.steps[2].action.point, (978, 410)) < 0.01 * diag
    swipe = episode.steps[3].action
    assert swipe.direction == "up" and math.dist(swipe.point, (540, 1699)) < 0.01 * diag


def test_require_clean_rejects_marked_frames_without_clean_copies(annotated_root, tmp_path):
    with pytest.raises(RecordError) as err:
        load_trajectory(annotated_root / "amazon_mobiles", annotated_root, opts=AnnotatedOptions(require_clean=True))
    assert err.value.reason == "no_clean_frames"


def _tiny_png(path, size=(40, 80), color=(255, 255, 255)):
    Image.new("RGB", size, color).save(path)


def _folder(root, name, actions, frames=None, **extra):
    folder = root / name
    folder.mkdir(parents=True)
    for i in range(len(actions) if frames is None else frames):
        _tiny_png(folder / f"{i:03d}.png")
    (folder / "task.json").write_text(json.dumps({"goal": "测试", "actions": actions, "marked": False, **extra}))
    return folder


def test_every_bad_folder_gets_its_own_reason_and_the_run_goes_on(tmp_path):
    root = tmp_path / "in"
    _folder(root, "a_good", ["CLICK [500,500]", "DONE"])
    _folder(root, "b_missing", ["BACK", "DONE"], screenshots=["000.png", "nope.png"])
    bad = _folder(root, "c_unreadable", ["BACK", "DONE"])
    (bad / "001.png").write_bytes(b"\x89PNG\r\n\x1a\n this is not really a png")
    _folder(root, "d_escape", ["BACK", "DONE"], screenshots=["000.png", "../a_good/001.png"])
    huge = _folder(root, "e_huge", ["BACK", "DONE"])
    Image.new("1", (8000, 7000)).save(huge / "001.png")  # 56 megapixels, a few KB on disk
    _folder(root, "f_count", ["BACK", "WAIT", "DONE"], frames=2)
    _folder(root, "g_done_middle", ["DONE", "BACK"])
    _folder(root, "h_no_done", ["BACK", "WAIT"])
    _folder(root, "i_no_coords", ["CLICK", "DONE"])
    _folder(root, "j_bad_action", ["JUMP", "DONE"])
    (root / "k_bad_json").mkdir()
    (root / "k_bad_json" / "task.json").write_text("{not json")
    run = RunDir(tmp_path / "run")
    result = ingest_annotated(root, run, IngestOptions(), progress=False)
    reasons = {r["episode_id"]: r["reason"] for r in iter_jsonl(run.rejects_path)}
    assert reasons == {
        "b_missing": "missing_screenshot", "c_unreadable": "unreadable_image", "d_escape": "path_escape",
        "e_huge": "image_too_large", "f_count": "action_count_mismatch", "g_done_middle": "done_not_last",
        "h_no_done": "missing_done", "i_no_coords": "missing_coordinates", "j_bad_action": "bad_action",
        "k_bad_json": "bad_task_json",
    }
    assert [e.id for e in run.episodes()] == ["a_good"]
    assert result.exported + result.rejected == 11
    assert next(run.episodes()).steps[0].action.point == (20, 40)


def test_strict_stops_at_the_first_bad_folder(tmp_path):
    from sftdata.errors import FatalError

    root = tmp_path / "in"
    _folder(root, "a_bad", ["JUMP", "DONE"])
    _folder(root, "b_good", ["BACK", "DONE"])
    run = RunDir(tmp_path / "run")
    with pytest.raises(FatalError, match="bad_action"):
        ingest_annotated(root, run, IngestOptions(strict=True), progress=False)
    assert list(run.episodes()) == []
