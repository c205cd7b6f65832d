"""The annotate stage's openai backend end to end, against a scripted OpenAI-compatible server on 127.0.0.1:
correct and fenced replies, the repair loop (failures listed, earlier reply carried), rejects with their reason,
the SDK's retries (429 + Retry-After, 5xx, timeouts), truncated replies, the API key kept out of the run
directory, structured output, image encoding, and windows of long episodes."""
from __future__ import annotations

import base64
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from fake_openai import EpisodeIndex, FakeOpenAI, attempt_of, flip_swipes, fenced, hang, image_urls, reply, screenshot_numbers, status
from sftdata.cli import main
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.io import iter_jsonl
from built_once import sample_file
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from support import sample_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

KEY_ENV = "SFTDATA_TEST_FAKE_KEY"
KEY = "sk-fake-7f3c9a1e-do-not-store-me"
EP = "100000"  # 9 steps: open_app, wait, click, input, click, swipe UP, swipe UP, click, done
SIZE = (360, 800)


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("openai_backend"), 4, SIZE).path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    return KEY


def annotate(run: RunDir, srv: FakeOpenAI, episodes=(EP,), **kw):
    opts = dict(backend="openai", model="fake-vl", base_url=srv.base_url, api_key_env=KEY_ENV, timeout=5,
                max_retries=2, concurrency=2, max_attempts=3, episode_ids=list(episodes) if episodes else None,
                progress=False)
    opts.update(kw)
    return annotate_run(run, AnnotateOptions(**opts))


def cli(run: RunDir, srv: FakeOpenAI, *args: str):
    result = CliRunner().invoke(main, ["annotate", str(run.path), "--backend", "openai", "--base-url", srv.base_url,
                                       "--model", "fake-vl", "--api-key-env", KEY_ENV, "--no-progress", *args],
                                env={KEY_ENV: KEY}, catch_exceptions=False)
    return result


def annotations(run: RunDir) -> dict[str, dict]:
    return {r["id"]: r for r in iter_jsonl(run.path / "annotations.jsonl")}


def rejects(run: RunDir) -> dict[str, dict]:
    return {r["episode_id"]: r for r in run.rejects() if r.get("stage") == "annotate"}


def llm_stats(run: RunDir) -> dict:
    return run.manifest()["stages"]["annotate"]["reconstruction"]["llm"]


