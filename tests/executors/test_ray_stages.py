"""The demo config (configs/demo.toml, on a smaller sample) under ``--executor ray`` writes the same files as under
``--executor local``: every file of the run directory, the exports and their images included, compared by the
SHA-256 of its bytes. Also: a worker killed mid-stage (ingest's and export's units each kill their own process the
first time) ends in the same files, a driver killed mid-run resumes to the same files under either executor, and
an address nobody answers is one line and exit 1.

One Ray on 127.0.0.1 serves the module (the in-process runs use it, a driver in a subprocess joins it with
``--address``); the killed driver starts a Ray of its own, as ``sftdata run --executor ray`` does, so the module
starts two Rays in all.

What is compared is the bytes, except the fields that say *when* or *how long* (:func:`normalised`): a manifest's
``elapsed_s`` and ``updated``, the modification times its fingerprints keep of the run's own files (a rerun writes
them later), and the report's fingerprint of the manifest and the export manifests, which is a digest and sizes of
files holding those timings; in report.html, the annotate stage's elapsed seconds. No host name is written. A
resumed run's manifest also lists the stages its last invocation found already done (those the killed run
finished), which a clean run does not: that list is checked apart.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.cli import main
from support import ROOT

pytestmark = pytest.mark.ray
BOUND_S = 300  # the most a child process here may take: a hang fails, it never blocks the suite


# --- the runs --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_address():
    """The module's Ray on 127.0.0.1 (2 CPUs), started once; its address, for ``--address``."""
    pytest.importorskip("ray")  # the marker skips first; this keeps the import out of collection
    import ray
    from ray import cloudpickle

    from sftdata.executors.ray_cluster import RayExecutor

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # Ray's workers cannot import a test module
    with RayExecutor(2):
        yield ray.get_runtime_context().gcs_address


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo's inputs (as ``make demo`` makes them, fewer) and configs/demo.toml pointing at them."""
    work = tmp_path_factory.mktemp("demo")
    runner = CliRunner()
    for args in (["sample", str(work / "sample.tfrecord.gz"), "--episodes", "6", "--seed", "0"],
                 ["sample", str(work / "mind2web.parquet"), "--mind2web", "--episodes", "4", "--seed", "0"],
                 ["sample", str(work / "web-annotated"), "--annotated-web", "--episodes", "2", "--seed", "0"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
    config = (ROOT / "configs" / "demo.toml").read_text(encoding="utf-8")
    config = config.replace('"../processed/demo"', '"run"').replace("../raw/sample/", "")
    assert 'run_dir = "run"' in config and '"sample.tfrecord.gz"' in config
    (work / "demo.toml").write_text(config, encoding="utf-8")
    (work / "results").mkdir()
    return work


def kept(demo: Path, name: str) -> Path:
    """Move the run just made aside, so every run is made at the same path (the manifest keeps its paths)."""
    target = demo / "results" / name
    (demo / "run").rename(target)
    return target


def run_here(demo: Path, name: str, *args: str) -> Path:
    result = CliRunner().invoke(main, ["run", str(demo / "demo.toml"), "--no-progress", *args])
    assert result.exit_code == 0, result.output
    return kept(demo, name)


def run_child(demo: Path, *args: str, **popen) -> subprocess.Popen:
    """``sftdata run`` on the demo config in a process of its own (a driver that can be killed)."""
    return subprocess.Popen([sys.executable, "-m", "sftdata", "run", str(demo / "demo.toml"), "--no-progress", *args],
                            cwd=demo, **popen)


@pytest.fixture(scope="module")
def local_dir(demo) -> Path:
    return run_here(demo, "local", "--executor", "local")


@pytest.fixture(scope="module")
def local_run(local_dir) -> dict[str, str]:
    return digests(local_dir)


# --- what is compared ------------------------------------------------------------------------------------------
def _without_timings(value, in_fingerprint: bool = False):
    if isinstance(value, dict):
        return {k: _without_timings(v, in_fingerprint or k in ("fingerprint", "totals_key"))
                for k, v in value.items() if k != "elapsed_s"}
    if isinstance(value, list):
        if in_fingerprint and len(value) % 2 == 0 and all(isinstance(v, int) for v in value):
            return [v if i % 2 == 0 else "mtime" for i, v in enumerate(value)]  # [size, mtime, ...] of a file
        return [_without_timings(v, in_fingerprint) for v in value]
    return value


def normalised(rel: str, data: bytes, resumed: bool = False) -> bytes:
    """The bytes compared: a manifest without its timings (see the module docstring), report.html without the
    annotate stage's elapsed seconds; every other file as it is. ``resumed``: also without the list of stages the
    last invocation found done (a resumed run skips what the killed one finished)."""
    if rel == "manifest.json" or (rel.startswith("export/") and rel.endswith("/manifest.json")):
        manifest = _without_timings(json.loads(data))
        manifest.pop("updated", None)
        if resumed and rel == "manifest.json":
            manifest["stages"]["pipeline"]["last"].pop("skipped")
        for entry in manifest.get("stages", {}).get("report", {}).values():
            for key in ("manifest", "exports"):  # a digest and sizes of the manifests above, timings included
                entry.get("fingerprint", {}).pop(key, None)
        return json.dumps(manifest, sort_keys=True).encode()
    if rel == "report.html":
        return re.sub(rb"<td>elapsed</td><td>[0-9.]+ s</td>", b"<td>elapsed</td><td>-</td>", data)
    return data


def digests(run_dir: Path, resumed: bool = False) -> dict[str, str]:
    out = {}
    for path in sorted(p for p in run_dir.rglob("*") if p.is_file() and p.name != ".lock"):
        rel = path.relative_to(run_dir).as_posix()
        out[rel] = hashlib.sha256(normalised(rel, path.read_bytes(), resumed)).hexdigest()
    return out


def resumed_as_clean(run_dir: Path, local: Path) -> None:
    """A resumed run holds the clean run's files; its manifest says which stages it found already done."""
    assert_same(digests(run_dir, resumed=True), digests(local, resumed=True))
    skipped = json.loads((run_dir / "manifest.json").read_text())["stages"]["pipeline"]["last"]["skipped"]
    assert all(s.startswith("ingest ") for s in skipped), skipped  # killed while ingesting: only ingest was done


def assert_same(got: dict[str, str], want: dict[str, str]) -> None:
    differ = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
    assert not differ, f"{len(differ)} of {len(want)} files differ: {differ[:10]}"


def test_normaliser_is_narrow() -> None:
    """Only the timing fields go: a changed count, path or option in a manifest is still a difference."""
    manifest = {"updated": "t", "stages": {"ingest": {"x": {"elapsed_s": 1.5, "counts": {"in": 3},
                                                           "fingerprint": {"inputs": [{"path": "/a", "size": 4}],
                                                                           "ledger": [10, 1795697808780112448]}}}}}
    later = json.loads(json.dumps(manifest))
    later["updated"], later["stages"]["ingest"]["x"]["elapsed_s"] = "u", 9.0
    later["stages"]["ingest"]["x"]["fingerprint"]["ledger"][1] += 5
    same = [normalised("manifest.json", json.dumps(m).encode()) for m in (manifest, later)]
    assert same[0] == same[1]
    later["stages"]["ingest"]["x"]["fingerprint"]["ledger"][0] = 11  # a size is not a timing
    assert normalised("manifest.json", json.dumps(later).encode()) != same[0]
    later["stages"]["ingest"]["x"]["fingerprint"]["ledger"][0] = 10
    later["stages"]["ingest"]["x"]["counts"]["in"] = 4
    assert normalised("manifest.json", json.dumps(later).encode()) != same[0]
    assert normalised("episodes.jsonl", b"elapsed_s") == b"elapsed_s"


# --- the tests -------------------------------------------------------------------------------------------------
def test_ray_writes_the_same_files_as_local(demo, local_run, ray_address) -> None:
    got = digests(run_here(demo, "ray", "--executor", "ray"))
    assert any(k.startswith("images/") for k in got) and any(k.startswith("export/react-zh/") for k in got)
    assert_same(got, local_run)


def dies_once(marker: str, fn: str, payload):
    """A stage's unit that kills its own process the first time it runs anywhere (``marker`` says it did)."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        module, name = fn.split(":")
        return getattr(importlib.import_module(module), name)(payload)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_stage_loses_and_doubles_nothing(demo, local_run, ray_address, monkeypatch) -> None:
    from sftdata.export.stage import ExportStage
    from sftdata.ingest import AndroidControlIngest

    markers = {"ingest": demo / "killed-ingest", "export": demo / "killed-export"}
    episode = partial(dies_once, str(markers["ingest"]), "sftdata.ingest.androidcontrol:build_episode")
    monkeypatch.setattr(AndroidControlIngest, "process", staticmethod(episode))
    samples = partial(dies_once, str(markers["export"]), "sftdata.export.episodes:episode_samples")
    monkeypatch.setattr(ExportStage, "process", staticmethod(samples))
    got = digests(run_here(demo, "ray-worker-killed", "--executor", "ray"))
    for stage, marker in markers.items():
        pid = int(marker.read_text())
        assert pid != os.getpid(), stage  # a worker died, not this driver
        assert not Path(f"/proc/{pid}").exists(), stage
    assert_same(got, local_run)


def test_a_killed_driver_resumes_with_either_executor(demo, local_dir, ray_address) -> None:
    driver = run_child(demo, "--executor", "ray", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    episodes, deadline = demo / "run" / "episodes.jsonl", time.monotonic() + BOUND_S
    try:
        while driver.poll() is None and time.monotonic() < deadline:
            if episodes.exists() and episodes.stat().st_size > 0:  # ingest has started writing
                break
            time.sleep(0.02)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait(BOUND_S)
    assert driver.returncode == -signal.SIGKILL, "the driver ended before it was killed"
    manifest = json.loads((demo / "run" / "manifest.json").read_text()) if (demo / "run" / "manifest.json").exists() \
        else {}
    assert "pipeline" not in manifest.get("stages", {}), "the run had finished before the kill"
    killed = demo / "results" / "killed"
    shutil.copytree(demo / "run", killed, symlinks=True)

    resumed_as_clean(run_here(demo, "resumed-local", "--executor", "local"), local_dir)

    shutil.copytree(killed, demo / "run", symlinks=True)
    rerun = run_child(demo, "--executor", "ray", "--address", ray_address, stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, text=True)
    out, err = rerun.communicate(timeout=BOUND_S)
    assert rerun.returncode == 0, err[-2000:]
    resumed_as_clean(kept(demo, "resumed-ray"), local_dir)


def test_an_unreachable_address_is_one_line_and_exit_1(demo, ray_address) -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{s.getsockname()[1]}"
    started = time.monotonic()
    child = run_child(demo, "--executor", "ray", "--address", address, stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE, text=True)
    out, err = child.communicate(timeout=BOUND_S)
    assert child.returncode == 1 and time.monotonic() - started < BOUND_S
    assert err.splitlines() == [f"Error: cannot reach the Ray cluster at {address}: Connection refused"], err
    assert not (demo / "run" / "episodes.jsonl").exists()
