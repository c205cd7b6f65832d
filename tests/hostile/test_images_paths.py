"""Hostile images, paths and resources (issue 11): rotated photos, unusable sizes, formats that lie about their
name, OS litter, the app's own red, undecodable folder names, a full disk, and garbage inside a TFRecord.

Each input ends exported or in the rejects ledger with a machine-readable reason; never a traceback."""
from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from sftdata.errors import FatalError, RecordError
from sftdata.export.lengths import LengthModel
from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.io import Ledger, iter_jsonl, write_json_atomic
from sftdata.loaders.annotated import load_trajectory
from sftdata.loaders.tfrecord import frame_record, read_tfrecords
from sftdata.model import Action
from sftdata.overlay.draw import annotator_image
from sftdata.rundir import RunDir
from support import AC_RECORD, missing_shared

from accounting import assert_accounted

W, H = 360, 800


def _screen(size=(W, H), color=(236, 240, 244)) -> Image.Image:
    img = Image.new("RGB", size, color)
    ImageDraw.Draw(img).rectangle((20, 300, size[0] - 20, 360), fill=(40, 90, 200))  # some app content
    return img


def _png(img: Image.Image, **kw) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", **kw)
    return out.getvalue()


def _folder(root: Path, name: str | bytes, frames: list[bytes], actions: list, names=None, **task) -> Path:
    folder = Path(os.fsdecode(os.path.join(os.fsencode(root), name if isinstance(name, bytes) else name.encode())))
    folder.mkdir(parents=True)
    for i, data in enumerate(frames):
        (folder / (names[i] if names else f"{i:03d}.png")).write_bytes(data)
    (folder / "task.json").write_text(json.dumps({"goal": "测试", "actions": actions, **task}, ensure_ascii=False),
                                      encoding="utf-8")
    return folder


def _ingest(root: Path, run_dir: Path):
    run = RunDir(run_dir)
    result = ingest_annotated(root, run, IngestOptions(), progress=False)
    rejects = {r["episode_id"]: r for r in iter_jsonl(run.rejects_path)}
    return run, result, rejects


def _reason(root: Path, folder: Path) -> str:
    with pytest.raises(RecordError) as err:
        load_trajectory(folder, root)
    return err.value.reason


# ---------------------------------------------------------------- EXIF orientation

