"""Time detect_marks on full-resolution (1080x2400) frames, single-threaded, against the 50 ms target.

    python benchmarks/overlay.py [--repeat 10]

Frames: the annotated fixture frames and marks drawn over the AndroidControl screenshots when
../shared/fixtures exists, else marks drawn over generated 1080x2400 UI-like frames. Images are
decoded before timing; the timed call includes the Pillow -> numpy conversion.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sftdata.model import Action  # noqa: E402
from sftdata.overlay import annotator_image, detect_marks, remove_marks  # noqa: E402

FIXTURES = ROOT / ".." / "shared" / "fixtures"
TARGET_MS = 50.0


def _actions(rng: random.Random, w: int, h: int) -> list[Action]:
    x, y = rng.randint(100, w - 100), rng.randint(300, h - 300)
    return [Action("click", point=(x, y)), Action("swipe", point=(x, min(h - 50, y + 500)), end=(x, max(150, y - 300))),
            Action("wait"), Action("input", text="蓝牙耳机 wireless")]


def _generated(n: int, rng: random.Random) -> list[Image.Image]:
    frames = []
    for _ in range(n):
        img = Image.new("RGB", (1080, 2400), (245, 246, 248))
        d = ImageDraw.Draw(img)
        for _ in range(40):
            x, y = rng.randint(0, 1030), rng.randint(100, 2350)
            color = rng.choice([(220, 48, 35), (60, 60, 60), (200, 200, 205), (40, 120, 220)])
            d.rounded_rectangle((x, y, x + rng.randint(30, 400), y + rng.randint(20, 120)), radius=12, fill=color)
        frames.append(img)
    return frames


def frame_sets() -> dict[str, list[Image.Image]]:
    rng = random.Random(0)
    if FIXTURES.is_dir():
        annotated = sorted((FIXTURES / "annotated").glob("*/[0-9][0-9][0-9].png"))
        bases = [Image.open(p).convert("RGB") for p in sorted((FIXTURES / "androidcontrol" / "screenshots").glob("*/*.png"))]
        sets = {"fixture annotated frames": [Image.open(p).convert("RGB") for p in annotated]}
    else:
        print(f"(no fixtures at {FIXTURES.resolve()}: using generated 1080x2400 frames)")
        bases, sets = _generated(8, rng), {}
    drawn = [annotator_image(b, a) for b in bases for a in _actions(rng, b.width, b.height)]
    sets["marks drawn on screenshots" if FIXTURES.is_dir() else "marks drawn on generated frames"] = drawn
    return sets


def time_calls(fn: Callable[[Image.Image], object], frames: list[Image.Image], repeat: int) -> list[float]:
    for f in frames[:3]:
        fn(f)  # warm-up
    times = []
    for _ in range(repeat):
        for f in frames:
            t0 = time.perf_counter()
            fn(f)
            times.append((time.perf_counter() - t0) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="passes over each frame set (default 10)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sets = frame_sets()
    rows = []
    for name, frames in sets.items():
        sizes = {f.size for f in frames}
        ms = time_calls(detect_marks, frames, args.repeat)
        rows.append(("detect_marks", name, len(frames), sizes, ms))
    everything = [f for frames in sets.values() for f in frames]
    rows.append(("detect_marks", "all", len(everything), {f.size for f in everything},
                 time_calls(detect_marks, everything, args.repeat)))
    sample = everything[:: max(1, len(everything) // 10)]
    rows.append(("remove_marks (info)", "sample", len(sample), {f.size for f in sample}, time_calls(remove_marks, sample, 1)))
    print(f"cv2 {cv2.__version__}, threads {cv2.getNumThreads()}, numpy {np.__version__}")
    print(f"{'function':<20} {'frames':<30} {'n':>4} {'size':>10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    for fn, name, n, sizes, ms in rows:
        size = "x".join(map(str, next(iter(sizes)))) if len(sizes) == 1 else "mixed"
        p90 = float(np.percentile(ms, 90))
        print(f"{fn:<20} {name:<30} {n:>4} {size:>10} {statistics.median(ms):>10.1f} {p90:>8.1f} {max(ms):>8.1f}")
    median_all = statistics.median(rows[-2][4])
    verdict = "meets" if median_all < TARGET_MS else "MISSES"
    print(f"detect_marks median {median_all:.1f} ms per frame on one core: {verdict} the {TARGET_MS:.0f} ms target")
    return 0 if median_all < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
