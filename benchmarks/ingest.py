"""Ingest throughput: our TFRecord reader against TensorFlow's on the same >= 1 GB GZIP file, in one run.

    python benchmarks/ingest.py                 # builds benchmarks/out/bench.tfrecord.gz once, then measures
    python benchmarks/ingest.py --size-gb 2     # a bigger file (peak RSS must not grow with it)
    python benchmarks/ingest.py --real          # copies of the real AndroidControl fixture records

Each measurement runs in its own subprocess (so peak RSS is that reader's alone) after the file has been read
once into the page cache. Modes:

- ``limit``      one core's limit: the time zlib-ng spends inflating the file plus CRC32C over every inflated
                 byte, nothing else (file reads, framing, copies and the Python per record are not counted)
- ``read``       our reader alone: framing + both CRC32C checks, one ``bytes`` per record
- ``ours``       ``read`` + ``tf.train.Example`` decode (what TensorFlow's pipeline does)
- ``ours-full``  ``ours`` + the canonical episode (accessibility forests, actions, screenshot hashes), without the
                 screen comparison (``--no-screen-change``)
- ``ours-screens`` ``ours-full`` with the screen comparison (the default: the same bytes or differing visible
                 elements decide a pair, the pixels only the rest; see sftdata/loaders/screen_signals.py)
- ``tf``         ``tf.data.TFRecordDataset(compression_type="GZIP")`` + ``tf.io.parse_single_example``

Every mode is timed from after its imports (TensorFlow's and ours alike), in a fresh process; the modes take
turns in ``--rounds`` interleaved rounds and each prints min / median / max (the ratios use the best run).

Needs TensorFlow for the baseline (``pip install tensorflow-cpu``; ``make bench-ingest`` sets up .venv-bench).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import footer, header, spread  # noqa: E402

SPEC_FEATURES = ("screenshots", "screenshot_widths", "screenshot_heights", "accessibility_trees", "actions",
                 "step_instructions")


REAL = ROOT.parent / "shared" / "fixtures" / "androidcontrol" / "android_control-00000-of-00001"


def build(path: Path, target_bytes: int, seed: int = 7, real: bool = False) -> None:
    """Write re-numbered copies of a base set of episodes until the file reaches ``target_bytes``: generated
    ones, or (``real``) the real AndroidControl fixture records."""
    from sftdata.loaders.protos import make_example, parse_example
    from sftdata.synthetic.sample import generate_records
    from sftdata.loaders.tfrecord import read_tfrecords, write_tfrecords

    if real:
        base = [parse_example(f.data) for f in read_tfrecords(REAL)]
    else:
        base = [parse_example(r) for r in generate_records(n_episodes=24, seed=seed, size=(1080, 2400))]
    written = [0]

    def records():
        episode_id = 0
        while written[0] < target_bytes:
            for features in base:
                features = dict(features, episode_id=[episode_id])
                data = make_example(features)
                written[0] += len(data) + 16
                episode_id += 1
                yield data
                if written[0] >= target_bytes:
                    return

    t0 = time.perf_counter()
    count = write_tfrecords(path, records())
    print(f"built {path} : {count} episodes, {path.stat().st_size / 1e9:.2f} GB on disk "
          f"({written[0] / 1e9:.2f} GB of records) in {time.perf_counter() - t0:.0f} s", flush=True)


def _peak_rss_mb() -> float:
    """This process's own peak RSS. (getrusage's ru_maxrss survives exec on Linux, so a worker would report
    its parent's peak; VmHWM belongs to the new address space.)"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(mode: str, path: Path) -> dict:
    records = errors = 0
    if mode == "limit":  # the time inside inflate and CRC32C alone (file reads and the loop are not counted)
        from crc32c import crc32c
        from zlib_ng import zlib_ng

        spent, clock = 0.0, time.perf_counter
        with open(path, "rb") as f:
            inflater, crc = zlib_ng.decompressobj(wbits=31), 0
            while block := f.read(1 << 20):
                while block:
                    t = clock()
                    out = inflater.decompress(block, 16 << 20)
                    crc = crc32c(out, crc)
                    spent += clock() - t
                    block = inflater.unconsumed_tail
                    if inflater.eof:
                        block, inflater = inflater.unused_data + block, zlib_ng.decompressobj(wbits=31)
        t0 = time.perf_counter() - spent  # so that "seconds" below is the time spent inflating and checking
    elif mode in ("read", "ours", "ours-full", "ours-screens"):
        from sftdata.loaders.androidcontrol import decode_features, episode_from_features
        from sftdata.loaders.tfrecord import read_tfrecords

        t0 = time.perf_counter()
        for frame in read_tfrecords(path):
            if frame.error is not None:
                errors += 1
                continue
            if mode != "read":
                features = decode_features(frame.data)
                if mode != "ours":
                    episode_from_features(features, None, screen_change=mode == "ours-screens")
            records += 1
    elif mode == "tf":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf

        spec = {"episode_id": tf.io.FixedLenFeature([], tf.int64), "goal": tf.io.FixedLenFeature([], tf.string)}
        spec.update({k: tf.io.VarLenFeature(tf.int64 if "screenshot_" in k else tf.string) for k in SPEC_FEATURES})
        t0 = time.perf_counter()
        ds = tf.data.TFRecordDataset([str(path)], compression_type="GZIP")
        for _ in ds.map(lambda x: tf.io.parse_single_example(x, spec)):
            records += 1
    else:
        raise SystemExit(f"unknown mode {mode}")
    return {"mode": mode, "seconds": time.perf_counter() - t0, "records": records, "errors": errors,
            "peak_rss_mb": _peak_rss_mb()}


