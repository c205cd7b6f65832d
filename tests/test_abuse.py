"""Hostile and broken inputs: each must end with a clear one-line error or a reject with a reason, the rest of the
run going on, without tracebacks, huge allocations or leaked secrets.

- the API key never appears in any file of the run, in the reply cache, the report or the CLI's output;
- screenshot paths escaping their trajectory folder (``..``, absolute, symlinks) -> ``path_escape``;
- PNG decompression bombs (annotated folders, AndroidControl records) -> rejected or header-only, bounded memory;
- a TFRecord length field of 2^60 with a valid length CRC -> a reject, the records before it ingested;
- 50 MB and 10,000-level-deep LLM replies -> ``reply_too_large`` / ``reply_too_deep`` (or repaired);
- control characters, bidi marks, zero-width joiners and lone surrogates in goals and input text;
- read-only run and export directories (a real read-only tmpfs mount when root) -> one-line errors, nothing written;
- config files with unknown keys, typos and wrongly typed values -> an error naming the key.

The CLI runs as a real subprocess (``python -m sftdata.cli``), under a 2 GB address-space limit where memory
matters; its peak RSS is its own VmHWM.
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest
from PIL import Image

from fake_openai import EpisodeIndex, FakeOpenAI, attempt_of, status
from sftdata.loaders.protos import make_example, parse_example
from sftdata.synthetic.sample import generate_records
from sftdata.loaders.tfrecord import frame_record, masked_crc32c, write_tfrecords

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

SIZE = (360, 800)
KEY_ENV = "SFTDATA_ABUSE_KEY"
KEY = "sk-abuse-canary-5f0e2b7c9d41a8e3b6"
MEMORY_LIMIT = 2 << 30  # RLIMIT_AS of the CLI subprocesses that handle bombs and huge inputs


# --- running the CLI ----------------------------------------------------------------------------------------
@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    max_rss_mb: float

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_BASE_URL", "SFTDATA_MODEL", "OPENAI_API_KEY") and "proxy" not in k.lower()}
    env.update(extra)
    return env


# `python -m sftdata.cli ARGS` with an address-space limit, reporting its own peak RSS (VmHWM: a fresh number after
# exec, unlike ru_maxrss, which keeps the forking test process's size)
_LAUNCHER = """
import atexit, resource, runpy, sys
limit, report = int(sys.argv[1]), sys.argv[2]
if limit:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
def _peak():
    with open("/proc/self/status") as f, open(report, "w") as out:
        out.write(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
atexit.register(_peak)
sys.argv = ["sftdata", *sys.argv[3:]]
runpy.run_module("sftdata.cli", run_name="__main__", alter_sys=True)
"""


def cli(*args: Any, cwd: Path, env: dict[str, str] | None = None, memory_limit: int | None = MEMORY_LIMIT,
        timeout: float = 300) -> Result:
    """``sftdata ARGS`` as a subprocess in ``cwd``; returns its exit code, output and peak RSS."""
    tag = f".cli-{time.monotonic_ns()}"
    out_path, err_path, peak_path = (cwd / f"{tag}.{ext}" for ext in ("out", "err", "peak"))
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(memory_limit or 0), str(peak_path),
                                 *map(str, args)], cwd=cwd, env=env or _env(), stdout=out, stderr=err)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"sftdata {' '.join(map(str, args))} did not finish in {timeout} s") from None
    finally:
        stdout = out_path.read_text(encoding="utf-8", errors="replace")
        stderr = err_path.read_text(encoding="utf-8", errors="replace")
        peak = int(peak_path.read_text() or 0) / 1024 if peak_path.exists() else float("nan")
        for path in (out_path, err_path, peak_path):
            path.unlink(missing_ok=True)
    return Result(proc.returncode, stdout, stderr, peak)


def assert_one_line_error(res: Result, *needles: str) -> str:
    assert res.returncode == 1, f"exit {res.returncode}\n{res.output}"
    assert "Traceback" not in res.output, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def assert_ok(res: Result) -> None:
    assert res.returncode == 0 and "Traceback" not in res.output, res.output


def jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(raw) for raw in path.read_bytes().split(b"\n") if raw.strip()]


def rejects(run: Path) -> dict[str, dict]:
    return {str(r["episode_id"]): r for r in jsonl(run / "rejects.jsonl")}


def episode_ids(run: Path) -> list[str]:
    return [str(e["id"]) for e in jsonl(run / "episodes.jsonl")]


def tree(path: Path) -> dict[str, bytes | None]:
    """Every entry under ``path`` (files with their bytes, directories as None)."""
    out: dict[str, bytes | None] = {}
    for p in sorted(path.rglob("*")):
        rel = p.relative_to(path).as_posix()
        out[rel] = p.read_bytes() if p.is_file() and not p.is_symlink() else None
    return out


# --- inputs -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def records() -> list[bytes]:
    """Four generated AndroidControl records (episodes 100000..100003, small screens)."""
    return list(generate_records(4, 0, SIZE))


def write_ac(path: Path, records: list[bytes]) -> Path:
    write_tfrecords(path, records)
    return path


@functools.lru_cache(maxsize=None)
def png_bomb(width: int, height: int) -> bytes:
    """A valid 1-bit PNG of ``width`` x ``height`` zero pixels: about 0.1 MB for 30000 x 30000, 2.7 GB as RGB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" * (1 + (width + 7) // 8)
    deflate = zlib.compressobj(9)
    data = b"".join(deflate.compress(row) for _ in range(height)) + deflate.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def folder(root: Path, name: str, actions: list, goal: str = "打开设置", frames: int | None = None,
           **extra: Any) -> Path:
    """A clean (``marked: false``) trajectory folder of tiny distinct screenshots."""
    path = root / name
    path.mkdir(parents=True)
    for i in range(len(actions) if frames is None else frames):
        Image.new("RGB", (90, 200), (len(name) * 19 % 256, i * 40 % 256, 160)).save(path / f"{i:03d}.png")
    (path / "task.json").write_text(json.dumps({"goal": goal, "actions": actions, "marked": False, **extra}),
                                    encoding="utf-8")
    return path


def config(workdir: Path, run_dir: Path | str = "run", *, ac: list[Path] = (), annotated: Path | None = None,
           annotate: str = 'backend = "template"\n', exports: tuple[str, ...] = ("react-zh",),
           report: bool = False, include_unsure: bool = False) -> Path:
    text = f'run_dir = "{run_dir}"\n'
    if ac:
        text += '[[sources]]\ntype = "androidcontrol"\npaths = [' + ", ".join(f'"{p}"' for p in ac) + "]\n"
    if annotated is not None:
        text += f'[[sources]]\ntype = "annotated"\nroot = "{annotated}"\n'
    text += "[annotate]\n" + annotate
    for fmt in exports:
        text += f'[[export]]\nformat = "{fmt}"\nsplit_ratio = 0.0\n' + ("include_unsure = true\n" if include_unsure else "")
    text += f"[report]\nenabled = {'true' if report else 'false'}\n"
    path = workdir / "cfg.toml"
    path.write_text(text, encoding="utf-8")
    return path


def openai_annotate(srv: FakeOpenAI, **extra: Any) -> str:
    options = {"backend": "openai", "model": "fake-vl", "base_url": srv.base_url, "api_key_env": KEY_ENV,
               "timeout": 30, "max_retries": 1, "concurrency": 2, "max_attempts": 2, **extra}
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in options.items())


