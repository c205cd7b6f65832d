"""The batch backend (Batch API request lines out, result lines back in through the same checks) and
`sftdata validate` (exit status, the table of reasons, raw seed-002 lists matched by line, {id, items} lines,
the JSON report)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fake_openai import EpisodeIndex, FakeOpenAI, flip_swipes
from sftdata.cli import main
from sftdata.io import iter_jsonl
from sftdata.annotate.stage import split_windows
from sftdata.annotate.template import template_items
from sftdata.rundir import RunDir
from support import sample_run

WINDOW = 5
KEY_ENV = "SFTDATA_TEST_BATCH_KEY"
GOOD, FAILING, ERRORED, PARTIAL, MISSING = ("100000", "100003", "100005"), "100001", "100002", "100004", "100006"


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("batch"), 7).path


@pytest.fixture
def run(base_run, tmp_path) -> RunDir:
    shutil.copytree(base_run, tmp_path / "run")
    return RunDir(tmp_path / "run")


def sftdata(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def completion(content: str, n: int, finish_reason: str = "stop") -> dict:
    return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1700000000, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}


def ok_line(custom_id: str, content: str, n: int, finish_reason: str = "stop") -> dict:
    return {"id": f"batch_req_{n}", "custom_id": custom_id, "error": None,
            "response": {"status_code": 200, "request_id": f"req_{n}", "body": completion(content, n, finish_reason)}}


def error_line(custom_id: str, n: int) -> dict:
    return {"id": f"batch_req_{n}", "custom_id": custom_id, "response": None,
            "error": {"code": "server_error", "message": "The server had an error processing the request."}}


def write_requests(run: RunDir, path: Path, *extra: str):
    return sftdata("annotate", run.path, "--backend", "batch", "--model", "m", "--window", WINDOW,
                   "--write-requests", path, "--no-progress", *extra)


def fake_results(run: RunDir, requests: Path, out: Path) -> None:
    index = EpisodeIndex(run.path, window=WINDOW)
    rows = []
    for n, line in enumerate(iter_jsonl(requests)):
        w = index.lookup(line["body"])
        items = index.correct_items(w)
        ep = w.episode.id
        if ep == MISSING or (ep == PARTIAL and w.start == 0):
            continue
        if ep == ERRORED and w.start == 0:
            rows.append(error_line(line["custom_id"], n))
            continue
        if ep == FAILING:
            items = flip_swipes(items)
        rows.append(ok_line(line["custom_id"], dumps(items), n))
    rows.reverse()  # the Batch API does not promise the input order
    out.write_text("".join(dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_write_requests_one_line_per_window(run, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # writing requests needs no key
    path = tmp_path / "requests.jsonl"
    result = write_requests(run, path)
    assert result.exit_code == 0, result.output
    expected = [f"{e.id}::{s}-{t}" for e in run.episodes() for s, t in split_windows(len(e.steps), WINDOW)]
    lines = list(iter_jsonl(path))
    assert f"wrote {len(expected)} request lines" in result.output
    assert [line["custom_id"] for line in lines] == expected and len(expected) > 7
    for line in lines:
        assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
        assert line["body"]["model"] == "m" and [m["role"] for m in line["body"]["messages"]] == ["system", "user"]
        assert line["body"]["max_tokens"] == 8192
    assert not (run.path / "annotations.jsonl").exists() or not (run.path / "annotations.jsonl").read_text()

    # exactly the first request the live backend sends for the same window
    index = EpisodeIndex(run.path, window=WINDOW)
    monkeypatch.setenv(KEY_ENV, "sk-batch")
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        live = sftdata("annotate", run.path, "--backend", "openai", "--base-url", srv.base_url, "--model", "m",
                       "--api-key-env", KEY_ENV, "--window", WINDOW, "--episodes", "100000", "--no-progress")
        assert live.exit_code == 0, live.output
        assert [r.json for r in srv.requests] == [line["body"] for line in lines[:2]]

    # episodes already annotated are not written again
    again = write_requests(run, tmp_path / "again.jsonl")
    assert [line["custom_id"] for line in iter_jsonl(tmp_path / "again.jsonl")] == expected[2:]
    assert again.exit_code == 0


def test_import_results(run, tmp_path):
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    assert write_requests(run, requests).exit_code == 0
    fake_results(run, requests, results)
    result = sftdata("annotate", run.path, "--backend", "batch", "--model", "m", "--window", WINDOW,
                     "--import-results", results, "--no-progress")
    assert result.exit_code == 0, result.output
    assert "annotated 3 new episodes, rejected 2" in result.output
    annotations = {r["id"]: r for r in iter_jsonl(run.path / "annotations.jsonl")}
    assert sorted(annotations) == sorted(GOOD)
    assert annotations["100000"]["windows"] == 2 and len(annotations["100000"]["items"]) == 9
    assert annotations["100000"]["backend"] == "batch" and annotations["100000"]["model"] == "m"
    rejects = {r["episode_id"]: r for r in run.rejects() if r["stage"] == "annotate"}
    assert set(rejects) == {FAILING, ERRORED}
    assert rejects[FAILING]["reason"] == "swipe_direction_mismatch"
    assert {f["reason"] for f in rejects[FAILING]["failures"]} == {"swipe_direction_mismatch"}
    assert rejects[ERRORED]["reason"] == "llm_error" and "server_error" in rejects[ERRORED]["detail"]
    # PARTIAL (one window missing) and MISSING (no line) are left for a later import
    assert PARTIAL not in annotations and MISSING not in annotations
    manifest = run.manifest()["stages"]["annotate"]["reconstruction"]
    assert manifest["counts"] == {"annotated": 3, "rejected": 2,
                                  "by_reason": {"swipe_direction_mismatch": 1, "llm_error": 1}}

    # importing the same file again changes nothing
    again = sftdata("annotate", run.path, "--backend", "batch", "--model", "m", "--window", WINDOW,
                    "--import-results", results, "--no-progress")
    assert "annotated 0 new episodes, rejected 0" in again.output
    assert len(list(iter_jsonl(run.path / "annotations.jsonl"))) == 3

    # the annotations pass validation; episodes without one are listed, not failed
    check = sftdata("validate", run.path)
    assert check.exit_code == 0, check.output
    assert "checked 3   passed 3   failed 0   without annotation 4" in check.output


@pytest.mark.parametrize("stage, prefix", [("annotate", ""), ("judge", "judge::")])
def test_a_results_file_that_answers_nothing_of_this_run_says_so_and_imports_nothing(run, tmp_path, stage, prefix):
    requests = tmp_path / "requests.jsonl"
    assert write_requests(run, requests).exit_code == 0
    before = sorted(p.name for p in run.path.iterdir())
    cases = {
        "empty.jsonl": ("", "holds no line"),
        "requests.jsonl": (requests.read_text(encoding="utf-8"), "holds request lines"),
        "other.jsonl": (dumps(ok_line(f"{prefix}999999::0-5", "x", 0)) + "\n" + dumps(ok_line("zzz", "x", 1)) + "\n",
                        "no line of"),
    }
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        result = sftdata(stage, run.path, "--backend", "batch", "--model", "m", "--import-results", tmp_path / name)
        assert result.exit_code == 3 and message in result.output and "nothing was imported" in result.output, name
    assert sorted(p.name for p in run.path.iterdir()) == before  # no ledger, no manifest entry


def test_result_lines_of_another_run_or_broken_ones_are_said_and_skipped(run, tmp_path):
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    assert write_requests(run, requests, "--episodes", "100000,100001").exit_code == 0
    index, lines = EpisodeIndex(run.path, window=WINDOW), []
    for n, line in enumerate(iter_jsonl(requests)):
        if line["custom_id"].startswith("100000::"):
            lines.append(dumps(ok_line(line["custom_id"], index.correct_reply(line["body"]), n)))
        else:  # a broken response for every window of the other episode
            lines.append(dumps({"custom_id": line["custom_id"], "response": "nope"}))
    lines += [dumps(ok_line("999999::0-5", "x", 99)), dumps({"note": "not a result"})]
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["annotate", str(run.path), "--backend", "batch", "--model", "m", "--window",
                                       str(WINDOW), "--import-results", str(results)])
    assert result.exit_code == 0, result.output
    assert "1 result line answers no request of this run" in result.stderr
    assert "1 line is not a result object" in result.stderr
    assert "annotated 1 new episode," in result.output and "Traceback" not in result.output
    assert [(r["episode_id"], r["reason"]) for r in run.rejects()] == [("100001", "llm_error")]


def test_truncated_batch_reply_is_rejected(run, tmp_path):
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    assert write_requests(run, requests, "--episodes", "100005").exit_code == 0
    index = EpisodeIndex(run.path, window=WINDOW)
    line = next(iter_jsonl(requests))
    text = index.correct_reply(line["body"])
    results.write_text(dumps(ok_line(line["custom_id"], text[:50], 0, "length")) + "\n", encoding="utf-8")
    sftdata("annotate", run.path, "--backend", "batch", "--model", "m", "--window", WINDOW, "--import-results",
            results)
    assert [(r["episode_id"], r["reason"]) for r in run.rejects()] == [("100005", "reply_truncated")]


def test_batch_rejects_can_be_rerun_with_the_live_backend(run, tmp_path, monkeypatch):
    """A batch reject (one unrepaired answer, or an error line) stays open for a live backend, which repairs."""
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    write_requests(run, requests)
    fake_results(run, requests, results)
    sftdata("annotate", run.path, "--backend", "batch", "--model", "m", "--window", WINDOW, "--import-results", results)
    index = EpisodeIndex(run.path, window=WINDOW)
    monkeypatch.setenv(KEY_ENV, "sk-batch")
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        live = sftdata("annotate", run.path, "--backend", "openai", "--base-url", srv.base_url, "--model", "m",
                       "--api-key-env", KEY_ENV, "--window", WINDOW, "--no-progress")
        asked = {index.lookup(r.json).episode.id for r in srv.requests}
    assert live.exit_code == 0, live.output
    assert asked == {FAILING, ERRORED, PARTIAL, MISSING}  # the batch-annotated ones are not asked again
    annotated = [r["id"] for r in iter_jsonl(run.path / "annotations.jsonl")]
    assert sorted(annotated) == sorted(e.id for e in run.episodes())
    counts = run.manifest()["stages"]["annotate"]["reconstruction"]["counts"]
    assert counts == {"annotated": 7, "rejected": 0, "by_reason": {}}  # repaired rejects count once, as annotated
    assert sftdata("validate", run.path).exit_code == 0


# --- sftdata validate -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def episodes(base_run):
    return list(RunDir(base_run).episodes())


def test_validate_raw_lists_matched_by_line(base_run, episodes, tmp_path):
    ann = tmp_path / "raw.jsonl"
    ann.write_text("".join(dumps(template_items(e)) + "\n" for e in episodes), encoding="utf-8")
    report = tmp_path / "report.json"
    result = sftdata("validate", "--episodes", base_run / "episodes.jsonl", "--annotations", ann, "--report", report)
    assert result.exit_code == 0, result.output
    assert f"checked {len(episodes)}   passed {len(episodes)}   failed 0" in result.output
    data = json.loads(report.read_text())
    assert data["checked"] == data["passed"] == len(episodes) and data["failed"] == 0
    assert data["failures_by_reason"] == {} and data["missing"] == [] and data["failing_episodes"] == []

    # one line's items swapped with the next: matched by line, so both fail
    rows = [template_items(e) for e in episodes]
    rows[1], rows[2] = rows[2], rows[1]
    ann.write_text("".join(dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = sftdata("validate", "--episodes", base_run / "episodes.jsonl", "--annotations", ann, "--report", report)
    assert result.exit_code == 1
    data = json.loads(report.read_text())
    assert data["failed"] == 2 and {e["id"] for e in data["failing_episodes"]} == {episodes[1].id, episodes[2].id}


def test_validate_id_records_in_any_order(base_run, episodes, tmp_path):
    ann = tmp_path / "records.jsonl"
    ann.write_text("".join(dumps({"id": e.id, "items": template_items(e)}) + "\n" for e in reversed(episodes))
                   + dumps({"id": "no-such-episode", "items": []}) + "\n", encoding="utf-8")
    result = sftdata("validate", "--episodes", base_run / "episodes.jsonl", "--annotations", ann)
    assert result.exit_code == 0, result.output
    assert f"checked {len(episodes)}   passed {len(episodes)}   failed 0" in result.output
    assert "annotations without episode 1" in result.output


def test_validate_reports_failures_as_a_table(run, episodes, tmp_path):
    records = []
    for e in episodes:
        items = template_items(e)
        if e.id == "100000":
            items = flip_swipes(items)  # two swipes
        if e.id == "100002":
            items[0]["reasoning"] = "Long press the chat with Zhang Wei to open its menu."
        if e.id == "100003":
            items = items[:-1]
        records.append({"id": e.id, "source": e.source, "items": items})
    (run.path / "annotations.jsonl").write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    report = tmp_path / "r.json"
    result = sftdata("validate", run.path, "--report", report)
    assert result.exit_code == 1
    out = result.output
    assert f"checked {len(episodes)}   passed {len(episodes) - 3}   failed 3" in out
    assert "failures by reason:" in out
    table = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()
             if line.startswith("  ") and not line.strip().startswith("e.g.")}
    assert table == {"swipe_direction_mismatch": 2, "reasoning_not_chinese": 1, "item_count_mismatch": 1,
                     "missing_done": 1}
    assert "e.g. episode 100000, item 6: swipe_direction_mismatch" in out  # 1-based, as every printed step
    data = json.loads(report.read_text())
    assert data["failures_by_reason"] == table and data["failed"] == 3
    assert [e["id"] for e in data["failing_episodes"]] == ["100000", "100002", "100003"]


def test_validate_without_annotations_is_an_error(run):
    result = sftdata("validate", run.path)
    assert result.exit_code == 1 and "run `sftdata annotate` first" in result.output


def test_validate_episodes_file_without_final_newline(base_run, episodes, tmp_path):
    """An episodes file made elsewhere may lack the final newline: its last episode is still checked."""
    eps = tmp_path / "episodes.jsonl"
    eps.write_bytes((base_run / "episodes.jsonl").read_bytes().rstrip(b"\n"))
    ann = tmp_path / "raw.jsonl"
    ann.write_text("\n".join(dumps(template_items(e)) for e in episodes), encoding="utf-8")
    result = sftdata("validate", "--episodes", eps, "--annotations", ann)
    assert result.exit_code == 0 and f"checked {len(episodes)}   passed {len(episodes)}   failed 0" in result.output
