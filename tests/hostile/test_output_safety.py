"""Nothing lost, nothing destroyed (issue 11): export never replaces what is not an export of ours, a run has one
writer at a time (an OS lock, released when its process dies), and the exit status says what happened.

Every case runs the real CLI as a subprocess (``python -m sftdata.cli``) and checks its outcome, its exit status
and that no traceback reached the user.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fake_openai import FakeOpenAI, status
from sftdata.exitcodes import ExitCode
from support import sample_run

from accounting import assert_accounted

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

N = 10  # episodes of the shared run: enough for annotate's outage streak (8 in a row) to stop it


def cli(*args, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL", "SFTDATA_MODEL", "OPENAI_API_KEY")}
    env["SFTDATA_TEST_KEY"] = "sk-test"
    return subprocess.run([sys.executable, "-m", "sftdata.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def error_line(res: subprocess.CompletedProcess, code: int, *needles: str) -> str:
    """The one-line error of a failed command (exit ``code``, no traceback)."""
    assert res.returncode == code, f"exit {res.returncode}\n{res.stdout}\n{res.stderr}"
    assert "Traceback" not in res.stdout + res.stderr, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip() and not line.startswith("Usage")
             and not line.startswith("Try ")]
    assert len(lines) == 1 and lines[0].startswith("Error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def ok(res: subprocess.CompletedProcess) -> None:
    assert res.returncode == 0 and "Traceback" not in res.stdout + res.stderr, res.stdout + res.stderr


def tree(path: Path) -> dict[str, bytes | None]:
    return {p.relative_to(path).as_posix(): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(path.rglob("*")) if p.name != ".lock"}


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return sample_run(tmp_path_factory.mktemp("safety"), N, annotate=True).path


@pytest.fixture
def run(shared, tmp_path) -> Path:
    """A private copy of the annotated run."""
    shutil.copytree(shared, tmp_path / "run")
    return tmp_path / "run"


def export(run: Path, out: Path, *extra) -> subprocess.CompletedProcess:
    return cli("export", run, "--format", "react-zh", "--out", out, "--no-progress", *extra, cwd=run.parent)


def user_project(path: Path) -> Path:
    (path / "src").mkdir(parents=True)
    (path / "notes.txt").write_text("my notes")
    (path / "src" / "main.py").write_text("print('hi')")
    return path


# --- 1. export never destroys what is not ours ------------------------------------------------------------------
@pytest.mark.parametrize("where", ["run", "parent", "images", "in-run"])
def test_export_refuses_the_run_a_folder_holding_it_or_a_folder_in_it(run, where):
    out = {"run": run, "parent": run.parent, "images": run / "images", "in-run": run / "sft"}[where]
    before = tree(run.parent)
    error_line(export(run, out), ExitCode.FATAL, "--out")
    error_line(export(run, out, "--force"), ExitCode.FATAL, "--out")
    assert tree(run.parent) == before


def test_export_refuses_a_users_folder_even_with_force(run, tmp_path):
    project = user_project(tmp_path / "my_project")
    before = tree(project)
    error_line(export(run, project), ExitCode.FATAL, "not an sftdata export")
    error_line(export(run, project, "--force"), ExitCode.FATAL, "not an sftdata export")
    assert tree(project) == before


def test_export_refuses_a_folder_with_a_foreign_manifest(run, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"name": "my app", "version": 3}))
    error_line(export(run, other, "--force"), ExitCode.FATAL, "not an sftdata export")
    assert json.loads((other / "manifest.json").read_text())["name"] == "my app"


def test_force_keeps_an_old_export_the_user_added_files_to(run, tmp_path):
    out = tmp_path / "sft"
    ok(export(run, out))
    (out / "NOTES.md").write_text("what I found in this export")
    error_line(export(run, out, "--force"), ExitCode.FATAL, "not an sftdata export")
    assert (out / "NOTES.md").read_text() == "what I found in this export"


def test_an_earlier_export_is_replaced_only_with_force(run, tmp_path):
    out = tmp_path / "sft"
    ok(export(run, out))
    before = tree(out)
    error_line(export(run, out, "--history", "1"), ExitCode.FATAL, "--force")
    assert tree(out) == before
    ok(export(run, out, "--history", "1", "--force"))
    assert json.loads((out / "manifest.json").read_text())["options"]["history"] == 1
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".sft")) == []  # no old-/staging- left


def test_an_empty_folder_and_run_export_are_fine(run, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    ok(export(run, empty))
    assert (empty / "train.sh").exists()
    ok(export(run, run / "export" / "react-zh"))
    assert (run / "export" / "react-zh" / "manifest.json").exists()


def test_a_symlink_to_the_run_is_the_run(run, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(run, target_is_directory=True)
    before = tree(run)
    error_line(export(run, link, "--force"), ExitCode.FATAL, "run directory")
    assert tree(run) == before and link.is_symlink()


def test_an_existing_file_as_out_is_a_usage_error(run, tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("keep me")
    res = export(run, target)
    assert res.returncode == ExitCode.USAGE and "Traceback" not in res.stderr
    assert target.read_text() == "keep me"


def test_leftover_cleanup_removes_only_our_own_kind(run, tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()  # the pid of a process that has exited
    ours = tmp_path / f".sft.staging-{dead}"
    (ours / "images").mkdir(parents=True)
    (ours / "train-00000-of-00001.jsonl").write_text("{}\n")
    lookalike = tmp_path / f".sft.old-{dead}"
    user_project(lookalike)
    ok(export(run, tmp_path / "sft"))
    assert not ours.exists()
    assert (lookalike / "notes.txt").read_text() == "my notes"


def test_hf_dataset_never_overwrites_a_foreign_folder(run, tmp_path):
    project = user_project(tmp_path / "proj")
    before = tree(project)
    error_line(export(run, tmp_path / "sft", "--hf-dataset", project), ExitCode.FATAL, "--hf-dataset")
    error_line(export(run, tmp_path / "sft", "--hf-dataset", run), ExitCode.FATAL, "--hf-dataset")
    assert tree(project) == before and not (tmp_path / "sft").exists()


def test_the_example_config_leaves_the_demo_alone(tmp_path):
    ok(cli("sample", "raw/sample/sample.tfrecord.gz", "--episodes", "2", "--size", "360x800", cwd=tmp_path))
    demo = tmp_path / "processed" / "demo" / "export" / "react-zh"
    demo.mkdir(parents=True)
    (demo / "train.sh").write_text("the demo's own")
    example = cli("run", "--print-example-config", cwd=tmp_path)
    ok(example)
    (tmp_path / "sftdata.toml").write_text(example.stdout.replace("workers = 2", "workers = 1"))
    ok(cli("run", "sftdata.toml", "--no-progress", cwd=tmp_path))
    assert (demo / "train.sh").read_text() == "the demo's own"
    assert sorted(p.name for p in (tmp_path / "processed").iterdir()) == ["demo", "my-run"]


# --- 2. one writer per run ----------------------------------------------------------------------------------------
HOLD = """import sys, time
from sftdata.rundir import RunDir
with RunDir(sys.argv[1]).writing():
    print("locked", flush=True)
    time.sleep(600)
