"""The suite's own machinery, run on a small suite of its own: a test marked as needing an optional part skips with
the part's one line when the part is missing, or fails under SFTDATA_REQUIRE_<MARKER>=1; skips are printed one line
per reason, not one per place."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from extras import EXTRAS

pytest_plugins = ["pytester"]
HERE = Path(__file__).parent

SUITE = '''
import pytest

pytestmark = pytest.mark.clients


def test_one():
    pass


def test_two():
    pass


@pytest.mark.skip(reason="a reason of its own")
def test_three():
    pass
'''


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    """The project's conftest and helpers in a folder of their own: no optional part is installed beside it."""
    tests = pytester.mkdir("tests")
    for name in ("conftest.py", "extras.py", "support.py", "built_once.py"):
        shutil.copy(HERE / name, tests / name)
    (tests / "test_marked.py").write_text(SUITE)
    markers = "\n    ".join(f"{m}: needs {e.what}" for m, e in EXTRAS.items())
    pytester.makeini(f"[pytest]\naddopts = -rfE -p no:cacheprovider\nmarkers =\n    {markers}\n")
    return pytester


def test_missing_parts_skip_with_one_line_per_reason(suite, monkeypatch):
    monkeypatch.delenv("SFTDATA_REQUIRE_CLIENTS", raising=False)
    result = suite.runpytest_subprocess("tests")
    result.assert_outcomes(passed=0, skipped=3)
    result.stdout.fnmatch_lines(["*skipped, by reason*",
                                 f"2 tests skipped: {EXTRAS['clients'].skip_reason}",
                                 "1 test skipped: a reason of its own"])
    assert "SKIPPED [" not in result.stdout.str()  # no line per place


def test_a_required_part_that_is_missing_fails_instead(suite, monkeypatch):
    monkeypatch.setenv("SFTDATA_REQUIRE_CLIENTS", "1")
    result = suite.runpytest_subprocess("tests")
    result.assert_outcomes(errors=2, skipped=1)
    result.stdout.fnmatch_lines([f"*SFTDATA_REQUIRE_CLIENTS=1 but {EXTRAS['clients'].skip_reason}*"])