# --- the API key --------------------------------------------------------------------------------------------
def assert_key_nowhere(workdir: Path, *results: Result) -> None:
    needles = [KEY.encode(), KEY[-20:].encode()]  # the key, and a tail of it (masked forms keep the tail)
    for res in results:
        for needle in needles:
            assert needle.decode() not in res.output, f"the API key is in the CLI output:\n{res.output}"
    found = []
    for path in workdir.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found += [str(path.relative_to(workdir)) for needle in needles if needle in data]
    assert not found, f"the API key is written in {sorted(set(found))}"


@pytest.fixture(scope="module")
def index_run(records, tmp_path_factory) -> Path:
    """A run of the four records, for the fake model's episode index."""
    root = tmp_path_factory.mktemp("abuse_index")
    res = cli("ingest", "androidcontrol", write_ac(root / "ac.tfrecord.gz", records), "--out", root / "run",
              "--no-progress", cwd=root)
    assert_ok(res)
    return root / "run"


def test_api_key_is_in_no_file_and_no_output(records, index_run, tmp_path):
    index = EpisodeIndex(index_run)

    failed: set[str] = set()

    def responder(body, n):
        window = index.lookup(body)
        if window.episode.id == "100001" and window.episode.id not in failed:
            failed.add(window.episode.id)
            return status(500)  # once: retried by the SDK
        if window.episode.id == "100002":
            return json.dumps(index.correct_items(window)[:-1], ensure_ascii=False)  # wrong twice: a reject
        return index.correct_reply(body)

    write_ac(tmp_path / "ac.tfrecord.gz", records)
    with FakeOpenAI(responder) as srv:
        cfg = config(tmp_path, ac=[tmp_path / "ac.tfrecord.gz"], annotate=openai_annotate(srv, price_in=1.0),
                     exports=("react-zh", "qwen2.5-vl"), report=True)
        res = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
        assert_ok(res)
        again = cli("annotate", tmp_path / "run", "--backend", "openai", "--base-url", srv.base_url, "--model",
                    "fake-vl", "--api-key-env", KEY_ENV, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
        assert_ok(again)
        assert srv.requests and all(r.headers.get("authorization") == f"Bearer {KEY}" for r in srv.requests)
    index.close()
    run = tmp_path / "run"
    assert (run / "report.html").exists() and list((run / "cache" / "llm").rglob("*.json"))
    assert rejects(run)["100002"]["reason"] == "item_count_mismatch"
    assert_key_nowhere(tmp_path, res, again)


def test_a_refused_api_key_is_a_one_line_error_without_the_key(records, tmp_path):
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "invalid_request_error"}}
    write_ac(tmp_path / "ac.tfrecord.gz", records)
    with FakeOpenAI(lambda body, n: status(401, body=echo)) as srv:
        cfg = config(tmp_path, ac=[tmp_path / "ac.tfrecord.gz"], annotate=openai_annotate(srv))
        res = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
    assert_one_line_error(res, "API key")
    assert_key_nowhere(tmp_path, res)
    missing = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env())  # the variable is not set at all
    assert_one_line_error(missing, KEY_ENV)



