"""Review export and import without a server: tasks and config, provenance, idempotence, disagreement,
rejected steps left out of the export with the accounting balanced, agreement figures."""
from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run
from sftdata.io import iter_jsonl
from sftdata.judge.verdict import annotation_digest
from sftdata.review.importer import import_review
from sftdata.review.tasks import export_review
from support import sample_run

from records import CLEAN_EDIT, HINDSIGHT_EDIT, decision, export_of

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("review"), 3, annotate=True)


@pytest.fixture
def run(base_run, tmp_path):
    import shutil
    shutil.copytree(base_run.path, tmp_path / "run")
    from sftdata.rundir import RunDir
    return RunDir(tmp_path / "run")


def _digest(path: Path) -> str:
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file())).hexdigest()


def _items(run) -> dict:
    return {r["id"]: r["items"] for r in iter_jsonl(run.path / "annotations.jsonl")}


def test_export_writes_one_task_per_episode_and_a_valid_config(run, tmp_path):
    images = _digest(run.path / "images")
    result = export_review(run, tmp_path / "rev")
    tasks = json.loads((tmp_path / "rev" / "tasks.json").read_text())
    assert result.tasks == len(tasks) == 3
    items = _items(run)
    for task in tasks:
        d = task["data"]
        its = items[d["episode_id"]]
        assert [s["index"] for s in d["steps"]] == list(range(len(its)))
        assert [s["reasoning"] for s in d["steps"]] == [i["reasoning"] for i in its]
        assert [json.loads(s["function"]) for s in d["steps"]] == [i["function"] for i in its]
        assert all(s["screenshot"].startswith("data:image/jpeg;base64,") and s["annotator"] != s["screenshot"]
                   for s in d["steps"])
        assert d["judge_episode"] == "judge: no verdict for this episode"
    root = ET.fromstring((tmp_path / "rev" / "config.xml").read_text())
    names = {e.get("name") for e in root.iter() if e.get("name")}
    assert {"decision_{{idx}}", "reasoning_{{idx}}", "function_{{idx}}", "screenshot_{{idx}}"} <= names
    assert [c.get("value") for c in root.iter("Choice")] == ["accept", "edit", "reject"]
    assert _digest(run.path / "images") == images  # originals untouched


def test_export_shows_the_judges_verdict_and_selects_failed_or_passed(run, tmp_path):
    ids = sorted(_items(run))
    ok = {"aligned": True, "grounded": True, "hindsight": False, "target_unambiguous": True, "score": 5, "why": "对"}
    bad = dict(ok, aligned=False, score=2, why="推理指向了别的控件")
    with open(run.path / "judgements.jsonl", "w") as f:
        for eid, items in _items(run).items():
            verdicts = [dict(bad if eid == ids[0] and i == 1 else ok, index=i) for i in range(len(items))]
            f.write(json.dumps({"id": eid, "items": verdicts[::-1], "extra": 1,  # placed by "index"
                                "annotation": {"digest": annotation_digest(items)}}) + "\n")
    export_review(run, tmp_path / "failed", only="failed")
    failed = json.loads((tmp_path / "failed" / "tasks.json").read_text())
    assert [t["data"]["episode_id"] for t in failed] == [ids[0]]
    assert failed[0]["data"]["steps"][1]["judge"].startswith("judge: aligned ✗")
    assert "推理指向了别的控件" in failed[0]["data"]["steps"][1]["judge"]
    export_review(run, tmp_path / "passed", only="passed", sample=1, seed=3)
    passed = json.loads((tmp_path / "passed" / "tasks.json").read_text())
    assert len(passed) == 1 and passed[0]["data"]["episode_id"] in ids[1:]


def test_export_can_write_image_files_for_url_serving(run, tmp_path):
    export_review(run, tmp_path / "rev", sample=1, image_url="/data/local-files/?d=rev/images/")
    task = json.loads((tmp_path / "rev" / "tasks.json").read_text())[0]
    step = task["data"]["steps"][0]
    assert step["screenshot"].startswith("/data/local-files/?d=rev/images/")
    assert (tmp_path / "rev" / "images" / step["screenshot"].rsplit("/", 1)[1]).is_file()


