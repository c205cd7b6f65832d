"""The repair loop: an episode the judge failed goes back to annotate with the judge's notes in the prompt
(`sftdata annotate --repair-judged`), its new annotation is judged anew, and export then takes it."""
from __future__ import annotations

import json

from click.testing import CliRunner

from fake_openai import EpisodeIndex, FakeOpenAI, first_user_text, system_text
from judge_fake import episode_key, verdict
from sftdata.cli import main
from sftdata.export.stage import ExportOptions, export_run
from sftdata.io import iter_jsonl
from sftdata.judge.stage import JudgeOptions, judge_run
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from support import sample_run

KEY_ENV = "SFTDATA_TEST_REPAIR_KEY"


def test_failed_episode_is_repaired_with_the_judges_notes(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-repair-0000")
    run = sample_run(tmp_path, 4)
    index = EpisodeIndex(run.path)
    bad_id = next(run.episodes()).id
    asked: list[str] = []

    bad_key = next((e.goal, len(e.steps)) for e in run.episodes() if e.id == bad_id)
    fixed = "这次先确认当前页面就是目标页面。"

    def responder(body, n):
        if "You review training data" in system_text(body):  # the judge: item 2 of one episode is off
            wrong = episode_key(body) == bad_key and fixed not in first_user_text(body)
            return verdict(body, {2: {"aligned": False, "score": 2, "why": "推理要找搜索框，动作却点了别处。"}}
                           if wrong else None)
        w = index.lookup(body)
        items = index.correct_items(w)
        asked.append(w.episode.id)
        if "上一版标注没有通过评审" in first_user_text(body):
            items[1]["reasoning"] = fixed + items[1]["reasoning"]
        return json.dumps(items, ensure_ascii=False)

    opts = dict(backend="openai", model="fake-vl", api_key_env=KEY_ENV, timeout=5, max_retries=0, progress=False)
    with FakeOpenAI(responder) as srv:
        annotate_run(run, AnnotateOptions(base_url=srv.base_url, **opts))
        judge = JudgeOptions(backend="openai", model="judge-vl", base_url=srv.base_url, api_key_env=KEY_ENV,
                             timeout=5, max_retries=0, progress=False, judge_all=True)
        first = judge_run(run, judge)
        assert first.by_reason == {"judge_aligned": 1}
        asked.clear()
        out = CliRunner().invoke(main, ["annotate", str(run.path), "--backend", "openai", "--model", "fake-vl",
                                        "--base-url", srv.base_url, "--api-key-env", KEY_ENV, "--repair-judged",
                                        "--no-progress"], env={KEY_ENV: "sk-repair-0000"})
        assert out.exit_code == 0, out.output
        repair_request = srv.requests[-1].json
        assert asked == [bad_id]  # only the failed episode went back
        text = first_user_text(repair_request)
        assert "截图 2 (judge_aligned、judge_score)：推理要找搜索框" in text  # the judge's note
        records = [r for r in iter_jsonl(run.path / "annotations.jsonl") if r["id"] == bad_id]
        assert len(records) == 2 and records[-1]["repair"] == "judge"
        assert records[-1]["items"][1]["reasoning"].startswith(fixed)
        again = judge_run(run, judge)
    assert again.new_judged == 1 and again.failed == 0 and again.judged == 4
    manifest = export_run(run, tmp_path / "out", ExportOptions(format="react-zh", split_ratio=0.0)).manifest
    assert manifest["dropped_episodes"] == {} and len(manifest["judged_by"]) == 4
    template = CliRunner().invoke(main, ["annotate", str(run.path), "--repair-judged"])
    assert template.exit_code == 1 and "--backend openai" in template.output