@pytest.mark.parametrize("code", [400, 500])
def test_an_endpoint_echoing_the_key_in_an_error_does_not_put_it_in_the_run(code, records, tmp_path):
    echo = {"error": {"message": f"bad request from {KEY}", "type": "invalid_request_error"}}
    write_ac(tmp_path / "ac.tfrecord.gz", records[:1])
    with FakeOpenAI(lambda body, n: status(code, body=echo)) as srv:
        cfg = config(tmp_path, ac=[tmp_path / "ac.tfrecord.gz"], annotate=openai_annotate(srv, max_retries=0))
        res = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
    assert "Traceback" not in res.output
    if code == 400:  # a refused request: the episode is rejected, and nothing was produced (exit 3)
        assert res.returncode == 3 and rejects(tmp_path / "run")["100000"]["stage"] == "annotate"
    else:  # an outage: the episode waits for a rerun (exit 4), nothing is rejected
        assert res.returncode == 4 and "100000" not in rejects(tmp_path / "run")
    assert_key_nowhere(tmp_path, res)


# --- paths escaping the trajectory folder -------------------------------------------------------------------
def test_screenshot_paths_outside_the_folder_are_path_escape(tmp_path):
    root = tmp_path / "in"
    outside = tmp_path / "outside.png"
    Image.new("RGB", (90, 200), (1, 2, 3)).save(outside)
    folder(root, "a_good", ["BACK", "DONE"])
    Image.new("RGB", (90, 200)).save(root / "x.png")
    folder(root, "b_dotdot", ["BACK", "DONE"], screenshots=["000.png", "../x.png"])
    folder(root, "c_deep_dotdot", ["BACK", "DONE"], screenshots=["000.png", "../../outside.png"])
    folder(root, "d_absolute", ["BACK", "DONE"], screenshots=["000.png", str(outside)])
    linked = folder(root, "e_symlink", ["BACK", "DONE"], screenshots=["000.png", "link.png"])
    (linked / "link.png").symlink_to(outside)
    folder(root, "f_inside_dotdot", ["BACK", "DONE"], screenshots=["000.png", "sub/../001.png"])
    (root / "f_inside_dotdot" / "sub").mkdir()
    folder(root, "g_good", ["HOME", "DONE"])
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert_ok(res)
    run = tmp_path / "run"
    assert {k: r["reason"] for k, r in rejects(run).items()} == {
        "b_dotdot": "path_escape", "c_deep_dotdot": "path_escape", "d_absolute": "path_escape",
        "e_symlink": "path_escape"}
    assert "outside" in rejects(run)["e_symlink"]["detail"]
    assert episode_ids(run) == ["a_good", "f_inside_dotdot", "g_good"]



@pytest.mark.parametrize("where", ["frame", "clean"])
def test_symlinked_frames_found_by_listing_are_path_escape(where, tmp_path):
    root = tmp_path / "in"
    outside = tmp_path / "secret.png"
    Image.new("RGB", (90, 200), (7, 7, 7)).save(outside)
    folder(root, "a_good", ["BACK", "DONE"])
    bad = folder(root, "b_link", ["BACK", "DONE"])
    if where == "frame":
        (bad / "001.png").unlink()
        (bad / "001.png").symlink_to(outside)
    else:
        (bad / "clean").mkdir()
        for name in ("000.png", "001.png"):
            (bad / "clean" / name).symlink_to(outside)
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert episode_ids(tmp_path / "run") == ["a_good"]
    assert rejects(tmp_path / "run")["b_link"]["reason"] == "path_escape"



def test_a_symlinked_trajectory_folder_outside_the_root_is_rejected(tmp_path):
    root = tmp_path / "in"
    folder(root, "a_good", ["BACK", "DONE"])
    elsewhere = folder(tmp_path / "elsewhere", "traj", ["HOME", "DONE"])
    (root / "b_linked").symlink_to(elsewhere, target_is_directory=True)
    folder(root, "c_good", ["BACK", "DONE"])
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert episode_ids(tmp_path / "run") == ["a_good", "c_good"]
    assert any(r["reason"] == "path_escape" for r in jsonl(tmp_path / "run" / "rejects.jsonl"))


