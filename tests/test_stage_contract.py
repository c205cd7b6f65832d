"""The stage contract, held once for every stage: each subclass of :class:`sftdata.stage.Stage` (found in the
modules that define one, so a new stage is held to it as soon as it exists, and fails here until it has a scenario
below; the ingest sources run in this process on two workers) and each ingest source again through its CLI command.
For each:

- **killed and resumed**: SIGKILLed (a forked child kills itself after k units, the k-th one ledgered: an exact
  kill point, no timing), then run again: its outputs are those of a clean run, nothing lost, nothing twice; an
  LLM stage asks its endpoint again only for the answers the killed run had not received (tests/llm_scenarios.py);
- **rerun unchanged**: skipped (a review import, idempotent by decision, adds nothing), every file untouched
  (bytes and mtimes);
- **a changed input, a changed fingerprinted option**: redone;
- **rejects**: ledgered with machine-readable reasons and a detail (a stage without a ledger of rejects keeps its
  reasons in its entry);
- **counts**: the manifest entry's counts add up with the ledgers.
"""
from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from sftdata.io import iter_jsonl
from sftdata.rundir import RunDir
from sftdata.stage import Stage
from support import sample_run

import stage_scenarios as scenarios

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

PACKAGE = Path(__file__).resolve().parents[1] / "sftdata"
REASON = re.compile(r"^[a-z][a-z0-9_:]*$")


def stage_classes() -> list[type]:
    """Every concrete subclass of Stage, after importing each module that subclasses it."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if re.search(r"^class \w+\((?:\w+, )*\w*Stage\b", path.read_text(encoding="utf-8"), re.M):
            importlib.import_module(".".join(("sftdata", *path.relative_to(PACKAGE).with_suffix("").parts)))
    found, todo = [], list(Stage.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    # a base that declares no name (LLMStage) is the loop of its subclasses, not a stage
    return sorted({c for c in found if c.__module__.startswith("sftdata.") and hasattr(c, "name")},
                  key=lambda c: c.__name__)


CASES = [c.__name__ for c in stage_classes()] + list(scenarios.VARIANTS) + \
    [f"ingest {s}" for s in scenarios.INGEST_SOURCES]


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return scenarios.build_base(tmp_path_factory.mktemp("contract"), sample_run)


def killed_after(k: int, hook, target) -> None:
    """Run ``target()`` in a forked child that SIGKILLs its process group (itself and any workers it started)
    once ``hook`` has seen ``k`` units."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test
        try:
            os.setpgid(0, 0)
            hook(k, lambda: os.killpg(0, signal.SIGKILL))
            target()
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, \
        f"the stage ended before its kill point (status {status})"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # its workers gone too (their lock on the run released)
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    raise AssertionError("the killed stage's workers are still there after 30 s")


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


@pytest.mark.parametrize("case", CASES)
def test_the_stage_keeps_the_contract(case, base, tmp_path):
    scenario = scenarios.SCENARIOS.get(case)
    assert scenario is not None, f"{case} has no scenario in tests/stage_scenarios.py: give it one"
    work = tmp_path / "w"

    # a clean run: the reference outputs (and what an LLM stage bought for them)
    shutil.copytree(base, work, symlinks=True)
    mark = scenario.mark()
    scenario.run(work)
    clean, bought = scenario.outputs(work), scenario.bought_since(mark)
    shutil.rmtree(work)

    # killed after its first units, then resumed: no answer received before the kill is bought again
    shutil.copytree(base, work, symlinks=True)
    killed_after(scenario.kill_after, scenario.hook, lambda: scenario.run(work))
    assert scenario.outputs(work) != clean, "the kill left the outputs of a finished run: kill earlier"
    received, mark = scenario.received(work), scenario.mark()
    scenario.run(work)
    assert scenario.outputs(work) == clean, "a killed and resumed run differs from a clean one"
    assert scenario.bought_since(mark) == bought - received, "the resumed run bought an answer it had"

    # rerun with nothing changed: skipped, nothing touched
    before = snapshot(work)
    assert scenario.run(work) is False, "an unchanged rerun was not skipped"
    assert snapshot(work) == before, "an unchanged rerun touched a file"

    # rejects with their reasons, counts that add up
    run = RunDir(work / scenario.run_name)
    lines = [r for r in run.rejects() if r.get("stage") in scenario.ledger_stages]
    assert bool(lines) == bool(scenario.ledger_stages), f"{case}: no reject ledgered"
    assert all(REASON.match(r["reason"]) and isinstance(r["detail"], str) and r["detail"] for r in lines), lines
    scenario.check_counts(work, Counter(r["reason"] for r in lines))

    # a changed input, then a changed fingerprinted option: redone
    scenario.change_input(work)
    assert scenario.run(work) is True, "a changed input was not redone"
    assert scenario.run(work, changed_option=True) is True, "a changed fingerprinted option was not redone"


def test_every_stage_has_a_scenario_and_nothing_else_does():
    assert set(scenarios.SCENARIOS) == set(CASES)


def test_a_review_reject_ledgered_before_its_record_is_not_ledgered_twice(base, tmp_path):
    """A kill between a rejected step's reject and its review record: the decision is redone, the reject is not."""
    work = tmp_path / "w"
    shutil.copytree(base, work, symlinks=True)
    scenario = scenarios.SCENARIOS["ReviewImportStage"]

    def hook(k, kill):
        from sftdata.review.importer import ReviewImportStage
        original = ReviewImportStage.reject

        def reject(self, r):
            original(self, r)
            kill()
        ReviewImportStage.reject = reject

    killed_after(1, hook, lambda: scenario.run(work))
    scenario.run(work)
    rejected = [(r["episode_id"], r["step"]) for r in iter_jsonl(work / "run" / "rejects.jsonl")
                if r["stage"] == "review"]
    assert rejected and len(rejected) == len(set(rejected))
    keys = [r["key"] for r in iter_jsonl(work / "run" / "reviews.jsonl")]
    assert len(keys) == len(set(keys)) == json.loads((work / "run" / "manifest.json").read_text())[
        "stages"]["review"]["human"]["records"]

