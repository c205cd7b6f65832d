"""Hostile cases end with the accounting (see accounting.py): after each test, every run directory it left in
its tmp_path is checked, so no case can lose an input unnoticed."""
from __future__ import annotations

import pytest

from accounting import assert_accounted, is_run


@pytest.fixture(autouse=True)
def accounted_after_each_case(request):
    """After each hostile case, the accounting of every run it left in its tmp_path (see module docstring).
    ``@pytest.mark.stopped``: the case ends its run with a fatal error on purpose (annotate has not finished)."""
    root = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    yield
    if root is None or getattr(request.node, "rep_call_failed", True):
        return  # no tmp_path, or the case itself failed (its own message says more)
    for manifest in root.rglob("manifest.json"):
        if is_run(manifest.parent):
            assert_accounted(manifest.parent, stopped=request.node.get_closest_marker("stopped") is not None)


def pytest_configure(config):
    config.addinivalue_line("markers", "stopped: the case stops its run with a fatal error before annotate finishes")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "call":
        item.rep_call_failed = outcome.get_result().failed