# --- decompression bombs ------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["frame", "clean"])
@pytest.mark.parametrize("size", [(9000, 10000), (30000, 30000)], ids=["90MP", "900MP"])
def test_png_bomb_in_an_annotated_folder_is_rejected_without_decoding(size, where, tmp_path):
    root = tmp_path / "in"
    folder(root, "a_good", ["BACK", "DONE"])
    bomb = folder(root, "b_bomb", ["BACK", "DONE"])
    if where == "frame":
        (bomb / "001.png").write_bytes(png_bomb(*size))
    else:
        (bomb / "clean").mkdir()
        Image.new("RGB", (90, 200)).save(bomb / "clean" / "000.png")
        (bomb / "clean" / "001.png").write_bytes(png_bomb(*size))
    folder(root, "c_good", ["HOME", "DONE"])
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert res.max_rss_mb < 600, f"peak RSS {res.max_rss_mb:.0f} MB: the bomb was decoded"
    assert episode_ids(tmp_path / "run") == ["a_good", "c_good"]
    reason = rejects(tmp_path / "run")["b_bomb"]["reason"]
    assert reason in ("image_too_large", "unreadable_image")



def test_a_900_megapixel_bomb_is_image_too_large(tmp_path):
    root = tmp_path / "in"
    bomb = folder(root, "b_bomb", ["BACK", "DONE"])
    (bomb / "001.png").write_bytes(png_bomb(30000, 30000))
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert res.returncode == 3 and "Traceback" not in res.output  # the only input rejected: nothing produced
    assert rejects(tmp_path / "run")["b_bomb"]["reason"] == "image_too_large"


def bomb_record(record: bytes, step: int = 1, size: tuple[int, int] = (30000, 30000)) -> bytes:
    features = parse_example(record)
    features["screenshots"][step] = png_bomb(*size)
    features["screenshot_widths"][step], features["screenshot_heights"][step] = size
    return make_example(features)


def test_png_bomb_in_an_androidcontrol_record_is_never_decoded(records, tmp_path):
    path = write_ac(tmp_path / "ac.tfrecord.gz", [bomb_record(records[0]), records[1], records[2]])
    cfg = config(tmp_path, ac=[path], exports=("react-zh", "qwen2.5-vl"))
    res = cli("run", cfg, "--no-progress", cwd=tmp_path)  # template backend: ingest, annotate, export
    assert_ok(res)
    assert res.max_rss_mb < 600, f"peak RSS {res.max_rss_mb:.0f} MB: the bomb was decoded"
    run = tmp_path / "run"
    ids, rejected = episode_ids(run), rejects(run)
    assert {"100001", "100002"} <= set(ids)
    assert ("100000" in ids) != (rejected.get("100000", {}).get("stage") == "ingest")  # an episode or a reject
    manifest = json.loads((run / "manifest.json").read_text())
    assert all(a["balanced"] for k, a in manifest["stages"]["pipeline"]["last"]["accounting"].items()
               if k != "ingested")



def test_an_undrawable_screenshot_rejects_its_episode_in_llm_annotate(records, index_run, tmp_path):
    path = write_ac(tmp_path / "ac.tfrecord.gz", [records[0], bomb_record(records[1]), records[2]])
    index = EpisodeIndex(index_run)
    with FakeOpenAI(lambda body, n: index.correct_reply(body)) as srv:
        cfg = config(tmp_path, ac=[path], annotate=openai_annotate(srv))
        res = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
    index.close()
    assert_ok(res)
    assert res.max_rss_mb < 600
    run = tmp_path / "run"
    assert sorted(str(r["id"]) for r in jsonl(run / "annotations.jsonl")) == ["100000", "100002"]
    assert "100001" in rejects(run)


