"""Screen-change scores on real frames: the distributions behind ``is_ineffective``'s threshold, and speed.

    python benchmarks/screen_change.py            # fixtures from ../shared/fixtures
    python benchmarks/screen_change.py --fixtures DIR --sheet contact.png
    python benchmarks/screen_change.py --ingest            # ingest time with and without the comparison
    python benchmarks/screen_change.py --ingest --every-frame   # ... and decoding every frame (the previous way)

Changed pairs: every consecutive pair of the AndroidControl fixture episodes (11 frames, 3 episodes) and of
the annotated fixtures as the loader stores them (clean/ frames, or the frames with the marks removed); each
was checked by eye (``--sheet`` writes them side by side). Unchanged pairs are derived from every real frame:
re-encoded as PNG, as JPEG q=85, resampled (antialiasing noise), with the status bar repainted (another
clock and battery level), and with a blinking text cursor drawn. A hard positive (a 60 px checkbox tick)
shows the smallest change the threshold still calls a change.
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from sftdata.loaders.screen_change import (INEFFECTIVE_BELOW, STATUS_BAR, is_ineffective,  # noqa: E402
                                           screen_change, screen_grid)


def fixture_frames(fixtures: Path) -> list[list[tuple[str, Image.Image]]]:
    """Episodes of (name, RGB frame) in step order: AndroidControl screenshots, then the annotated
    trajectories' stored (clean or restored) frames."""
    from sftdata.io import ImageStore
    from sftdata.loaders.annotated import find_trajectories, load_trajectory

    episodes = []
    for folder in sorted((fixtures / "androidcontrol" / "screenshots").iterdir(), key=lambda p: int(p.name)):
        shots = sorted(folder.glob("screenshot_*.png"), key=lambda p: int(p.stem.split("_")[1]))
        episodes.append([(f"ac/{folder.name}/{p.stem}", Image.open(p).convert("RGB")) for p in shots])
    root = fixtures / "annotated"
    with tempfile.TemporaryDirectory() as tmp:
        store = ImageStore(tmp)
        for folder in find_trajectories(root):
            episode = load_trajectory(folder, root, store)
            episodes.append([(f"annotated/{episode.id}/{s.meta['frame']}", Image.open(Path(tmp) / s.screenshot.path)
                              .convert("RGB")) for s in episode.steps])
    return episodes