def run_worker(mode: str, path: Path) -> dict | None:
    proc = subprocess.run([sys.executable, __file__, "--worker", mode, "--file", str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"[{mode}] failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}")
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size-gb", type=float, default=1.0)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out")
    ap.add_argument("--rounds", "--repeat", type=int, default=3, help="interleaved rounds (each runs every mode)")
    ap.add_argument("--modes", default="limit,read,tf,ours,ours-full,ours-screens",
                    help="comma-separated modes to measure (see above)")
    ap.add_argument("--real", action="store_true", help="copies of the real AndroidControl fixture records "
                    "(from ../shared/fixtures) instead of generated episodes")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.file)))
        return

    if args.real and not REAL.exists():
        raise SystemExit(f"--real needs the AndroidControl fixture at {REAL}")
    path = args.out / f"bench-{'real-' if args.real else ''}{args.size_gb:g}gb.tfrecord.gz"
    target = int(args.size_gb * 1e9)
    if not path.exists() or path.stat().st_size < target:
        build(path, int(target * 1.35), real=args.real)  # screenshots compress a little: aim above the target
        if path.stat().st_size < target:
            build(path, int(target * 1.35 * target / path.stat().st_size * 1.02), real=args.real)
    size = path.stat().st_size
    with open(path, "rb") as f:  # warm the page cache so every reader starts equal
        while f.read(16 << 20):
            pass
    header(f"AndroidControl reader, {args.rounds} interleaved rounds")
    runs: dict[str, list[dict]] = {mode: [] for mode in args.modes.split(",")}
    for _ in range(args.rounds):
        for mode in runs:
            result = run_worker(mode, path)
            if result:
                runs[mode].append(result)
    results = {mode: min(rs, key=lambda r: r["seconds"]) for mode, rs in runs.items() if rs}
    tf_s = results["tf"]["seconds"] if "tf" in results else None
    limit_s = results["limit"]["seconds"] if "limit" in results else None
    episodes = max(r["records"] for r in results.values())
    print(f"file: {path.name}, {size / 1e6:.0f} MB compressed, {episodes} episodes; page cache warm")
    print(f"{'mode':<14}{'seconds min / median / max':>28}{'MB/s':>7}{'episodes/s':>12}{'peak RSS MB':>13}"
          f"{'vs TF':>8}{'vs limit':>10}")
    for mode, r in results.items():
        vs_tf = f"{tf_s / r['seconds']:.2f}x" if tf_s else "n/a"
        vs_limit = f"{limit_s / r['seconds']:.2f}x" if limit_s else "n/a"
        print(f"{mode:<14}{spread([x['seconds'] for x in runs[mode]]):>28}{size / 1e6 / r['seconds']:>7.0f}"
              f"{episodes / r['seconds']:>12.0f}{r['peak_rss_mb']:>13.0f}{vs_tf:>8}{vs_limit:>10}")
    if "ours" in results:
        ok_rss = results["ours"]["peak_rss_mb"] < 300
        print(f"\ntarget: ours >= 1.0x TensorFlow -> "
              f"{'n/a (TensorFlow not installed)' if not tf_s else ('met' if tf_s >= results['ours']['seconds'] else 'MISSED')}"
              f"; peak RSS < 300 MB -> {'met' if ok_rss else 'MISSED'}")
    if "read" in results and limit_s:
        ratio = limit_s / results["read"]["seconds"]
        print(f"target: reader >= 0.85x the one-core inflate+CRC limit -> {ratio:.2f}x, "
              f"{'met' if ratio >= 0.85 else 'MISSED'}")
    (args.out / "ingest.json").write_text(json.dumps({"file_bytes": size, "results": results, "runs": runs}, indent=2))
    footer()


if __name__ == "__main__":
    main()