def user_texts(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "\n".join(p.get("text", "") for p in content)


# --- mutations of correct items ---------------------------------------------------------------------------
def dumps(items) -> str:
    return json.dumps(items, ensure_ascii=False)


def drop_last(items):
    return items[:-1]


def done_in_middle(items):
    return items[:2] + [items[-1]] + items[2:-1]


def english_reasoning(items):
    out = json.loads(dumps(items))
    out[1]["reasoning"] = "The page is still loading, so I wait until the list of products appears."
    return out


def marks(word: str):
    def mutate(items):
        out = json.loads(dumps(items))
        out[2]["reasoning"] = f"屏幕上{word}所在的位置就是搜索框，点击它以便输入要搜索的商品名称。"
        return out
    return mutate


# --- one episode, one reply -------------------------------------------------------------------------------
def test_correct_reply_is_accepted_with_one_request(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        result = annotate(run, srv)
    assert srv.errors == []
    assert (result.new_annotated, result.new_rejected) == (1, 0)
    assert len(srv.requests) == 1
    record = annotations(run)[EP]
    assert record["attempts"] == 1 and record["requests"] == 1 and record["backend"] == "openai"
    assert record["model"] == "fake-vl" and len(record["items"]) == 9
    assert record["usage"]["prompt_tokens"] > 0 and record["usage"]["completion_tokens"] > 0
    assert llm_stats(run)["requests"] == 1
    assert srv.requests[0].path == "/v1/chat/completions"
    body = srv.requests[0].json
    assert body["model"] == "fake-vl" and [m["role"] for m in body["messages"]] == ["system", "user"]
    assert screenshot_numbers(body) == list(range(1, 10))


def test_fenced_reply_with_prose_is_accepted(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: fenced(json.dumps(index.correct_items(body), ensure_ascii=False, indent=2))) as srv:
        result = annotate(run, srv)
    assert (result.new_annotated, len(srv.requests)) == (1, 1)
    assert annotations(run)[EP]["items"] == index.correct_items(srv.requests[0].json)


def test_wrong_count_is_repaired_with_failures_listed(run, key):
    index = EpisodeIndex(run.path)
    first = {}

    def responder(body, n):
        items = index.correct_items(body)
        if n == 1:
            first["text"] = dumps(drop_last(items))
            return first["text"]
        return dumps(items)

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv)
    assert result.new_annotated == 1 and annotations(run)[EP]["attempts"] == 2
    assert len(srv.requests) == 2
    one, two = (r.json["messages"] for r in srv.requests)
    assert two[:2] == one  # the same prompt and images ...
    assert two[2] == {"role": "assistant", "content": first["text"]}  # ... then the model's own reply ...
    assert two[3]["role"] == "user" and "item_count_mismatch" in user_texts(two[3])  # ... and what was wrong
    assert "8 items for 9 screenshots" in user_texts(two[3])
    assert attempt_of(srv.requests[1].json) == 2


def test_done_in_the_middle_every_time_is_rejected(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: dumps(done_in_middle(index.correct_items(body)))) as srv:
        result = annotate(run, srv, max_attempts=3)
    assert (result.new_annotated, result.new_rejected) == (0, 1)
    assert len(srv.requests) == 3  # --max-attempts asks, then give up
    rej = rejects(run)[EP]
    assert rej["stage"] == "annotate" and rej["reason"] == "done_not_last" and rej["attempts"] == 3
    assert rej["backend"] == "openai" and rej["model"] == "fake-vl"
    assert rej["failures"][0] == {"index": 2, "reason": "done_not_last", "detail": "done at item 3 of 9"}
    assert {"function_mismatch"} <= {f["reason"] for f in rej["failures"]}
    assert result.by_reason == {"done_not_last": 1}
    assert attempt_of(srv.requests[-1].json) == 2 and "done_not_last" in user_texts(srv.requests[-1].json["messages"][-1])
    assert EP not in annotations(run)


def test_every_attempt_is_asked_even_when_the_model_repeats_itself(run, key):
    # regression: the reply-cache key once lacked the attempt number, so a repeated wrong reply made attempt k+1's
    # request equal to attempt k's and the cache answered it: attempts 3.. never reached the model
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: dumps(done_in_middle(index.correct_items(body)))) as srv:
        annotate(run, srv, max_attempts=3)
    assert rejects(run)[EP]["reason"] == "done_not_last"
    assert llm_stats(run)["cache_hits"] == 0
    assert len(srv.requests) == 3  # --max-attempts asks, then give up


def test_same_wrong_reply_twice_then_repaired_on_the_third_attempt(run, key):
    index = EpisodeIndex(run.path)

    def responder(body, n):
        items = index.correct_items(body)
        return dumps(flip_swipes(items) if n < 3 else items)

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv, max_attempts=3)
    assert result.new_annotated == 1 and annotations(run)[EP]["attempts"] == 3


def test_wrong_swipe_direction_is_repaired(run, key):
    index = EpisodeIndex(run.path)

    def responder(body, n):
        items = index.correct_items(body)
        return dumps(flip_swipes(items) if attempt_of(body) == 1 else items)

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv, max_attempts=3)
    assert result.new_annotated == 1 and annotations(run)[EP]["attempts"] == 2
    assert len(srv.requests) == 2
    repair = user_texts(srv.requests[1].json["messages"][-1])
    assert "swipe_direction_mismatch" in repair and "第 6 项" in repair and "第 7 项" in repair
    assert [it["function"]["parameters"]["direction"] for it in annotations(run)[EP]["items"]
            if it["function"]["name"] == "swipe"] == ["UP", "UP"]