# --- a hostile TFRecord length ------------------------------------------------------------------------------
@pytest.mark.parametrize("compressed", [True, False], ids=["gzip", "plain"])
def test_a_2_to_the_60_length_field_is_a_reject_without_allocation(compressed, records, tmp_path):
    length = struct.pack("<Q", 1 << 60)
    hostile = length + struct.pack("<I", masked_crc32c(length)) + b"\x00" * 4096
    raw = frame_record(records[0]) + frame_record(records[1]) + hostile + frame_record(records[2])
    path = tmp_path / ("huge.tfrecord.gz" if compressed else "huge.tfrecord")
    path.write_bytes(gzip.compress(raw, mtime=0) if compressed else raw)
    cfg = config(tmp_path, ac=[path])
    res = cli("run", cfg, "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert res.max_rss_mb < 600
    run = tmp_path / "run"
    assert episode_ids(run) == ["100000", "100001"]
    bad = [r for r in jsonl(run / "rejects.jsonl") if r["stage"] == "ingest"]
    assert len(bad) == 1 and bad[0]["reason"] in ("record_too_large", "truncated")
    assert bad[0]["record"]["index"] == 2 and str(1 << 60) in bad[0]["detail"]
    exported = json.loads((run / "export" / "react-zh" / "splits.json").read_text())
    assert sorted(exported["train"] + exported["val"]) == ["100000", "100001"]
    # resuming passes over it again without trouble
    assert_ok(cli("ingest", "androidcontrol", path, "--out", run, "--no-progress", cwd=tmp_path))
    assert len([r for r in jsonl(run / "rejects.jsonl") if r["stage"] == "ingest"]) == 1


# --- hostile LLM replies ------------------------------------------------------------------------------------
HUGE_REPLY = "[" + ",".join(['{"reasoning": "' + "很" * 1000 + '", "function": {"name": "done", "parameters": {}}}']
                            * 17000) + "]"  # ~52 MB of UTF-8
DEEP_LIST = "[" * 10000 + "]" * 10000
DEEP_OBJECT = '{"a": ' * 10000 + "1" + "}" * 10000
DEEP_FENCED = "好的：\n```json\n" + "【" * 10000 + "】" * 10000 + "\n```"


def test_huge_and_deep_replies_are_rejected_or_repaired_and_the_run_goes_on(records, index_run, tmp_path):
    plan = {  # episode -> (attempt 1, attempt 2); None = the correct reply
        "100000": (HUGE_REPLY, HUGE_REPLY),
        "100001": (DEEP_LIST, DEEP_OBJECT),
        "100002": (HUGE_REPLY, None),
        "100003": (DEEP_FENCED, None),
    }
    index = EpisodeIndex(index_run)

    def responder(body, n):
        window = index.lookup(body)
        got = plan[window.episode.id][attempt_of(body) - 1]
        return got if got is not None else index.correct_reply(body)

    path = write_ac(tmp_path / "ac.tfrecord.gz", records)
    with FakeOpenAI(responder) as srv:
        cfg = config(tmp_path, ac=[path], annotate=openai_annotate(srv, max_retries=0))
        res = cli("run", cfg, "--no-progress", cwd=tmp_path, env=_env(**{KEY_ENV: KEY}))
        assert srv.errors == [], srv.errors
        assert len(srv.requests) == 8, res.output  # two attempts each
    index.close()
    assert_ok(res)
    assert "RecursionError" not in res.output and "MemoryError" not in res.output
    run = tmp_path / "run"
    rejected = {k: (r["reason"], r["attempts"]) for k, r in rejects(run).items() if r["stage"] == "annotate"}
    assert rejected == {"100000": ("reply_too_large", 2), "100001": ("reply_too_deep", 2)}
    annotated = {str(r["id"]): r["attempts"] for r in jsonl(run / "annotations.jsonl")}
    assert annotated == {"100002": 2, "100003": 2}
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["stages"]["pipeline"]["last"]["accounting"]["react-zh"] == \
        {"exported": 2, "rejected": 2, "balanced": True}


def test_deep_unicode_brackets_in_a_fence_are_too_deep_not_a_crash():
    from sftdata.annotate.parse import ReplyError, parse_reply

    for text in (DEEP_FENCED, DEEP_LIST, DEEP_OBJECT, "[" * 10000, '{"a": [' * 5000):
        with pytest.raises(ReplyError) as err:
            parse_reply(text)
        assert err.value.reason in ("reply_too_deep", "unparseable_reply")


# --- control characters, bidi marks, zero-width joiners, lone surrogates ------------------------------------
CONTROLS = "".join(chr(c) for c in range(0x20)) + "\x7f"
ODD = ("左" + CONTROLS + "右\u200f\u200e\u202e\u202d\u202c\u2066\u2069\u200b\u200c\u200d\ufeff"
       "👩\u200d💻e\u0301")  # bidi marks and overrides, isolates, zero-width (non-)joiners, BOM, ZWJ emoji, combining
AC_GOAL, AC_INPUT = "打开商城" + ODD + "完", "键盘" + ODD + "完"
FOLDER_GOAL, FOLDER_INPUT = "搜索" + ODD + "完", "耳机" + ODD + "完"


def _odd_record(record: bytes, goal: str | None = None, text: str | None = None, *, raw_actions=None) -> bytes:
    features = parse_example(record)
    if goal is not None:
        features["goal"] = [goal.encode("utf-8")]
    actions = [json.loads(a) for a in features["actions"]]
    for action in actions:
        if action["action_type"] == "input_text" and text is not None:
            action["text"] = text
    features["actions"] = raw_actions or [json.dumps(a).encode() for a in actions]
    return make_example(features)


def _json_texts(value: Any) -> Iterator[str]:
    """Every ``text`` string in ``value`` and in any JSON object embedded in its strings."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "text" and isinstance(v, str):
                yield v
            yield from _json_texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_texts(v)
    elif isinstance(value, str):
        decoder = json.JSONDecoder()
        for i, c in enumerate(value):
            if c == "{":
                with contextlib.suppress(ValueError):
                    yield from _json_texts(decoder.raw_decode(value, i)[0])


def _check_jsonl_files(run: Path) -> None:
    """Every JSONL file of the run: valid UTF-8, one JSON value per b'\\n'-terminated line."""
    for path in run.rglob("*.jsonl"):
        data = path.read_bytes()
        data.decode("utf-8")
        assert data == b"" or data.endswith(b"\n"), path
        for raw in data.split(b"\n")[:-1]:
            json.loads(raw)


def test_odd_characters_are_kept_exactly_where_they_are_data(records, tmp_path):
    path = write_ac(tmp_path / "ac.tfrecord.gz", [_odd_record(records[0], AC_GOAL, AC_INPUT), records[1]])
    root = tmp_path / "in"
    folder(root, "odd", [{"type": "click", "point": [500, 500]}, {"type": "input", "text": FOLDER_INPUT}, "DONE"],
           goal=FOLDER_GOAL)
    folder(root, "plain", ["BACK", "DONE"])
    cfg = config(tmp_path, ac=[path], annotated=root, exports=("react-zh", "qwen2.5-vl"),
                 include_unsure=True)  # a tap on a folder without texts: nothing certifies it, every step is wanted
    res = cli("run", cfg, "--no-progress", cwd=tmp_path)
    assert_ok(res)
    run = tmp_path / "run"
    assert jsonl(run / "rejects.jsonl") == []
    episodes = {str(e["id"]): e for e in jsonl(run / "episodes.jsonl")}
    assert episodes["100000"]["goal"] == AC_GOAL and episodes["odd"]["goal"] == FOLDER_GOAL
    inputs = {k: [step["action"]["text"] for step in e["steps"] if step["action"]["type"] == "input"]
              for k, e in episodes.items()}
    assert inputs["100000"] == [AC_INPUT] and inputs["odd"] == [FOLDER_INPUT]
    _check_jsonl_files(run)
    for fmt in ("react-zh", "qwen2.5-vl"):
        samples = [json.loads(raw) for shard in sorted((run / "export" / fmt).glob("*.jsonl"))
                   for raw in shard.read_bytes().split(b"\n") if raw]
        users = [s["messages"][1]["content"] for s in samples]
        assert sum(AC_GOAL in u for u in users) == len(episodes["100000"]["steps"]), fmt
        assert sum(FOLDER_GOAL in u for u in users) == len(episodes["odd"]["steps"]), fmt
        texts = [t for s in samples for t in _json_texts(s["messages"][-1]["content"])]
        assert AC_INPUT in texts and FOLDER_INPUT in texts, f"{fmt}: the input text changed on its way"
    assert_ok(cli("validate", run, cwd=tmp_path))



@pytest.mark.parametrize("where", ["androidcontrol-input", "folder-goal", "folder-input"])
def test_lone_surrogates_are_rejected_or_kept_and_the_run_goes_on(where, records, tmp_path):
    sources: dict[str, Any] = {}
    if where == "androidcontrol-input":
        sources["ac"] = [write_ac(tmp_path / "ac.tfrecord.gz",
                                  [records[1], _odd_record(records[2], text="x\ud800y"), records[0]])]
        bad, good = "100002", {"100000", "100001"}
    else:
        root = tmp_path / "in"
        folder(root, "a_plain", ["BACK", "DONE"])
        if where == "folder-goal":
            folder(root, "b_bad", ["BACK", "DONE"], goal="目标\ud800")
        else:
            folder(root, "b_bad", [{"type": "input", "text": "a\udc00b"}, "DONE"])
        folder(root, "c_plain", ["HOME", "DONE"])
        sources["annotated"] = root
        bad, good = "b_bad", {"a_plain", "c_plain"}
    res = cli("run", config(tmp_path, **sources), "--no-progress", cwd=tmp_path)
    assert_ok(res)
    run = tmp_path / "run"
    _check_jsonl_files(run)
    ids = set(episode_ids(run))
    assert good <= ids
    if bad not in ids:  # rejected with a reason
        assert rejects(run)[bad]["reason"]



@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85"], ids=["U+2028", "U+2029", "U+0085"])
def test_unicode_line_separators_in_input_text_survive_validate(sep, records, tmp_path):
    goal, text = f"打开商城{sep}搜索键盘", f"机械{sep}键盘"
    path = write_ac(tmp_path / "ac.tfrecord.gz", [_odd_record(records[0], goal, text), records[1]])
    res = cli("run", config(tmp_path, ac=[path]), "--no-progress", cwd=tmp_path)
    assert_ok(res)
    run = tmp_path / "run"
    _check_jsonl_files(run)
    episode = {str(e["id"]): e for e in jsonl(run / "episodes.jsonl")}["100000"]
    assert episode["goal"] == goal and text in [s["action"]["text"] for s in episode["steps"]]
    assert_ok(cli("validate", run, cwd=tmp_path))


def test_invalid_utf8_in_a_record_is_bad_text(records, tmp_path):
    features = parse_example(records[0])
    features["goal"] = [b"\xed\xa0\x80 surrogate bytes \xff"]
    path = write_ac(tmp_path / "ac.tfrecord.gz", [make_example(features), records[1]])
    res = cli("ingest", "androidcontrol", path, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert episode_ids(tmp_path / "run") == ["100001"]
    assert [r["reason"] for r in jsonl(tmp_path / "run" / "rejects.jsonl")] == ["bad_text"]


# --- read-only filesystems ----------------------------------------------------------------------------------
class ReadOnly:
    """A directory that can be made read-only for real: a tmpfs mount remounted ``ro`` (root ignores chmod),
    or chmod 0o555 when not root. Unmounted at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.mounted = False
        path.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            got = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", str(path)],
                                 capture_output=True, text=True)
            if got.returncode != 0:
                pytest.skip(f"running as root (chmod is ignored) and cannot mount a tmpfs: {got.stderr.strip()}")
            self.mounted = True

    def make_readonly(self) -> None:
        if self.mounted:
            got = subprocess.run(["mount", "-o", "remount,ro", str(self.path)], capture_output=True, text=True)
            assert got.returncode == 0, got.stderr
        else:
            for p in [self.path, *self.path.rglob("*")]:
                if p.is_dir():
                    p.chmod(0o555)
        with pytest.raises(OSError):
            (self.path / ".probe").write_bytes(b"")

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", str(self.path)], capture_output=True)
            if os.path.ismount(self.path):
                subprocess.run(["umount", "-l", str(self.path)], capture_output=True)
        else:
            for p in [self.path, *self.path.rglob("*")]:
                if p.is_dir():
                    p.chmod(0o755)


