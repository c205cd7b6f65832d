"""The review round trip through a REAL Label Studio server (the `label-studio` package in its own virtualenv,
`make labelstudio`): loopback only, a temporary data directory, a user and its API token given on the command
line (legacy API tokens enabled for the new organization). The project is created, the tasks imported and
the reviewer's accept/edit/reject annotations submitted through label-studio-sdk (run with .venv-ls's Python,
tests/review/ls_driver.py); Label Studio's JSON export goes through `sftdata review import`, and the run's
next export has the edited reasoning, not the rejected step, with every step accounted for. The labeling page
is opened in headless Chromium after a login through the form: no console error, our images loaded, and a
screenshot that shows them.

Marked ``label_studio`` (tests/extras.py): skips when .venv-ls is absent, except with
SFTDATA_REQUIRE_LABEL_STUDIO=1 (``make test-extras``, CI), where it fails.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from sftdata.export.stage import ExportOptions, export_run
from sftdata.io import iter_jsonl
from sftdata.review.importer import import_review
from sftdata.review.tasks import export_review
from support import ROOT, sample_run

from records import CLEAN_EDIT, decision

LS_VENV = ROOT / ".venv-ls"
LS_BIN = LS_VENV / "bin" / "label-studio"
DRIVER = Path(__file__).with_name("ls_driver.py")
USER, PASSWORD, TOKEN = "reviewer@example.com", "review-pass-123", "sftdata0review0token0123456789"

pytestmark = pytest.mark.label_studio  # needs Label Studio in .venv-ls (tests/extras.py)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def docroot(tmp_path_factory) -> Path:
    """The server's LOCAL_FILES_DOCUMENT_ROOT: runs pushed with --local-files live under it."""
    return tmp_path_factory.mktemp("ls-documents")