def _reviewed(run, tmp_path, annotations) -> Path:
    export_review(run, tmp_path / "rev")
    tasks = json.loads((tmp_path / "rev" / "tasks.json").read_text())
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export_of(tasks, annotations), ensure_ascii=False))
    return path


def test_import_applies_edits_rejects_with_provenance_and_is_idempotent(run, tmp_path):
    path = _reviewed(run, tmp_path, {0: [{"completed_by": 7, "updated_at": "2026-02-01T10:00:00Z",
                                          "result": decision(0, "accept") + decision(1, "edit", CLEAN_EDIT)
                                          + decision(2, "reject") + decision(3, "edit", HINDSIGHT_EDIT)}]})
    eid = json.loads((tmp_path / "rev" / "tasks.json").read_text())[0]["data"]["episode_id"]
    result = import_review(run, path)
    assert result.new == 4 and [f["step"] for f in result.edit_failures] == [3]
    assert "hindsight" in {f["reason"] for f in result.edit_failures[0]["failures"]}
    reviews = list(iter_jsonl(run.path / "reviews.jsonl"))
    assert {r["step"]: r["decision"] for r in reviews} == {0: "accept", 1: "edit", 2: "reject", 3: "edit"}
    assert all(r["provenance"] == {"by": "human", "reviewer": "user:7", "time": "2026-02-01T10:00:00Z"}
               for r in reviews)
    assert [r["item"]["reasoning"] for r in reviews if r["step"] == 1] == [CLEAN_EDIT]
    assert [r["applied"] for r in reviews] == [True, True, True, False]
    rejects = [r for r in iter_jsonl(run.path / "rejects.jsonl") if r["stage"] == "review"]
    assert [(r["episode_id"], r["step"], r["reason"]) for r in rejects] == [(eid, 2, "human_rejected")]
    summary = run.manifest()["stages"]["review"]["human"]
    assert (summary["accepted"], summary["edited"], summary["rejected"], summary["edit_failed"]) == (1, 1, 1, 1)

    before = {p.name: p.read_bytes() for p in run.path.iterdir() if p.is_file() and p.name != ".lock"}
    again = import_review(run, path)
    assert again.new == 0
    assert {p.name: p.read_bytes() for p in run.path.iterdir() if p.is_file() and p.name != ".lock"} == before

    out = export_run(run, tmp_path / "sft", ExportOptions(format="react-zh", split_ratio=0.0, progress=False))
    manifest = json.loads((tmp_path / "sft" / "manifest.json").read_text())
    rows = [json.loads(line) for name in manifest["shards"]["train"]
            for line in (tmp_path / "sft" / name).read_text().splitlines()]
    answers = [r["messages"][-1]["content"] for r in rows]
    assert any(CLEAN_EDIT in a for a in answers)
    rejected_reasoning = _items(run)[eid][2]["reasoning"]
    assert not any(rejected_reasoning in a for a in answers)
    steps = sum(len(e) for e in _items(run).values())
    assert out.samples["train"] + sum(out.dropped.values()) == steps  # every step exported or dropped
    assert out.dropped["human_rejected"] == 1
    assert manifest["human_review"] == {"accept": 1, "edit": 1, "reject": 1}
    assert sum(manifest["episodes"].values()) + len(manifest["dropped_episodes"]) == 3


def test_two_reviewers_are_both_kept_and_their_disagreement_flagged(run, tmp_path):
    path = _reviewed(run, tmp_path, {1: [
        {"completed_by": 1, "updated_at": "2026-02-01T10:00:00Z", "result": decision(0, "accept") + decision(1, "accept")},
        {"completed_by": 2, "updated_at": "2026-02-01T11:00:00Z",
         "result": decision(0, "accept") + decision(1, "edit", CLEAN_EDIT)}]})
    eid = json.loads((tmp_path / "rev" / "tasks.json").read_text())[1]["data"]["episode_id"]
    import_review(run, path)
    reviews = list(iter_jsonl(run.path / "reviews.jsonl"))
    assert sorted((r["step"], r["provenance"]["reviewer"]) for r in reviews) == [
        (0, "user:1"), (0, "user:2"), (1, "user:1"), (1, "user:2")]
    summary = run.manifest()["stages"]["review"]["human"]
    assert summary["disagreements"] == [f"{eid}:1"] and summary["reviewers"] == ["user:1", "user:2"]
    assert (summary["accepted"], summary["edited"]) == (1, 1)  # the edit is applied, the disagreement kept


