"""The HTML report: every section present, self-contained (no URL, no script), annotator images of the sampled
episodes inline, graceful on unfinished runs, and clean in headless Chromium (DevTools protocol on a pipe)."""
import base64
import io
import re
import shutil

import pytest
from PIL import Image

from chromium import Browser
from sftdata.export.stage import ExportOptions, export_run
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.io import Ledger
from built_once import sample_file
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.report import SECTIONS, summarize, write_report
from sftdata.report.plots import use_cjk_font
from sftdata.rundir import RunDir

EVIL = '<script>alert("x")</script> 标记不符 &amp; done'


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A small finished run: 5 generated episodes (540x1200), template annotations, one react-zh export."""
    root = tmp_path_factory.mktemp("report")
    sample_file(root / "sample.tfrecord.gz", n_episodes=5, seed=0, size=(540, 1200))
    run = RunDir(root / "run")
    ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    bare = root / "bare"  # ingested, never annotated or exported
    shutil.copytree(run.path, bare)
    annotate_run(run, AnnotateOptions(progress=False))
    export_run(run, run.path / "export" / "react-zh", ExportOptions(progress=False, include_unsure=True))
    with Ledger(run.rejects_path) as rejects:
        rejects.append({"episode_id": "x1", "source": "annotated", "stage": "ingest", "reason": "mark_mismatch",
                        "detail": EVIL})
    out = write_report(run.path, root / "report.html", samples=3, seed=0)
    return {"run": run, "bare": bare, "root": root, "html": out, "page": out.read_text(encoding="utf-8")}


def _section(page: str, name: str) -> str:
    match = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert match, f"section {name} missing"
    return match.group(1)


def _assert_self_contained(page: str) -> None:
    lowered = page.lower()
    for bad in ("http://", "https://", 'src="/', "<script", "<link", "@import", "url("):
        assert bad not in lowered, f"page references {bad!r}"
    sources = re.findall(r'\ssrc="([^"]*)"', page)
    assert all(s.startswith(("data:image/png;base64,", "data:image/jpeg;base64,")) for s in sources)
    assert all(h.startswith("#") for h in re.findall(r'\shref="([^"]*)"', page))


def test_every_section_and_nothing_external(built):
    page = built["page"]
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    for name in SECTIONS:
        assert "<h2>" in _section(page, name)
    _assert_self_contained(page)
    assert page.count('src="data:') >= 5 + 3
    counts = _section(page, "counts")
    assert "androidcontrol" in counts and "react-zh" in counts and "mark_mismatch" in counts
    assert "token lengths" in counts and "<td>bound</td>" in counts  # react-zh trains GLM-4.1V: a bound
    for name in ("rejects", "actions", "steps", "tokens", "packing"):
        assert 'class="plot"' in _section(page, name), name
    llm = _section(page, "llm")
    assert "template" in llm and "react_zh_v3" in llm


def test_text_is_escaped(built):
    rejects = _section(built["page"], "rejects")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 标记不符" in rejects
    assert "<script" not in built["page"]


def test_annotator_images_reasoning_and_answers_of_sampled_episodes(built):
    page, run = built["page"], built["run"]
    sampled = summarize(run.path, samples=3, seed=0).sampled
    assert len(sampled) == 3
    episodes = _section(page, "episodes")
    for episode in sampled:
        tags = re.findall(rf'<img class="annot" data-episode="{episode.id}" data-step="(\d+)"[^>]*src="([^"]+)"',
                          episodes)
        assert [int(i) for i, _ in tags] == list(range(len(episode.steps)))
        image = Image.open(io.BytesIO(base64.b64decode(tags[0][1].split(",", 1)[1])))
        assert image.format == "JPEG" and image.width == 270 and image.height == 600
        px = image.convert("RGB").tobytes()
        red = sum(1 for i in range(0, len(px), 3) if px[i] > 200 and px[i + 1] < 80 and px[i + 2] < 80)
        assert red > 20, "the action is drawn in red"
    steps = sum(len(e.steps) for e in sampled)
    assert episodes.count('class="reasoning"') == steps
    assert episodes.count("exported answer (react-zh)") == steps  # every step matched in the shards
    assert set(re.findall(r'data-episode="([^"]+)"', page)) == {e.id for e in sampled}


def test_sampling_is_deterministic(built):
    run = built["run"].path
    ids = [e.id for e in summarize(run, samples=3, seed=0).sampled]
    assert ids == [e.id for e in summarize(run, samples=3, seed=0).sampled]
    assert len({e.id for e in summarize(run, samples=10, seed=1).sampled}) == 5


def test_max_length_override(built, tmp_path):
    page = write_report(built["run"].path, tmp_path / "r.html", max_length=4096, samples=0).read_text("utf-8")
    assert "4,096" in _section(page, "tokens")
    assert "<article" not in page and "No episodes sampled" in _section(page, "episodes")


@pytest.mark.parametrize("which", ["bare", "empty"])
def test_unfinished_runs_still_render_every_section(built, which, tmp_path):
    run_dir = built["bare"] if which == "bare" else tmp_path / "nothing"
    page = write_report(run_dir, tmp_path / "r.html").read_text(encoding="utf-8")
    for name in SECTIONS:
        _section(page, name)
    _assert_self_contained(page)
    assert "No exports yet" in _section(page, "tokens") and "No exports yet" in _section(page, "packing")
    assert "No annotations yet" in _section(page, "llm")
    if which == "bare":
        assert "no reasoning yet" in _section(page, "episodes") and 'class="annot"' in page
    else:
        assert "No episodes yet" in _section(page, "episodes") and "No episodes yet" in _section(page, "actions")


def test_plots_use_a_cjk_font():
    from sftdata.overlay.fonts import FontMissingError, find_cjk_font
    try:
        spec = find_cjk_font()
    except FontMissingError as exc:
        pytest.skip(str(exc))
    import matplotlib
    name = use_cjk_font()
    assert name and matplotlib.rcParams["font.sans-serif"][0] == name and (spec.family in ("", name))


@pytest.mark.chromium
def test_renders_in_headless_chromium(built, tmp_path):
    with Browser() as browser:
        page = browser.open(built["html"].resolve().as_uri())
        sections = page.evaluate("[...document.querySelectorAll('section')].map("
                                 "s => [s.id, s.getBoundingClientRect().height, s.querySelector('h2').innerText])")
        images = page.evaluate("[...document.images].map(i => [i.complete, i.naturalWidth])")
        page.screenshot(str(tmp_path / "report.png"))
        errors, requests = page.errors, page.requests
    assert [s[0] for s in sections] == list(SECTIONS)
    assert all(height > 40 and title for _, height, title in sections), sections
    assert images and all(done and width > 0 for done, width in images)
    assert errors == []
    assert all(u.startswith("data:") or u == built["html"].resolve().as_uri() for u in requests), requests
    shot = Image.open(tmp_path / "report.png")
    assert shot.size == (1280, 900) and len(shot.convert("L").getcolors(1 << 16) or []) > 10


def test_the_report_is_noted_in_the_run_manifest(built):
    entry = built["run"].manifest()["stages"]["report"][str(built["html"].resolve())]
    assert entry["bytes"] == built["html"].stat().st_size and entry["samples"] == 3 and entry["elapsed_s"] >= 0
    export = built["run"].manifest()["stages"]["export"]["export/react-zh"]
    assert export["finished"] and export["format"] == "react-zh"


def test_the_header_counts_say_what_they_count_and_agree_with_the_tables(built, tmp_path):
    from sftdata.report.data import count_tables
    from sftdata.report.html import _chips

    run = RunDir(tmp_path / "run")
    shutil.copytree(built["run"].path, run.path)
    with Ledger(run.rejects_path) as rejects:  # beside the fixture's one ingest reject
        rejects.append({"episode_id": "z1", "source": "androidcontrol", "stage": "annotate",
                        "reason": "item_count_mismatch"})
        for step in (1, 2):
            rejects.append({"episode_id": "w1", "source": "mind2web", "stage": "ingest:step", "step": step,
                            "reason": "no_positive_candidate"})
        rejects.append({"episode_id": "100000", "source": None, "stage": "export:browser-use",
                        "reason": "platform_not_web"})
    s = summarize(run.path, samples=0)
    chips = _chips(s)
    assert "2 episodes rejected" in chips and "2 steps dropped" in chips and "1 episode left out of an export" in chips
    tables = {title: rows for title, _, rows in count_tables(s)}
    by_what = {}
    for stage, reason, n, what in tables["Rejected by stage and reason"]:
        by_what[what] = by_what.get(what, 0) + n
    assert by_what == {"episodes rejected": 2, "steps dropped": 2, "episodes this export cannot use": 1}
    per_source = {row[0]: row[-1] for row in tables["Episodes per source"]}
    annotation = {row[0]: row[4] for row in tables["Annotation"]}
    assert per_source["total"] + annotation["episodes"] == 2  # rejected at ingest + at annotate


def test_each_sampled_episode_shows_the_export_that_holds_it_or_why_none_does(built, tmp_path):
    from sftdata.report.data import ExportSummary
    from sftdata.report.episodes import sampled_views

    run = RunDir(tmp_path / "run")
    shutil.copytree(built["run"].path, run.path)  # the ledger gets a line below
    sampled = summarize(run.path, samples=3, seed=0).sampled
    first = tmp_path / "a-first"  # an export sorted first that holds one sampled episode only
    first.mkdir()
    (first / "manifest.json").write_text('{"format": "react-zh", "samples": {"train": 4, "val": 0}}')
    (first / "splits.json").write_text(f'{{"train": ["{sampled[1].id}"], "val": []}}')
    exports = [ExportSummary.load(first), ExportSummary.load(run.path / "export" / "react-zh")]
    views = sampled_views(run.path, sampled, exports)
    assert [v.export for v in views] == ["react-zh", "a-first", "react-zh"]
    assert all(st.answer for v in views if v.export == "react-zh" for st in v.steps)
    assert all(v.absent is None for v in views)

    alone = sampled_views(run.path, sampled, exports[:1])  # only the export that lacks two of them
    assert [v.export for v in alone] == [None, "a-first", None]
    assert alone[0].absent == "In no export: made before it was annotated: export again."
    with Ledger(run.rejects_path) as rejects:
        rejects.append({"episode_id": sampled[2].id, "source": "androidcontrol", "stage": "export:a-first",
                        "reason": "judge_rejected"})
    assert sampled_views(run.path, sampled, exports[:1])[2].absent == "In no export: export:a-first judge_rejected."
