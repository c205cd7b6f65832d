"""Are a change's outputs the same as before it? Writes a fixed set of runs with one checkout (``capture``) and
compares two such captures file by file (``compare``): every byte of every ledger, image and export, and the
JSON files (manifests) with their timings left out (``elapsed_s``, ``created`` and the like).

The runs: the demo config (``make demo``: generated AndroidControl, Mind2Web and annotated web samples, annotate,
judge, validate, three exports, the report) and each ingest source on its own: the AndroidControl and annotated
fixtures (``../shared/fixtures``, with one and with two workers), generated annotated phone trajectories and a
generated Mind2Web shard, each ingested twice (the second time skipped).

    git checkout main  && python benchmarks/same_outputs.py capture /tmp/before
    git checkout topic && python benchmarks/same_outputs.py capture /tmp/after
    python benchmarks/same_outputs.py compare /tmp/before /tmp/after

The generated inputs are made once (``benchmarks/out/same_outputs/raw``) and the runs are written in one place
(``benchmarks/out/same_outputs/runs``, then moved into the capture), so the paths, sizes and mtimes they record
are the same in both captures.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
WORK = ROOT / "benchmarks" / "out" / "same_outputs"
TIMING = re.compile(r"elapsed|seconds|created|updated|_at$|^time$|_s$")
# what a fingerprint keeps of files that hold timings (the manifest's digest, each export's manifest size)
OF_TIMINGS = ("manifest", "exports")


def _sftdata(*args: object) -> None:
    subprocess.run([sys.executable, "-m", "sftdata", *map(str, args)], check=True, cwd=ROOT, capture_output=True)


def capture(out: Path) -> None:
    """Every run of the module docstring, written below ``out`` (which must not exist)."""
    out.mkdir(parents=True)
    raw, runs = WORK / "raw", WORK / "runs"
    if runs.exists():
        raise SystemExit(f"{runs} is left from an interrupted capture: remove it first")
    if not raw.exists():
        _sftdata("sample", raw / "sample.tfrecord.gz", "--episodes", 12, "--seed", 0)
        _sftdata("sample", raw / "mind2web.parquet", "--mind2web", "--seed", 0)
        _sftdata("sample", raw / "web-annotated", "--annotated-web", "--seed", 0)
        _sftdata("sample", raw / "phone-annotated", "--annotated", "--episodes", 5, "--seed", 1)
    config = (ROOT / "configs" / "demo.toml").read_text(encoding="utf-8")
    config = config.replace('"../processed/demo"', json.dumps(str(runs / "demo")))
    config = config.replace('"../raw/sample/', json.dumps(str(raw))[:-1] + "/")
    (WORK / "demo.toml").write_text(config, encoding="utf-8")
    _sftdata("run", WORK / "demo.toml", "--backend", "template")
    _sftdata("run", WORK / "demo.toml", "--backend", "template")  # nothing to do
    shard = FIXTURES / "androidcontrol" / "android_control-00000-of-00001"
    ingests = {
        "ac-1": ("androidcontrol", shard, "--workers", 1),
        "ac-2": ("androidcontrol", shard, raw / "sample.tfrecord.gz", "--workers", 2),
        "ac-split": ("androidcontrol", shard, "--splits", FIXTURES / "androidcontrol" / "splits.json",
                     "--split", "train"),
        "annotated-1": ("annotated", FIXTURES / "annotated", "--workers", 1),
        "annotated-2": ("annotated", FIXTURES / "annotated", "--workers", 2),
        "phone-annotated": ("annotated", raw / "phone-annotated", "--workers", 2),
        "m2w": ("mind2web", raw / "mind2web.parquet"),
        "m2w-limit": ("mind2web", raw / "mind2web.parquet", "--limit", 2, "--workers", 2),
    }
    for name, args in ingests.items():
        for _ in range(2):
            subprocess.run([sys.executable, "-m", "sftdata", "ingest", *map(str, args), "--out",
                            str(runs / name), "--no-progress"], cwd=ROOT, capture_output=True)
    shutil.move(str(runs), str(out / "runs"))


def _without_timings(value, key: str = ""):
    """``value`` without timings: keys that name one, mtimes (seconds or nanoseconds since the epoch: the runs'
    own files are written anew) and, in a fingerprint, what digests the manifest or stats an export's."""
    if isinstance(value, dict):
        return {k: _without_timings(v, k) for k, v in value.items()
                if not TIMING.search(k) and not (key == "fingerprint" and k in OF_TIMINGS)}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    if isinstance(value, int) and (10**9 <= value < 3 * 10**9 or 10**18 <= value < 3 * 10**18):
        return "mtime"
    return value


def _content(path: Path):
    if path.suffix == ".json":
        try:
            return _without_timings(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:
            pass
    if path.suffix == ".html":  # the report prints each stage's time
        return re.sub(r"\d+(\.\d+)? ?(s|ms)\b", "T", path.read_text(encoding="utf-8"))
    return path.read_bytes()


def compare(a: Path, b: Path) -> int:
    """The files that differ (or exist on one side only) between two captures; 0 when none."""
    files = lambda root: {str(p.relative_to(root)) for p in (root / "runs").rglob("*")  # noqa: E731
                          if p.is_file() and p.name != ".lock"}
    left, right = files(a), files(b)
    differ = sorted(left ^ right) + sorted(f for f in left & right if _content(a / f) != _content(b / f))
    for name in differ:
        print(f"differs: {name}" if name in left & right else f"only in {'before' if name in left else 'after'}: {name}")
    print(f"{len(left & right)} files compared, {len(differ)} differ")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("capture").add_argument("out", type=Path)
    both = sub.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "capture":
        capture(args.out)
    else:
        raise SystemExit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