def test_agreement_figures_in_the_manifest_and_the_report(run, tmp_path):
    items = _items(run)
    ids = sorted(items)
    path = _reviewed(run, tmp_path, {0: [{"result": decision(0, "accept") + decision(1, "accept")
                                          + decision(2, "reject") + decision(3, "reject")}]})
    eid = json.loads((tmp_path / "rev" / "tasks.json").read_text())[0]["data"]["episode_id"]
    ok = {"aligned": True, "grounded": True, "hindsight": False, "target_unambiguous": True, "score": 5, "why": ""}
    no = dict(ok, aligned=False)
    with open(run.path / "judgements.jsonl", "w") as f:  # judge: pass, fail, fail, fail -> human: a, a, r, r
        f.write(json.dumps({"id": eid, "items": [ok, no, no, no] + [ok] * (len(items[eid]) - 4),
                            "annotation": {"digest": annotation_digest(items[eid])}}) + "\n")
    import_review(run, path)
    a = run.manifest()["stages"]["review"]["human"]["agreement"]
    assert a["judge_vs_human"] == {"n": 4, "raw_agreement": 0.75, "kappa": 0.5}
    assert a["rules_vs_human"] == {"n": 4, "raw_agreement": 0.5, "kappa": 0.0}  # the rules passed all four
    assert a["human_alignment"] == {"n": 4, "aligned": 2, "rate": 0.5, "ci95": [0.15, 0.85]}
    from sftdata.report.html import render_report
    page = render_report(run.path, samples=0)
    assert '<section id="review">' in page and "judge vs human" in page and "0.500" in page
    assert ids  # the run has episodes


def test_cli_review_export_and_import(run, tmp_path):
    r = CliRunner().invoke(main, ["review", "export", str(run.path), "--out", str(tmp_path / "rev"), "--sample", "2"])
    assert r.exit_code == 0, r.output
    assert "wrote 2 tasks" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}')
    r = CliRunner().invoke(main, ["review", "import", str(run.path), str(bad)])
    assert r.exit_code != 0 and "not a Label Studio JSON export" in r.output and "Traceback" not in r.output


def test_parse_export_skips_cancelled_and_undecided_and_names_reviewers():
    from sftdata.review.lsexport import parse_export

    task = {"id": 1, "data": {"episode_id": "e"}, "annotations": [
        {"id": 1, "completed_by": {"id": 3, "email": "a@example.com"}, "updated_at": "t1",
         "result": decision(0, "reject") + [{"from_name": "reasoning_1", "type": "textarea",
                                              "value": {"text": ["没有选择"]}}]},
        {"id": 2, "completed_by": 4, "was_cancelled": True, "result": decision(0, "accept")}]}
    got = parse_export([task])
    assert [(d.step, d.decision, d.reviewer, d.time) for d in got] == [(0, "reject", "a@example.com", "t1")]
    with pytest.raises(Exception, match="no data.episode_id"):
        parse_export([{"id": 1, "data": {"text": "x"}}])


