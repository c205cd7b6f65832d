"""What OCR costs per real 1080x2400 frame, against decoding the same PNG, measured in one run.

    python benchmarks/ocr.py            # the AndroidControl fixture's 11 frames from ../shared/fixtures

Prints the machine, the engine's start-up, the median time per frame of the PNG decode (the baseline), of OCR
(RapidOCR on ONNX Runtime, models from its wheel) and of a cached lookup (the JSON the run keeps per digest),
and the ratios.
"""
from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from sftdata.io import sha256_hex  # noqa: E402
from sftdata.ocr import ocr_elements  # noqa: E402
from sftdata.ocr.engine import _engine  # noqa: E402

FRAMES = ROOT.parent / "shared" / "fixtures" / "androidcontrol" / "screenshots"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    frames = sorted(FRAMES.glob("*/screenshot_*.png"))
    if not frames:
        sys.exit(f"no frames under {FRAMES}")
    print(f"machine: {os.cpu_count()} cores, {_cpu()}, Python {platform.python_version()}")
    started = time.perf_counter()
    _engine()
    print(f"engine start-up: {time.perf_counter() - started:.2f} s (once per process)")
    decode, ocr, cached, lines = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in frames:
            data = path.read_bytes()
            digest = sha256_hex(data)
            t = time.perf_counter()
            with Image.open(path) as im:
                im.convert("RGB").load()
            decode.append(time.perf_counter() - t)
            t = time.perf_counter()
            found = ocr_elements(data, digest, cache_dir=Path(tmp))
            ocr.append(time.perf_counter() - t)
            lines.append(len(found))
            t = time.perf_counter()
            ocr_elements(data, digest, cache_dir=Path(tmp))
            cached.append(time.perf_counter() - t)
    d, o, c = (statistics.median(x) for x in (decode, ocr, cached))
    size = Image.open(frames[0]).size
    print(f"{len(frames)} frames {size[0]}x{size[1]}, median text lines kept {statistics.median(lines):.0f}")
    print(f"PNG decode (baseline): {d * 1000:.1f} ms per frame")
    print(f"OCR:                   {o * 1000:.1f} ms per frame = {o / d:.1f}x the decode")
    print(f"cached lookup:         {c * 1000:.2f} ms per frame = {c / d:.3f}x the decode")


if __name__ == "__main__":
    main()