@pytest.fixture
def readonly(tmp_path):
    made: list[ReadOnly] = []

    def make(path: Path) -> ReadOnly:
        made.append(ReadOnly(path))
        return made[-1]

    yield make
    for ro in reversed(made):
        ro.close()


@pytest.fixture(scope="module")
def finished_run(records, tmp_path_factory) -> Path:
    """A finished template run (one export) of the three records, to copy."""
    work = tmp_path_factory.mktemp("abuse_finished")
    path = write_ac(work / "ac.tfrecord.gz", records)
    assert_ok(cli("run", config(work, ac=[path]), "--no-progress", cwd=work))
    return work


def test_ingest_and_run_into_a_read_only_directory_fail_cleanly(records, readonly, tmp_path):
    ro = readonly(tmp_path / "ro")
    ro.make_readonly()
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    path = write_ac(inputs / "ac.tfrecord.gz", records)
    root = inputs / "folders"
    folder(root, "a", ["BACK", "DONE"])
    cfg = config(inputs, ro.path / "run", ac=[path])
    before = tree(tmp_path)
    for args in (["ingest", "androidcontrol", path, "--out", ro.path / "run", "--no-progress"],
                 ["ingest", "annotated", root, "--out", ro.path / "run", "--no-progress"],
                 ["ingest", "androidcontrol", path, "--out", ro.path / "deeper" / "run", "--no-progress"],
                 ["run", cfg, "--no-progress"]):
        res = cli(*args, cwd=inputs)
        line = assert_one_line_error(res, str(ro.path))
        assert "not writable" in line or "Read-only" in line or "Permission" in line, line
    assert tree(tmp_path) == before  # nothing half-written anywhere: not in the mount, not beside the inputs


