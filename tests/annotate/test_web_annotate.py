"""Annotating web episodes: the web prompt (web pages, the browser's functions, no done without a final screen),
chosen by platform unless the user gives a prompt file, versions in cache keys and records, the openai backend
against the fake server (with a repair of a done it must not write), and a template run through annotate,
validate and the rules judge."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fake_openai import EpisodeIndex, FakeOpenAI, attempt_of, first_user_text, system_text
from sftdata.cli import main
from sftdata.io import iter_jsonl
from sftdata.annotate.annotator import AnnotateOptions, Annotator
from sftdata.checks.calls import WEB_FUNCTIONS
from sftdata.annotate.prompt import NO_FINAL_SCREEN_NOTE, load_builtin, load_templates
from sftdata.annotate.stage import annotate_run
from support import sample_run
from web_react_cases import human_web, mind2web_like, web_run

KEY_ENV = "SFTDATA_TEST_FAKE_KEY"


@pytest.fixture
def run(tmp_path):
    return web_run(tmp_path / "run", [human_web(), mind2web_like()])


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-fake-web-0000000000")


def _user(messages) -> str:
    return "\n".join(p["text"] for p in messages[1]["content"] if p["type"] == "text")


def test_the_web_prompt_speaks_of_web_pages_and_lists_the_browser_functions():
    web = load_builtin("react_zh_web_v2").text
    assert "web pages" in web and "browser" in web and "{goal}" in web and "{screenshot_count}" in web
    for name in WEB_FUNCTIONS:
        assert f"- {name}(" in web
    for phone in ("press_back", "press_home", "open_app", "swipe(", "long_press"):
        assert phone not in web
    assert "no done" in web.lower() and "visible text" in web
    assert "mobile" not in web.lower() and "phone" not in web.lower()


def test_each_platform_gets_its_prompt_and_a_prompt_file_wins(run, tmp_path):
    mobile_run = sample_run(tmp_path / "mobile", 1)
    phone = next(iter(mobile_run.episodes()))
    human, m2w = list(run.episodes())
    annotator = Annotator(run, AnnotateOptions(backend="openai", model="m"), backend=object())
    try:
        assert [annotator.prompt_for(e).version for e in (phone, human, m2w)] == \
            ["react_zh_v3", "react_zh_web_v2", "react_zh_web_v2"]
        assert annotator.prompt_versions == {"react_zh_v3", "react_zh_web_v2"}
        messages = annotator.messages(m2w, 0, len(m2w.steps))
        assert "web browsing agent" in messages[0]["content"] and m2w.goal in messages[0]["content"]
        assert NO_FINAL_SCREEN_NOTE in _user(messages)
        assert NO_FINAL_SCREEN_NOTE not in _user(annotator.messages(human, 0, len(human.steps)))
        assert NO_FINAL_SCREEN_NOTE not in _user(annotator.messages(m2w, 0, 3))  # only the last window ends it
        window = _user(annotator.messages(human, 9, len(human.steps)))
        assert "第 9 步：go_back" in window  # earlier steps carry the browser's names
    finally:
        annotator.pool.shutdown()
    mine = tmp_path / "mine.txt"
    mine.write_text("My prompt for {goal} with {screenshot_count} screenshots.", encoding="utf-8")
    templates = load_templates(mine)
    assert templates["web"] is templates["mobile"] and templates["web"].version.startswith("custom:")
    annotator = Annotator(run, AnnotateOptions(backend="openai", model="m", prompt_file=str(mine)), backend=object())
    try:
        system = annotator.messages(m2w, 0, len(m2w.steps))[0]["content"]
        assert system == f"My prompt for {m2w.goal} with {len(m2w.steps)} screenshots."
    finally:
        annotator.pool.shutdown()


def test_the_prompt_version_is_in_the_cache_key(run):
    class Body:
        def body(self, messages):
            return {"messages": messages}

    annotator = Annotator(run, AnnotateOptions(backend="openai", model="m"), backend=Body())
    try:
        messages = [{"role": "user", "content": "x"}]
        keys = {annotator.request(messages, [], 1, version)[1] for version in ("react_zh_v3", "react_zh_web_v2")}
        assert len(keys) == 2
    finally:
        annotator.pool.shutdown()


def _annotate(run, srv, **kw):
    opts = dict(backend="openai", model="fake-vl", base_url=srv.base_url, api_key_env=KEY_ENV, timeout=5,
                max_retries=0, concurrency=2, max_attempts=3, progress=False)
    opts.update(kw)
    return annotate_run(run, AnnotateOptions(**opts))


def test_openai_backend_annotates_web_episodes(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        result = _annotate(run, srv)
    index.close()
    assert srv.errors == [] and (result.new_annotated, result.new_rejected) == (2, 0)
    systems = [system_text(r.json) for r in srv.requests]
    assert len(systems) == 2 and all("web browsing agent" in s for s in systems)
    records = {r["id"]: r for r in iter_jsonl(run.path / "annotations.jsonl")}
    assert {r["prompt_version"] for r in records.values()} == {"react_zh_web_v2"}
    assert [it["function"]["name"] for it in records["m2w-1"]["items"]] == \
        ["click", "type", "type", "select", "click", "click"]
    assert records["web-human"]["items"][-1]["function"]["name"] == "done"
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as again:
        assert _annotate(run, again).new_annotated == 0 and again.requests == []  # done for this prompt version


def test_a_done_after_the_last_recorded_action_is_repaired(run, key):
    index = EpisodeIndex(run.path)

    def responder(body, n):
        items = index.correct_items(body)
        if attempt_of(body) == 1 and index.lookup(body).episode.id == "m2w-1":
            items = items + [{"reasoning": "任务目标已经完成。", "function": {"name": "done", "parameters": {}}}]
        return json.dumps(items, ensure_ascii=False)

    with FakeOpenAI(responder) as srv:
        result = _annotate(run, srv, episode_ids=["m2w-1"])
    index.close()
    assert (result.new_annotated, result.new_rejected) == (1, 0)
    repair = srv.requests[-1].json["messages"][-1]["content"]
    assert "unexpected_done" in repair and "item_count_mismatch" in repair
    assert "没有截图" in first_user_text(srv.requests[0].json)
    record = next(iter_jsonl(run.path / "annotations.jsonl"))
    assert record["attempts"] == 2 and len(record["items"]) == 6


def test_batch_requests_and_import_for_web_episodes(run, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    runner = CliRunner()
    out = runner.invoke(main, ["annotate", str(run.path), "--backend", "batch", "--model", "m", "--window", "4",
                               "--write-requests", str(requests), "--no-progress"])
    assert out.exit_code == 0, out.output
    lines = list(iter_jsonl(requests))
    assert [line["custom_id"] for line in lines] == ["web-human::0-4", "web-human::4-7", "web-human::7-11",
                                                     "m2w-1::0-3", "m2w-1::3-6"]
    assert all("web browsing agent" in system_text(line["body"]) for line in lines)
    assert NO_FINAL_SCREEN_NOTE in first_user_text(lines[-1]["body"])
    index = EpisodeIndex(run.path, window=4)
    rows = [{"custom_id": line["custom_id"], "error": None, "response": {"status_code": 200, "body": {
        "choices": [{"message": {"content": index.correct_reply(line["body"])}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}}}} for line in lines]
    index.close()
    results.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = runner.invoke(main, ["annotate", str(run.path), "--backend", "batch", "--model", "m", "--window", "4",
                               "--import-results", str(results), "--no-progress"])
    assert out.exit_code == 0 and "annotated 2 new episodes, rejected 0" in out.output, out.output
    assert {r["prompt_version"] for r in iter_jsonl(run.path / "annotations.jsonl")} == {"react_zh_web_v2"}
    again = runner.invoke(main, ["annotate", str(run.path), "--backend", "batch", "--model", "m", "--window", "4",
                                 "--write-requests", str(tmp_path / "again.jsonl"), "--no-progress"])
    assert again.exit_code == 0 and list(iter_jsonl(tmp_path / "again.jsonl")) == []


def test_template_run_validate_and_judge_on_web_episodes(run):
    runner = CliRunner()
    out = runner.invoke(main, ["annotate", str(run.path), "--no-progress"])
    assert out.exit_code == 0, out.output
    records = list(iter_jsonl(run.path / "annotations.jsonl"))
    assert len(records) == 2 and {r["prompt_version"] for r in records} == {"react_zh_web_v2"}
    again = runner.invoke(main, ["annotate", str(run.path), "--no-progress"])
    assert again.exit_code == 0 and len(list(iter_jsonl(run.path / "annotations.jsonl"))) == 2
    out = runner.invoke(main, ["validate", str(run.path)])
    assert out.exit_code == 0 and "checked 2   passed 2   failed 0" in out.output, out.output
    out = runner.invoke(main, ["judge", str(run.path), "--no-progress"])
    assert out.exit_code == 0 and "Traceback" not in out.output, out.output
    assert list(run.rejects()) == []