def _rotated_jpeg(orientation: int) -> bytes:
    """A portrait screen stored landscape (as a phone camera does), with the EXIF tag that turns it upright."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    _screen().rotate(90, expand=True).save(out, format="JPEG", exif=exif.tobytes())
    return out.getvalue()


def test_exif_rotated_frame_is_rejected_not_ingested_sideways(tmp_path):
    folder = _folder(tmp_path, "rot", [_rotated_jpeg(6), _png(_screen())], ["CLICK [500,100]", "DONE"],
                     names=["000.jpg", "001.png"], marked=False)
    assert _reason(tmp_path, folder) == "exif_rotated"


def test_exif_orientation_1_is_upright_and_kept_byte_for_byte(tmp_path):
    data = _rotated_jpeg(1)
    _folder(tmp_path, "up", [data, _png(_screen())], ["CLICK [500,100]", "DONE"],
              names=["000.jpg", "001.png"], marked=False)
    run, _, rejects = _ingest(tmp_path, tmp_path / "run")
    assert rejects == {}
    step = next(run.episodes()).steps[0]
    assert (run.path / step.screenshot.path).read_bytes() == data and step.screenshot.path.endswith(".jpg")
    assert (step.screenshot.width, step.screenshot.height) == (H, W)


# ---------------------------------------------------------------- sizes

@pytest.mark.parametrize("size", [(3000, 10), (10, 3000), (12, 12), (4000, 19)])
def test_sizes_no_model_family_takes_are_rejected_at_ingest(tmp_path, size):
    folder = _folder(tmp_path, "odd", [_png(Image.new("RGB", size, "white")), _png(_screen())], ["BACK", "DONE"],
                     marked=False)
    assert _reason(tmp_path, folder) == "unusable_image_size"


def test_image_tokens_turn_a_refused_size_into_a_dropped_sample(tmp_path):
    path = tmp_path / "wide.png"
    path.write_bytes(_png(Image.new("RGB", (3000, 10), "white")))
    for family in ("qwen2.5-vl", "qwen3-vl", "glm-4.1v"):
        with pytest.raises(RecordError) as err:
            LengthModel(family).image_tokens(path, family)
        assert err.value.reason == "unusable_image_size"


def test_export_drops_a_sample_with_an_unusable_image_and_finishes(tmp_path):
    """An episode that slipped in before the ingest check (an older run): export and run go on."""
    from sftdata.export.stage import ExportOptions, export_run
    from sftdata.annotate.stage import AnnotateOptions, annotate_run

    root = tmp_path / "in"
    _folder(root, "a", [_png(_screen()), _png(_screen())], ["CLICK [500,500]", "DONE"], marked=False)
    _folder(root, "b", [_png(_screen()), _png(_screen())], ["BACK", "DONE"], marked=False)
    run, _, _ = _ingest(root, tmp_path / "run")
    # replace b's first screenshot by a 3000x10 strip, as an ingest without the size check would have stored it
    lines = run.episodes_path.read_text(encoding="utf-8").splitlines()
    episode = json.loads(lines[1])
    sha, rel = run.images.put(_png(Image.new("RGB", (3000, 10), "white")), "png")
    episode["steps"][0]["screenshot"].update({"sha256": sha, "path": rel, "width": 3000, "height": 10})
    lines[1] = json.dumps(episode, ensure_ascii=False, separators=(",", ":"))
    run.episodes_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    annotate_run(run, AnnotateOptions(progress=False))
    for fmt in ("qwen2.5-vl", "react-zh"):
        result = export_run(run, tmp_path / f"sft-{fmt}", ExportOptions(format=fmt, split_ratio=0, progress=False))
        assert result.dropped["unusable_image_size"] >= 1, (fmt, result.dropped)
        assert result.samples["train"] >= 2


# ---------------------------------------------------------------- formats

def _gif() -> bytes:
    out = io.BytesIO()
    _screen().save(out, format="GIF")
    return out.getvalue()


def _bmp() -> bytes:
    out = io.BytesIO()
    _screen().save(out, format="BMP")
    return out.getvalue()


@pytest.mark.parametrize("make,name", [(_gif, "000.png"), (_bmp, "000.jpg"), (_gif, "000.webp")])
def test_other_formats_behind_an_image_name_are_rejected_at_ingest(tmp_path, make, name):
    folder = _folder(tmp_path, "fmt", [make(), _png(_screen())], ["BACK", "DONE"], names=[name, "001.png"],
                     marked=False)
    assert _reason(tmp_path, folder) == "unsupported_image_format"


def test_a_jpeg_named_png_is_kept_byte_for_byte_under_its_real_extension(tmp_path):
    out = io.BytesIO()
    _screen().save(out, format="JPEG")
    folder = _folder(tmp_path, "jpg", [out.getvalue(), _png(_screen())], ["BACK", "DONE"], marked=False)
    episode = load_trajectory(folder, tmp_path)
    assert episode.steps[0].screenshot.path.endswith(".jpg") and episode.steps[1].screenshot.path.endswith(".png")


# ---------------------------------------------------------------- OS litter

def test_resource_forks_and_os_files_are_not_frames(tmp_path):
    folder = _folder(tmp_path, "mac", [_png(_screen()), _png(_screen())], ["BACK", "DONE"], marked=False)
    (folder / "._000.png").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")  # AppleDouble
    (folder / "._001.png").write_bytes(_png(_screen()))  # even a decodable one
    (folder / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (folder / "Thumbs.db").write_bytes(b"\xd0\xcf\x11\xe0")
    (folder / ".hidden.png").write_bytes(_png(_screen()))
    episode = load_trajectory(folder, tmp_path)
    assert [s.meta["frame"] for s in episode.steps] == ["000.png", "001.png"]


def test_hidden_and_macosx_folders_are_not_trajectories(tmp_path):
    _folder(tmp_path, "good", [_png(_screen()), _png(_screen())], ["BACK", "DONE"], marked=False)
    _folder(tmp_path, "__MACOSX/good", [b"junk", b"junk"], ["BACK", "DONE"], marked=False)
    _folder(tmp_path, ".Trash/old", [b"junk", b"junk"], ["BACK", "DONE"], marked=False)
    run, result, rejects = _ingest(tmp_path, tmp_path / "run")
    assert [e.id for e in run.episodes()] == ["good"] and rejects == {}


# ---------------------------------------------------------------- the app's own red

def _red_title(img: Image.Image) -> Image.Image:
    """Saturated red UI text in the status-bar area: exactly where the annotator's label would be."""
    from sftdata.overlay.fonts import load_font

    draw = ImageDraw.Draw(img)
    draw.text((12, 6), "限时秒杀 SALE 50%", fill=(255, 0, 0), font=load_font(20))
    return img