def test_a_run_that_became_read_only_fails_cleanly_and_stays_intact(finished_run, readonly, tmp_path):
    ro = readonly(tmp_path / "ro")
    shutil.copytree(finished_run / "run", ro.path / "run")
    shutil.copy(finished_run / "ac.tfrecord.gz", tmp_path / "ac.tfrecord.gz")
    run = ro.path / "run"
    cfg = config(tmp_path, run, ac=[tmp_path / "ac.tfrecord.gz"], exports=("react-zh", "qwen2.5-vl"))
    ro.make_readonly()
    before = tree(tmp_path)
    for args in (["run", cfg, "--no-progress"],
                 ["ingest", "androidcontrol", tmp_path / "ac.tfrecord.gz", "--out", run, "--no-progress"],
                 ["annotate", run, "--no-progress"],
                 ["export", run, "--format", "qwen2.5-vl", "--out", run / "export" / "new", "--no-progress"],
                 ["validate", run, "--report", run / "report.json"]):
        res = cli(*args, cwd=tmp_path)
        assert_one_line_error(res, str(ro.path))
    assert tree(tmp_path) == before
    # reading a read-only run is fine: summary, validate, and an export to a writable place
    assert_ok(cli("summary", run, cwd=tmp_path))
    assert_ok(cli("validate", run, cwd=tmp_path))
    assert_ok(cli("export", run, "--format", "react-zh", "--out", tmp_path / "out", "--no-progress", cwd=tmp_path))
    assert sorted(p.name for p in (tmp_path / "out").glob("*.jsonl")) == sorted(
        p.name for p in (run / "export" / "react-zh").glob("*.jsonl"))


