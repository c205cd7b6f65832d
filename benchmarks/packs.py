"""Predicted packs against the packs ms-swift really forms, and the real packing efficiency.

    .venv/bin/python benchmarks/packs.py [--episodes 12] [--max-length 16384]   (needs `make swift`)

A generated sample (1080x2400 screenshots) and the real fixtures are ingested, annotated by the template backend
and exported in qwen2.5-vl (with memory), qwen3-vl (two history images) and react-zh (GLM-4.1V). Every row
then goes through ms-swift's own ``template.encode`` (``sftdata preflight``, the built-in processors), and
Swift's own packing function packs the real lengths. Printed per export: the packs our lengths predict, the
packs Swift forms, whether they are the same packs, and the real efficiency; against the baseline measured in
the same run, the UTF-8 byte upper bound of each message (the previous text estimate): its predicted packs
and how far above Swift's lengths it lies.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIXTURES = ROOT.parent / "shared" / "fixtures"


def byte_bound(row: dict, image_tokens: int) -> int:
    """The baseline: UTF-8 bytes + 10 template tokens per message (and the tools), plus the image tokens."""
    texts = [m["content"] for m in row["messages"]] + ([row["tools"]] if "tools" in row else [])
    return sum(len(t.encode("utf-8")) + 10 for t in texts) + image_tokens


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=int, default=12)
    ap.add_argument("--max-length", type=int, default=16384)
    args = ap.parse_args()
    from sftdata.export.packing import swift_sequential_packs
    from sftdata.export.stage import ExportOptions, export_run
    from sftdata.families import FAMILIES, png_size
    from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
    from sftdata.synthetic.sample import write_sample
    from sftdata.annotate.stage import AnnotateOptions, annotate_run
    from sftdata.rundir import RunDir
    from sftdata.preflight.run import run_preflight

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_sample(tmp / "sample.tfrecord.gz", n_episodes=args.episodes, seed=0, size=(1080, 2400))
        run = RunDir(tmp / "run")
        sources = [tmp / "sample.tfrecord.gz"]
        if (FIXTURES / "androidcontrol").is_dir():
            sources.append(FIXTURES / "androidcontrol" / "android_control-00000-of-00001")
        ingest_androidcontrol(sources, run, IngestOptions(), progress=False)
        if (FIXTURES / "annotated").is_dir():
            ingest_annotated(FIXTURES / "annotated", run, IngestOptions(), progress=False)
        annotate_run(run, AnnotateOptions(progress=False))
        print(f"{'export':<22} {'family':<11} {'text':<6} {'rows':>5} {'packs ours':>10} {'packs swift':>11} "
              f"{'same':>5} {'eff. swift':>10} {'ours/swift':>10} | {'bound packs':>11} {'bound/swift':>11}")
        exports = {"qwen2.5-vl-memory": ExportOptions(format="qwen2.5-vl", memory=True),
                   "qwen3-vl-history2": ExportOptions(format="qwen3-vl", history_images=2),
                   "react-zh (glm-4.1v)": ExportOptions(format="react-zh")}
        for name, opts in exports.items():
            opts.split_ratio, opts.max_length, opts.progress = 0.0, args.max_length, False
            out = tmp / name.split()[0]
            manifest = export_run(run, out, opts).manifest
            report = run_preflight(out, json_out=None)
            real = report["splits"]["train"]["real_lengths"]
            ours = json.loads((out / "lengths.json").read_text())["train"]
            family = FAMILIES[manifest["family"]]
            rows = [json.loads(x) for s in manifest["shards"]["train"] for x in (out / s).read_text().splitlines()]
            bound = [byte_bound(r, sum(family.image_tokens(*png_size(out / i)) + 2 for i in r["images"]))
                     for r in rows]
            s = report["splits"]["train"]
            print(f"{name:<22} {manifest['family']:<11} {manifest['text_tokens']['method']:<6} {len(real):>5} "
                  f"{s['predicted_packs']:>10} {s['swift_packs']:>11} {'yes' if s['packs_equal'] else 'no':>5} "
                  f"{s['swift_efficiency']:>10.1%} {sum(ours) / sum(real):>10.4f} | "
                  f"{len(swift_sequential_packs(bound, args.max_length)):>11} {sum(bound) / sum(real):>11.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
