"""`sftdata judge --backend openai` through the real openai SDK against the scripted loopback endpoint: aligned,
misaligned, hindsight, ungrounded, low-score, malformed and refused verdicts, 429 and 500, a kill mid-run with no
answered request repeated on resume, and the API key never on disk."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from fake_openai import FakeOpenAI, attempt_of, fenced, image_urls, status
from judge_fake import episode_key, steps_of, verdict
from sftdata.io import iter_jsonl
from sftdata.plural import counted
from sftdata.judge.stage import JudgeOptions, judge_run
from sftdata.rundir import RunDir
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

KEY_ENV = "SFTDATA_TEST_JUDGE_KEY"
KEY = "sk-judge-secret-0123456789abcdef"
ROOT = Path(__file__).resolve().parents[2]
N = 10


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("judge"), N, annotate=True).path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


def keys(run: RunDir) -> list[tuple[str, int]]:
    out = [(e.goal, len(e.steps)) for e in run.episodes()]
    assert len(set(out)) == len(out)  # every request names its episode
    return out


def judgements(run: RunDir) -> dict[str, dict]:
    return {r["id"]: r for r in iter_jsonl(run.path / "judgements.jsonl")}


def assert_key_not_on_disk(run: RunDir) -> None:
    for path in run.path.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


def test_every_kind_of_verdict(run, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    order = keys(run)
    ids = [e.id for e in run.episodes()]
    role = dict(zip(order, ["aligned", "misaligned", "hindsight", "ungrounded", "low_score", "malformed", "refused",
                            "rate_limited", "server_error", "goal"]))
    seen: Counter = Counter()

    def responder(body, n):
        kind = role[episode_key(body)]
        seen[kind] += 1
        if kind == "misaligned":  # two wait steps that conclude "click ADD TO CART"
            return fenced(verdict(body, {2: {"aligned": False, "score": 2, "why": "推理得出要点击加入购物车，动作却是等待。"}}))
        if kind == "hindsight":
            return verdict(body, {1: {"hindsight": True, "score": 3, "why": "推理描述了点击之后才出现的页面。"}})
        if kind == "ungrounded":
            return verdict(body, {3: {"grounded": False, "why": "提到的“优惠券”按钮在当前屏幕上并不存在。"}})
        if kind == "low_score":
            return verdict(body, {1: {"score": 2, "why": "推理过于笼统。"}})
        if kind == "malformed":  # prose, then a truncated object; then a good answer
            return "我认为都不错：{\"items\": [{\"index\": 1, \"aligned\": tr" if attempt_of(body) == 1 else verdict(body)
        if kind == "refused":
            return "I'm sorry, but I can't help with evaluating these screenshots."
        if kind == "rate_limited" and seen[kind] == 1:
            return status(429, {"Retry-After": "0"})
        if kind == "server_error" and seen[kind] == 1:
            return status(500)
        if kind == "goal":
            return verdict(body, goal_matches=False)
        return verdict(body)

    opts = JudgeOptions(backend="openai", model="judge-vl", api_key_env=KEY_ENV, timeout=10, max_retries=1,
                        concurrency=3, max_attempts=2, progress=False, price_in=1.0, price_out=2.0, judge_all=True)
    with FakeOpenAI(responder) as srv:
        result = judge_run(run, JudgeOptions(**{**opts.__dict__, "base_url": srv.base_url}))
        first = list(srv.requests)
        assert srv.errors == []
        # the request: the judge prompt, per step the annotator image and the next screenshot (none for the last)
        body = first[0].json
        assert "aligned" in body["messages"][0]["content"] and body["model"] == "judge-vl"
        assert len(image_urls(body)) == 2 * len(steps_of(body)) - 1
        again = judge_run(run, JudgeOptions(**{**opts.__dict__, "base_url": srv.base_url}))
        assert len(srv.requests) == len(first) and again.new_judged == 0  # resumed: nothing asked
    by_id = dict(zip(order, ids))
    got = judgements(run)
    reasons = {kind: got[by_id[k]]["reasons"] if by_id[k] in got else None for k, kind in role.items()}
    assert reasons == {"aligned": [], "misaligned": ["judge_aligned", "judge_score"], "hindsight": ["judge_hindsight"],
                       "ungrounded": ["judge_grounded"], "low_score": ["judge_score"], "malformed": [],
                       "refused": None, "rate_limited": [], "server_error": [], "goal": []}
    assert seen["malformed"] == 2 and seen["refused"] == 2 and seen["rate_limited"] == 2 and seen["server_error"] == 2
    goal = got[by_id[next(k for k, v in role.items() if v == "goal")]]
    assert goal["episode"] == {"task_completed": True, "goal_matches": False, "suggested_goal": "打开设置并查看电池信息"}
    mis = got[by_id[next(k for k, v in role.items() if v == "misaligned")]]
    assert mis["items"][1]["aligned"] is False and mis["items"][1]["index"] == 1 and not mis["passed"]
    assert mis["backend"] == "openai" and mis["model"] == "judge-vl" and mis["prompt_version"] == "judge_zh_v2"
    assert mis["usage"]["prompt_tokens"] > 0

    rejects = {r["episode_id"]: r for r in run.rejects() if r["stage"] == "judge"}
    refused = rejects[by_id[next(k for k, v in role.items() if v == "refused")]]
    assert refused["reason"] == "judge_refused" and refused["verdict"] is False and refused["attempts"] == 2
    assert {r["reason"] for r in rejects.values()} == {"judge_aligned", "judge_hindsight", "judge_grounded",
                                                        "judge_score", "judge_refused"}
    assert result.judged == 9 and result.passed == 5 and result.failed == 4 and result.deferred == 0
    manifest = run.manifest()["stages"]["judge"]["verdicts"]
    assert manifest["llm"]["requests"] == len(first) - 2  # 429 and 500 were retried by the SDK inside one request
    assert manifest["llm"]["retries"] == 2 and manifest["cost"] > 0
    assert manifest["options"]["api_key_env"] == KEY_ENV
    assert_key_not_on_disk(run)


def test_endpoint_down_defers_without_rejecting(run, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    opts = dict(backend="openai", model="judge-vl", api_key_env=KEY_ENV, timeout=5, max_retries=0, concurrency=2,
                max_attempts=2, progress=False, limit=3, judge_all=True)
    with FakeOpenAI(lambda body, n: status(503)) as srv:
        result = judge_run(run, JudgeOptions(base_url=srv.base_url, **opts))
    assert result.deferred == 3 and result.new_judged == 0
    assert not [r for r in run.rejects() if r["stage"] == "judge"]
    with FakeOpenAI(lambda body, n: verdict(body)) as srv:
        result = judge_run(run, JudgeOptions(base_url=srv.base_url, **opts))
    assert result.new_judged == 3 and result.passed == 3


def command(run: RunDir, srv: FakeOpenAI) -> list[str]:
    return [sys.executable, "-m", "sftdata.cli", "judge", str(run.path), "--backend", "openai", "--base-url",
            srv.base_url, "--model", "judge-vl", "--api-key-env", KEY_ENV, "--concurrency", "2", "--timeout", "10",
            "--max-retries", "1", "--no-progress", "--judge-all"]


def complete_ids(path: Path) -> list[str]:
    raw = path.read_bytes().splitlines(keepends=True) if path.exists() else []
    return [json.loads(line)["id"] for line in raw if line.endswith(b"\n")]


def test_kill_and_resume_repeats_no_answered_request(run):
    order = keys(run)

    def responder(body, n):  # odd episodes: a malformed verdict first, so they need a second ask
        odd = order.index(episode_key(body)) % 2
        return "not json at all {" if odd and attempt_of(body) == 1 else verdict(body)

    env = {**os.environ, KEY_ENV: KEY}
    path = run.path / "judgements.jsonl"
    with FakeOpenAI(responder, latency=0.3) as srv:
        proc = subprocess.Popen(command(run, srv), env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(complete_ids(path)) < 3 and proc.poll() is None:
                time.sleep(0.01)
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.kill()
            proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        srv.wait_idle()  # the server has received and finished answering the killed client's requests
        first = srv.snapshot()
        done_at_kill = complete_ids(path)
        cached = sum(1 for _ in (run.path / "cache" / "judge").rglob("*.json"))
        assert 3 <= len(done_at_kill) < N
        second = subprocess.run(command(run, srv), env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        everything = srv.snapshot()
    assert sorted(complete_ids(path)) == sorted(e.id for e in run.episodes())  # every episode exactly once
    assert all(r["passed"] for r in judgements(run).values())
    assert max(Counter(r.digest for r in first).values()) == 1
    counts = Counter(r.digest for r in everything)
    repeats = sum(c - 1 for c in counts.values() if c > 1)
    assert repeats <= len(first) - cached <= 2  # only requests in flight at the kill, at most --concurrency
    resumed = everything[len(first):]
    done_keys = {order[[e.id for e in run.episodes()].index(i)] for i in done_at_kill}
    assert [r for r in resumed if episode_key(r.json) in done_keys] == []
    assert f"judged {counted(N - len(done_at_kill), 'new episode')}," in second.stdout
    assert_key_not_on_disk(run)


def test_batch_request_and_result_files(run, tmp_path):
    from click.testing import CliRunner

    from sftdata.cli import main

    requests = tmp_path / "requests.jsonl"
    out = CliRunner().invoke(main, ["judge", str(run.path), "--backend", "batch", "--model", "judge-vl", "--judge-all",
                                    "--write-requests", str(requests), "--window", "5"])
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in requests.read_text().splitlines()]
    ids = [e.id for e in run.episodes()]
    assert {line["custom_id"].split("::")[1] for line in lines} == set(ids)
    assert all(line["body"]["model"] == "judge-vl" and line["url"] == "/v1/chat/completions" for line in lines)
    structured = tmp_path / "structured.jsonl"
    CliRunner().invoke(main, ["judge", str(run.path), "--backend", "batch", "--model", "judge-vl", "--judge-all", "--structured",
                              "--write-requests", str(structured), "--limit", "1"])
    body = json.loads(structured.read_text().splitlines()[0])["body"]
    assert body["response_format"]["json_schema"]["schema"]["required"] == ["items", "episode"]
    assert "response_format" not in lines[0]["body"]

    def result(line, text):
        return {"custom_id": line["custom_id"], "response": {"status_code": 200, "body": {
            "choices": [{"message": {"content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20}}}}

    first, second = ids[0], ids[1]
    rows = []
    for line in lines:
        eid = line["custom_id"].split("::")[1]
        if eid == ids[2]:
            continue  # not in this file: left for a later import
        text = verdict(line["body"])
        if eid == first:
            text = verdict(line["body"], {steps_of(line["body"])[0]: {"aligned": False}})
        if eid == second:
            text = "抱歉，我无法协助评审这些截图。"
        rows.append(result(line, text))
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    out = CliRunner().invoke(main, ["judge", str(run.path), "--backend", "batch", "--model", "judge-vl", "--judge-all",
                                    "--import-results", str(results), "--window", "5"])
    assert out.exit_code == 0, out.output
    got = judgements(run)
    assert set(got) == set(ids) - {second, ids[2]} and got[first]["reasons"] == ["judge_aligned"]
    assert all(r["backend"] == "batch" and r["usage"]["prompt_tokens"] >= 100 for r in got.values())
    rejects = {r["episode_id"]: r["reason"] for r in run.rejects() if r["stage"] == "judge"}
    assert rejects == {first: "judge_aligned", second: "judge_refused"}
    again = CliRunner().invoke(main, ["judge", str(run.path), "--backend", "batch", "--model", "judge-vl", "--judge-all",
                                      "--import-results", str(results), "--window", "5"])
    assert "judged 0 new episodes" in again.output  # importing the same file twice changes nothing


def test_verdicts_are_written_in_episode_order_whatever_answers_first(base_run, tmp_path, monkeypatch):
    """The endpoint answers the later episodes first (the first episode's answer is the slowest); the judgements
    come out in episode order all the same, byte for byte as one request at a time writes them."""
    from fake_openai import reply

    monkeypatch.setenv(KEY_ENV, KEY)
    order = {key: i for i, key in enumerate(keys(RunDir(base_run)))}
    written = {}
    for concurrency in (1, 4):
        run = RunDir(shutil.copytree(base_run, tmp_path / f"c{concurrency}"))
        opts = JudgeOptions(backend="openai", model="judge-vl", api_key_env=KEY_ENV, timeout=20, max_retries=0,
                            concurrency=concurrency, progress=False, judge_all=True)
        with FakeOpenAI(lambda body, n: reply(verdict(body), latency=0.05 * (len(order) - order[episode_key(body)]))
                        if concurrency > 1 else verdict(body)) as srv:
            result = judge_run(run, JudgeOptions(**{**opts.__dict__, "base_url": srv.base_url}))
        assert result.new_judged == N and srv.errors == []
        written[concurrency] = (run.path / "judgements.jsonl").read_bytes()
        assert [r["id"] for r in iter_jsonl(run.path / "judgements.jsonl")] == [e.id for e in run.episodes()]
    assert written[1] == written[4]
