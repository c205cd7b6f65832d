"""Paths and small helpers shared by the tests (imported as ``support``; pytest fixtures live in conftest.py)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
AC_DIR = FIXTURES / "androidcontrol"
AC_RECORD = AC_DIR / "android_control-00000-of-00001"
ANNOTATED = FIXTURES / "annotated"


def missing_shared() -> str:
    """The one skip message of every test that reads the real fixtures."""
    return f"the real fixtures are not beside the project (put the shared fixtures in ../shared/fixtures; looked for " \
           f"{FIXTURES})"


# marks a test (or, as ``pytestmark``, a module) that reads the real fixtures: skipped when they are absent
needs_shared = pytest.mark.skipif(not FIXTURES.is_dir(), reason=missing_shared())


def gunzip(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def episode_schema() -> dict:
    return json.loads((ROOT / "schemas" / "episode.schema.json").read_text())  # the repository-root link


def sample_run(root: Path, n_episodes: int, size: tuple[int, int] = (360, 800), *, annotate: bool = False):
    """A run directory under ``root`` holding a generated sample (seed 0), optionally annotated by the template."""
    from sftdata.ingest import IngestOptions, ingest_androidcontrol
    from built_once import sample_file
    from sftdata.rundir import RunDir

    sample = root / "sample.tfrecord.gz"
    sample_file(sample, n_episodes=n_episodes, seed=0, size=size)
    run = RunDir(root / "run")
    ingest_androidcontrol([sample], run, IngestOptions(), progress=False)
    if annotate:
        from sftdata.annotate.stage import AnnotateOptions, annotate_run
        annotate_run(run, AnnotateOptions(progress=False))
    return run


UNSURE = "先看看这个页面上都有什么。"  # a reasoning that states no decision: the checks leave it unsure


def make_unsure(run, episode_id: str, step: int) -> None:
    """Re-annotate ``episode_id`` of ``run`` (a new record, as another model would) with step ``step``'s
    reasoning replaced by :data:`UNSURE`, so the checks leave that item unsure."""
    from sftdata.io import iter_jsonl

    record = [r for r in iter_jsonl(run.path / "annotations.jsonl") if r["id"] == episode_id][-1]
    items = [dict(item) for item in record["items"]]
    items[step]["reasoning"] = UNSURE
    items[step].pop("thought", None)
    with open(run.path / "annotations.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps({**record, "items": items, "model": "edited", "prompt_version": "edited"},
                           ensure_ascii=False) + "\n")
