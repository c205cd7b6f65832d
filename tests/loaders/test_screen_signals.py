"""The cheap screen-change decision (same bytes / differing visible elements / pixels) against decoding every frame
with Pillow, on every pair of the real fixtures, two generated sets and a hostile set where the trees lie.

Each set is ingested for real (two worker processes, screenshots staged in the store: the workers get keys), and
every step's mark is compared with the one :func:`mark_steps` gives from Pillow grids of every frame.
"""
from __future__ import annotations

import io
import random
import struct
import zlib
from types import SimpleNamespace

import pytest
from PIL import Image, ImageDraw

from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.loaders import androidcontrol
from sftdata.loaders.protos import AccessibilityForest, make_example, parse_example
from sftdata.loaders.screen_change import mark_steps, png_intact, screen_grid
from sftdata.loaders.screen_signals import Shot, mark_steps_from_signals
from sftdata.loaders.tfrecord import read_tfrecords, write_tfrecords
from sftdata.rundir import RunDir
from sftdata.synthetic.sample import generate_records
from support import AC_RECORD, needs_shared

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


def pillow_grid(png: bytes):
    """The reference: Pillow decodes every frame (no hash, no tree, no libspng)."""
    try:
        with Image.open(io.BytesIO(png)) as im:
            return screen_grid(im.convert("L"))
    except Exception:
        return None


def reference_marks(features: dict) -> list:
    steps = [SimpleNamespace(meta={}) for _ in features["screenshots"]]
    mark_steps(steps, [pillow_grid(png) for png in features["screenshots"]])
    return [s.meta.get("ineffective") for s in steps]


def ingested_marks(records: list[bytes], tmp_path, name: str) -> dict[str, list]:
    path = tmp_path / f"{name}.tfrecord.gz"
    write_tfrecords(path, records)
    run = RunDir(tmp_path / name)
    result = ingest_androidcontrol([path], run, IngestOptions(workers=2), progress=False)
    assert result.new_rejected == 0
    return {e.id: [s.meta.get("ineffective") for s in e.steps] for e in run.episodes()}


def assert_same_decisions(records: list[bytes], tmp_path, name: str) -> None:
    marks = ingested_marks(records, tmp_path, name)
    expected = {}
    for record in records:
        features = parse_example(record)
        expected[str(features["episode_id"][0])] = reference_marks(features)
    assert marks == expected


def png(image: Image.Image, **kw) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", **kw)
    return out.getvalue()


# --- the hostile set ------------------------------------------------------------------------------------------
def shuffled(tree: bytes, seed: int = 0) -> bytes:
    """The same forest, windows and nodes in another order."""
    forest, rng = AccessibilityForest.FromString(tree), random.Random(seed)
    out = AccessibilityForest()
    for window in reversed(forest.windows):
        nodes = list(window.tree.nodes)
        rng.shuffle(nodes)
        new = out.windows.add(id=window.id)
        new.tree.nodes.extend(nodes)
    return out.SerializeToString()


def with_node(tree: bytes, box: tuple[int, int, int, int], text: str, visible: bool = True) -> bytes:
    forest = AccessibilityForest.FromString(tree)
    node = forest.windows[-1].tree.nodes.add(text=text, is_visible_to_user=visible, class_name="android.widget.TextView")
    node.bounds_in_screen.left, node.bounds_in_screen.top, node.bounds_in_screen.right, node.bounds_in_screen.bottom = box
    return forest.SerializeToString()


def status_text_changed(tree: bytes) -> bytes:
    """The forest with the first status bar node's text replaced (another clock)."""
    forest = AccessibilityForest.FromString(tree)
    node = next(n for w in forest.windows for n in w.tree.nodes if n.bounds_in_screen.bottom <= 140)
    node.text = "12:59"
    return forest.SerializeToString()


def checked(tree: bytes) -> bytes:
    forest = AccessibilityForest.FromString(tree)
    for w in forest.windows:
        for n in w.tree.nodes:
            n.is_checked = not n.is_checked
    return forest.SerializeToString()


def repaint_clock(image: Image.Image) -> Image.Image:
    out = image.copy()
    ImageDraw.Draw(out).rectangle((60, 40, 200, 100), fill=out.getpixel((130, 20)))
    return out


def draw(image: Image.Image, box: tuple[int, int, int, int], colour=(20, 20, 20)) -> Image.Image:
    out = image.copy()
    ImageDraw.Draw(out).rectangle(box, fill=colour)
    return out


def cut_idat(data: bytes) -> bytes:
    """A PNG whose IDAT is cut short, every CRC recomputed (intact chunks, a broken zlib stream)."""
    pos, out = 8, [data[:8]]
    while pos < len(data):
        (n,) = struct.unpack_from(">I", data, pos)
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IDAT":
            body = body[:len(body) // 2]
        out.append(struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body)))
        pos += 12 + n
    return b"".join(out)


def real_frames() -> tuple[list[bytes], list[bytes]]:
    real = [parse_example(f.data) for f in read_tfrecords(AC_RECORD)]
    return real[1]["screenshots"], real[1]["accessibility_trees"]


def record(n: int, name: str, frames: list[bytes], forests: list[bytes]) -> bytes:
    sizes = [androidcontrol.png_size(f) for f in frames]
    return make_example({
        "episode_id": [9000 + n], "goal": [name.encode()], "screenshots": frames, "accessibility_trees": forests,
        "screenshot_widths": [w for w, _ in sizes], "screenshot_heights": [h for _, h in sizes],
        "actions": [b'{"action_type": "wait"}'] * (len(frames) - 1)})


