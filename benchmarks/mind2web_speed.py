"""Mind2Web ingest speed against pyarrow reading the same shards, and where the time goes, in one run.

    python benchmarks/mind2web_speed.py                 # ~0.2 GB of release-like shards in a temporary directory
    python benchmarks/mind2web_speed.py --size-gb 0.5

The shards are the ones ``benchmarks/mind2web_memory.py`` builds (release-schema rows as bulky as the release's).
Measured, each best of ``--repeat`` in this process after a warm-up read:

- ``pyarrow``: ``pq.read_table`` of every column of every shard (the floor: the bytes must be read once);
- ``ingest``: ``ingest_mind2web`` into a fresh run, one process (the default crop encoder);
- the parts of it that cannot be skipped: decoding every page screenshot (JPEG) and cutting its crop, and the
  crop encoders that keep it lossless: PNG at zlib level 6 (what PIL writes by default) and level 1, and
  lossless WebP.

The ratio ingest / pyarrow is the figure the README reports; the parts say how far down it could go.
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import machine  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-gb", type=float, default=0.2)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    import pyarrow.parquet as pq
    from PIL import Image

    from mind2web_memory import build
    from sftdata.ingest import IngestOptions
    from sftdata.ingest.mind2web import Mind2WebOptions, ingest_mind2web
    from sftdata.loaders.mind2web import crop_box
    from sftdata.rundir import RunDir

    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as tmp:
        tmp = Path(tmp)
        shards = build(tmp / "shards", int(args.size_gb * 1e9))
        size = sum(p.stat().st_size for p in shards)
        for p in shards:  # warm the page cache
            p.read_bytes()
        rows = sum(pq.ParquetFile(p).metadata.num_rows for p in shards)
        arrow_s = best(lambda: [pq.read_table(p) for p in shards], args.repeat)

        runs = iter(range(1000))
        ingest_s = best(lambda: ingest_mind2web(shards, RunDir(tmp / f"run{next(runs)}"), IngestOptions(),
                                                Mind2WebOptions(), progress=False), args.repeat)

        pages = []
        for p in shards:
            for batch in pq.ParquetFile(p).iter_batches(batch_size=16, columns=["screenshot"]):
                pages += [s["bytes"] for s in batch.column(0).to_pylist() if s and s.get("bytes")]
        crops = []

        def decode_and_cut():
            crops.clear()
            for data in pages:
                with Image.open(io.BytesIO(data)) as im:
                    page = im.convert("RGB")
                w, h = page.size
                crops.append(page.crop(crop_box((w // 2 - 50, h // 2 - 20, w // 2 + 50, h // 2 + 20), (w, h),
                                                (1280, 720), "x")))
        decode_s = best(decode_and_cut, args.repeat)

        def encoder(**kw):
            return lambda: [c.save(io.BytesIO(), **kw) for c in crops]
        encoders = {"PNG level 6": encoder(format="PNG", compress_level=6),
                    "PNG level 1": encoder(format="PNG", compress_level=1),
                    "WebP lossless": encoder(format="WEBP", lossless=True, quality=0, method=0)}
        encode_s = {name: best(fn, args.repeat) for name, fn in encoders.items()}

    print(f"\nmachine: {machine()}", end="")
    print(f"\n{len(shards)} shards, {size / 1e6:.0f} MB, {rows} rows, {len(pages)} page screenshots")
    print(f"{'measure':<46}{'seconds':>9}{'x pyarrow':>11}")
    print(f"{'pyarrow read_table, every column':<46}{arrow_s:>9.2f}{1:>10.2f}x")
    print(f"{'sftdata ingest mind2web (one process)':<46}{ingest_s:>9.2f}{ingest_s / arrow_s:>10.2f}x")
    print(f"{'  decode every page and cut its crop':<46}{decode_s:>9.2f}{decode_s / arrow_s:>10.2f}x")
    for name, seconds in encode_s.items():
        print(f"{'  encode the crops, ' + name:<46}{seconds:>9.2f}{seconds / arrow_s:>10.2f}x")
    ratio = ingest_s / arrow_s
    print(f"\ntarget: ingest <= 3x pyarrow -> {ratio:.1f}x, {'met' if ratio <= 3 else 'MISSED'}; decoding the pages "
          f"alone is {decode_s / arrow_s:.1f}x")


if __name__ == "__main__":
    main()
