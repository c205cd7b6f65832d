"""Hostile and flaky OpenAI-compatible endpoints (issue 11), each against a real HTTP server on 127.0.0.1: a 200
that is no chat completion (a proxy's HTML login page, plain text, JSON without choices, ``choices: []``, a null
content, broken or bottomless JSON, a gzip bomb, a body cut off mid-way), a server dripping a byte every 0.5 s,
500/429/hangs/refused connections on every attempt, NaN or absurd token usage, and an API key inside
``--base-url``.

The rules: no traceback ever; an endpoint failure never rejects an episode (it is left for a rerun, counted with
its reason, and the CLI exits with ExitCode.RETRY); only a real answer failing the ground-truth check rejects; the
manifest is strict JSON; the key appears in no file of the run and nowhere in the output.
"""
from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fake_openai import EpisodeIndex, FakeOpenAI, FakeReply, first_time_each, hang, raw_body, status
from sftdata.exitcodes import ExitCode
from sftdata.io import iter_jsonl
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

KEY_ENV = "SFTDATA_TEST_HOSTILE_KEY"
KEY = "sk-hostile-3b8e0c1d-never-on-disk"
URL_KEY = "sk-url-9f1d2e77-in-the-base-url"
N = 3
ROOT = Path(__file__).resolve().parents[2]
LOGIN_PAGE = ("<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body>"
              "<form method=post action=/login><input name=user><input type=password name=pw></form></body></html>")


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("hostile"), N).path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


@pytest.fixture
def index(run):
    idx = EpisodeIndex(run.path)
    yield idx
    idx.close()


@pytest.fixture(autouse=True)
def no_logged_tracebacks(caplog, monkeypatch):
    """In-process runs: nothing may log an exception (asyncio's "Task exception was never retrieved", ...)."""
    monkeypatch.setenv(KEY_ENV, KEY)
    caplog.set_level(logging.ERROR)
    yield
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


# --- helpers ------------------------------------------------------------------------------------------------
def annotate(run: RunDir, url: str, **kw):
    opts = dict(backend="openai", model="fake-vl", base_url=url, api_key_env=KEY_ENV, timeout=5, max_retries=1,
                concurrency=N, max_attempts=2, progress=False)
    opts.update(kw)
    return annotate_run(run, AnnotateOptions(**opts))


def cli(run: RunDir, url: str, *args: str) -> subprocess.CompletedProcess:
    """``sftdata annotate`` in a real subprocess (its stderr is what a user sees)."""
    return subprocess.run([sys.executable, "-m", "sftdata.cli", "annotate", str(run.path), "--backend", "openai",
                           "--base-url", url, "--model", "fake-vl", "--api-key-env", KEY_ENV, "--no-progress",
                           "--timeout", "5", "--max-retries", "1", "--max-attempts", "2", *args],
                          env={**os.environ, KEY_ENV: KEY}, cwd=ROOT, capture_output=True, text=True, timeout=120)


def assert_no_traceback(proc: subprocess.CompletedProcess) -> None:
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text and "never retrieved" not in text, text


def annotated(run: RunDir) -> set[str]:
    path = run.path / "annotations.jsonl"
    return {str(r["id"]) for r in iter_jsonl(path)} if path.exists() else set()


def rejected(run: RunDir) -> dict[str, dict]:
    return {str(r["episode_id"]): r for r in run.rejects() if r.get("stage") == "annotate"}


def strict_manifest(run: RunDir) -> dict:
    """The manifest parsed as strict JSON (NaN and Infinity are not JSON)."""
    def refuse(name):
        raise AssertionError(f"manifest.json holds {name}: not JSON")
    return json.loads((run.path / "manifest.json").read_text(encoding="utf-8"), parse_constant=refuse)


def entry(run: RunDir) -> dict:
    return strict_manifest(run)["stages"]["annotate"]["reconstruction"]


def assert_left_for_rerun(run: RunDir, result, reason: str, n: int = N) -> None:
    """The accounting of an outage: nothing annotated, nothing rejected, every episode deferred for ``reason``."""
    assert (result.new_annotated, result.new_rejected, result.deferred) == (0, 0, n)
    assert result.deferred_by_reason == {reason: n}
    assert annotated(run) == set() and rejected(run) == {}
    counts, deferred = entry(run)["counts"], entry(run)["deferred"]
    assert (counts["annotated"], counts["rejected"], deferred["count"]) == (0, 0, n)
    assert deferred["by_reason"] == {reason: n}


