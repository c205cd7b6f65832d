"""Mind2Web ingest speed against pyarrow reading the same shards, where the time goes, and the crop encoders.

    python benchmarks/mind2web_speed.py                 # ~0.1 GB of release-like shards in a temporary directory
    python benchmarks/mind2web_speed.py --size-gb 0.2 --rounds 5

The shards are the ones ``benchmarks/mind2web_memory.py`` builds (release-schema rows as bulky as the release's:
photo-textured pages up to 5,000 px tall, ~2,000 negative candidates a row). Measured in this process after a
warm-up read, in interleaved rounds (min / median / max):

- ``pyarrow``: ``pq.read_table`` of every column of every shard (the floor: the bytes must be read once);
- ``ingest``: ``ingest_mind2web`` into a fresh run, one process;
- the parts of it, each timed alone over the same rows: reading the rows, decoding the pages, cutting and
  encoding the crops, the candidates (boxes first, the shown ones parsed), the visible text from the HTML, the
  image store writes; the rest (building steps and tasks, JSON lines, ledgers) is ingest minus the parts;
- the lossless crop encoders on those crops and on drawn UI pages (the project's generated sample, what real
  pages look like: flat colours and text): Pillow's PNG at levels 0, 1 and 6, lossless WebP, and the PNG writer
  ingest uses; and whether a JPEG-domain (DCT) crop is available here (PyTurboJPEG over libturbojpeg).

The script prints the part table as Markdown (docs/performance.md holds what it printed).
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import CPU, footer, header, interleaved, ratios, spread  # noqa: E402


def jpeg_domain_crop() -> str:
    """Whether a lossless JPEG-domain crop can run here, and with what."""
    try:
        from turbojpeg import TurboJPEG  # PyTurboJPEG: ctypes over the system's libturbojpeg
    except ImportError:
        return "not available: PyTurboJPEG is not installed (it wraps the system's libturbojpeg)"
    try:
        TurboJPEG()
    except (OSError, RuntimeError) as exc:
        return f"not available: PyTurboJPEG cannot load libturbojpeg ({exc})"
    return "available (PyTurboJPEG over libturbojpeg): lossless only at MCU-aligned offsets, so the crop box moves"


def positives(step):
    from sftdata.loaders.mind2web import _target, parse_candidate

    pos = [parse_candidate(c) for c in step.pos]
    return pos, _target(pos)


def candidates(step, size, box):
    """What ingest does with a row's candidates: parse the positives, then the negatives the crop shows."""
    from sftdata.loaders.mind2web import shown_candidates

    pos, target = positives(step)
    return shown_candidates(step.neg, pos, target, size, box)


def prepared(shards: list[Path], viewport=(1280, 720)) -> list[dict]:
    """Per row: the step input, its page size, crop box, crop and the node ids ingest looks up (untimed)."""
    from sftdata.loaders.mind2web import _pixels, crop_box, decode_page, shown_candidates
    from sftdata.loaders.mind2web_tasks import parquet_rows, step_of_row

    out = []
    for row, where in parquet_rows(shards):
        step = step_of_row(row, where)
        try:
            pos, target = positives(step)
            page, _ = decode_page(step.image)
        except Exception:  # noqa: BLE001 - a row ingest drops: not part of the parts
            continue
        w, h = page.size
        px = _pixels(target.box, w, h) if target.box else None
        if px is None:
            continue
        box = crop_box(px, (w, h), viewport, step.action_uid)
        chosen = shown_candidates(step.neg, pos, target, (w, h), box)
        out.append({"step": step, "size": (w, h), "box": box, "crop": page.crop(box),
                    "ids": {c.node_id for _, c in chosen if c.node_id}})
    return out


def parts(shards: list[Path], rows: list[dict], store_dir: Path) -> dict:
    """The timed parts of ingest, each a function over every row."""
    from sftdata.io import ImageStore
    from sftdata.loaders.dom_text import texts_by_node_id
    from sftdata.loaders.mind2web import decode_page
    from sftdata.loaders.mind2web_tasks import parquet_rows
    from sftdata.loaders.png_writer import encode_png

    crops = {}

    def encode():
        crops.update((i, encode_png(r["crop"])) for i, r in enumerate(rows))

    def writes():
        store = ImageStore(store_dir / f"s{len(list(store_dir.iterdir()))}")
        for i, r in enumerate(rows):
            store.put(r["step"].image, "jpg")
            store.put(crops.get(i) or b"", "png")

    return {
        "read the rows (iter_batches, to_pylist)": lambda: sum(1 for _ in parquet_rows(shards)),
        "decode the pages (JPEG)": lambda: [decode_page(r["step"].image) and None for r in rows],  # none kept
        "cut and encode the crops (PNG writer)": encode,
        "candidates (boxes first, shown ones parsed)": lambda: [candidates(r["step"], r["size"], r["box"])
                                                                 for r in rows],
        "visible text from cleaned_html": lambda: [texts_by_node_id(r["step"].cleaned_html, r["ids"]) for r in rows],
        "image store writes (page, crop)": writes,
    }


