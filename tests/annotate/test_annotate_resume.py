"""Kill -9 and resume of `sftdata annotate --backend openai` (a real subprocess against the fake server): every
episode ends annotated exactly once, finished episodes are never asked again, no answered request is paid for
twice (the reply cache), and a torn last line of annotations.jsonl is ignored and cut off on resume."""
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

from fake_openai import EpisodeIndex, FakeOpenAI, attempt_of
from sftdata.io import iter_jsonl
from sftdata.plural import counted
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from support import sample_run

KEY_ENV = "SFTDATA_TEST_RESUME_KEY"
KEY = "sk-fake-resume-0000"
N = 10
LATENCY = 0.3
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("resume"), N).path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


def command(run: RunDir, srv: FakeOpenAI) -> list[str]:
    return [sys.executable, "-m", "sftdata.cli", "annotate", str(run.path), "--backend", "openai",
            "--base-url", srv.base_url, "--model", "fake-vl", "--api-key-env", KEY_ENV, "--concurrency", "2",
            "--timeout", "10", "--max-retries", "1", "--no-progress"]


def env() -> dict[str, str]:
    return {**os.environ, KEY_ENV: KEY}


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True) if path.exists() else []


def complete_ids(path: Path) -> list[str]:
    return [json.loads(raw)["id"] for raw in lines(path) if raw.endswith(b"\n")]


def test_kill_and_resume_repeats_no_answered_request(run):
    index = EpisodeIndex(run.path)
    every = [e.id for e in run.episodes()]
    assert len(set(every)) == N

    def responder(body, n):  # odd episodes need a repair: one wrong count, then right
        w = index.lookup(body)
        items = index.correct_items(w)
        if int(w.episode.id) % 2 and attempt_of(body) == 1:
            items = items[:-1]
        return json.dumps(items, ensure_ascii=False)

    path = run.path / "annotations.jsonl"
    with FakeOpenAI(responder, latency=LATENCY) as srv:
        proc = subprocess.Popen(command(run, srv), env=env(), cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(complete_ids(path)) < 3 and proc.poll() is None:
                time.sleep(0.01)
            done_before = complete_ids(path)
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.kill()
            out, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, (out, err)
        assert 3 <= len(done_before) < N, f"kill came too late or too early: {done_before}"
        srv.wait_idle()  # the server has received and finished answering the killed client's requests
        first = srv.snapshot()
        done_at_kill = complete_ids(path)  # what the killed process managed to write
        cached_at_kill = sum(1 for p in (run.path / "cache" / "llm").rglob("*.json"))
        assert set(done_before) <= set(done_at_kill) and len(done_at_kill) < N

        second = subprocess.run(command(run, srv), env=env(), cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        assert srv.errors == []
        everything = srv.snapshot()

    resumed = everything[len(first):]
    ids = complete_ids(path)
    assert sorted(ids) == sorted(every) and len(ids) == N  # every episode exactly once
    assert not list(run.rejects())
    assert all(raw.endswith(b"\n") for raw in lines(path))
    records = {r["id"]: r for r in iter_jsonl(path)}
    assert {i for i, r in records.items() if r["attempts"] == 2} == {i for i in every if int(i) % 2}

    episode_of = lambda r: index.lookup(r.json).episode.id  # noqa: E731
    # finished before the kill: not one request in the resumed run
    assert [r for r in resumed if episode_of(r) in set(done_at_kill)] == []
    # a reply the killed client had stored is never paid for again: only requests in flight at the kill (sent,
    # reply not yet in RUN/cache/llm) may be repeated, and --concurrency 2 allows at most two of those
    first_digests = Counter(r.digest for r in first)
    assert max(first_digests.values()) == 1  # the killed run itself asked nothing twice
    in_flight = len(first) - cached_at_kill
    assert 0 <= in_flight <= 2
    counts = Counter(r.digest for r in everything)
    repeats = {d: c - 1 for d, c in counts.items() if c > 1}
    assert set(repeats) <= set(first_digests) and sum(repeats.values()) <= in_flight, (repeats, in_flight)
    # the resumed run asked only for what was missing, and says so
    assert f"annotated {counted(N - len(done_at_kill), 'new episode')}," in second.stdout
    manifest = run.manifest()["stages"]["annotate"]["reconstruction"]
    assert manifest["counts"]["annotated"] == N
    assert manifest["llm"]["requests"] == len(resumed)


def test_torn_last_line_is_ignored_and_repaired_on_resume(run, monkeypatch):
    monkeypatch.setenv(KEY_ENV, KEY)
    index = EpisodeIndex(run.path)
    opts = dict(backend="openai", model="fake-vl", api_key_env=KEY_ENV, timeout=5, max_retries=0, concurrency=4,
                progress=False)
    path = run.path / "annotations.jsonl"
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        annotate_run(run, AnnotateOptions(base_url=srv.base_url, **opts, limit=6))
        assert len(srv.requests) == 6
        data = path.read_bytes()
        last = data[:-1].rsplit(b"\n", 1)[-1]
        torn_id = json.loads(last)["id"]
        path.write_bytes(data[: len(data) - len(last) // 2 - 1])  # the writer died halfway through the last line
        assert torn_id not in complete_ids(path) and len(complete_ids(path)) == 5
        result = annotate_run(run, AnnotateOptions(base_url=srv.base_url, **opts))
        assert len(srv.requests) == N  # the torn episode came from the reply cache
    assert result.new_annotated == N - 5 and result.annotated == N
    assert sorted(complete_ids(path)) == sorted(e.id for e in run.episodes())
    assert all(raw.endswith(b"\n") and json.loads(raw) for raw in lines(path))  # the torn tail was cut off
    assert run.manifest()["stages"]["annotate"]["reconstruction"]["llm"]["cache_hits"] == 1

    # a torn half line appended after a complete run: ignored, cut, nothing asked
    path.write_bytes(path.read_bytes() + b'{"id": "100003", "items": [{"reaso')
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        result = annotate_run(run, AnnotateOptions(base_url=srv.base_url, **opts))
        assert srv.requests == []
    assert result.new_annotated == 0 and result.annotated == N
    assert path.read_bytes().endswith(b"\n") and len(complete_ids(path)) == N
