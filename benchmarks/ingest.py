"""Ingest throughput: our TFRecord reader against TensorFlow's on the same >= 1 GB GZIP file, in one run.

    python benchmarks/ingest.py                 # builds benchmarks/out/bench.tfrecord.gz once, then measures
    python benchmarks/ingest.py --size-gb 2     # a bigger file (peak RSS must not grow with it)

Each measurement runs in its own subprocess (so peak RSS is that reader's alone) after the file has been read
once into the page cache. Modes:

- ``ours``       read + both CRC32C checks + ``tf.train.Example`` decode (what TensorFlow's pipeline does)
- ``ours-full``  ``ours`` + the canonical episode (accessibility forests, actions, screenshot hashes)
- ``tf``         ``tf.data.TFRecordDataset(compression_type="GZIP")`` + ``tf.io.parse_single_example``

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

SPEC_FEATURES = ("screenshots", "screenshot_widths", "screenshot_heights", "accessibility_trees", "actions",
                 "step_instructions")


def build(path: Path, target_bytes: int, seed: int = 7) -> None:
    """Write generated episodes, re-numbered copies of a base set, until the file reaches ``target_bytes``."""
    from sftdata.loaders.protos import make_example, parse_example
    from sftdata.synthetic.sample import generate_records
    from sftdata.loaders.tfrecord import write_tfrecords

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
    t0 = time.perf_counter()
    records = errors = 0
    if mode in ("ours", "ours-full"):
        from sftdata.loaders.androidcontrol import decode_features, episode_from_features
        from sftdata.loaders.tfrecord import read_tfrecords

        for frame in read_tfrecords(path):
            if frame.error is not None:
                errors += 1
                continue
            features = decode_features(frame.data)
            if mode == "ours-full":
                episode_from_features(features, None)
            records += 1
    elif mode == "tf":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf

        spec = {"episode_id": tf.io.FixedLenFeature([], tf.int64), "goal": tf.io.FixedLenFeature([], tf.string)}
        spec.update({k: tf.io.VarLenFeature(tf.int64 if "screenshot_" in k else tf.string) for k in SPEC_FEATURES})
        t0 = time.perf_counter()  # TensorFlow's import time is not reading time
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
    ap.add_argument("--repeat", type=int, default=2, help="runs per mode; the best is reported")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.file)))
        return

    path = args.out / f"bench-{args.size_gb:g}gb.tfrecord.gz"
    target = int(args.size_gb * 1e9)
    if not path.exists() or path.stat().st_size < target:
        build(path, int(target * 1.35))  # screenshots compress a little: aim above the on-disk target
        if path.stat().st_size < target:
            build(path, int(target * 1.35 * target / path.stat().st_size * 1.02))
    size = path.stat().st_size
    with open(path, "rb") as f:  # warm the page cache so every reader starts equal
        while f.read(16 << 20):
            pass
    results = {}
    for mode in ("tf", "ours", "ours-full"):
        runs = [r for r in (run_worker(mode, path) for _ in range(args.repeat)) if r]
        if runs:
            results[mode] = min(runs, key=lambda r: r["seconds"])
    tf_rate = results["tf"]["seconds"] if "tf" in results else None
    print(f"\nfile: {path.name}, {size / 1e6:.0f} MB compressed, "
          f"{next(iter(results.values()))['records']} episodes; best of {args.repeat}")
    print(f"{'reader':<12}{'seconds':>9}{'MB/s':>9}{'episodes/s':>12}{'peak RSS MB':>13}{'vs TF':>8}")
    for mode, r in results.items():
        ratio = f"{tf_rate / r['seconds']:.2f}x" if tf_rate else "n/a"
        print(f"{mode:<12}{r['seconds']:>9.2f}{size / 1e6 / r['seconds']:>9.0f}{r['records'] / r['seconds']:>12.0f}"
              f"{r['peak_rss_mb']:>13.0f}{ratio:>8}")
    if "ours" in results:
        ok_rss = results["ours"]["peak_rss_mb"] < 300
        print(f"\ntarget: ours >= 1.0x TensorFlow -> "
              f"{'n/a (TensorFlow not installed)' if not tf_rate else ('met' if tf_rate >= results['ours']['seconds'] else 'MISSED')}"
              f"; peak RSS < 300 MB -> {'met' if ok_rss else 'MISSED'}")
    (args.out / "ingest.json").write_text(json.dumps({"file_bytes": size, "results": results}, indent=2))


if __name__ == "__main__":
    main()
