"""Unsure items through the judge: the rules backend records them without failing them, and a judge model reads
only the episodes that hold one (through the real openai SDK against the scripted loopback endpoint); its verdict
decides those items, the checks' verdicts stand for the others."""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from fake_openai import FakeOpenAI
from judge_fake import episode_key, verdict
from sftdata.checks.certify import certify_items
from sftdata.cli import main
from sftdata.io import iter_jsonl
from sftdata.judge.stage import JudgeOptions, judge_run
from sftdata.rundir import RunDir
from support import make_unsure, sample_run

KEY_ENV = "SFTDATA_TEST_UNSURE_KEY"


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    run = sample_run(tmp_path_factory.mktemp("unsure"), 4, annotate=True)
    first = next(run.episodes()).id
    make_unsure(run, first, 1)
    return run.path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


def _latest(run: RunDir) -> dict[str, dict]:
    return {r["id"]: r for r in iter_jsonl(run.path / "judgements.jsonl")}


def test_the_rules_judge_records_unsure_items_without_failing_them(run):
    result = judge_run(run, JudgeOptions(progress=False))
    first = next(run.episodes()).id
    item = _latest(run)[first]["items"][1]
    assert item["certification"] == "unsure" and item["aligned"] is None and "no_decision" in item["why"]
    assert _latest(run)[first]["passed"] and result.failed == 0
    assert result.outcomes["unsure"] >= 1 and result.outcomes["unsure_by_reason"]["no_decision"] >= 1
    assert run.manifest()["stages"]["judge"]["verdicts"]["certification"]["unsure"] == result.outcomes["unsure"]
    out = CliRunner().invoke(main, ["judge", str(run.path), "--no-progress"])
    assert out.exit_code == 0 and "certified" in out.output and "unsure" in out.output, out.output


def test_a_judge_model_reads_only_episodes_with_an_unsure_item(run, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-unsure-0000")
    episodes = list(run.episodes())
    first = episodes[0]
    asked: list = []

    def responder(body, n):
        asked.append(episode_key(body))
        # the model fails the unsure item, and (to show its other verdicts do not count) a certified one too
        return verdict(body, {2: {"aligned": False, "score": 2, "why": "推理没有说要做什么。"},
                              1: {"aligned": False, "score": 1, "why": "模型不同意。"}})

    opts = JudgeOptions(backend="openai", model="judge-vl", api_key_env=KEY_ENV, timeout=5, max_retries=0,
                        progress=False)
    with FakeOpenAI(responder) as srv:
        result = judge_run(run, JudgeOptions(**{**opts.__dict__, "base_url": srv.base_url}))
    annotations = run.latest_annotations()
    unsure = {e.goal for e in episodes
              if any(c.outcome == "unsure" for c in certify_items(annotations[e.id]["items"], e))}
    assert first.goal in unsure and {k[0] for k in asked} == unsure  # only the episodes with an unsure item
    assert result.by_checks == len(episodes) - len(unsure) > 0 and result.new_judged == len(unsure)
    record = _latest(run)[first.id]
    items = {v["index"]: v for v in record["items"]}
    assert items[1]["aligned"] is False and items[1]["certification"] == "unsure"  # the model decided it
    assert items[0]["aligned"] is True and items[0]["certification"] == "certified"  # the checks' verdict
    assert record["reasons"] == ["judge_aligned", "judge_score"] and not record["passed"]