def rerun_annotates_all(run: RunDir, index: EpisodeIndex) -> None:
    with FakeOpenAI(lambda body, k: index.correct_reply(body)) as good:
        result = annotate(run, good.base_url)
    assert (result.new_annotated, result.annotated, result.rejected) == (N, N, 0)
    assert len(good.requests) == N  # nothing came from a cached bad answer


# --- 1. a 200 that is not a chat completion -------------------------------------------------------------------
def completion(content) -> dict:
    return {"id": "x", "object": "chat.completion", "model": "fake-vl",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}}


NOT_COMPLETIONS = {
    "html-login-page": lambda: raw_body(LOGIN_PAGE),
    "plain-text": lambda: raw_body("upstream connect error or disconnect/reset before headers", "text/plain"),
    "empty-body": lambda: raw_body(b"", "application/json"),
    "json-without-choices": lambda: FakeReply(body={"id": "x", "object": "chat.completion", "model": "m"}),
    "error-object-in-a-200": lambda: FakeReply(body={"error": {"message": "model overloaded", "code": 503}}),
    "empty-choices": lambda: FakeReply(body={**completion("x"), "choices": []}),
    "null-content": lambda: FakeReply(body=completion(None)),
    "choice-without-message": lambda: FakeReply(body={**completion("x"), "choices": [{"finish_reason": "stop"}]}),
    "content-is-a-number": lambda: FakeReply(body=completion(42)),
    "json-list": lambda: FakeReply(body=[1, 2, 3]),
    "bottomless-json": lambda: raw_body(b"[" * 200_000, "application/json"),
    "invalid-utf8": lambda: raw_body(b'{"choices": "\xff\xfe\xfa"}', "application/json"),
}


@pytest.mark.parametrize("make", NOT_COMPLETIONS.values(), ids=NOT_COMPLETIONS.keys())
def test_a_200_that_is_no_chat_completion_is_retried_then_left_for_a_rerun(run, index, make):
    with FakeOpenAI(lambda body, k: make()) as srv:
        result = annotate(run, srv.base_url)
    assert srv.errors == []
    assert len(srv.requests) == N * 2 * 2  # retried like a transient failure: 2 attempts x (1 + 1 retry) each
    assert_left_for_rerun(run, result, "llm_bad_answer")
    assert entry(run)["llm"]["failed_requests"] == N * 2
    assert list((run.path / "cache" / "llm").rglob("*.json")) == []  # a bad answer is never cached
    rerun_annotates_all(run, index)


def test_one_html_page_then_a_real_answer_is_annotated_on_the_first_attempt(run, index):
    with FakeOpenAI(first_time_each(lambda: raw_body(LOGIN_PAGE), index.correct_reply)) as srv:
        result = annotate(run, srv.base_url)
    assert (result.new_annotated, result.new_rejected, result.deferred) == (N, 0, 0)
    assert len(srv.requests) == 2 * N
    assert {r["attempts"] for r in iter_jsonl(run.path / "annotations.jsonl")} == {1}
    assert entry(run)["llm"]["retries"] == N and entry(run)["llm"]["requests"] == N


def test_a_completion_served_as_text_plain_is_accepted(run, index):
    def responder(body, k):
        return raw_body(json.dumps(completion(index.correct_reply(body))), "text/plain; charset=utf-8")

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv.base_url)
    assert (result.new_annotated, len(srv.requests)) == (N, N)


def test_the_html_login_page_through_the_cli_exits_retry_without_traceback(run, index):
    with FakeOpenAI(lambda body, k: raw_body(LOGIN_PAGE)) as srv:
        proc = cli(run, srv.base_url)
    assert_no_traceback(proc)
    assert proc.returncode == ExitCode.RETRY, proc.stderr
    assert "run again to resume" in proc.stderr
    assert annotated(run) == set() and rejected(run) == {}
    assert entry(run)["deferred"] == {"count": N, "by_reason": {"llm_bad_answer": N}}
    with FakeOpenAI(lambda body, k: index.correct_reply(body)) as good:
        again = cli(run, good.base_url)
    assert again.returncode == 0, again.stderr
    assert annotated(run) == {e.id for e in run.episodes()}


