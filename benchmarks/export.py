"""Export throughput on 20,000 steps, in one run:

- samples/s of ``export_run`` (qwen2.5-vl format, memory on);
- image bytes/s of the export (hard links, and with links refused: copies) against ``cp -r`` of the same images;
- length computation per sample (image tokens from the PNG header) against decoding each PNG with Pillow;
- packing efficiency of our best-fit-decreasing against ``binpacking``'s on the same lengths.

    python benchmarks/export.py [--steps 20000] [--max-length 16384]
    python benchmarks/export.py --cli     # `sftdata export` start to end vs `cp -r`, on real AndroidControl

``--cli`` is the small case where start-up counts: the real AndroidControl fixture records copied 20 times
(60 episodes, 220 steps), each copy's screenshots made distinct bytes as in the release, ingested and
annotated with the template backend; then ``sftdata export`` runs as a command (interpreter start, imports,
vocabulary, samples, images, shards) against ``cp -r`` of the same images, interleaved, best of 5.

The run is synthesized from generated episodes cloned under new ids; each clone's screenshots get a PNG tEXt
chunk, so every step has its own distinct file (as in a real release) at the original size.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import machine  # noqa: E402


def tagged_png(data: bytes, tag: str) -> bytes:
    """The same PNG with a tEXt chunk after IHDR: distinct bytes, same pixels."""
    body = b"Comment\x00" + tag.encode()
    chunk = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body))
    return data[:33] + chunk + data[33:]


FIXTURE_SHOTS = sorted((ROOT.parent / "shared" / "fixtures" / "androidcontrol" / "screenshots").glob("*/*.png"))


def build_run(root: Path, steps: int, size: tuple[int, int]):
    from sftdata.ingest import IngestOptions, ingest_androidcontrol
    from sftdata.io import Ledger
    from sftdata.synthetic.sample import write_sample
    from sftdata.annotate.template import template_items
    from sftdata.rundir import RunDir

    base_run = RunDir(root / "base")
    write_sample(root / "s.gz", n_episodes=24, seed=5, size=size)
    ingest_androidcontrol([root / "s.gz"], base_run, IngestOptions(), progress=False)
    base = list(base_run.episodes())
    run = RunDir(root / "run")
    made = clone = 0
    # real AndroidControl screenshots (1-2 MB each) when the fixtures are beside the project, else the drawn ones
    real = [p.read_bytes() for p in FIXTURE_SHOTS] if size == (1080, 2400) else []
    with Ledger(run.episodes_path) as episodes, Ledger(run.path / "annotations.jsonl") as annotations:
        while made < steps:
            for ep in base:
                ep = type(ep).from_dict(ep.to_dict())
                ep.id = f"{ep.id}-{clone}"
                for k, step in enumerate(ep.steps):
                    src = real[(clone + k) % len(real)] if real else (base_run.path / step.screenshot.path).read_bytes()
                    data = tagged_png(src, ep.id)
                    sha, path = run.images.put(data)
                    step.screenshot = type(step.screenshot)(sha, path, step.screenshot.width, step.screenshot.height)
                episodes.append(ep.to_json())
                annotations.append({"id": ep.id, "backend": "template", "model": "template/v1",
                                    "prompt_version": "react_zh_v1", "items": template_items(ep)})
                made += len(ep.steps)
                if made >= steps:
                    break
            clone += 1
    return run, made


def cli_case(copies: int = 20, repeat: int = 5) -> None:
    """``sftdata export`` as a user runs it vs ``cp -r`` of its images, on real AndroidControl records."""
    from sftdata.annotate.options import AnnotateOptions
    from sftdata.annotate.stage import annotate_run
    from sftdata.ingest import IngestOptions, ingest_androidcontrol
    from sftdata.loaders.protos import make_example, parse_example
    from sftdata.loaders.tfrecord import read_tfrecords, write_tfrecords
    from sftdata.rundir import RunDir

    source = ROOT.parent / "shared" / "fixtures" / "androidcontrol" / "android_control-00000-of-00001"
    if not source.exists():
        raise SystemExit(f"--cli needs the AndroidControl fixture at {source}")
    real = [parse_example(f.data) for f in read_tfrecords(source)]
    records = [make_example(dict(r, episode_id=[k * 1000 + i],
                                 screenshots=[tagged_png(png, f"{k}-{i}-{n}") for n, png in enumerate(r["screenshots"])]))
               for k in range(copies) for i, r in enumerate(real)]
    sftdata = str(Path(sys.executable).with_name("sftdata"))
    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as tmp:
        tmp = Path(tmp)
        write_tfrecords(tmp / "real.tfrecord.gz", records)
        run = RunDir(tmp / "run")
        ingest_androidcontrol([tmp / "real.tfrecord.gz"], run, IngestOptions(screen_change=False), progress=False)
        annotate_run(run, AnnotateOptions(progress=False))
        images = list((run.path / "images").rglob("*.png"))
        size = sum(p.stat().st_size for p in images)
        export_s, cp_s = [], []
        for n in range(repeat):
            t0 = time.perf_counter()
            subprocess.run(["cp", "-r", str(run.path / "images"), str(tmp / f"cp{n}")], check=True)
            cp_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            subprocess.run([sftdata, "export", str(run.path), "--format", "qwen2.5-vl", "--out", str(tmp / f"out{n}"),
                            "--no-progress"], check=True, stdout=subprocess.DEVNULL)
            export_s.append(time.perf_counter() - t0)
        rows = sum(1 for _ in open(next((tmp / "out0").glob("train-*.jsonl")), "rb"))
        print(f"machine: {machine()}")
        print(f"real AndroidControl: {copies * len(real)} episodes, {len(images)} distinct screenshots "
              f"({size / 1e6:.0f} MB), {rows} train rows")
        print(f"{'measure':<44}{'seconds':>9}")
        print(f"{'cp -r of the images':<44}{min(cp_s):>9.3f}")
        print(f"{'sftdata export (start-up included)':<44}{min(export_s):>9.3f}")
        ratio = min(export_s) / min(cp_s)
        print(f"export / cp -r: {ratio:.1f}x (target <= 3x: {'met' if ratio <= 3 else 'MISSED'})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--max-length", type=int, default=16384)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--size", default="1080x2400")
    ap.add_argument("--cli", action="store_true", help="the small real case, start-up included (see above)")
    args = ap.parse_args()
    if args.cli:
        cli_case()
        return
    from PIL import Image

    from sftdata.export.lengths import LengthModel
    from sftdata.export.packing import best_fit_decreasing
    from sftdata.export.stage import ExportOptions, export_run

    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        run, steps = build_run(tmp, args.steps, (width, height))
        images = list((run.path / "images").rglob("*.png"))
        image_bytes = sum(p.stat().st_size for p in images)
        print(f"synthesized {steps} steps, {len(images)} distinct screenshots ({image_bytes / 1e9:.2f} GB, "
              f"{'real AndroidControl' if FIXTURE_SHOTS and (width, height) == (1080, 2400) else 'generated'} "
              f"pixels) in {time.perf_counter() - t0:.0f} s")

        subprocess.run(["sync"], check=False)
        t0 = time.perf_counter()
        subprocess.run(["cp", "-r", str(run.path / "images"), str(tmp / "cp-images")], check=True)
        cp_s = time.perf_counter() - t0
        shutil.rmtree(tmp / "cp-images")

        opts = ExportOptions(format="qwen2.5-vl", memory=True, max_length=32768, workers=args.workers,
                             progress=False)
        t0 = time.perf_counter()
        result = export_run(run, tmp / "out-link", opts)
        link_s = time.perf_counter() - t0
        real_link = os.link
        os.link = lambda *a, **k: (_ for _ in ()).throw(OSError("links refused"))  # force the copy path
        try:
            t0 = time.perf_counter()
            export_run(run, tmp / "out-copy", opts)
            copy_s = time.perf_counter() - t0
        finally:
            os.link = real_link
        samples = sum(result.samples.values())

        lengths_model = LengthModel("qwen2.5-vl")
        subset = images[:500]
        t0 = time.perf_counter()
        for p in subset:
            lengths_model.image_tokens(p, p.name + "-fresh")
        header_us = (time.perf_counter() - t0) / len(subset) * 1e6
        t0 = time.perf_counter()
        for p in subset[:100]:
            with Image.open(p) as im:
                im.load()
        decode_us = (time.perf_counter() - t0) / 100 * 1e6

        lengths = [n for split in json.loads((tmp / "out-link" / "lengths.json").read_text()).values() for n in split]
        total = sum(lengths)
        packing_rows = []
        for capacity in (16384, 32768):
            t0 = time.perf_counter()
            ours = len(best_fit_decreasing(lengths, capacity))
            ours_s = time.perf_counter() - t0
            try:
                import binpacking
                t0 = time.perf_counter()
                theirs = len(binpacking.to_constant_volume(lengths, capacity))
                theirs_s = time.perf_counter() - t0
            except ImportError:
                theirs = theirs_s = None
            packing_rows.append((capacity, ours, ours_s, theirs, theirs_s))

        print(f"\n{'measure':<44}{'ours':>14}{'baseline':>14}{'ratio':>9}  target")
        print(f"{'export samples/s (hard links, %d workers)' % args.workers:<44}{samples / link_s:>14.0f}{'':>14}{'':>9}")
        print(f"{'image bytes/s, hard links vs cp -r':<44}{image_bytes / link_s / 1e6:>11.0f} MB{image_bytes / cp_s / 1e6:>11.0f} MB"
              f"{cp_s / link_s:>8.2f}x  >= 0.8x")
        print(f"{'image bytes/s, copies vs cp -r':<44}{image_bytes / copy_s / 1e6:>11.0f} MB{image_bytes / cp_s / 1e6:>11.0f} MB"
              f"{cp_s / copy_s:>8.2f}x  >= 0.8x")
        print(f"{'image tokens per sample, header vs Pillow':<44}{header_us:>11.1f} us{decode_us:>11.0f} us"
              f"{decode_us / header_us:>8.0f}x  >= 20x")
        for capacity, ours, ours_s, theirs, theirs_s in packing_rows:
            eff = lambda bins: total / (bins * capacity)  # noqa: E731
            label = f"packing efficiency at {capacity}, BFD vs binpacking"
            base = f"{eff(theirs):>14.2%}" if theirs else f"{'n/a':>14}"
            gap = f"{(eff(ours) - eff(theirs)) * 100:>+8.2f}pt" if theirs else f"{'':>10}"
            print(f"{label:<44}{eff(ours):>14.2%}{base}{gap}  within 0.5 pt, > 97%"
                  f"   ({ours} packs, lower bound {-(-total // capacity)}; {ours_s * 1e3:.0f} ms"
                  + (f" vs {theirs_s * 1e3:.0f} ms)" if theirs else ")"))
        print(f"\n{samples} samples; text tokens are the UTF-8 upper bound (no tokenizer given)")


if __name__ == "__main__":
    main()
