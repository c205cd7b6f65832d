"""The directory a generated sample of annotated trajectories is written into: new, empty, or one a sample
writer made before (it holds one of :data:`MARKERS`); then only that writer's own trajectory folders (named by
its pattern) are replaced. Anything else is refused: nothing is ever deleted that sftdata did not create.

>>> import tempfile
>>> out = Path(tempfile.mkdtemp()) / "mine"
>>> prepare(out, ".sftdata-phone-sample", r"phone_\\d{3}_[a-z_]+_\\d+x\\d+", "--annotated") == out
True
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..errors import FatalError

MARKERS = (".sftdata-web-sample", ".sftdata-phone-sample")  # in a directory `sftdata sample` wrote


def prepare(out: str | Path, marker: str, pattern: str, flag: str) -> Path:
    """Make ``out`` ready for a writer whose folders match ``pattern``: refuse a directory no sample writer made,
    remove this writer's earlier folders, leave the marker. ``flag``: the sample option, for the message."""
    out = Path(out)
    ours = any((out / m).exists() for m in MARKERS)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not ours)):
        raise FatalError(f"{out} exists and was not written by `sftdata sample {flag}`: choose a new directory")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():  # an earlier run's trajectories (the directory is ours: it has a marker)
        if old.is_dir() and not old.is_symlink() and re.fullmatch(pattern, old.name):
            shutil.rmtree(old)
    (out / marker).write_text(f"generated trajectories (sftdata sample {flag})\n", encoding="utf-8")
    return out
