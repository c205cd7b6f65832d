"""Paths and small helpers shared by the tests (imported as ``support``; pytest fixtures live in conftest.py)."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT.parent / "shared" / "fixtures"
AC_DIR = FIXTURES / "androidcontrol"
AC_RECORD = AC_DIR / "android_control-00000-of-00001"
ANNOTATED = FIXTURES / "annotated"


def gunzip(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def episode_schema() -> dict:
    return json.loads((ROOT / "schemas" / "episode.schema.json").read_text())  # the repository-root link
