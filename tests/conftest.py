"""Shared test helpers. Real data lives in ../shared/fixtures (never copied here); tests that need it skip
with a clear message when it is absent, the rest run anywhere on generated data."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
AC_DIR = FIXTURES / "androidcontrol"
AC_RECORD = AC_DIR / "android_control-00000-of-00001"


@pytest.fixture
def ac_fixture() -> Path:
    if not AC_RECORD.exists():
        pytest.skip(f"real AndroidControl fixture not found at {AC_RECORD}")
    return AC_RECORD


@pytest.fixture
def ac_labels(ac_fixture) -> dict[str, dict]:
    return {str(e["episode_id"]): e for e in json.loads((AC_DIR / "episodes.json").read_text())}


def gunzip(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def episode_schema() -> dict:
    return json.loads((ROOT / "schemas" / "episode.schema.json").read_text())