@pytest.mark.parametrize("mutate, reason", [
    (flip_swipes, "swipe_direction_mismatch"),
    (english_reasoning, "reasoning_not_chinese"),
    (marks("红圈"), "mentions_marks"),
    (marks("“the red circle”"), "mentions_marks"),  # quoted, so the reasoning is still Chinese
], ids=["swipe", "english", "红圈", "red-circle"])
def test_always_wrong_is_rejected_with_its_reason(run, key, mutate, reason):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: dumps(mutate(index.correct_items(body)))) as srv:
        result = annotate(run, srv, max_attempts=2)
    assert (result.new_annotated, result.new_rejected) == (0, 1)
    assert len(srv.requests) == 2
    rej = rejects(run)[EP]
    assert rej["reason"] == reason and {f["reason"] for f in rej["failures"]} == {reason}
    assert rej["attempts"] == 2


# --- transport: the SDK's retries -------------------------------------------------------------------------
def test_429_with_retry_after_then_success(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: status(429, {"Retry-After": "1"}) if n == 1 else index.correct_reply(body)) as srv:
        result = annotate(run, srv)
    assert result.new_annotated == 1 and annotations(run)[EP]["attempts"] == 1
    assert len(srv.requests) == 2
    assert srv.requests[1].time - srv.requests[0].time >= 0.9  # Retry-After honoured
    assert srv.requests[1].headers["x-stainless-retry-count"] == "1"
    assert srv.requests[0].json == srv.requests[1].json
    assert llm_stats(run)["retries"] >= 1


def test_500_then_success(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: status(500) if n == 1 else index.correct_reply(body)) as srv:
        result = annotate(run, srv)
    assert result.new_annotated == 1 and len(srv.requests) == 2
    assert llm_stats(run)["retries"] == 1


def test_hang_past_timeout_then_success(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: hang(120) if n == 1 else index.correct_reply(body)) as srv:
        result = annotate(run, srv, timeout=1)
    assert result.new_annotated == 1 and len(srv.requests) == 2
    assert 0.9 <= srv.requests[1].time - srv.requests[0].time < 60  # cut at the timeout, not after the hang
    assert llm_stats(run)["retries"] == 1


def test_server_errors_after_all_retries_fail_the_attempt(run, key):
    index = EpisodeIndex(run.path)
    # attempt 1: 500 on the first try and on the SDK's one retry; attempt 2: the same request again, answered
    with FakeOpenAI(lambda body, n: status(503) if n <= 2 else index.correct_reply(body)) as srv:
        result = annotate(run, srv, max_retries=1)
    assert result.new_annotated == 1 and len(srv.requests) == 3
    assert annotations(run)[EP]["attempts"] == 2
    assert srv.requests[2].json == srv.requests[0].json  # a failed request is asked again unchanged


