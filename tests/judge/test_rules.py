"""The offline rules judge on the real fixtures and the generated sample: template annotations pass, a hand-broken
item fails with the right field; export skips a failed episode and names the judge of the others; `sftdata run`
with a [judge] table judges and still balances its accounting."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run
from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.io import iter_jsonl
from sftdata.judge.rules import rules_verdict
from sftdata.judge.stage import JudgeOptions, judge_run
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from built_once import sample_file
from support import AC_RECORD, ANNOTATED, sample_run, missing_shared

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)


def _judgements(run: RunDir) -> dict[str, dict]:
    return {r["id"]: r for r in iter_jsonl(run.path / "judgements.jsonl")}


def _rewrite_annotation(run: RunDir, eid: str, change) -> None:
    path = run.path / "annotations.jsonl"
    records = list(iter_jsonl(path))
    for r in records:
        if r["id"] == eid:
            change(r["items"])
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


@pytest.mark.parametrize("source", ["androidcontrol", "annotated"])
def test_template_annotations_of_the_real_fixtures_pass(source, tmp_path):
    if not (AC_RECORD.exists() and ANNOTATED.exists()):
        pytest.skip(missing_shared())
    run = RunDir(tmp_path / "run")
    if source == "androidcontrol":
        ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    else:
        ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    result = judge_run(run, JudgeOptions(progress=False))
    judged = _judgements(run)
    assert result.judged == len(judged) == len(list(iter_jsonl(run.path / "annotations.jsonl"))) > 0
    for record in judged.values():
        assert record["passed"] and record["backend"] == "rules" and record["model"] == "rules_v3"
        assert set(record) >= {"id", "backend", "model", "prompt_version", "items", "episode", "passed", "usage"}
        assert all(set(v) == {"index", "aligned", "grounded", "hindsight", "target_unambiguous", "score", "why",
                              "certification"} and v["score"] == 5 for v in record["items"])
        assert all(v["certification"] in ("certified", "unsure") for v in record["items"])
        assert all(v["aligned"] is None for v in record["items"] if v["certification"] == "unsure")
        assert set(record["episode"]) == {"task_completed", "goal_matches", "suggested_goal"}
    outcomes = [v["certification"] for r in judged.values() for v in r["items"]]
    assert outcomes.count("certified") >= 0.7 * len(outcomes)  # the template's own items carry their evidence
    assert not [r for r in run.rejects() if r["stage"] == "judge"]
    assert run.manifest()["stages"]["judge"]["verdicts"]["counts"]["passed"] == len(judged)


@pytest.fixture
def sample(tmp_path) -> RunDir:
    return sample_run(tmp_path, 6, annotate=True)


@pytest.mark.parametrize("index,change,field", [
    (1, lambda items: items[1].update(reasoning="这是第 2 步，共 9 步。" + items[1]["reasoning"]), "hindsight"),
    # an outcome told after the decision (told before a new decision, it is the previous step's)
    (1, lambda items: items[1].update(reasoning=items[1]["reasoning"] + "点击后页面显示出了新的列表。"), "hindsight"),
    (0, lambda items: items[0].update(function={"name": "press_home", "parameters": {}}), "aligned"),
    (2, lambda items: items[2].update(reasoning=items[2]["reasoning"] + "图中的红圈标出了位置。"), "hindsight"),
])
def test_a_broken_item_fails_with_its_field(sample, index, change, field):
    eid = next(sample.episodes()).id
    items = json.loads(json.dumps(next(r for r in iter_jsonl(sample.path / "annotations.jsonl")
                                       if r["id"] == eid)["items"]))
    change(items)
    episode = next(sample.episodes())
    verdicts, _ = rules_verdict(episode, items)
    bad = verdicts[index]
    assert bad.score < 5 and bad.why.startswith("未通过")
    assert {"aligned": bad.aligned is False, "hindsight": bad.hindsight is True}[field]
    assert [v.index for v in verdicts if v.score < 5] == [index]

    _rewrite_annotation(sample, eid, change)
    result = judge_run(sample, JudgeOptions(progress=False))
    assert result.failed == 1 and result.by_reason == {f"judge_{field}": 1}
    rejects = [r for r in sample.rejects() if r["stage"] == "judge"]
    assert [(r["episode_id"], r["reason"]) for r in rejects] == [(eid, f"judge_{field}")]
    assert rejects[0]["detail"].startswith(f"item {index + 1}: ")


def test_min_score_decides_and_export_skips_failed_episodes(sample, tmp_path):
    ids = [e.id for e in sample.episodes()]
    _rewrite_annotation(sample, ids[0], lambda items: items[0].update(reasoning=items[0]["reasoning"] + "点击后页面显示出了结果。"))
    # reasoning_not_chinese alone: aligned, grounded, no hindsight, but score 4 -> fails only --min-score 5
    _rewrite_annotation(sample, ids[1], lambda items: items[0].update(
        reasoning="Tap here to go on with the task, then continue."))
    result = judge_run(sample, JudgeOptions(progress=False))
    assert result.by_reason == {"judge_hindsight": 1}
    strict = judge_run(sample, JudgeOptions(progress=False, min_score=5))
    assert strict.new_judged == len(ids) and strict.by_reason == {"judge_hindsight": 1, "judge_score": 1}
    assert judge_run(sample, JudgeOptions(progress=False, min_score=5)).new_judged == 0  # resumed: nothing to do
    figures = sample.manifest()["stages"]["judge"]["verdicts"]["alignment"]
    assert figures["episodes"] == len(ids) and figures["episodes_passed"] == len(ids) - 2
    assert figures["aligned_rate"] == 1.0 and figures["passed_rate"] == round(1 - 2 / figures["items"], 4)
    assert figures["by_source"]["androidcontrol"]["items"] == figures["items"]
    assert sum(t["items"] for t in figures["by_action"].values()) == figures["items"]
    worst = figures["worst"][0]
    assert (worst["id"], worst["index"], worst["fails"]) == (ids[0], 0, ["hindsight", "score"])
    assert worst["score"] == 3 and "点击后页面显示出了结果" in worst["reasoning"] and worst["screenshot"]

    manifest = export_run(sample, tmp_path / "out", ExportOptions(format="react-zh", split_ratio=0.0)).manifest
    assert manifest["dropped_episodes"] == {ids[0]: "judge_rejected", ids[1]: "judge_rejected"}
    assert manifest["judges"] == {"rules:rules_v3:rules_v3": len(ids) - 2}
    assert set(manifest["judged_by"]) == set(ids[2:])
    assert manifest["fingerprint"]["judgements"] is not None

    # a re-annotation is judged anew; the old verdict no longer holds for it
    _rewrite_annotation(sample, ids[0], lambda items: items[0].update(reasoning=items[0]["reasoning"]
                                                                       .replace("点击后页面显示出了结果。", "")))
    again = judge_run(sample, JudgeOptions(progress=False, min_score=5))
    assert again.new_judged == 1 and again.by_reason == {"judge_score": 1}


def test_judge_command_and_pipeline_with_a_judge_table(tmp_path):
    sample_file(tmp_path / "s.tfrecord.gz", n_episodes=5, seed=1, size=(360, 800))
    (tmp_path / "cfg.toml").write_text('run_dir = "run"\n[[sources]]\ntype = "androidcontrol"\n'
                                       'paths = ["s.tfrecord.gz"]\n[judge]\nbackend = "rules"\nmin_score = 4\n'
                                       '[[export]]\nformat = "react-zh"\n[report]\nenabled = false\n')
    out = CliRunner().invoke(main, ["run", str(tmp_path / "cfg.toml"), "--no-progress"])
    assert out.exit_code == 0, out.output
    assert "judge: 5 judged, 5 passed, 0 failed" in out.output and "balanced" in out.output
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["stages"]["judge"]["verdicts"]["min_score"] == 4
    export = json.loads((tmp_path / "run" / "export" / "react-zh" / "manifest.json").read_text())
    assert export["judges"] == {"rules:rules_v3:rules_v3": 5}

    cli = CliRunner().invoke(main, ["judge", str(tmp_path / "run"), "--no-progress"])
    assert cli.exit_code == 0 and "judged 5 new episodes, 0 failed" in cli.output  # another min_score: anew
    bad = CliRunner().invoke(main, ["judge", str(tmp_path / "nowhere")])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_judge_needs_annotations(tmp_path):
    run = sample_run(tmp_path, 2)
    out = CliRunner().invoke(main, ["judge", str(run.path)])
    assert out.exit_code == 1 and "run `sftdata annotate` first" in out.output
