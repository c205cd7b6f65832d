"""What export does with the steps the checks leave unsure: held back and listed with what was missing, unless a
judge model passed them, a reviewer decided them, or ``--include-unsure``; rejected steps stay out as well."""
from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run
from sftdata.judge.verdict import annotation_digest
from sftdata.rundir import RunDir
from support import UNSURE, make_unsure, sample_run


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    run = sample_run(tmp_path_factory.mktemp("unsure-export"), 3, annotate=True)
    make_unsure(run, next(run.episodes()).id, 1)
    return run.path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


def _answers(out) -> list[str]:
    return [json.loads(line)["messages"][-1]["content"] for path in sorted(out.glob("train-*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def _held(out) -> list[dict]:
    return json.loads((out / "held_back.json").read_text(encoding="utf-8"))


def _export(run, out, **kw):
    return export_run(run, out, ExportOptions(split_ratio=0.0, progress=False, **kw))


def test_unsure_steps_are_held_back_with_what_was_missing(run, tmp_path):
    result = _export(run, tmp_path / "sft")
    first = next(run.episodes()).id
    held = _held(tmp_path / "sft")
    ours = [h for h in held if h["episode_id"] == first and h["step"] == 1]
    assert ours and ours[0]["outcome"] == "unsure" and ours[0]["reason"] == "no_decision" and ours[0]["detail"]
    assert result.dropped["unsure"] == len(held) == result.manifest["held_back"]["unsure"]
    assert not any(UNSURE in a for a in _answers(tmp_path / "sft"))
    steps = sum(len(e.steps) for e in run.episodes())
    assert sum(result.samples.values()) + len(held) == steps
    assert result.manifest["certification"]["certified"] + len(held) == steps


def test_include_unsure_takes_them_all(run, tmp_path):
    result = _export(run, tmp_path / "sft", include_unsure=True)
    assert _held(tmp_path / "sft") == [] and "unsure" not in result.dropped
    assert any(UNSURE in a for a in _answers(tmp_path / "sft"))
    out = CliRunner().invoke(main, ["export", str(run.path), "--format", "react-zh", "--out", str(tmp_path / "cli"),
                                    "--include-unsure", "--no-progress"])
    assert out.exit_code == 0, out.output
    assert json.loads((tmp_path / "cli" / "manifest.json").read_text())["options"]["include_unsure"] is True


def _judged(run, backend: str, passed: bool) -> None:
    """A judgement of the first episode's current items: every item passing, or item 2 failing."""
    first = next(run.episodes())
    items = run.latest_annotations()[first.id]["items"]
    verdicts = [{"index": i, "aligned": passed or i != 1, "grounded": True, "hindsight": False,
                 "target_unambiguous": True, "score": 5 if passed or i != 1 else 2, "why": "…"}
                for i in range(len(items))]
    with open(run.path / "judgements.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps({"id": first.id, "backend": backend, "model": "m", "prompt_version": "p", "items": verdicts,
                            "passed": passed, "reasons": [] if passed else ["judge_aligned"], "min_score": 3,
                            "annotation": {"digest": annotation_digest(items)}}) + "\n")


def test_a_judge_model_that_passed_the_step_lets_it_through(run, tmp_path):
    _judged(run, "openai", passed=True)
    _export(run, tmp_path / "sft")
    first = next(run.episodes()).id
    assert not [h for h in _held(tmp_path / "sft") if h["episode_id"] == first]
    assert any(UNSURE in a for a in _answers(tmp_path / "sft"))


def test_the_rules_judge_passing_an_episode_does_not_pass_its_unsure_step(run, tmp_path):
    _judged(run, "rules", passed=True)
    _export(run, tmp_path / "sft")
    first = next(run.episodes()).id
    assert [h["step"] for h in _held(tmp_path / "sft") if h["episode_id"] == first] == [1]


def test_a_judge_model_that_failed_it_vetoes_it(run, tmp_path):
    _judged(run, "openai", passed=False)
    result = _export(run, tmp_path / "sft")
    assert result.dropped["judge_rejected"] == 1 and not any(UNSURE in a for a in _answers(tmp_path / "sft"))


def test_a_reviewer_who_accepted_the_step_lets_it_through(run, tmp_path):
    first = next(run.episodes()).id
    with open(run.path / "reviews.jsonl", "w", encoding="utf-8") as f:
        f.write(json.dumps({"key": "k", "episode_id": first, "step": 1, "decision": "accept", "applied": True,
                            "item": run.latest_annotations()[first]["items"][1], "failures": [],
                            "provenance": {"by": "human", "reviewer": "ann", "time": "t"}}) + "\n")
    _export(run, tmp_path / "sft")
    assert not [h for h in _held(tmp_path / "sft") if h["episode_id"] == first and h["step"] == 1]
    assert any(UNSURE in a for a in _answers(tmp_path / "sft"))


def test_a_rejected_step_stays_out_whatever_the_options(run, tmp_path):
    first = next(run.episodes())
    record = run.latest_annotations()[first.id]
    items = [dict(i) for i in record["items"]]
    step = next(i for i, s in enumerate(first.steps) if s.action.type == "click")
    items[step]["reasoning"] = "向下滚动页面，查看下方更多的选项。"  # decides a swipe; the call is a click
    items[step].pop("thought", None)
    with open(run.path / "annotations.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps({**record, "items": items, "model": "other"}, ensure_ascii=False) + "\n")
    _export(run, tmp_path / "sft", include_unsure=True)
    held = [h for h in _held(tmp_path / "sft") if h["episode_id"] == first.id]
    assert [(h["step"], h["outcome"], h["reason"]) for h in held] == [(step, "rejected", "reasoning_contradicts_action")]