@pytest.fixture(scope="module")
def label_studio(tmp_path_factory, docroot):
    data = tmp_path_factory.mktemp("label-studio")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LABEL_STUDIO_")}
    env.update(HOME=str(data), LABEL_STUDIO_BASE_DATA_DIR=str(data), DJANGO_DB="sqlite",
               LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED="true", LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT=str(docroot))
    log = open(data / "server.log", "wb")
    proc = subprocess.Popen([str(LS_BIN), "start", "--no-browser", "--internal-host", "127.0.0.1", "--port", str(port),
                             "--data-dir", str(data), "--username", USER, "--password", PASSWORD,
                             "--user-token", TOKEN, "--enable-legacy-api-token"],
                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=data)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 240
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"Label Studio exited ({proc.returncode}):\n"
                                   + (data / "server.log").read_text(errors="replace")[-3000:])
            try:
                with urllib.request.urlopen(base + "/health", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("Label Studio did not answer /health within 240 s:\n"
                                   + (data / "server.log").read_text(errors="replace")[-3000:])
            time.sleep(1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def reviewed(label_studio, tmp_path_factory):
    """A run whose review went through Label Studio: (run, tasks, driver output, LS export path, import result)."""
    root = tmp_path_factory.mktemp("ls-run")
    run = sample_run(root, 3, annotate=True)
    export_review(run, root / "review")
    tasks = json.loads((root / "review" / "tasks.json").read_text())
    first, second = tasks[0]["data"], tasks[1]["data"]
    plan = [{"task": 0, "result": decision(0, "accept") + decision(1, "edit", CLEAN_EDIT) + decision(2, "reject")},
            {"task": 1, "result": [r for i in range(len(second["steps"])) for r in decision(i, "accept")]}]
    (root / "plan.json").write_text(json.dumps(plan, ensure_ascii=False))
    ls_export = root / "label-studio-export.json"
    done = subprocess.run([str(LS_VENV / "bin" / "python"), str(DRIVER), label_studio, TOKEN,
                           str(root / "review" / "tasks.json"), str(root / "review" / "config.xml"),
                           str(root / "plan.json"), str(ls_export)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    driven = json.loads(done.stdout.strip().splitlines()[-1])
    result = import_review(run, ls_export)
    return run, first, driven, ls_export, result, root


def test_label_studio_round_trip(reviewed):
    run, first, driven, ls_export, result, root = reviewed
    exported = json.loads(ls_export.read_text())
    assert len(exported) == 2 and all(t["annotations"] and t["annotations"][0]["completed_by"] for t in exported)
    assert result.new == 3 + len(exported[1]["data"]["steps"]) and not result.edit_failures
    reviews = list(iter_jsonl(run.path / "reviews.jsonl"))
    edit = [r for r in reviews if r["episode_id"] == first["episode_id"] and r["step"] == 1]
    assert edit[0]["decision"] == "edit" and edit[0]["item"]["reasoning"] == CLEAN_EDIT
    assert edit[0]["provenance"]["by"] == "human" and edit[0]["provenance"]["time"].startswith("20")
    rejects = [r for r in iter_jsonl(run.path / "rejects.jsonl") if r["reason"] == "human_rejected"]
    assert [(r["episode_id"], r["step"]) for r in rejects] == [(first["episode_id"], 2)]

    assert import_review(run, ls_export).new == 0  # the same export again changes nothing

    out = export_run(run, root / "sft", ExportOptions(format="react-zh", split_ratio=0.0, progress=False))
    manifest = json.loads((root / "sft" / "manifest.json").read_text())
    answers = [json.loads(line)["messages"][-1]["content"] for name in manifest["shards"]["train"]
               for line in (root / "sft" / name).read_text().splitlines()]
    assert sum(CLEAN_EDIT in a for a in answers) == 1
    assert not any(first["steps"][2]["reasoning"] in a for a in answers)
    assert not any(first["steps"][1]["reasoning"] in a for a in answers)  # replaced by the edit
    steps = sum(len(e.steps) for e in run.episodes())
    ingested = sum(e["counts"]["in"] for e in run.manifest()["stages"]["ingest"].values())
    assert out.samples["train"] + sum(out.dropped.values()) == steps and out.dropped["human_rejected"] == 1
    assert ingested == sum(manifest["episodes"].values()) + len(manifest["dropped_episodes"]) \
        + sum(1 for r in run.rejects() if r["stage"] in ("ingest", "annotate"))
    assert manifest["human_review"] == {"accept": 1 + len(exported[1]["data"]["steps"]), "edit": 1, "reject": 1}


def _outside(error: str, base: str) -> bool:
    """A failed load of a resource outside the test server (the machine has no other network), or Label Studio
    Community's own request for its Enterprise-only ``/heidi-tips``: not an error of the page we made."""
    if base in error:
        return error.rstrip().endswith("/heidi-tips")
    return error.startswith("log: ") and "http" in error


@pytest.mark.chromium
def test_labeling_page_renders_in_headless_chromium(label_studio, reviewed):
    sys.path.insert(0, str(ROOT / "tests" / "report"))
    from chromium import Browser
    from PIL import Image

    run, first, driven, _, _, root = reviewed
    with Browser(timeout=90) as browser:
        page = browser.open(label_studio + "/user/login/")
        page.evaluate(f"""(() => {{ document.querySelector('input[name=email]').value = {json.dumps(USER)};
            document.querySelector('input[name=password]').value = {json.dumps(PASSWORD)};
            document.querySelector('form').submit(); return true; }})()""")
        browser.wait_for("Page.loadEventFired", page.session)
        browser.events[:] = [e for e in browser.events if e.get("sessionId") != page.session]  # the login page's
        url = f"{label_studio}/projects/{driven['project']}/data?task={driven['tasks'][0]}"
        browser.send("Page.navigate", {"url": url}, session=page.session)
        browser.wait_for("Page.loadEventFired", page.session)
        deadline = time.monotonic() + 60
        loaded: list[str] = []
        want = 2 * len(first["steps"])  # each step's clean screenshot and annotator image
        while time.monotonic() < deadline:
            # Label Studio hands our data URLs to <img> as blob: URLs of the same bytes
            loaded = page.evaluate("Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0)"
                                   ".map(i => i.naturalWidth + 'x' + i.naturalHeight)")
            if len(loaded) >= want and page.evaluate(f"document.body.innerText.includes({json.dumps(first['goal'])})"):
                break
            time.sleep(1)
        time.sleep(2)
        text = page.evaluate("document.body.innerText")
        shot = root / "labeling.png"
        page.screenshot(str(shot))
        errors = [e for e in page.errors if not _outside(e, label_studio)]
    assert len(loaded) >= want, f"the step images did not load in the labeling page: {loaded}"
    assert set(loaded) <= {"324x720"}, loaded  # our 720-pixel review copies of the 360x800 screens
    assert first["goal"] in text and "accept" in text and "reject" in text and CLEAN_EDIT in text
    assert not errors, errors
    with Image.open(shot) as img:
        assert img.size == (1280, 900)
        colours = img.convert("RGB").resize((320, 225)).getcolors(320 * 225)
        assert colours is None or len(colours) > 200  # a rendered page with screenshots, not a blank one


def _api(base: str, method: str, path: str, body=None, raw: bool = False):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", f"Token {TOKEN}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as r:
        data = r.read()
    return data if raw else json.loads(data)


def test_review_push_and_pull_through_the_api(label_studio, docroot):
    """`sftdata review push` creates the project, attaches the storage that serves its image files and imports the
    tasks; a reviewer annotates through the API; `sftdata review pull` brings the decisions into the run."""
    from click.testing import CliRunner

    from sftdata.cli import main

    run = sample_run(docroot / "runs", 2, annotate=True)
    pushed = CliRunner().invoke(main, ["review", "push", str(run.path), "--url", label_studio, "--token", TOKEN,
                                       "--local-files", str(docroot), "--title", "push test"])
    assert pushed.exit_code == 0, pushed.output
    state = json.loads((run.path / "review" / "label-studio.json").read_text())
    assert "images served by a Local Files storage" in pushed.output and len(state["tasks"]) == 2
    task = _api(label_studio, "GET", f"/api/tasks/{state['tasks'][0]}")
    for step in task["data"]["steps"]:
        for key in ("screenshot", "annotator"):
            assert step[key].startswith("/data/local-files/?d=")
            served = _api(label_studio, "GET", step[key], raw=True)  # 404 without the project's storage
            name = step[key].rsplit("/", 1)[-1]
            assert served == (run.path / state["folder"] / "images" / name).read_bytes()
    eid = task["data"]["episode_id"]
    _api(label_studio, "POST", f"/api/tasks/{state['tasks'][0]}/annotations/",
         {"result": decision(0, "accept") + decision(1, "reject"), "lead_time": 2.0})
    pulled = CliRunner().invoke(main, ["review", "pull", str(run.path), "--token", TOKEN])
    assert pulled.exit_code == 0, pulled.output
    assert "steps reviewed 2 in 1 episode: accepted 1, edited 0, rejected 1" in pulled.output
    assert [(r["episode_id"], r["step"]) for r in run.rejects() if r.get("reason") == "human_rejected"] == [(eid, 1)]
    again = CliRunner().invoke(main, ["review", "pull", str(run.path), "--token", TOKEN])
    assert again.exit_code == 0 and "new 0" in again.output  # pulling again changes nothing

    refused = CliRunner().invoke(main, ["review", "pull", str(run.path), "--token", "not-a-token"])
    assert refused.exit_code != 0 and "refused the token" in refused.output and "Traceback" not in refused.output

    _api(label_studio, "DELETE", f"/api/storages/localfiles/{state['storage']}", raw=True)
    with pytest.raises(urllib.error.HTTPError) as gone:  # what every image answered before push made the storage
        _api(label_studio, "GET", task["data"]["steps"][0]["screenshot"], raw=True)
    assert gone.value.code == 404