"""


@pytest.fixture
def holder(run):
    """A second process holding the run's writer lock; killed with SIGKILL at the end."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(run)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    yield proc
    proc.kill()
    proc.wait()


@pytest.mark.parametrize("command", ["ingest", "annotate", "export", "run"])
def test_a_second_writer_is_refused_naming_the_holder(run, holder, command, tmp_path, shared):
    sample = shared.parent / "sample.tfrecord.gz"
    (tmp_path / "cfg.toml").write_text(f'run_dir = "run"\n[[sources]]\ntype = "androidcontrol"\n'
                                       f'paths = ["{sample}"]\n[report]\nenabled = false\n')
    before = tree(tmp_path)
    args = {"ingest": ["ingest", "androidcontrol", sample, "--out", run, "--no-progress"],
            "annotate": ["annotate", run, "--no-progress"],
            "export": ["export", run, "--format", "react-zh", "--out", tmp_path / "sft", "--no-progress"],
            "run": ["run", tmp_path / "cfg.toml", "--no-progress"]}[command]
    line = error_line(cli(*args, cwd=tmp_path), ExitCode.FATAL, "in use by another sftdata process")
    assert f"pid {holder.pid}" in line
    assert tree(tmp_path) == before


def test_readers_do_not_take_the_lock(run, holder, tmp_path):
    ok(cli("summary", run, cwd=tmp_path))
    ok(cli("validate", run, cwd=tmp_path))
    ok(cli("report", run, "--out", tmp_path / "r.html", "--samples", "0", cwd=tmp_path))


