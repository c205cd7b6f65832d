"""The report's alignment section: the judge's rates per run, source and action, and its lowest-scored items
beside their screenshots, rendered by headless Chromium."""
from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from chromium import Browser
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.io import iter_jsonl
from sftdata.judge.stage import JudgeOptions, judge_run
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.report import write_report
from sftdata.rundir import RunDir
from built_once import sample_file

LEAK = "点击后页面显示出了结果。"


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """4 generated episodes, template annotations, the first item of one given hindsight, judged by the rules."""
    root = tmp_path_factory.mktemp("alignment")
    sample_file(root / "sample.tfrecord.gz", n_episodes=4, seed=0, size=(540, 1200))
    run = RunDir(root / "run")
    ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    records = list(iter_jsonl(run.path / "annotations.jsonl"))
    records[0]["items"][0]["reasoning"] += LEAK
    (run.path / "annotations.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                                                encoding="utf-8")
    judge_run(run, JudgeOptions(progress=False))
    out = write_report(run.path, root / "report.html", samples=1, seed=0)
    return {"run": run, "html": out, "page": out.read_text(encoding="utf-8"), "id": records[0]["id"]}


def _section(page: str) -> str:
    match = re.search(r'<section id="alignment">(.*?)</section>', page, re.S)
    assert match, "alignment section missing"
    return match.group(1)


def test_rates_and_the_worst_item_beside_its_screenshot(judged):
    section = _section(judged["page"])
    figures = judged["run"].manifest()["stages"]["judge"]["verdicts"]["alignment"]
    assert f"{figures['episodes_passed']} of {figures['episodes']} episodes passed" in section
    assert figures["episodes_passed"] == figures["episodes"] - 1
    for action in figures["by_action"]:
        assert f"<td>{action}</td>" in section
    worst = section.split("Lowest-scored items", 1)[1]
    assert f"{judged['id']} · step 1" in worst and LEAK in worst and "hindsight" in worst
    assert worst.count('<img src="data:image/jpeg;base64,') == len(figures["worst"]) >= 1


def test_a_run_without_judgements_says_how_to_get_them(tmp_path):
    run = RunDir(tmp_path / "run")
    run.path.mkdir(parents=True)
    page = write_report(run.path, tmp_path / "r.html", samples=0).read_text(encoding="utf-8")
    assert "sftdata judge RUN" in _section(page)


@pytest.mark.chromium
def test_alignment_section_renders_in_headless_chromium(judged, tmp_path):
    with Browser() as browser:
        page = browser.open(judged["html"].resolve().as_uri())
        box = page.evaluate("(() => { const s = document.getElementById('alignment'); s.scrollIntoView();"
                            " const r = s.getBoundingClientRect(); return [r.height, s.querySelectorAll('img').length,"
                            " [...s.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)]; })()")
        page.screenshot(str(tmp_path / "alignment.png"))
        errors = page.errors
    height, images, loaded = box
    assert errors == [] and height > 200 and images >= 1 and loaded
    shot = Image.open(tmp_path / "alignment.png")
    assert shot.size == (1280, 900) and len(shot.convert("L").getcolors(1 << 16) or []) > 10


def test_the_checks_outcomes_are_shown_with_the_judges_figures(judged):
    section = _section(judged["page"])
    counts = judged["run"].manifest()["stages"]["judge"]["verdicts"]["certification"]
    assert "Certification (checks)" in section and counts["rejected"] >= 1  # the leaked item
    for outcome in ("certified", "unsure", "rejected"):
        assert f'<td>{outcome}</td><td class="num">{counts[outcome]:,}</td>' in section
