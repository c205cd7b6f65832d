"""The demo-like run the RL tests share: generated phone episodes, a generated Multimodal-Mind2Web shard and
generated annotated web trajectories (as `make demo` makes them), plus the real fixtures when they are there,
annotated by the template backend. Helpers to export it and read the rows back."""
from __future__ import annotations

import json
from pathlib import Path

from built_once import built_once, copy_of, sample_file
from support import AC_RECORD, ANNOTATED


def demo_like_run(root: Path):
    """The demo-like run (see the module docstring) at ``root / "run"``: a copy of the one this session built."""
    from sftdata.rundir import RunDir

    return RunDir(copy_of(built_once("demo-like-run", _build_demo_like_run) / "run", root / "run"))


def _build_demo_like_run(root: Path) -> None:
    from sftdata.annotate.stage import AnnotateOptions, annotate_run
    from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
    from sftdata.ingest.mind2web import ingest_mind2web
    from sftdata.rundir import RunDir
    from sftdata.synthetic.mind2web import write_parquet
    from sftdata.synthetic.web_annotated import write_web_annotated

    sample_file(root / "sample.tfrecord.gz", n_episodes=6, seed=0, size=(540, 1200))
    write_parquet(root / "mind2web.parquet", tasks=4, seed=0)
    write_web_annotated(root / "web-annotated", n_episodes=2, seed=0)
    run = RunDir(root / "run")
    records = [AC_RECORD] if AC_RECORD.exists() else []
    ingest_androidcontrol([*records, root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    if ANNOTATED.exists():
        ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    ingest_mind2web([root / "mind2web.parquet"], run, IngestOptions(), progress=False)
    ingest_annotated(root / "web-annotated", run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))


def rows(export_dir: Path) -> list[dict]:
    """Every row of an export's shards, train then val."""
    manifest = json.loads((export_dir / "manifest.json").read_text(encoding="utf-8"))
    return [json.loads(line) for split in ("train", "val") for name in manifest["shards"].get(split, [])
            for line in (export_dir / name).read_text(encoding="utf-8").splitlines()]


def ground_truth_lines(export_dir: Path) -> str:
    """Plain {"id", "response"} prediction lines answering every row with its ground-truth answer."""
    return "".join(json.dumps({"id": r["id"], "response": json.loads(r["solution"])["answer"]}, ensure_ascii=False)
                   + "\n" for r in rows(export_dir))
