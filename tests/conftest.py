"""Shared pytest fixtures and the suite's two hooks. Real data lives in ../shared/fixtures (never copied here);
tests that need it skip with a clear message when it is absent, the rest run anywhere on generated data.

Tests that need an optional extra carry its marker (extras.py): they skip without it, or fail where
``SFTDATA_REQUIRE_<MARKER>=1`` says it must be there. At the end, skips are printed one line per reason.
Modules marked ``slow`` are collected first, so the workers of ``pytest -n`` take the long modules first and
finish together (the small ones fill the end)."""
from __future__ import annotations

import os

# pytest -n already keeps every core busy with a test process: a stage's default pool (the machine's cores) would
# only add processes that wait for a core. Tests that are about the pool give their workers explicitly.
os.environ.setdefault("SFTDATA_WORKERS", "1")

import json  # noqa: E402
from collections import Counter
from pathlib import Path

import pytest

import built_once
from extras import EXTRAS, present
from sftdata.plural import counted
from support import AC_DIR, AC_RECORD, missing_shared


@pytest.fixture(scope="session", autouse=True)
def built_once_root(tmp_path_factory) -> None:
    """Where this session's shared, built-once inputs go (built_once.py)."""
    built_once.set_root(tmp_path_factory.getbasetemp())


@pytest.fixture
def ac_fixture() -> Path:
    if not AC_RECORD.exists():
        pytest.skip(missing_shared())
    return AC_RECORD


@pytest.fixture
def ac_labels(ac_fixture) -> dict[str, dict]:
    return {str(e["episode_id"]): e for e in json.loads((AC_DIR / "episodes.json").read_text())}


def pytest_collection_modifyitems(config, items: list[pytest.Item]) -> None:
    """The modules marked ``slow`` first, in collection order, then the rest (a stable sort: every worker of
    pytest-xdist collects the same order, and ``--no-loadscope-reorder`` keeps it)."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, extra in EXTRAS.items():
        if item.get_closest_marker(marker) is None or present(marker):
            continue
        if os.environ.get(extra.require_env) == "1":
            pytest.fail(f"{extra.require_env}=1 but {extra.skip_reason}", pytrace=False)
        pytest.skip(extra.skip_reason)


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """Skips, one line per reason (each reason says how to get what is missing), instead of one per place."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    tests = Counter(_skip_reason(r) for r in skipped if r.when != "collect")
    modules = Counter(_skip_reason(r) for r in skipped if r.when == "collect")
    terminalreporter.write_sep("-", "skipped, by reason")
    for reason, n in tests.most_common():
        terminalreporter.write_line(f"{counted(n, 'test')} skipped: {reason}")
    for reason, n in modules.most_common():
        terminalreporter.write_line(f"{counted(n, 'whole module')} skipped: {reason}")