# --- 2. a server that drips ---------------------------------------------------------------------------------
def test_a_dripping_server_is_cut_off_at_the_timeout(run, index):
    def responder(body, k):
        return FakeReply(content=index.correct_reply(body), drip=0.5)  # ~1 KB at 2 bytes a second: 10 minutes

    timeout = 1.5
    with FakeOpenAI(responder) as srv:
        started = time.monotonic()
        result = annotate(run, srv.base_url, timeout=timeout, max_retries=0, max_attempts=1,
                          episode_ids=[next(run.episodes()).id])
        took = time.monotonic() - started
    assert len(srv.requests) == 1
    # the attempt ends at its deadline, not when the drip would end (10 minutes); the slack is for a loaded machine
    assert took < 60, took
    assert (result.new_annotated, result.new_rejected, result.deferred) == (0, 0, 1)
    assert result.deferred_by_reason == {"llm_timeout": 1}


def test_each_try_gets_its_own_deadline_and_a_retry_after_a_drip_succeeds(run, index):
    def responder(body, k):
        return FakeReply(content=index.correct_reply(body), drip=0.5) if k == 1 else index.correct_reply(body)

    with FakeOpenAI(responder) as srv:
        started = time.monotonic()
        result = annotate(run, srv.base_url, timeout=1, max_retries=1, concurrency=1,
                          episode_ids=[next(run.episodes()).id])
        took = time.monotonic() - started
    assert result.new_annotated == 1 and len(srv.requests) == 2
    # the first try was cut at its deadline (its drip would take minutes); the slack is for a loaded machine
    assert srv.requests[1].time - srv.requests[0].time < 60 and took < 90


# --- 3. outages: 5xx, 429, hangs, broken bodies, refused connections ------------------------------------------
OUTAGES = {
    "500": (lambda: status(500), "llm_server_error"),
    "503-html": (lambda: raw_body("<html><body><h1>503 Service Unavailable</h1></body></html>", code=503),
                 "llm_server_error"),
    "502-gateway": (lambda: status(502, body=b"Bad Gateway"), "llm_server_error"),
    "429": (lambda: status(429, {"Retry-After": "0"}), "llm_rate_limited"),
    "408": (lambda: status(408), "llm_timeout"),
    "hang": (lambda: hang(10), "llm_timeout"),
    "body-cut-off": (lambda: FakeReply(content="x" * 2000, truncate=100), "llm_connection"),
}


@pytest.mark.parametrize("make, reason", OUTAGES.values(), ids=OUTAGES.keys())
def test_an_endpoint_failing_every_attempt_rejects_nothing_and_a_rerun_annotates_all(run, index, make, reason):
    with FakeOpenAI(lambda body, k: make()) as srv:
        result = annotate(run, srv.base_url, timeout=1)
    assert_left_for_rerun(run, result, reason)
    rerun_annotates_all(run, index)


def test_always_500_through_the_cli_twice(run, index):
    """Run 1 against an always-500 server: not annotated, not rejected, a clear message, exit RETRY; run 2
    against a healthy server annotates them all."""
    with FakeOpenAI(lambda body, k: status(500)) as srv:
        first = cli(run, srv.base_url)
    assert_no_traceback(first)
    assert first.returncode == ExitCode.RETRY
    assert f"{N} episodes were not annotated because the endpoint failed" in first.stderr
    assert annotated(run) == set() and rejected(run) == {}
    assert not (run.path / "rejects.jsonl").exists() or rejected(run) == {}
    with FakeOpenAI(lambda body, k: index.correct_reply(body)) as good:
        second = cli(run, good.base_url)
    assert_no_traceback(second)
    assert second.returncode == 0, second.stderr
    assert f"annotated {N} new episodes, rejected 0" in second.stdout
    assert annotated(run) == {e.id for e in run.episodes()} and rejected(run) == {}


def test_a_gzip_bomb_is_refused_without_inflating_it(run, index, monkeypatch):
    from sftdata.llm import backends

    monkeypatch.setattr(backends, "MAX_REPLY_BYTES", 4 * 1024 * 1024)  # the real limit is 128 MiB: same code
    bomb = gzip.compress(b" " * (48 * 1024 * 1024), compresslevel=9)  # 48 MB of spaces, ~50 KB on the wire
    with FakeOpenAI(lambda body, k: raw_body(bomb, "application/json", headers={"Content-Encoding": "gzip"})) as srv:
        result = annotate(run, srv.base_url, max_retries=0, max_attempts=1)
    assert_left_for_rerun(run, result, "llm_connection")
    assert srv.errors == []