def test_truncated_reply_then_correct(run, key):
    index = EpisodeIndex(run.path)

    def responder(body, n):
        text = index.correct_reply(body)
        return reply(text[: len(text) // 2], finish_reason="length") if n == 1 else text

    with FakeOpenAI(responder) as srv:
        result = annotate(run, srv)
    assert result.new_annotated == 1 and annotations(run)[EP]["attempts"] == 2
    assert len(srv.requests) == 2
    assert "reply_truncated" in user_texts(srv.requests[1].json["messages"][-1])


def test_api_key_is_sent_but_never_stored(run, key):
    index = EpisodeIndex(run.path)

    def responder(body, n):
        w = index.lookup(body)
        if w.episode.id == "100001":  # rejected: a content failure on every attempt
            return dumps(drop_last(index.correct_items(w)))
        if w.episode.id == "100002":  # rejected: an endpoint whose 400 error echoes the key
            return status(400, body={"error": {"message": f"bad request for key {KEY} ({KEY[-6:]})", "type": "x"}})
        if w.episode.id == "100003":  # accepted: a reply that quotes the key around the JSON
            return f"key {KEY}\n" + fenced(dumps(index.correct_items(w)))
        if n <= 2:  # 100000: after a 500 or two
            return status(500)
        return dumps(index.correct_items(w))

    with FakeOpenAI(responder) as srv:
        result = cli(run, srv, "--max-attempts", "2", "--max-retries", "3", "--timeout", "5")
    assert result.exit_code == 0, result.output
    assert KEY not in result.output
    assert {r.headers["authorization"] for r in srv.requests} == {f"Bearer {KEY}"}
    assert set(annotations(run)) == {"100000", "100003"} and set(rejects(run)) == {"100001", "100002"}
    assert rejects(run)["100002"]["reason"] == "llm_bad_request"
    files = [p for p in run.path.rglob("*") if p.is_file()]
    assert any("cache" in p.parts for p in files)
    needles = [KEY.encode(), base64.b64encode(KEY.encode()), KEY.encode("utf-16-le")]
    leaks = [str(p) for p in files for needle in needles if needle in p.read_bytes()]
    assert leaks == []
    assert run.manifest()["stages"]["annotate"]["reconstruction"]["options"]["api_key_env"] == KEY_ENV


# --- the request itself -----------------------------------------------------------------------------------
def test_structured_output_and_downscaled_images(run, key):
    index = EpisodeIndex(run.path, image_max_side=200)
    with FakeOpenAI(lambda body, n: json.dumps({"items": index.correct_items(body)}, ensure_ascii=False)) as srv:
        result = cli(run, srv, "--structured", "--image-max-side", "200", "--episodes", EP)
    assert result.exit_code == 0, result.output
    assert len(annotations(run)) == 1 and len(srv.requests) == 1
    body = srv.requests[0].json
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["schema"]["required"] == ["items"]
    urls = image_urls(body)
    assert len(urls) == 9 == len(screenshot_numbers(body))  # one image per screenshot
    assert all(u.startswith("data:image/jpeg;base64,") for u in urls)
    for url in (urls[0], urls[5]):
        with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as img:
            assert img.format == "JPEG" and max(img.size) == 200 and img.size == (90, 200)


def test_full_size_images_without_max_side(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        annotate(run, srv)
    assert "response_format" not in srv.requests[0].json
    url = image_urls(srv.requests[0].json)[0]
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as img:
        assert img.size == SIZE


# --- windows ----------------------------------------------------------------------------------------------
def test_long_episode_is_asked_in_windows_and_stitched(run, key):
    index = EpisodeIndex(run.path, window=4)
    sent = []

    def responder(body, n):
        w = index.lookup(body)
        items = index.correct_items(w)
        if w.start == 0 and attempt_of(body) == 1:  # a done too early in the first window: repaired
            items = items[:-1] + [{"reasoning": "所有需要的操作都已完成，任务目标已经达成。",
                                   "function": {"name": "done", "parameters": {}}}]
        sent.append((w.start, w.end, [it["function"]["name"] for it in items]))
        return dumps(items)

    with FakeOpenAI(responder) as srv:
        result = cli(run, srv, "--window", "4", "--episodes", EP)
    assert result.exit_code == 0, result.output
    assert srv.errors == []
    assert [screenshot_numbers(r.json) for r in srv.requests] == [[1, 2, 3], [1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert [attempt_of(r.json) for r in srv.requests] == [1, 2, 1, 1]
    assert "done_not_last" in user_texts(srv.requests[1].json["messages"][-1])
    texts = [user_texts(r.json["messages"][1]) for r in srv.requests]
    assert "不要出现 done" in texts[0] and "不要出现 done" in texts[2] and "不要出现 done" not in texts[3]
    assert "之前已经完成的步骤" in texts[2] and "第 6 步" in texts[3]
    accepted = [names for _, _, names in sent[1:]]
    assert ["done" in names for names in accepted] == [False, False, True]  # only the last window's reply has done
    record = annotations(run)[EP]
    assert record["windows"] == 3 and record["requests"] == 4 and record["attempts"] == 4
    assert len(record["items"]) == 9 and record["items"][-1]["function"]["name"] == "done"
    check = CliRunner().invoke(main, ["validate", str(run.path)])
    assert check.exit_code == 0, check.output
    assert "checked 1   passed 1   failed 0" in check.output


# --- concurrency and fatal answers ------------------------------------------------------------------------
def test_concurrency_bounds_requests_in_flight(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: index.correct_reply(body), latency=0.3) as srv:
        result = annotate(run, srv, episodes=None, concurrency=2)
    assert result.new_annotated == 4 and len(srv.requests) == 4
    assert srv.max_in_flight == 2


@pytest.mark.parametrize("code, message", [(401, "refused the API key"), (404, "answered 404")])
def test_refused_key_or_unknown_model_stops_the_run(run, key, code, message):
    with FakeOpenAI(lambda body, n: status(code)) as srv:
        result = cli(run, srv, "--max-retries", "3")
    assert result.exit_code == 1 and message in result.output
    assert len(srv.requests) <= 4  # not retried: at most one per episode (all 4 in flight at once)
    assert not list(run.rejects()) and not annotations(run)  # nothing is marked finished


def test_strict_stops_at_the_first_reject(run, key):
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: dumps(drop_last(index.correct_items(body)))) as srv:
        result = cli(run, srv, "--strict", "--max-attempts", "1", "--concurrency", "1")
    assert result.exit_code == 1 and "item_count_mismatch" in result.output and "--strict" in result.output
    assert len(rejects(run)) == 1 and len(srv.requests) == 1


def test_refused_key_prints_one_line_without_traceback(tmp_path):
    # regression: a FatalError in one episode once left the other tasks' exceptions unretrieved, and asyncio
    # logged "Task exception was never retrieved" with a traceback for each
    import os
    import subprocess
    import sys

    # 12 episodes, 8 in flight: several tasks end with the FatalError, so the race that hides it cannot win
    sample_file(tmp_path / "s.tfrecord.gz", n_episodes=12, seed=0, size=SIZE)
    ingest_androidcontrol([tmp_path / "s.tfrecord.gz"], RunDir(tmp_path / "run"), IngestOptions(), progress=False)
    with FakeOpenAI(lambda body, n: status(401)) as srv:
        proc = subprocess.run([sys.executable, "-m", "sftdata.cli", "annotate", str(tmp_path / "run"), "--backend",
                               "openai", "--base-url", srv.base_url, "--model", "m", "--api-key-env", KEY_ENV,
                               "--no-progress", "--concurrency", "8"],
                              env={**os.environ, KEY_ENV: KEY}, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "Error: the endpoint refused the API key (401)" in proc.stderr
    assert "Traceback" not in proc.stderr and "never retrieved" not in proc.stderr


# --- endpoint outages and windowed rejects ---------------------------------------------------------------
def test_an_endpoint_outage_does_not_reject_episodes_for_good(run, key):
    from sftdata.errors import FatalError

    down = FakeOpenAI(lambda body, n: "unused")
    down.stop()  # nobody listens on this port any more: connection refused
    try:
        annotate(run, down, episodes=None, max_retries=0, max_attempts=2)
    except FatalError:
        pass  # stopping the run is a fine answer too
    index = EpisodeIndex(run.path)
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        result = annotate(run, srv, episodes=None)
    assert result.annotated == 4 and result.rejected == 0


def test_reject_of_a_windowed_episode_names_the_episode_step(run, key):
    index = EpisodeIndex(run.path, window=4)

    def responder(body, n):
        w = index.lookup(body)
        items = index.correct_items(w)
        return dumps(flip_swipes(items) if w.start == 3 else items)  # window [3, 6) holds the 1st swipe (step 5)

    with FakeOpenAI(responder) as srv:
        annotate(run, srv, window=4, max_attempts=2)
    rej = rejects(run)[EP]
    assert rej["reason"] == "swipe_direction_mismatch"
    assert rej["failures"][0]["index"] == 5 or (rej.get("window") == [3, 6] and rej["failures"][0]["index"] == 2)