def _red_ring_icon(img: Image.Image, center=(300, 700), r=14) -> Image.Image:
    ImageDraw.Draw(img).ellipse((center[0] - r, center[1] - r, center[0] + r, center[1] + r),
                                outline=(255, 0, 0), width=3)
    return img


def test_red_app_text_is_not_inpainted_when_task_json_does_not_say_marked(tmp_path):
    frames = [_png(_red_title(_screen())), _png(_red_title(_screen()))]
    folder = _folder(tmp_path, "red", frames, ["CLICK [500,500]", "DONE"])
    run, _, rejects = _ingest(tmp_path, tmp_path / "run")
    assert rejects == {}
    steps = next(run.episodes()).steps
    assert [(run.path / s.screenshot.path).read_bytes() for s in steps] == frames
    assert not any(s.meta.get("restored") for s in steps)
    assert folder.exists()


def test_a_red_ring_icon_off_the_point_is_no_mark_mismatch(tmp_path):
    frames = [_png(_red_ring_icon(_screen())), _png(_screen())]
    folder = _folder(tmp_path, "ring", frames, ["CLICK [200,200]", "DONE"])  # (72, 160), far from the icon
    episode = load_trajectory(folder, tmp_path)
    assert episode.steps[0].action.point == (72, 160) and not episode.steps[0].meta.get("restored")
    assert episode.steps[0].meta.get("marks_ignored")


def test_marked_frames_with_an_app_ring_use_the_ring_at_the_point_and_keep_the_icon(tmp_path):
    from sftdata.overlay.detect import detect_marks

    point = (180, 200)
    base = _red_ring_icon(_screen(), center=(300, 700), r=20)
    marked = annotator_image(base, Action("click", point=point))
    done = annotator_image(_screen(), Action("done"))
    folder = _folder(tmp_path, "both", [_png(marked), _png(done)], ["CLICK [500,250]", "DONE"], marked=True)
    run, _, rejects = _ingest(tmp_path, tmp_path / "run")
    assert rejects == {}
    step = next(run.episodes()).steps[0]
    assert step.meta.get("restored") and step.action.point == point
    restored = Image.open(run.path / step.screenshot.path).convert("RGB")
    found = detect_marks(restored)
    assert found.circle is not None and abs(found.circle.point[0] - 300) <= 2  # the app's icon is still there
    assert found.label_band is None
    assert folder.exists()


def test_real_marks_are_confirmed_and_removed_without_the_marked_flag(tmp_path):
    from sftdata.overlay.detect import detect_marks

    size = (540, 1200)  # at 360 px wide the label's glyphs are too small to be told from specks
    click = annotator_image(_screen(size), Action("click", point=(270, 600)))
    done = annotator_image(_screen(size), Action("done"))
    _folder(tmp_path, "plain", [_png(click), _png(done)], ["CLICK [500,500]", "DONE"])
    run, _, rejects = _ingest(tmp_path, tmp_path / "run")
    assert rejects == {}
    for step in next(run.episodes()).steps:
        assert step.meta.get("restored"), step.meta
        m = detect_marks(Image.open(run.path / step.screenshot.path).convert("RGB"))
        assert m.circle is None and m.label_band is None


# ---------------------------------------------------------------- text and paths

def test_undecodable_folder_name_is_rejected_and_the_rest_still_ingested_on_every_rerun(tmp_path):
    root = tmp_path / "in"
    try:
        _folder(root, b"traj_\xff", [_png(_screen()), _png(_screen())], ["BACK", "DONE"], marked=False)
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses non-UTF-8 names")
    _folder(root, "traj_z", [_png(_screen()), _png(_screen())], ["BACK", "DONE"], marked=False)
    run, result, rejects = _ingest(root, tmp_path / "run")
    assert [e.id for e in run.episodes()] == ["traj_z"]
    assert rejects == {"traj_\\udcff": rejects["traj_\\udcff"]} and rejects["traj_\\udcff"]["reason"] == "bad_path_encoding"
    run.rejects_path.read_bytes().decode("utf-8")  # the ledger is plain UTF-8
    again = ingest_annotated(root, run, IngestOptions(), progress=False)
    assert again.skipped and again.exported == 1 and again.rejected == 1
    (root / "traj_z" / "task.json").touch()  # inputs changed: a real rerun, which must recognise both as done
    os.utime(root / "traj_z" / "task.json", (1, 1))
    rerun = ingest_annotated(root, run, IngestOptions(), progress=False)
    assert not rerun.skipped and rerun.new_exported == 0 and rerun.new_rejected == 0
    assert (rerun.exported, rerun.rejected) == (1, 1)
    assert_accounted(run.path, inputs=2)