def test_a_killed_writer_leaves_no_stale_lock(run, holder, tmp_path):
    error_line(export(run, tmp_path / "sft"), ExitCode.FATAL, "in use")
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    ok(export(run, tmp_path / "sft"))


def test_two_ingests_at_once_never_write_an_episode_twice(tmp_path, shared):
    sample = shared.parent / "sample.tfrecord.gz"
    run = tmp_path / "run"
    args = [sys.executable, "-m", "sftdata.cli", "ingest", "androidcontrol", str(sample), "--out", str(run),
            "--no-progress"]
    procs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    for code, out, err in results:
        assert "Traceback" not in out + err
        assert code == 0 or (code == 1 and "in use by another sftdata process" in err), err
    ids = [json.loads(line)["id"] for line in (run / "episodes.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == N
    assert_accounted(run, inputs=N)


# --- 3. exit statuses ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["no-annotations", "all-in-validation", "all-too-long"])
def test_an_export_with_nothing_to_train_is_an_error_not_an_empty_train_sh(run, tmp_path, case):
    extra = {"no-annotations": [], "all-in-validation": ["--split-ratio", "1"], "all-too-long": ["--max-length", "64"]}
    if case == "no-annotations":
        (run / "annotations.jsonl").write_text("")
    out = tmp_path / "sft"
    error_line(export(run, out, *extra[case]), ExitCode.NOTHING_PRODUCED, "nothing to export")
    assert not out.exists() and not list(tmp_path.glob(".sft.*"))


def test_ingest_where_every_input_is_rejected_exits_all_rejected(tmp_path):
    root = tmp_path / "folders"
    for name in ("a", "b"):
        (root / name).mkdir(parents=True)
        (root / name / "task.json").write_text("{not json")
    res = cli("ingest", "annotated", root, "--out", tmp_path / "run", "--no-progress", cwd=tmp_path)
    error_line(res, ExitCode.NOTHING_PRODUCED, "rejected")
    assert "rejected 2" in res.stdout


def _annotate_openai(run: Path, srv: FakeOpenAI, *extra) -> subprocess.CompletedProcess:
    return cli("annotate", run, "--backend", "openai", "--model", "m", "--base-url", srv.base_url,
               "--api-key-env", "SFTDATA_TEST_KEY", "--max-retries", "0", "--max-attempts", "1",
               "--no-progress", *extra, cwd=run.parent)


@pytest.mark.parametrize("how", ["some-deferred", "outage-streak"])
def test_an_unavailable_endpoint_exits_retry_and_rejects_nothing(run, how):
    (run / "annotations.jsonl").unlink()
    rejects = (run / "rejects.jsonl").read_bytes() if (run / "rejects.jsonl").exists() else b""
    extra = ["--limit", "3"] if how == "some-deferred" else ["--concurrency", "1"]
    with FakeOpenAI(lambda request, n: status(503)) as srv:
        res = _annotate_openai(run, srv, *extra)
    error_line(res, ExitCode.RETRY, "run again")
    assert ((run / "rejects.jsonl").read_bytes() if (run / "rejects.jsonl").exists() else b"") == rejects


def test_run_never_replaces_a_users_folder_in_run_export(tmp_path, shared):
    notes = tmp_path / "run" / "export" / "react-zh" / "notes.txt"
    notes.parent.mkdir(parents=True)
    notes.write_text("mine")
    (tmp_path / "cfg.toml").write_text(f'run_dir = "run"\n[[sources]]\ntype = "androidcontrol"\n'
                                       f'paths = ["{shared.parent / "sample.tfrecord.gz"}"]\n'
                                       '[[export]]\nformat = "react-zh"\n[report]\nenabled = false\n')
    error_line(cli("run", "cfg.toml", "--no-progress", cwd=tmp_path), ExitCode.FATAL, "not an sftdata export")
    assert notes.read_text() == "mine" and sorted(p.name for p in notes.parent.iterdir()) == ["notes.txt"]


def test_annotate_where_every_episode_is_rejected_exits_all_rejected(run):
    (run / "annotations.jsonl").unlink()
    with FakeOpenAI(lambda request, n: "这不是一个列表") as srv:
        res = _annotate_openai(run, srv)
    error_line(res, ExitCode.NOTHING_PRODUCED, "no episode was annotated")
    assert f"rejected {N}" in res.stdout