def encoders() -> dict:
    from sftdata.loaders.png_writer import encode_png

    def pillow(**kw):
        def run(image):
            out = io.BytesIO()
            image.save(out, **kw)
            return out.getvalue()
        return run
    return {"Pillow PNG level 0": pillow(format="PNG", compress_level=0),
            "Pillow PNG level 1 (before)": pillow(format="PNG", compress_level=1),
            "Pillow PNG level 6": pillow(format="PNG", compress_level=6),
            "WebP lossless (method 0)": pillow(format="WEBP", lossless=True, quality=0, method=0),
            "PNG writer, Up filter, zlib-ng level 2 (now)": encode_png}


def ui_crops(folder: Path, viewport=(1280, 720)) -> list:
    """Crops of the drawn sample pages (flat UI), as ingest cuts them."""
    from sftdata.synthetic.mind2web import write_parquet

    path = folder / "ui.parquet"
    write_parquet(path, seed=0)
    return [r["crop"] for r in prepared([path], viewport)]


def encoder_table(sets: dict[str, list], rounds: int) -> None:
    from PIL import Image

    print(f"\n| lossless crop encoder | {' | '.join(f'{name}: ms per crop (min / median / max), kB' for name in sets)} |")
    print(f"|---|{'---|' * len(sets)}")
    results = {}
    for name, crops in sets.items():
        fns = encoders()
        times = interleaved({k: (lambda f=f: [f(c) for c in crops]) for k, f in fns.items()}, rounds)
        for k, f in fns.items():
            data = [f(c) for c in crops[:5]]
            assert all(Image.open(io.BytesIO(d)).convert("RGB").tobytes() == c.convert("RGB").tobytes()
                       for d, c in zip(data, crops)), k  # lossless
            size = sum(len(f(c)) for c in crops) / len(crops) / 1e3
            results.setdefault(k, []).append(f"{spread(times[k], 1000 / len(crops), 1)}, {size:.0f}")
    for k, cells in results.items():
        print(f"| {k} | {' | '.join(cells)} |")
    print(f"\nJPEG-domain crop: {jpeg_domain_crop()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-gb", type=float, default=0.1)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    import pyarrow.parquet as pq

    from mind2web_memory import build
    from sftdata.ingest import IngestOptions
    from sftdata.ingest.mind2web import Mind2WebOptions, ingest_mind2web
    from sftdata.rundir import RunDir

    header(f"Mind2Web ingest vs pyarrow read_table, {args.rounds} interleaved rounds; target: <= 12x")
    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as tmp:
        tmp = Path(tmp)
        shards = build(tmp / "shards", int(args.size_gb * 1e9))
        size = sum(p.stat().st_size for p in shards)
        for p in shards:  # warm the page cache
            p.read_bytes()
        rows = sum(pq.ParquetFile(p).metadata.num_rows for p in shards)
        runs = iter(range(1000))
        main_times = interleaved({
            "pyarrow read_table, every column": lambda: [pq.read_table(p) for p in shards],
            "sftdata ingest mind2web (one process)": lambda: ingest_mind2web(
                shards, RunDir(tmp / f"run{next(runs)}"), IngestOptions(), Mind2WebOptions(), progress=False),
        }, args.rounds)
        arrow = main_times["pyarrow read_table, every column"]
        ingest = main_times["sftdata ingest mind2web (one process)"]
        arrow_cpu, ingest_cpu = CPU["pyarrow read_table, every column"], CPU["sftdata ingest mind2web (one process)"]
        prepared_rows = prepared(shards)
        (tmp / "stores").mkdir()
        part_times = interleaved(parts(shards, prepared_rows, tmp / "stores"), args.rounds)
        sets = {"bench pages (photo-textured)": [r["crop"] for r in prepared_rows],
                "drawn UI pages": ui_crops(tmp)}

    base = min(arrow)
    print(f"\n{len(shards)} shards, {size / 1e6:.0f} MB, {rows} rows ({len(prepared_rows)} usable)\n")
    print("| measure | seconds (min / median / max) | x pyarrow (median) | share of ingest |")
    print("|---|---|---|---|")
    print(f"| pyarrow `read_table`, every column | {spread(arrow)} | 1.00x | |")
    print(f"| **sftdata ingest mind2web** (one process) | {spread(ingest)} | "
          f"**{sorted(ratios(ingest, arrow))[len(ingest) // 2]:.1f}x** | 100% |")
    total = min(ingest)
    for name, values in part_times.items():
        print(f"| {name} | {spread(values)} | {min(values) / base:.1f}x | {min(values) / total:.0%} |")
    rest = total - sum(min(v) for v in part_times.values())
    print(f"| the rest (steps, tasks, JSON lines, ledgers) | {rest:.2f} | {rest / base:.1f}x | {rest / total:.0%} |")
    ratio = sorted(ratios(ingest, arrow))[len(ingest) // 2]
    print(f"\ntarget: ingest <= 12x pyarrow -> {ratio:.1f}x (median of rounds), {'met' if ratio <= 12 else 'MISSED'}")
    print(f"CPU seconds (this process, both cores' worth): pyarrow {spread(arrow_cpu)}, ingest {spread(ingest_cpu)}: "
          f"{min(ingest_cpu) / min(arrow_cpu):.1f}x (pyarrow decodes on every core; ingest is one thread)")
    encoder_table(sets, args.rounds)
    footer()


if __name__ == "__main__":
    main()
