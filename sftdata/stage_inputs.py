"""What the validate and report stages read, as fingerprints (the stage contract of :mod:`sftdata.stage`): when a
finished entry of the run's manifest has the same fingerprint, ``sftdata run`` has nothing to redo for that stage.

A file is fingerprinted by size and mtime; the manifest by its stage entries other than the report's own and the
pipeline's summary, without elapsed times (a run that finds nothing to do still adds a few milliseconds to them).
The code counts too: the sftdata version and the newest mtime of its modules, so an upgraded or edited checker or
report is run again. Cheap on purpose: a warm ``sftdata run`` decides from these alone.

>>> import tempfile
>>> from sftdata.rundir import RunDir
>>> run = RunDir(tempfile.mkdtemp())
>>> validate_fingerprint(run, 0.5) == validate_fingerprint(run, 0.5) != validate_fingerprint(run, 0.6)
True
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__
from .io import sha256_hex
from .rundir import RunDir

# manifest entries a report does not show, or shows about itself
_NOT_REPORTED = ("report", "pipeline", "validate")


def file_stat(path: Path) -> list[int] | None:
    """A file's size and mtime (None when it is missing)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def file_digest(path: Path) -> str | None:
    """A file's SHA-256 (None when it cannot be read): for a small file whose every byte counts (a prompt)."""
    try:
        return sha256_hex(path.read_bytes())
    except OSError:
        return None


@lru_cache(maxsize=1)
def code_stamp() -> dict[str, Any]:
    """The sftdata version and the newest mtime of its modules (an edited checkout or a reinstall changes it)."""
    newest = 0
    for folder, _, files in os.walk(Path(__file__).parent):
        for name in files:
            if name.endswith(".py"):
                newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime_ns)
    return {"version": __version__, "modules": newest}


def _without_elapsed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_elapsed(v) for k, v in value.items() if k != "elapsed_s"}
    if isinstance(value, list):
        return [_without_elapsed(v) for v in value]
    return value


def validate_fingerprint(run: RunDir, cjk_threshold: float) -> dict[str, Any]:
    """validate reads the episodes and the annotations."""
    return {"episodes": file_stat(run.episodes_path), "annotations": file_stat(run.annotations_path),
            "options": {"cjk_threshold": cjk_threshold}, "code": code_stamp()}


def report_fingerprint(run: RunDir, *, samples: int, seed: int, max_length: int | None) -> dict[str, Any]:
    """The report reads every ledger, the manifest's stage entries and every export's manifest, lengths and saved
    evaluations (``sftdata eval``)."""
    stages = {k: v for k, v in run.manifest().get("stages", {}).items() if k not in _NOT_REPORTED}
    digest = sha256_hex(json.dumps(_without_elapsed(stages), sort_keys=True, default=str).encode())
    exports_root = run.path / "export"
    exports = sorted(p for p in exports_root.iterdir() if p.is_dir()) if exports_root.is_dir() else []
    return {"ledgers": {p.name: file_stat(p) for p in (run.episodes_path, run.annotations_path, run.rejects_path,
                                                   run.judgements_path, run.reviews_path)},
            "manifest": digest,
            "exports": {p.name: [file_stat(p / "manifest.json"), file_stat(p / "lengths.json"),
                                 *(file_stat(e) for e in sorted((p / "eval").glob("*.json")))] for p in exports},
            "options": {"samples": samples, "seed": seed, "max_length": max_length}, "code": code_stamp()}
