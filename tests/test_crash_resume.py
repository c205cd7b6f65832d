"""Crash and resume of the whole pipeline: `sftdata run CONFIG` (a real subprocess) is killed with SIGKILL inside
ingest, annotate and export (several times in a row), resumed, and must end exactly where an uninterrupted run
ends: the same samples in every shard (same bytes after sorting), the same exported images, every episode in
episodes.jsonl and annotations.jsonl exactly once, and a balanced ``ingested == exported + rejected`` in the
manifest. With the openai backend the fake server must never be asked again for an episode finished before a
kill, nor for a question whose reply it had stored (the reply cache). Torn last lines of the ledgers are dropped.

Kill points are exact: the process group is frozen with SIGSTOP, the run directory is inspected, and the group is
either killed (SIGKILL) right there or resumed (SIGCONT) for a few milliseconds more. The inputs are three
sources: a generated AndroidControl file, a copy of it with one corrupted record (a CRC reject plus duplicate
rejects), and tiny generated annotated folders (one of them bad); two export formats.
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest
from PIL import Image, ImageDraw

from fake_openai import EpisodeIndex, FakeOpenAI, Request
from built_once import sample_file

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
N = 16  # generated AndroidControl episodes
SIZE = (360, 800)
CORRUPT_INDEX = 5  # the record of the copy whose data gets a flipped byte
GOOD_FOLDERS = 6
EXPORTS = ("qwen2.5-vl-memory", "react-zh")
KEY_ENV = "SFTDATA_TEST_CRASH_KEY"
KEY = "sk-fake-crash-resume-1234"
LATENCY = 0.12
ALWAYS_WRONG = "100003"  # the fake model always drops an item for this episode: an annotate reject
INGESTED = N + N + GOOD_FOLDERS + 1  # episodes in: sample, its corrupted copy (all rejected), folders


# --- inputs -------------------------------------------------------------------------------------------------
def _corrupt_copy(src: Path, dst: Path, index: int) -> None:
    """``src`` with one byte flipped in the middle of record ``index``'s data (the CRCs left as they were)."""
    raw = bytearray(gzip.decompress(src.read_bytes()))
    pos = 0
    for _ in range(index):
        (length,) = struct.unpack_from("<Q", raw, pos)
        pos += 12 + length + 4
    (length,) = struct.unpack_from("<Q", raw, pos)
    raw[pos + 12 + length // 2] ^= 0x40
    dst.write_bytes(gzip.compress(bytes(raw), compresslevel=6, mtime=0))


def _folders(root: Path) -> None:
    for i in range(GOOD_FOLDERS):
        folder = root / f"traj{i:02d}"
        folder.mkdir(parents=True)
        actions = ["CLICK [500,500]", f"INPUT 文本{i}", "SWIPE [500,700] to [500,300]", "DONE"]
        for j in range(len(actions)):
            image = Image.new("RGB", (180, 400), (37 * i % 256, 53 * j % 256, 200))
            ImageDraw.Draw(image).rectangle([10 + i, 10 + j, 60, 90], fill=(255, 255, 255))
            image.save(folder / f"{j:03d}.png")
        (folder / "task.json").write_text(json.dumps(
            {"goal": f"打开第{i}个页面，搜索文本{i}", "actions": actions, "marked": False}, ensure_ascii=False),
            encoding="utf-8")
    bad = root / "zz_no_done"
    bad.mkdir()
    for j in range(2):
        Image.new("RGB", (180, 400), (0, 90, 200)).save(bad / f"{j:03d}.png")
    (bad / "task.json").write_text(json.dumps({"goal": "没有完成动作", "actions": ["BACK", "WAIT"], "marked": False},
                                              ensure_ascii=False), encoding="utf-8")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("crash_inputs")
    sample_file(root / "s.tfrecord.gz", n_episodes=N, seed=0, size=SIZE)
    _corrupt_copy(root / "s.tfrecord.gz", root / "flipped.tfrecord.gz", CORRUPT_INDEX)
    _folders(root / "annotated")
    return root


def write_config(workdir: Path, inputs: Path, backend: str = "template", base_url: str | None = None) -> Path:
    annotate = f'backend = "{backend}"\nconcurrency = 2\nmax_attempts = 2\n'
    if backend == "openai":
        annotate += (f'model = "fake-vl"\nbase_url = "{base_url}"\napi_key_env = "{KEY_ENV}"\n'
                     'timeout = 20\nmax_retries = 1\n')
    workdir.mkdir(parents=True, exist_ok=True)
    cfg = workdir / "cfg.toml"
    cfg.write_text(f"""run_dir = "run"
workers = 1
[[sources]]
type = "androidcontrol"
paths = ["{inputs / 's.tfrecord.gz'}", "{inputs / 'flipped.tfrecord.gz'}"]
[[sources]]
type = "annotated"
root = "{inputs / 'annotated'}"
[annotate]
{annotate}[[export]]
format = "qwen2.5-vl"
memory = true
split_ratio = 0.25
[[export]]
format = "react-zh"
split_ratio = 0.25
[report]
enabled = false
""", encoding="utf-8")
    return cfg


# --- running and killing ------------------------------------------------------------------------------------
def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_BASE_URL", "SFTDATA_MODEL") and "proxy" not in k.lower()}
    env[KEY_ENV] = KEY
    return env


def _start(cfg: Path, tag: str, *extra: str) -> subprocess.Popen:
    out = open(cfg.parent / f"{tag}.out", "wb")
    err = open(cfg.parent / f"{tag}.err", "wb")
    try:
        return subprocess.Popen([sys.executable, "-m", "sftdata.cli", "run", str(cfg), "--no-progress", *extra],
                                cwd=ROOT, env=_env(), stdout=out, stderr=err, start_new_session=True)
    finally:
        out.close()
        err.close()


def run_to_end(cfg: Path, tag: str, *extra: str) -> str:
    proc = _start(cfg, tag, *extra)
    try:
        proc.wait(timeout=180)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    out = (cfg.parent / f"{tag}.out").read_text(encoding="utf-8", errors="replace")
    err = (cfg.parent / f"{tag}.err").read_text(encoding="utf-8", errors="replace")
    assert proc.returncode == 0, f"{tag} exited {proc.returncode}\n{out}\n{err}"
    return out


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def kill_when(cfg: Path, tag: str, condition: Callable[[Path], bool], what: str, *extra: str,
              timeout: float = 90) -> float:
    """Start a run; freeze it every few ms and SIGKILL its process group the first time ``condition(run dir)``
    holds while frozen (so the run directory is exactly as the condition saw it). Returns the kill time."""
    run = cfg.parent / "run"
    proc = _start(cfg, tag, *extra)
    deadline = time.monotonic() + timeout
    try:
        while True:
            assert time.monotonic() < deadline, f"{tag}: no kill point ({what}) within {timeout} s"
            if proc.poll() is not None:
                err = (cfg.parent / f"{tag}.err").read_text(errors="replace")
                raise AssertionError(f"{tag}: the run ended (exit {proc.returncode}) before the kill point "
                                     f"({what}); make the stage slower\n{err}")
            _signal_group(proc.pid, signal.SIGSTOP)
            stopped = time.time()
            try:
                hit = condition(run)
            except BaseException:
                _signal_group(proc.pid, signal.SIGCONT)
                raise
            if hit:
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
                assert proc.returncode == -signal.SIGKILL
                return stopped
            _signal_group(proc.pid, signal.SIGCONT)
            time.sleep(0.004)
    finally:
        if proc.poll() is None:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait()


# --- looking at a run directory -----------------------------------------------------------------------------
def complete_lines(path: Path) -> list[bytes]:
    if not path.exists():
        return []
    return [raw for raw in path.read_bytes().splitlines(keepends=True) if raw.endswith(b"\n")]


def records(path: Path) -> list[dict]:
    return [json.loads(raw) for raw in complete_lines(path)]


def manifest(run: Path) -> dict:
    path = run / "manifest.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def ingest_finished(run: Path) -> bool:
    stages = manifest(run).get("stages", {}).get("ingest", {})
    return bool(stages.get("annotated", {}).get("finished"))


def annotate_recorded(run: Path) -> bool:
    return "annotate" in manifest(run).get("stages", {})


def n_episodes(run: Path, source: str | None = None) -> int:
    lines = complete_lines(run / "episodes.jsonl")
    if source is None:
        return len(lines)
    return sum(1 for raw in lines if f'"source":"{source}"'.encode() in raw[:200])


def staging(run: Path, name: str) -> list[Path]:
    return list((run / "export").glob(f".{name}.staging-*"))


def cached_replies(run: Path) -> int:
    """Replies in the run's LLM cache (one file per question; a killed writer's temporary file is no reply)."""
    return sum(1 for _ in (run / "cache" / "llm").rglob("*.json"))


def finished_episodes(run: Path) -> set[str]:
    """Episodes the annotate stage will not ask again: annotated or rejected by it."""
    done = {str(r["id"]) for r in records(run / "annotations.jsonl")}
    return done | {str(r["episode_id"]) for r in records(run / "rejects.jsonl") if r.get("stage") == "annotate"}


# kill-point conditions, each checked while the run is frozen
def episodes_at_least(k: int, source: str | None = None) -> Callable[[Path], bool]:
    return lambda run: n_episodes(run, source) >= k and not ingest_finished(run)


def ingest_rejects_at_least(k: int) -> Callable[[Path], bool]:
    return lambda run: sum(1 for r in complete_lines(run / "rejects.jsonl") if b'"stage":"ingest"' in r) >= k \
        and not ingest_finished(run)


def annotations_at_least(k: int) -> Callable[[Path], bool]:
    return lambda run: len(complete_lines(run / "annotations.jsonl")) >= k and not annotate_recorded(run)


def exporting(name: str, images: int = 1) -> Callable[[Path], bool]:
    def cond(run: Path) -> bool:
        return any(len(list((s / "images").glob("*"))) >= images for s in staging(run, name))
    return cond


# --- the reference and the comparison -----------------------------------------------------------------------
def shard_lines(export: Path, split: str) -> list[bytes]:
    lines: list[bytes] = []
    for shard in sorted(export.glob(f"{split}-*.jsonl")):
        lines += shard.read_bytes().splitlines(keepends=True)
    return sorted(lines)


def assert_same_as_reference(run: Path, ref: Path) -> None:
    for name in EXPORTS:
        got, want = run / "export" / name, ref / "export" / name
        assert got.is_dir(), f"export {name} missing"
        for split in ("train", "val"):
            lines = shard_lines(got, split)
            assert lines, f"{name} {split}: no samples"
            assert lines == shard_lines(want, split), f"{name} {split} shards differ from the uninterrupted run"
            for raw in lines:
                assert raw.endswith(b"\n") and json.loads(raw.decode("utf-8"))
        got_images = {p.name: p.stat().st_size for p in (got / "images").iterdir()}
        want_images = {p.name: p.stat().st_size for p in (want / "images").iterdir()}
        assert got_images == want_images, f"{name}: exported images differ"
        assert json.loads((got / "splits.json").read_text()) == json.loads((want / "splits.json").read_text())
    visible = lambda d: {p.relative_to(d).as_posix() for p in (d / "images").rglob("*")  # noqa: E731
                         if p.is_file() and not p.name.startswith(".")}
    assert visible(run) == visible(ref), "the run's image stores differ"

    accounting = manifest(run)["stages"]["pipeline"]["last"]["accounting"]
    ref_accounting = manifest(ref)["stages"]["pipeline"]["last"]["accounting"]
    assert accounting["ingested"] == INGESTED
    for name in EXPORTS:
        acc = accounting[name]
        assert acc["balanced"] and accounting["ingested"] == acc["exported"] + acc["rejected"], acc
        assert acc == ref_accounting[name]

    # every episode once, byte for byte the reference's lines; every annotation once, the same items
    episodes = complete_lines(run / "episodes.jsonl")
    assert sorted(episodes) == sorted(complete_lines(ref / "episodes.jsonl"))
    ids = [json.loads(raw)["id"] for raw in episodes]
    assert len(ids) == len(set(ids)) == N + GOOD_FOLDERS
    annotations = records(run / "annotations.jsonl")
    annotated = [str(r["id"]) for r in annotations]
    assert len(annotated) == len(set(annotated)), f"annotated twice: {Counter(annotated).most_common(3)}"
    assert {a: r["items"] for a, r in zip(annotated, annotations)} == \
        {str(r["id"]): r["items"] for r in records(ref / "annotations.jsonl")}

    def reject_keys(path: Path) -> Counter:
        return Counter((r["stage"], r["reason"], r.get("episode_id"), json.dumps(r.get("record"), sort_keys=True))
                       for r in records(path))
    assert reject_keys(run / "rejects.jsonl") == reject_keys(ref / "rejects.jsonl")
    for ledger in ("episodes.jsonl", "annotations.jsonl", "rejects.jsonl"):  # no torn or broken line is left
        data = (run / ledger).read_bytes()
        assert data == b"" or data.endswith(b"\n"), f"{ledger} ends with a partial line"
        for raw in data.splitlines():
            json.loads(raw)



def leftovers(run: Path) -> list[str]:
    export = run / "export"
    return sorted(p.name for p in export.iterdir() if p.name.startswith(".")) if export.exists() else []


@pytest.fixture(scope="module")
def template_reference(inputs, tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("ref_template")
    cfg = write_config(work, inputs)
    out = run_to_end(cfg, "reference")
    assert "NOT BALANCED" not in out and out.count(": balanced") == len(EXPORTS)
    return work / "run"


@dataclass
class Server:
    srv: FakeOpenAI
    index: EpisodeIndex
    wrong: Counter = field(default_factory=Counter)

    def episode_of(self, request: Request) -> str:
        return self.index.lookup(request.json).episode.id


@pytest.fixture(scope="module")
def server(template_reference, tmp_path_factory):
    # the fake model's episode index reads a copy of the reference's episodes (identical in every run)
    index_run = tmp_path_factory.mktemp("index_run")
    shutil.copy(template_reference / "episodes.jsonl", index_run / "episodes.jsonl")
    shutil.copytree(template_reference / "images", index_run / "images")
    index = EpisodeIndex(index_run)
    index.warm()

    def responder(body, n):
        window = index.lookup(body)
        items = index.correct_items(window)
        if window.episode.id == ALWAYS_WRONG:
            items = items[:-1]
        return json.dumps(items, ensure_ascii=False)

    with FakeOpenAI(responder, latency=LATENCY) as srv:
        yield Server(srv, index)
    index.close()


@pytest.fixture(scope="module")
def openai_reference(inputs, server, tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("ref_openai")
    before = len(server.srv.snapshot())
    cfg = write_config(work, inputs, "openai", server.srv.base_url)
    run_to_end(cfg, "reference")
    assert server.srv.errors == []
    requests = server.srv.snapshot()[before:]
    per_episode = Counter(server.episode_of(r) for r in requests)
    assert per_episode[ALWAYS_WRONG] == 2 and set(per_episode.values()) == {1, 2}  # one ask each, two for the bad
    rejected = [r for r in records(work / "run" / "rejects.jsonl") if r["stage"] == "annotate"]
    assert [(r["episode_id"], r["reason"]) for r in rejected] == [(ALWAYS_WRONG, "item_count_mismatch")]
    return work / "run"


# --- the scenarios ------------------------------------------------------------------------------------------
KILLS: dict[str, list[tuple[str, Callable[[Path], bool]]]] = {
    "ingest": [
        ("first androidcontrol episode written", episodes_at_least(1)),
        ("late in the first file", episodes_at_least(N - 3)),
        ("inside the corrupted copy", ingest_rejects_at_least(CORRUPT_INDEX + 3)),
        ("inside the annotated folders", episodes_at_least(2, "annotated")),
    ],
    "annotate": [
        ("first annotation written", annotations_at_least(1)),
        ("half the annotations written", annotations_at_least((N + GOOD_FOLDERS) // 2)),
    ],
    "export": [
        ("staging the first export", exporting(EXPORTS[0], 3)),
        ("staging the second export", exporting(EXPORTS[1], 1)),
    ],
    "every-stage-twice": [
        ("ingest", episodes_at_least(3)),
        ("ingest again", episodes_at_least(N // 2 + 2)),  # still in the first source: the folders' six land in a burst
        ("annotate", annotations_at_least(4)),
        ("annotate again", annotations_at_least(12)),
        ("export", exporting(EXPORTS[0], 1)),
        ("export again", exporting(EXPORTS[1], 10)),
    ],
}


@pytest.mark.parametrize("scenario", list(KILLS))
def test_killed_template_run_resumes_to_the_reference(scenario, inputs, template_reference, tmp_path):
    cfg = write_config(tmp_path, inputs)
    extra = ("--workers", "2") if scenario == "every-stage-twice" else ()  # a process pool is killed too
    for i, (what, condition) in enumerate(KILLS[scenario]):
        kill_when(cfg, f"kill{i}", condition, what, *extra)
    out = run_to_end(cfg, "resume", *extra)
    assert "NOT BALANCED" not in out
    assert_same_as_reference(tmp_path / "run", template_reference)


def test_killed_openai_run_asks_nothing_twice(inputs, server, openai_reference, tmp_path):
    srv = server.srv
    cfg = write_config(tmp_path, inputs, "openai", srv.base_url)
    start = len(srv.snapshot())

    def in_flight(k: int) -> Callable[[Path], bool]:  # k annotations, and a request of the run in flight
        return lambda run: annotations_at_least(k)(run) and srv.in_flight > 0

    points = [("ingest", episodes_at_least(5)), ("annotate", in_flight(2)), ("annotate again", in_flight(9)),
              ("export", exporting(EXPORTS[1], 1))]
    kills = []  # (requests so far, replies in the run's cache, episodes finished): at each kill
    for i, (what, condition) in enumerate(points):
        kill_when(cfg, f"kill{i}", condition, what)
        srv.wait_idle()  # the server has received and finished (or dropped) the killed client's requests
        kills.append((len(srv.snapshot()), cached_replies(tmp_path / "run"), finished_episodes(tmp_path / "run")))
    assert len(kills[1][2]) >= 2 and len(kills[2][2]) >= 9 and len(kills[3][2]) == N + GOOD_FOLDERS
    run_to_end(cfg, "resume")
    assert srv.errors == []
    everything = srv.snapshot()[start:]
    assert_same_as_reference(tmp_path / "run", openai_reference)
    assert len(everything) == kills[-1][0] - start  # killed in export: the resumed run asked nothing

    questions = [r for r in everything if r.is_question]  # a body cut off by a kill reaches the server as no JSON
    for seen, cached, finished in kills:
        before = {r.digest for r in everything[:seen - start] if r.is_question}
        later = [r for r in everything[seen - start:] if r.is_question]
        asked_again = sorted({server.episode_of(r) for r in later} & finished)
        assert asked_again == [], f"episodes finished before the kill were asked again: {asked_again}"
        # a reply in the cache is never paid for again: of the questions asked before the kill, only those whose
        # reply was not stored yet (in flight at the kill) may be asked again (one cache entry per question)
        repeated = before & {r.digest for r in later}
        assert len(repeated) <= len(before) - cached, (len(repeated), len(before), cached)
    # at most the requests in flight at the two annotate kills are repeated
    counts = Counter(r.digest for r in questions)
    assert sum(c - 1 for c in counts.values()) <= 2 * 2 * 2
    assert {server.episode_of(r) for r in questions} == set(server.index.episodes)


def test_torn_last_lines_are_dropped_on_resume(inputs, template_reference, tmp_path):
    cfg = write_config(tmp_path, inputs)
    run = tmp_path / "run"
    ref_episodes = complete_lines(template_reference / "episodes.jsonl")
    ref_rejects = complete_lines(template_reference / "rejects.jsonl")
    ref_annotations = complete_lines(template_reference / "annotations.jsonl")

    def tear(path: Path, line: bytes) -> None:
        assert not path.exists() or path.read_bytes().endswith(b"\n") or path.stat().st_size == 0
        with open(path, "ab") as f:
            f.write(line[: len(line) // 2])

    kill_when(cfg, "kill0", episodes_at_least(4), "4 episodes")
    have = n_episodes(run)
    tear(run / "episodes.jsonl", ref_episodes[have])  # the next episode, half written
    tear(run / "rejects.jsonl", ref_rejects[0])
    kill_when(cfg, "kill1", annotations_at_least(5), "5 annotations")
    done = {json.loads(raw)["id"] for raw in complete_lines(run / "annotations.jsonl")}
    torn = next(raw for raw in ref_annotations if json.loads(raw)["id"] not in done)
    tear(run / "annotations.jsonl", torn)
    tear(run / "rejects.jsonl", ref_rejects[-1])
    run_to_end(cfg, "resume")
    assert_same_as_reference(run, template_reference)


def test_a_killed_export_leaves_no_staging_directory_behind(inputs, template_reference, tmp_path):
    cfg = write_config(tmp_path, inputs)
    kill_when(cfg, "kill0", exporting(EXPORTS[0], 3), "staging the first export")
    assert staging(tmp_path / "run", EXPORTS[0])
    run_to_end(cfg, "resume")
    assert_same_as_reference(tmp_path / "run", template_reference)
    assert leftovers(tmp_path / "run") == []
