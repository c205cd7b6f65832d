"""``sftdata validate`` counts the items the checks certify, leave unsure and reject: unsure items do not fail
validation (they go to a judge model or a reviewer), their reasons are listed, and the JSON report has them."""
from __future__ import annotations

import json

from click.testing import CliRunner

from sftdata.cli import main
from sftdata.validate import format_report, validate_files
from support import make_unsure, sample_run


def test_validate_counts_the_three_outcomes(tmp_path):
    run = sample_run(tmp_path, 2, annotate=True)
    first = next(run.episodes()).id
    make_unsure(run, first, 1)
    report = validate_files(run.episodes_path, run.path / "annotations.jsonl")
    steps = sum(len(e.steps) for e in run.episodes())
    assert report.ok and sum(report.outcomes.values()) == steps and report.outcomes["rejected"] == 0
    assert report.unsure_by_reason["no_decision"] >= 1
    assert {"id": first, "index": 1} in [{k: u[k] for k in ("id", "index")} for u in report.unsure]
    text = format_report(report)
    assert f"certified {report.outcomes['certified']}" in text and "unsure: no_decision" in text
    out = CliRunner().invoke(main, ["validate", str(run.path), "--report", str(tmp_path / "r.json")])
    assert out.exit_code == 0, out.output
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved["items"]["unsure"] == report.outcomes["unsure"] and saved["unsure_items"]