def hostile_records() -> list[bytes]:
    """Two- and three-frame episodes (``wait`` actions) from the real frames and trees, each a way a tree can lie."""
    shots, trees = real_frames()
    f0, f1 = Image.open(io.BytesIO(shots[0])), Image.open(io.BytesIO(shots[1]))
    t0, t1 = trees[0], trees[1]
    reencoded = png(f0, compress_level=1)
    assert reencoded != shots[0]
    rotated = png(f0.rotate(90, expand=True))
    cases = {
        "changed screen, identical tree": ([shots[0], shots[1]], [t0, t0]),
        "a ticked box, identical tree": ([shots[0], png(draw(f0, (900, 1200, 960, 1260), (26, 115, 232)))], [t0, t0]),
        "a ticked box, only the checked flags differ": ([shots[0], png(draw(f0, (900, 1200, 960, 1260)))], [t0, checked(t0)]),
        "identical screen, re-ordered tree": ([shots[0], reencoded], [t0, shuffled(t0)]),
        "changed screen, re-ordered tree": ([shots[0], shots[1]], [t0, shuffled(t0, 1)]),
        "identical screen, another clock in the tree": ([shots[0], png(repaint_clock(f0))], [t0, status_text_changed(t0)]),
        "identical bytes, another tree": ([shots[1], shots[1]], [t0, t1]),
        "identical screen, invisible nodes added": ([shots[0], reencoded], [t0, with_node(t0, (0, 200, 1080, 2400), "ad", False)]),
        "identical screen, one frame without a tree": ([shots[0], reencoded], [t0, AccessibilityForest().SerializeToString()]),
        "a counter 1 -> 2, truthfully reported": ([png(draw(f0, (500, 1500, 530, 1530))), png(draw(f0, (500, 1500, 515, 1530)))],
                                                 [with_node(t0, (495, 1495, 535, 1535), "1"), with_node(t0, (495, 1495, 535, 1535), "2")]),
        "a truncated frame, trees differ": ([shots[0], shots[1][:len(shots[1]) // 2]], [t0, t1]),
        "the same truncated bytes twice": ([shots[1][:-100], shots[1][:-100]], [t0, t0]),
        "turned to landscape, identical tree": ([shots[0], rotated], [t0, t0]),
        "three frames: back and forth": ([shots[0], shots[1], shots[0]], [t0, t1, t0]),
    }
    return [record(n, name, frames, forests) for n, (name, (frames, forests)) in enumerate(cases.items())]


# --- the tests ------------------------------------------------------------------------------------------------
@needs_shared
def test_the_real_fixtures_decide_as_decoding_does(tmp_path):
    assert_same_decisions([f.data for f in read_tfrecords(AC_RECORD)], tmp_path, "real")


@pytest.mark.parametrize("seed", [0, 7])
def test_generated_sets_decide_as_decoding_does(tmp_path, seed):
    assert_same_decisions(list(generate_records(12, seed, (540, 1200))), tmp_path, f"generated-{seed}")


@needs_shared
def test_the_hostile_set_decides_as_decoding_does(tmp_path):
    records = hostile_records()
    assert_same_decisions(records, tmp_path, "hostile")
    marks = ingested_marks(records, tmp_path, "again")
    assert marks["9000"] == [False, None] and marks["9003"] == [True, None]  # the pixels decided both
    assert marks["9010"] == [None, None] and marks["9011"] == [None, None]  # broken: unmarked, as decoding leaves them


@needs_shared
def test_cheap_signals_decode_only_what_they_cannot_decide():
    """On the real fixtures no frame is decoded; a re-ordered tree over a re-encoded frame decodes the pair."""
    decoded = 0
    for frame in read_tfrecords(AC_RECORD):
        features = androidcontrol.decode_features(frame.data)
        episode = androidcontrol.episode_from_features(features, screen_change=False)
        shots = [Shot(s.screenshot.sha256, s.screenshot.width, s.screenshot.height, png_intact(p), lambda: pytest.fail())
                 for s, p in zip(episode.steps, features["screenshots"])]
        counts = mark_steps_from_signals(episode.steps, shots)
        decoded += counts["frames_decoded"]
        assert counts["elements"] == len(episode.steps) - 1
    assert decoded == 0


@needs_shared
def test_a_broken_stream_inside_whole_chunks_is_decided_by_its_tree(tmp_path):
    """The one pair where the decisions part: a PNG written with correct chunk CRCs around a cut zlib stream (an
    encoder bug, not damage: damage breaks a CRC or the chunk layout, and such frames are decoded). Telling it
    needs the stream inflated (12 ms a frame with zlib-ng, a decode's half). Its tree decides: not ineffective;
    decoding leaves the pair unmarked, which every consumer reads the same way (only ``is True`` counts)."""
    shots, trees = real_frames()
    broken = cut_idat(shots[1])
    assert png_intact(broken) and pillow_grid(broken) is None
    only = record(0, "a cut IDAT with its CRCs recomputed", [shots[0], broken], [trees[0], trees[1]])
    assert reference_marks(parse_example(only)) == [None, None]
    assert ingested_marks([only], tmp_path, "cut") == {"9000": [False, None]}
