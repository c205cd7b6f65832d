"""Export, review and the agreement figures read the judge the same way: the verdict of the annotation in use,
with the threshold the judge ran with; a review lifts the judge's veto only on the steps a reviewer decided;
``judged_by`` names who decided; a decision taken back leaves the rejects ledger. Each test failed before
sftdata.judge.status became the one reader of judgements.jsonl."""
from __future__ import annotations

import json
import shutil

import pytest

from sftdata.export.stage import ExportOptions, export_run
from sftdata.judge.status import judge_status
from sftdata.judge.verdict import annotation_digest
from sftdata.review.importer import agreement, import_review
from sftdata.review.ledger import load_reviews, resolve
from sftdata.review.tasks import export_review
from sftdata.rundir import RunDir
from support import sample_run

from records import decision, export_of


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    return sample_run(tmp_path_factory.mktemp("judge-review"), 2, annotate=True)


@pytest.fixture
def run(base_run, tmp_path):
    shutil.copytree(base_run.path, tmp_path / "run")
    return RunDir(tmp_path / "run")


def _judge(run, eid, record, scores, *, min_score=3, digest=None, passed=None):
    record = {"id": eid, "backend": "openai", "model": "judge-m", "prompt_version": "judge_zh_v2",
              "min_score": min_score, "annotation": {"digest": digest or annotation_digest(record["items"])},
              "items": [{"index": i, "aligned": True, "grounded": True, "hindsight": False,
                         "target_unambiguous": True, "score": s, "why": ""} for i, s in enumerate(scores)],
              "passed": all(s >= min_score for s in scores) if passed is None else passed,
              "reasons": [] if all(s >= min_score for s in scores) else ["judge_score"]}
    with open(run.judgements_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def _import(run, tmp_path, eid, results, when="2026-01-01T00:00:00Z", name="export.json"):
    export_review(run, tmp_path / "rev")
    tasks = json.loads((tmp_path / "rev" / "tasks.json").read_text())
    task = next(i for i, t in enumerate(tasks) if t["data"]["episode_id"] == eid)
    path = tmp_path / name
    path.write_text(json.dumps(export_of(tasks, {task: [{"completed_by": 3, "result": results, "updated_at": when}]}),
                               ensure_ascii=False))
    return import_review(run, path)


def test_review_reads_the_judges_threshold_and_only_the_current_annotations_verdict(run):
    items = run.latest_annotations()
    first, second = sorted(items)
    _judge(run, first, items[first], [4] + [3] * (len(items[first]["items"]) - 1), min_score=4)
    _judge(run, second, items[second], [1] * len(items[second]["items"]), digest="0" * 16)  # an old annotation
    status = judge_status(run.path, items)
    assert [v.passed for v in status[first].verdicts][:2] == [True, False]  # score 3 fails at the judge's 4
    assert second not in status  # the verdict of an earlier annotation does not count
    steps = {(first, 1): type("R", (), {"outcome": "accept", "episode_id": first, "step": 1,
                                        "original_passed_rules": None})()}
    figures = agreement(steps, run)
    assert figures["judge_vs_human"]["n"] == 1 and figures["judge_vs_human"]["raw_agreement"] == 0.0


def test_a_review_lifts_the_veto_only_on_the_steps_a_reviewer_decided(run, tmp_path):
    items = run.latest_annotations()
    eid = sorted(items)[0]
    n = len(items[eid]["items"])
    assert n >= 3
    _judge(run, eid, items[eid], [1] + [5] * (n - 2) + [1])  # the judge fails the first and the last step
    _import(run, tmp_path, eid, decision(0, "accept"))  # a reviewer decides only the first
    out = tmp_path / "sft"
    manifest = export_run(run, out, ExportOptions(format="react-zh", split_ratio=0.0, progress=False)).manifest
    assert manifest["dropped"]["judge_rejected"] == 1  # the last step: failed by the judge, decided by nobody
    assert manifest["judged_by"][eid] == "human:user:3"  # the reviewer as Label Studio names them
    rows = [json.loads(x) for shard in manifest["shards"]["train"] for x in (out / shard).read_text().splitlines()]
    answers = {r["messages"][-1]["content"] for r in rows}
    assert json.dumps(items[eid]["items"][0], ensure_ascii=False) in answers or any(
        items[eid]["items"][0]["reasoning"] in a for a in answers)
    assert not any(items[eid]["items"][n - 1]["reasoning"] in a for a in answers)


def test_a_reject_taken_back_by_the_same_reviewer_leaves_the_ledger(run, tmp_path):
    eid = sorted(run.latest_annotations())[0]
    _import(run, tmp_path, eid, decision(1, "reject"), when="2026-01-01T00:00:00Z", name="first.json")
    assert [r["step"] for r in run.rejects() if r.get("reason") == "human_rejected"] == [1]
    _import(run, tmp_path, eid, decision(1, "accept"), when="2026-01-02T00:00:00Z", name="second.json")
    assert resolve(load_reviews(run.path))[eid, 1].outcome == "accept"
    assert not [r for r in run.rejects() if r.get("reason") == "human_rejected"]


def test_an_episode_a_later_export_uses_leaves_the_export_rejects(run, tmp_path):
    from sftdata.export.stage import ExportOptions, ExportStage

    eid = sorted(run.latest_annotations())[0]
    stage = ExportStage(run, ExportOptions(format="react-zh"), out=run.path / "export" / "react-zh")
    stage.ledger_dropped({"format": "react-zh", "dropped_episodes": {eid: "judge_rejected"}}, set())
    assert [r["episode_id"] for r in run.rejects() if r.get("stage") == "export:react-zh"] == [eid]
    stage.ledger_dropped({"format": "react-zh", "dropped_episodes": {}}, {eid})
    assert not [r for r in run.rejects() if r.get("stage") == "export:react-zh"]