def repaint_status_bar(frame: Image.Image) -> Image.Image:
    """The frame with its status bar drawn again: the band's own background, another clock and battery."""
    out = frame.copy()
    w, h = out.size
    band = int(h * STATUS_BAR)
    background = out.getpixel((w // 2, 8))
    ink = (0, 0, 0) if sum(background[:3]) > 384 else (255, 255, 255)
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, 0, w, band - 1), fill=background)
    size = max(8, band // 3)
    draw.text((w * 0.07, band * 0.4), "12:34", fill=ink, font_size=size)
    draw.rectangle((w * 0.9, band * 0.4, w * 0.93, band * 0.75), outline=ink, width=2)
    draw.rectangle((w * 0.905, band * 0.6, w * 0.925, band * 0.75), fill=ink)
    return out


def with_cursor(frame: Image.Image, where: tuple[float, float] = (0.35, 0.5)) -> Image.Image:
    """The frame with a text cursor (a 2 dp x 24 dp bar) drawn in a contrasting colour at ``where``."""
    out = frame.copy()
    w, h = out.size
    x, y = int(w * where[0]), int(h * where[1])
    dp = w / 411  # 1080 px wide = 411 dp at 420 dpi
    local = out.crop((x - 10, y - 10, x + 10, y + 10)).convert("L").getextrema()
    ink = (0, 0, 0) if sum(local) / 2 > 128 else (255, 255, 255)
    ImageDraw.Draw(out).rectangle((x, y, x + round(2 * dp) - 1, y + round(24 * dp) - 1), fill=ink)
    return out


def with_checkbox(frame: Image.Image) -> Image.Image:
    """A hard positive: a 24 dp checkbox ticked at the middle right of the screen."""
    out = frame.copy()
    w, h = out.size
    s = round(24 * w / 411)
    x, y = int(w * 0.8), int(h * 0.45)
    draw = ImageDraw.Draw(out)
    draw.rectangle((x, y, x + s, y + s), fill=(26, 115, 232))
    draw.line((x + s * 0.2, y + s * 0.5, x + s * 0.42, y + s * 0.75, x + s * 0.8, y + s * 0.25), fill="white",
              width=max(2, s // 8))
    return out


def reencode(frame: Image.Image, fmt: str, **kw) -> Image.Image:
    buf = io.BytesIO()
    frame.save(buf, format=fmt, **kw)
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def resample(frame: Image.Image) -> Image.Image:
    w, h = frame.size
    return frame.resize((w - 3, h - 7), Image.LANCZOS).resize((w, h), Image.LANCZOS)


DERIVED = {
    "unchanged: re-encoded PNG": lambda f: reencode(f, "PNG"),
    "unchanged: JPEG q=85": lambda f: reencode(f, "JPEG", quality=85),
    "unchanged: antialiasing (resample)": resample,
    "unchanged: status bar repainted": repaint_status_bar,
    "unchanged: blinking text cursor": with_cursor,
    "hard positive: checkbox ticked": with_checkbox,
}


def _pair(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """The pair's score and the largest move of one cell's mean gray level."""
    ga, gb = screen_grid(a), screen_grid(b)
    return screen_change(ga, gb), float(abs(ga - gb).max()) if ga.shape == gb.shape else 255.0


def measure(fixtures: Path, sheet: Path | None = None) -> dict[str, list[tuple[str, float, float]]]:
    """Per kind of pair: (name, score, largest cell move) of every pair."""
    episodes = fixture_frames(fixtures)
    scores: dict[str, list[tuple[str, float, float]]] = {"changed: consecutive real frames": []}
    for frames in episodes:
        for (name_a, a), (name_b, b) in zip(frames, frames[1:]):
            scores["changed: consecutive real frames"].append((f"{name_a} -> {name_b.rsplit('/', 1)[1]}",
                                                               *_pair(a, b)))
    for label, derive in DERIVED.items():
        scores[label] = [(name, *_pair(frame, derive(frame))) for frames in episodes for name, frame in frames]
    if sheet:
        pairs = [(a, b) for frames in episodes for (_, a), (_, b) in zip(frames, frames[1:])]
        thumb = [(a.resize((135, 300)), b.resize((135, 300))) for a, b in pairs]
        out = Image.new("RGB", (290 * 4, 310 * (-(-len(thumb) // 4))), "white")
        for i, (a, b) in enumerate(thumb):
            out.paste(a, (290 * (i % 4), 310 * (i // 4)))
            out.paste(b, (290 * (i % 4) + 140, 310 * (i // 4)))
        out.save(sheet)
    return scores


def _stored(png: bytes) -> bytes:
    """The same PNG with its IDAT inflated by zlib-ng and written back as stored (uncompressed) deflate blocks: a
    decoder after it only copies. The alternative measured for "zlib-ng where it decodes"."""
    import struct

    from zlib_ng import zlib_ng

    view, pos, head_end, parts = memoryview(png), 8, 0, []
    inflater = zlib_ng.decompressobj()
    while pos + 8 <= len(png):
        (n,) = struct.unpack_from(">I", png, pos)
        kind = png[pos + 4:pos + 8]
        if kind == b"IDAT":
            head_end = head_end or pos
            parts.append(inflater.decompress(view[pos + 8:pos + 8 + n]))
        elif kind == b"IEND":
            break
        pos += 12 + n
    raw = b"".join(parts)
    body = [b"\x78\x01"]
    for i in range(0, len(raw), 65535):
        block = raw[i:i + 65535]
        body += [struct.pack("<BHH", i + 65535 >= len(raw), len(block), len(block) ^ 0xFFFF), block]
    body.append(struct.pack(">I", zlib_ng.adler32(raw)))
    idat = b"".join(body)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib_ng.crc32(data, zlib_ng.crc32(kind)))
    return bytes(view[:head_end]) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def speed(fixtures: Path, rounds: int = 5) -> dict[str, list[float]]:
    """Milliseconds per 1080x2400 frame, in interleaved rounds: the grid from PNG bytes with each decoder tried
    (libspng is what ingest uses), from a decoded image, and one pair of decoded images compared."""
    import numpy as np
    import pyspng

    from machine import interleaved

    paths = sorted((fixtures / "androidcontrol" / "screenshots").glob("*/*.png"))
    data = [p.read_bytes() for p in paths]
    images = [Image.open(io.BytesIO(d)).convert("RGB") for d in data]

    def pillow(d: bytes):
        with Image.open(io.BytesIO(d)) as im:
            return screen_grid(im.convert("L"))
    fns = {
        "grid from PNG bytes, Pillow": lambda: [pillow(d) for d in data],
        "grid from PNG bytes, libspng (ingest)": lambda: [screen_grid(d) for d in data],
        "grid from PNG bytes, zlib-ng inflate + Pillow": lambda: [pillow(_stored(d)) for d in data],
        "grid from PNG bytes, zlib-ng inflate + libspng": lambda: [screen_grid(Image.fromarray(pyspng.load(_stored(d))))
                                                                   for d in data],
        "grid from a decoded RGB image": lambda: [screen_grid(im) for im in images],
        "screen_change on two decoded images": lambda: [screen_change(a, b) for a, b in zip(images, images[1:])],
    }
    assert all(np.array_equal(pillow(d), screen_grid(d)) and np.array_equal(pillow(d), pillow(_stored(d)))
               for d in data)  # every decoder gives the same grid
    times = interleaved(fns, rounds)
    return {name: [t * 1000 / (len(images) - 1 if "two" in name else len(data)) for t in values]
            for name, values in times.items()}


def _decode_every_frame(steps, shots):
    """The previous default, for comparison: every distinct frame decoded, every pair compared by pixels."""
    from sftdata.loaders.screen_change import grid_or_none, mark_steps

    grids: dict = {}
    for shot in shots:
        if shot.sha256 not in grids:
            grids[shot.sha256] = grid_or_none(shot.read())
    mark_steps(steps, [grids[shot.sha256] for shot in shots])
    return {}


def ingest_inputs(fixtures: Path, copies: int = 20, synthetic: int = 24) -> dict[str, list[bytes]]:
    """The real fixture records repeated ``copies`` times (re-numbered), and ``synthetic`` generated 1080x2400
    episodes."""
    from sftdata.loaders.protos import make_example, parse_example
    from sftdata.loaders.tfrecord import read_tfrecords
    from sftdata.synthetic.sample import generate_records

    real = [f.data for f in read_tfrecords(fixtures / "androidcontrol" / "android_control-00000-of-00001")]
    return {
        f"real fixture x{copies} ({3 * copies} episodes)": [
            make_example(dict(parse_example(r), episode_id=[k * 1000 + i]))
            for k in range(copies) for i, r in enumerate(real)],
        f"synthetic ({synthetic} episodes)": list(generate_records(n_episodes=synthetic, seed=7, size=(1080, 2400))),
    }


def decisions(records: list[bytes]) -> dict[str, int]:
    """How many pairs each signal decides, and how many frames are decoded, over ``records``."""
    from sftdata.loaders import androidcontrol
    from sftdata.loaders.screen_signals import Shot, mark_steps_from_signals, png_intact

    total: dict[str, int] = {}
    for record in records:
        features = androidcontrol.decode_features(record)
        episode = androidcontrol.episode_from_features(features, screen_change=False)
        shots = [Shot(s.screenshot.sha256, s.screenshot.width, s.screenshot.height, png_intact(p), lambda p=p: p)
                 for s, p in zip(episode.steps, features["screenshots"])]
        for key, n in mark_steps_from_signals(episode.steps, shots).items():
            total[key] = total.get(key, 0) + n
    return total


def ingest_cost(fixtures: Path, workers: int, rounds: int, every_frame: bool) -> None:
    """Seconds to ingest each input into a fresh run without the comparison, with it (the default: cheap signals
    first) and, with ``every_frame``, decoding every frame (the previous default), in interleaved rounds."""
    from machine import CPU, interleaved, ratios, spread
    from sftdata.ingest import IngestOptions, ingest_androidcontrol
    from sftdata.loaders import androidcontrol
    from sftdata.loaders.tfrecord import write_tfrecords
    from sftdata.rundir import RunDir

    cheap = androidcontrol.mark_steps_from_signals
    runs = iter(range(10 ** 6))  # every ingest into a run of its own
    with tempfile.TemporaryDirectory() as tmp:
        for name, records in ingest_inputs(fixtures).items():
            path = Path(tmp) / f"{len(records)}.tfrecord.gz"
            write_tfrecords(path, records)

            def ingest(flag: bool, mark=cheap):
                def run():
                    androidcontrol.mark_steps_from_signals = mark  # the workers fork after this
                    try:
                        ingest_androidcontrol([path], RunDir(Path(tmp) / f"run{next(runs)}"),
                                              IngestOptions(workers=workers, screen_change=flag), progress=False)
                    finally:
                        androidcontrol.mark_steps_from_signals = cheap
                return run
            contenders = {"--no-screen-change": ingest(False), "default (cheap signals first)": ingest(True)}
            if every_frame:
                contenders["every frame decoded"] = ingest(True, _decode_every_frame)
            times = interleaved(contenders, rounds)
            counts = decisions(records)
            print(f"\n{name}, {workers} process(es); pairs decided by: same bytes {counts['same_bytes']}, visible "
                  f"elements {counts['elements']}, pixels {counts['pixels']}; frames decoded {counts['frames_decoded']}")
            print(f"{'':<34}{'seconds min / median / max':>28}{'x --no-screen-change':>28}{'CPU s (median)':>16}")
            base = times["--no-screen-change"]
            for label, values in times.items():
                print(f"{label:<34}{spread(values):>28}{spread(ratios(values, base)):>28}"
                      f"{sorted(CPU[label])[len(values) // 2]:>16.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fixtures", type=Path, default=ROOT.parent / "shared" / "fixtures")
    ap.add_argument("--sheet", type=Path, help="write the changed pairs side by side to this PNG")
    ap.add_argument("--verbose", action="store_true", help="print every pair's score")
    ap.add_argument("--ingest", action="store_true", help="time AndroidControl ingest without / with the comparison")
    ap.add_argument("--rounds", type=int, default=3, help="--ingest: interleaved rounds")
    ap.add_argument("--every-frame", action="store_true", help="--ingest: also time decoding every frame (slow)")
    args = ap.parse_args()
    if args.ingest:
        from machine import footer, header
        from sftdata.config import default_workers

        header(f"AndroidControl ingest, {args.rounds} interleaved rounds; target: default <= 1.3x --no-screen-change")
        for workers in sorted({1, default_workers()}):
            ingest_cost(args.fixtures, workers, args.rounds, args.every_frame)
        footer()
        return
    scores = measure(args.fixtures, args.sheet)
    print(f"{'pairs':<38}{'count':>6}  {'min':>7} {'median':>7} {'max':>7}  ineffective  max cell move")
    for label, rows in scores.items():
        values = sorted(s for _, s, _ in rows)
        flagged = sum(is_ineffective(v) for v in values)
        print(f"{label:<38}{len(values):>6}  {values[0]:>7.4f} {values[len(values) // 2]:>7.4f} "
              f"{values[-1]:>7.4f}  {f'{flagged}/{len(values)}':>11}  {max(m for *_, m in rows):>13.0f}")
        if args.verbose:
            for name, s, m in rows:
                print(f"    {s:.4f}  {m:5.0f}  {name}")
    unchanged = max(s for label, rows in scores.items() if label.startswith("unchanged") for _, s, _ in rows)
    changed = min(s for _, s, _ in scores["changed: consecutive real frames"])
    print(f"\nthreshold INEFFECTIVE_BELOW = {INEFFECTIVE_BELOW}: largest unchanged {unchanged:.4f} "
          f"({INEFFECTIVE_BELOW / max(unchanged, 1e-9):.1f}x below it), smallest real change {changed:.4f} "
          f"({changed / INEFFECTIVE_BELOW:.0f}x above it)")
    from machine import footer, header, spread

    print()
    header("per-frame speed, 5 interleaved rounds")
    for what, ms in speed(args.fixtures).items():
        print(f"{what:<50}{spread(ms, digits=1):>22} ms")
    footer()


if __name__ == "__main__":
    main()