def test_an_export_into_a_read_only_parent_fails_cleanly(finished_run, readonly, tmp_path):
    shutil.copytree(finished_run / "run", tmp_path / "run")
    run = tmp_path / "run"
    ro = readonly(tmp_path / "ro")
    ro.make_readonly()
    before = tree(tmp_path)
    for out in (ro.path / "sft", ro.path / "a" / "b" / "sft"):
        res = cli("export", run, "--format", "react-zh", "--out", out, "--no-progress", cwd=tmp_path)
        assert_one_line_error(res, str(ro.path))
    assert tree(tmp_path) == before


def test_the_pipeline_with_a_read_only_export_directory_fails_cleanly_then_resumes(records, readonly, tmp_path):
    path = write_ac(tmp_path / "ac.tfrecord.gz", records)
    cfg = config(tmp_path, ac=[path])
    ro = readonly(tmp_path / "run" / "export")
    ro.make_readonly()
    res = cli("run", cfg, "--no-progress", cwd=tmp_path)
    assert_one_line_error(res, "export")
    run = tmp_path / "run"
    assert len(episode_ids(run)) == len(jsonl(run / "annotations.jsonl")) == len(records)  # earlier stages kept
    assert list((run / "export").iterdir()) == []
    ro.close()
    res = cli("run", cfg, "--no-progress", cwd=tmp_path)
    assert_ok(res)
    assert "skipped, already done: ingest androidcontrol, annotate" in res.stdout
    assert ": balanced" in res.stdout and list((run / "export" / "react-zh").glob("train-*.jsonl"))


# --- config files -------------------------------------------------------------------------------------------
HEAD = 'run_dir = "run"\n'
SOURCE = '[[sources]]\ntype = "androidcontrol"\npaths = ["ac.tfrecord.gz"]\n'


@pytest.fixture
def config_dir(records, tmp_path) -> Path:
    write_ac(tmp_path / "ac.tfrecord.gz", records[:1])
    return tmp_path


def run_config(config_dir: Path, text: str) -> Result:
    (config_dir / "cfg.toml").write_text(text, encoding="utf-8")
    return cli("run", config_dir / "cfg.toml", "--no-progress", cwd=config_dir, memory_limit=None)


@pytest.mark.parametrize("text, key", [
    ("wokers = 2\n" + HEAD + SOURCE, "wokers"),
    (HEAD + SOURCE + "pats = ['x']\n", "pats"),
    (HEAD + SOURCE + "[annotate]\nbakend = 'template'\n", "bakend"),
    (HEAD + SOURCE + "[annotate]\nconcurency = 4\n", "concurency"),
    (HEAD + SOURCE + "[[export]]\nformat = 'react-zh'\nmemroy = true\n", "memroy"),
    (HEAD + SOURCE + "[[sources]]\ntype = 'annotated'\nrot = 'x'\n", "rot"),
    (HEAD + SOURCE + "[annotate]\nbackend = 'opneai'\n", "opneai"),
    (HEAD + "[[sources]]\ntype = 'androidcontroll'\npaths = ['ac.tfrecord.gz']\n", "androidcontroll"),
    (HEAD + SOURCE + "[[export]]\nformat = 'react-zh'\n[[export]]\nformat = 'react-zh'\nhistroy = 2\n", "histroy"),
    ("run_dir = 'run'\nrun_dir = 'again'\n" + SOURCE, "line 2"),
], ids=["top", "source", "annotate", "annotate-2", "export", "annotated-source", "backend-value", "type-value",
        "second-export", "duplicate"])
def test_config_typos_are_one_line_errors_naming_the_key(config_dir, text, key):
    res = run_config(config_dir, text)
    assert_one_line_error(res, key)
    assert not (config_dir / "run").exists() or key in ("opneai",)  # nothing ran before the check



@pytest.mark.parametrize("text, key", [
    (HEAD + SOURCE + "[validate]\ncjk_treshold = 0.4\n", "cjk_treshold"),
    (HEAD + SOURCE + "[report]\nenabeld = false\n", "enabeld"),
    (HEAD + SOURCE + "[export]\nformat = 'react-zh'\n", "[[export]]"),
], ids=["validate", "report", "export-table"])
def test_config_typos_in_small_tables_name_the_key(config_dir, text, key):
    assert_one_line_error(run_config(config_dir, text), key)



@pytest.mark.parametrize("text, key", [
    ('workers = "two"\n' + HEAD + SOURCE, "workers"),
    (HEAD + SOURCE + "[annotate]\nconcurrency = '8'\n", "concurrency"),
    (HEAD + SOURCE + "[[export]]\nformat = 'react-zh'\nsplit_ratio = '0.1'\n", "split_ratio"),
    (HEAD + SOURCE + "[[export]]\nformat = 'qwen25-vl'\n", "qwen25-vl"),
    (HEAD + "[[sources]]\ntype = 'androidcontrol'\npaths = 'ac.tfrecord.gz'\n", "paths"),
], ids=["workers", "concurrency", "split_ratio", "format", "paths-string"])
def test_config_values_of_the_wrong_type_are_one_line_errors_naming_the_key(config_dir, text, key):
    assert_one_line_error(run_config(config_dir, text), key)