def test_ledgers_and_json_writers_take_any_str(tmp_path):
    bad = "traj_" + chr(0xDCFF) + "_" + chr(0xD800)
    with Ledger(tmp_path / "l.jsonl") as ledger:
        ledger.append({"id": bad, "detail": "a \\ backslash"})
        ledger.append(json.dumps({"id": bad}, ensure_ascii=False))
    records = list(iter_jsonl(tmp_path / "l.jsonl"))
    assert [r["id"] for r in records] == ["traj_\\udcff_\\ud800"] * 2 and records[0]["detail"] == "a \\ backslash"
    write_json_atomic(tmp_path / "m.json", {"path": bad})
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8")) == {"path": "traj_\\udcff_\\ud800"}


# ---------------------------------------------------------------- a full disk

@pytest.fixture
def small_disk(tmp_path):
    """A real 2 MB tmpfs (root only); unmounted afterwards."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"mount not permitted: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_is_one_fatal_message_and_the_rerun_resumes(small_disk, tmp_path):
    if not AC_RECORD.exists():
        pytest.skip(missing_shared())
    run = RunDir(small_disk / "run")
    with pytest.raises(FatalError, match=r"disk full while writing .*: free space and rerun \(finished work is kept\)"):
        ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    subprocess.run(["mount", "-o", "remount,size=64m", str(small_disk)], check=True)
    result = ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    assert (result.exported, result.rejected) == (3, 0)
    assert sorted(e.id for e in run.episodes()) == ["0", "20", "40"]


def test_a_full_disk_while_writing_a_ledger_is_fatal_not_a_traceback(small_disk):
    with pytest.raises(FatalError, match="disk full while writing"):
        with Ledger(small_disk / "rejects.jsonl") as ledger:
            for _ in range(3000):
                ledger.append({"id": "x", "detail": "y" * 1000})
    assert list(iter_jsonl(small_disk / "rejects.jsonl"))  # the complete lines are readable


# ---------------------------------------------------------------- TFRecord garbage

@pytest.mark.parametrize("garbage", [bytes(1 << 20), os.urandom(1 << 20),
                                     b"".join(i.to_bytes(8, "little") for i in range(1 << 17)),  # int64 array
                                     (b"\x00" * 11 + b"\x01") * 20000, bytes(13) + os.urandom(64) + bytes(5000)])
def test_records_after_garbage_are_still_found(tmp_path, garbage):
    records = [b"first", b"second record", bytes(7), b"last"]
    path = tmp_path / "g.tfrecord"
    path.write_bytes(frame_record(records[0]) + b"\x07" * 12 + garbage + frame_record(records[1])
                     + frame_record(records[2]) + b"\xff" * 12 + garbage + frame_record(records[3]))
    frames = list(read_tfrecords(path))
    assert [f.data for f in frames if f.data is not None] == records
    assert [f.error.reason for f in frames if f.error is not None] == ["length_crc_mismatch"] * 2


def test_many_short_zero_runs_between_records_are_each_skipped_to_the_next_record(tmp_path):
    """A run of 1-64 KB of zero bytes after each record (a zeroed block, padding): each fails as a header and
    the reader resynchronises on the record after it, every record read (benchmarks/resync.py times this)."""
    import random

    rng = random.Random(0)
    records = [rng.randbytes(rng.randint(10, 5000)) for _ in range(60)]
    gaps = [rng.choice([1 << 10, rng.randint(1 << 10, 64 << 10), 64 << 10]) for _ in records]
    path = tmp_path / "z.tfrecord"
    path.write_bytes(b"".join(frame_record(r) + bytes(g) for r, g in zip(records, gaps)) + frame_record(b"end"))
    frames = list(read_tfrecords(path))
    assert [f.data for f in frames if f.data is not None] == records + [b"end"]
    errors = [f.error for f in frames if f.error is not None]
    assert len(errors) == len(gaps) and {e.reason for e in errors} == {"length_crc_mismatch"}
    assert [int(e.detail.rsplit("skipping ", 1)[1].split()[0]) + 12 for e in errors] == gaps
