"""Shared pytest fixtures. Real data lives in ../shared/fixtures (never copied here); tests that need it skip
with a clear message when it is absent, the rest run anywhere on generated data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import AC_DIR, AC_RECORD, missing_shared


@pytest.fixture
def ac_fixture() -> Path:
    if not AC_RECORD.exists():
        pytest.skip(missing_shared())
    return AC_RECORD


@pytest.fixture
def ac_labels(ac_fixture) -> dict[str, dict]:
    return {str(e["episode_id"]): e for e in json.loads((AC_DIR / "episodes.json").read_text())}