def test_a_long_outage_stops_the_run_with_exit_retry(tmp_path):
    many = sample_run(tmp_path, 10)
    down = FakeOpenAI(lambda body, k: "unused")
    down.stop()  # nobody listens there any more: connection refused
    proc = cli(many, down.base_url, "--concurrency", "2", "--max-retries", "0", "--max-attempts", "1")
    assert_no_traceback(proc)
    assert proc.returncode == ExitCode.RETRY, proc.stderr
    assert "the endpoint failed for 8 episodes in a row (llm_connection" in proc.stderr
    assert annotated(many) == set() and rejected(many) == {}
    assert strict_manifest(many)["stages"]["annotate"]["reconstruction"]["counts"]["rejected"] == 0


def test_real_wrong_answers_reject_but_an_outage_on_the_last_attempt_defers(run, index):
    ids = [e.id for e in run.episodes()]
    wrong_always, wrong_then_down = ids[0], ids[1]

    def responder(body, k):
        w = index.lookup(body)
        items = index.correct_items(w)
        if w.episode.id == wrong_always:
            return json.dumps(items[:-1])
        if w.episode.id == wrong_then_down:
            return json.dumps(items[:-1]) if len(body["messages"]) == 2 else status(500)
        return json.dumps(items)

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv.base_url)
    assert (result.new_annotated, result.new_rejected, result.deferred) == (1, 1, 1)
    assert set(rejected(run)) == {wrong_always} and rejected(run)[wrong_always]["reason"] == "item_count_mismatch"
    assert result.deferred_by_reason == {"llm_server_error": 1}
    assert wrong_then_down not in annotated(run)


def test_an_old_reject_for_a_5xx_does_not_keep_the_episode_from_a_rerun(run, index):
    from sftdata.annotate.prompt import load_template

    victim = next(run.episodes()).id
    old = {"stage": "annotate", "episode_id": victim, "source": "androidcontrol", "reason": "llm_server_error",
           "detail": "HTTP 500", "backend": "openai", "model": "fake-vl",
           "prompt_version": load_template(None).version, "attempts": 2}
    with open(run.rejects_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(old) + "\n")
    with FakeOpenAI(lambda body, k: index.correct_reply(body)) as srv:
        result = annotate(run, srv.base_url)
    assert result.new_annotated == N and len(srv.requests) == N
    assert victim in annotated(run) and result.rejected == 0


# --- 4. token usage -----------------------------------------------------------------------------------------
USAGES = {
    "nan": {"prompt_tokens": float("nan"), "completion_tokens": float("nan")},
    "infinity": {"prompt_tokens": float("inf"), "completion_tokens": float("-inf")},
    "negative": {"prompt_tokens": -5, "completion_tokens": -1},
    "strings": {"prompt_tokens": "12", "completion_tokens": "many"},
    "huge": {"prompt_tokens": 10 ** 30, "completion_tokens": 1e300},
    "fractional": {"prompt_tokens": 1.5, "completion_tokens": True},
    "not-an-object": "lots",
}


@pytest.mark.parametrize("usage", USAGES.values(), ids=USAGES.keys())
def test_bad_token_usage_is_counted_as_unknown_and_the_manifest_stays_json(run, index, usage):
    with FakeOpenAI(lambda body, k: FakeReply(content=index.correct_reply(body), usage=usage)) as srv:
        proc = cli(run, srv.base_url)
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert "tokens in 0 out 0" in proc.stdout
    for word in ("nan", "inf", "e+"):
        assert word not in proc.stdout.lower()
    llm = entry(run)["llm"]
    assert (llm["prompt_tokens"], llm["completion_tokens"], llm["usage_unknown"]) == (0, 0, N)
    assert annotated(run) == {e.id for e in run.episodes()}
    for r in iter_jsonl(run.path / "annotations.jsonl"):
        assert r["usage"] == {"prompt_tokens": 0, "completion_tokens": 0}
    for path in (run.path / "cache" / "llm").rglob("*.json"):
        json.loads(path.read_text(), parse_constant=lambda c: pytest.fail(f"{path} holds {c}"))