def test_a_reviewed_episode_follows_its_reviewers_not_a_failing_judge(run, tmp_path):
    from sftdata.judge.verdict import annotation_digest

    items = _items(run)
    tasks_path = tmp_path / "rev" / "tasks.json"
    export_review(run, tmp_path / "rev")
    first, second = (t["data"]["episode_id"] for t in json.loads(tasks_path.read_text())[:2])
    with open(run.path / "judgements.jsonl", "w", encoding="utf-8") as f:  # an LLM judge failed both episodes
        for eid in (first, second):
            f.write(json.dumps({"id": eid, "backend": "openai", "model": "judge-m", "prompt_version": "judge_zh_v1",
                                "passed": False, "reasons": ["judge_aligned"],
                                "annotation": {"digest": annotation_digest(items[eid])}}) + "\n")
    every_step = [r for s in range(len(items[first])) for r in decision(s, "accept")]
    import_review(run, _reviewed(run, tmp_path, {0: [{"completed_by": 3, "result": every_step}]}))

    manifest = export_run(run, tmp_path / "sft", ExportOptions(format="react-zh", split_ratio=0.0,
                                                               progress=False)).manifest
    assert manifest["dropped_episodes"] == {second: "judge_rejected"}  # the unreviewed one: the judge decides
    splits = json.loads((tmp_path / "sft" / "splits.json").read_text())
    assert first in splits["train"]  # the reviewed one: its reviewers accepted every step


def test_an_edit_whose_reasoning_contradicts_its_action_fails_the_recheck(run, tmp_path):
    export_review(run, tmp_path / "rev")
    tasks = json.loads((tmp_path / "rev" / "tasks.json").read_text())
    eid = tasks[0]["data"]["episode_id"]
    name = _items(run)[eid][1]["function"]["name"]
    wrong = "点击屏幕上的“设置”。" if name in ("swipe", "done") else "向下滚动页面，查看下方更多的选项。"
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export_of(tasks, {0: [{"completed_by": 7, "updated_at": "2026-02-01T10:00:00Z",
                                                      "result": decision(1, "edit", wrong)}]}), ensure_ascii=False))
    result = import_review(run, path)
    assert [f["step"] for f in result.edit_failures] == [1]
    assert "reasoning_contradicts_action" in {f["reason"] for f in result.edit_failures[0]["failures"]}


def test_push_and_pull_without_what_they_need_say_so_without_a_traceback(run, monkeypatch):
    monkeypatch.delenv("LABEL_STUDIO_URL", raising=False)
    monkeypatch.delenv("LABEL_STUDIO_API_KEY", raising=False)
    runner = CliRunner()
    nothing_pushed = runner.invoke(main, ["review", "pull", str(run.path), "--token", "t"])
    assert nothing_pushed.exit_code != 0 and "run `sftdata review push` first" in nothing_pushed.output
    no_url = runner.invoke(main, ["review", "push", str(run.path), "--token", "t"])
    assert no_url.exit_code != 0 and "needs --url and --token" in no_url.output
    dead = runner.invoke(main, ["review", "push", str(run.path), "--token", "t", "--url", "http://127.0.0.1:9"])
    assert dead.exit_code != 0 and "cannot reach Label Studio" in dead.output
    assert not any("Traceback" in r.output for r in (nothing_pushed, no_url, dead))


def test_nothing_selected_writes_nothing_and_says_why(tmp_path):
    from sftdata.exitcodes import NothingProduced

    run = sample_run(tmp_path, 2, annotate=True)
    with pytest.raises(NothingProduced, match="nothing to review with --only failed: no annotated episode failed"):
        export_review(run, tmp_path / "rev", only="failed")
    assert not (tmp_path / "rev" / "tasks.json").exists()


def test_the_review_queue_is_the_unsure_steps_no_judge_model_passed(run, tmp_path):
    from support import UNSURE, make_unsure

    first = next(run.episodes()).id
    make_unsure(run, first, 1)
    result = export_review(run, tmp_path / "rev", only="unsure")
    tasks = json.loads((tmp_path / "rev" / "tasks.json").read_text())
    ids = [t["data"]["episode_id"] for t in tasks]
    assert first in ids and result.tasks == len(ids)
    step = next(t for t in tasks if t["data"]["episode_id"] == first)["data"]["steps"][1]
    assert step["reasoning"] == UNSURE and "checks: unsure — no_decision" in step["rules"]
    certified = next(t for t in tasks if t["data"]["episode_id"] == first)["data"]["steps"][0]
    assert "checks: certified —" in certified["rules"]
    out = CliRunner().invoke(main, ["review", "export", str(run.path), "--out", str(tmp_path / "cli"), "--only",
                                    "unsure"])
    assert out.exit_code == 0, out.output