def test_an_old_manifest_holding_nan_is_healed_on_the_next_run(run, index):
    text = (run.path / "manifest.json").read_text()
    manifest = json.loads(text)
    manifest.setdefault("stages", {})["annotate"] = {"reconstruction": {"llm": {
        "requests": 3, "prompt_tokens": float("nan"), "completion_tokens": -7}, "elapsed_s": float("nan")}}
    (run.path / "manifest.json").write_text(json.dumps(manifest))
    with FakeOpenAI(lambda body, k: index.correct_reply(body)) as srv:
        annotate(run, srv.base_url)
    llm = entry(run)["llm"]
    assert llm["requests"] == 3 + N and llm["prompt_tokens"] > 0 and llm["completion_tokens"] > 0


@pytest.mark.parametrize("option", ["--price-in", "--temperature", "--timeout"])
def test_non_finite_numeric_options_are_a_one_line_error(run, option):
    with FakeOpenAI(lambda body, k: "unused") as srv:
        proc = cli(run, srv.base_url, option, "nan")
    assert_no_traceback(proc)
    assert proc.returncode == ExitCode.FATAL and option in proc.stderr
    assert srv.requests == []
    json.loads((run.path / "manifest.json").read_text(), parse_constant=lambda c: pytest.fail(c))


# --- 5. a key inside --base-url -----------------------------------------------------------------------------
def assert_url_key_nowhere(run: RunDir, *procs: subprocess.CompletedProcess) -> None:
    needles = [URL_KEY, URL_KEY[-12:], KEY]
    for proc in procs:
        for needle in needles:
            assert needle not in proc.stdout and needle not in proc.stderr
    leaks = [str(p) for p in run.path.rglob("*") if p.is_file()
             for needle in needles if needle.encode() in p.read_bytes()]
    assert leaks == []


@pytest.mark.parametrize("form", ["userinfo", "query"])
def test_a_key_inside_the_base_url_is_in_no_file_and_no_output(run, index, form):
    def responder(body, k):
        if k == 1:  # an error page that echoes the whole request line, key included
            return status(500, body={"error": {"message": f"upstream failed for {URL_KEY} at {k}"}})
        return index.correct_reply(body)

    with FakeOpenAI(responder, query_ok=True) as srv:
        host = srv.base_url.split("//", 1)[1]
        url = f"http://user:{URL_KEY}@{host}" if form == "userinfo" else f"{srv.base_url}?api_key={URL_KEY}"
        proc = cli(run, url)
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert annotated(run) == {e.id for e in run.episodes()}
    if form == "query":  # sent as a query parameter on the chat path, not glued into the path
        assert {r.path for r in srv.requests} == {f"/v1/chat/completions?api_key={URL_KEY}"}
    options = entry(run)["options"]
    assert "***" in options["base_url"] and URL_KEY not in options["base_url"]
    # a failing run prints the endpoint's echo of the key: masked
    with FakeOpenAI(lambda body, k: status(500, body={"error": {"message": f"bad key {URL_KEY}"}}),
                    query_ok=True) as bad:
        host = bad.base_url.split("//", 1)[1]
        url = f"http://user:{URL_KEY}@{host}" if form == "userinfo" else f"{bad.base_url}?api_key={URL_KEY}"
        shutil.rmtree(run.path / "cache")
        (run.path / "annotations.jsonl").unlink()
        refused = cli(run, url, "--max-attempts", "1", "--max-retries", "0")
    assert_no_traceback(refused)
    assert refused.returncode == ExitCode.RETRY
    assert_url_key_nowhere(run, proc, refused)


@pytest.mark.stopped
def test_a_key_in_the_base_url_is_masked_in_a_fatal_404(run):
    def responder(body, k):
        return status(404, body={"error": {"message": f"no route for /v1/chat/completions?api_key={URL_KEY}"}})

    with FakeOpenAI(responder) as srv:
        proc = cli(run, f"{srv.base_url}?api_key={URL_KEY}")
    assert_no_traceback(proc)
    assert proc.returncode == ExitCode.FATAL and "answered 404" in proc.stderr
    assert_url_key_nowhere(run, proc)


@pytest.mark.parametrize("url", [f"http://user:{URL_KEY}@127.0.0.1:notaport/v1", "ftp://127.0.0.1/v1",
                                 f"http://[::1/v1?api_key={URL_KEY}"], ids=["bad-port", "ftp", "broken"])
def test_an_unusable_base_url_is_a_one_line_error_without_the_key(run, url):
    proc = cli(run, url)
    assert_no_traceback(proc)
    assert proc.returncode == ExitCode.FATAL and "--base-url" in proc.stderr
    assert annotated(run) == set() and rejected(run) == {}
    assert_url_key_nowhere(run, proc)
