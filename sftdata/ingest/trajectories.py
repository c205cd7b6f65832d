"""What ingest remembers of annotated trajectory folders, so that re-running it does the right thing:

- a trajectory is keyed by its root and its id (the folder path below the root): a second root holding the same
  id is another input, ledgered as ``duplicate_episode`` instead of being skipped as done;
- a trajectory carries a digest of its folder (names, sizes and modification times of its files): one rejected
  earlier and changed since (the user fixed its task.json or a screenshot) is read again, its old reject taken
  back; one ingested and changed since is reported, its episode kept as ingested.

>>> key_of({"file": "shop/1", "index": 0, "root": "/data/a"}), key_of({"file": "shop/1", "index": 0})
('/data/a|shop/1', 'shop/1')
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..io import text_for_output


def key_of(ref: dict[str, Any]) -> str:
    """The resume key of a trajectory's record reference (runs written before roots were kept: the id alone)."""
    return f"{ref['root']}|{ref['file']}" if ref.get("root") else str(ref["file"])


def folder_digest(folder: Path) -> str:
    """A short digest of every file under ``folder`` (relative name, size, modification time); a subfolder
    holding its own task.json is another trajectory and is left out."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not (Path(dirpath) / d / "task.json").exists())
        for name in sorted(filenames):
            path = Path(dirpath) / name
            try:
                st = path.stat()
            except OSError:
                continue  # a dangling link: the loader says what is wrong with the trajectory
            entries.append(f"{text_for_output(str(path.relative_to(folder)))}\t{st.st_size}\t{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(entries).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass
class Seen:
    """How an earlier invocation ended for one trajectory."""

    rejected: bool
    digest: str | None


def seen_trajectories(run: Any, source: str, stage: str) -> tuple[dict[str, Seen], set[str]]:
    """Resume key -> what became of it (an exported episode outranks a reject), and the ids already exported."""
    seen: dict[str, Seen] = {}
    ids: set[str] = set()
    for rec in run.episode_records():
        if rec.get("source") != source:
            continue
        ids.add(str(rec["id"]))
        ref = (rec.get("meta") or {}).get("record")
        if isinstance(ref, dict) and "file" in ref:
            seen[key_of(ref)] = Seen(False, ref.get("digest"))
    for rec in run.rejects():
        ref = rec.get("record")
        if rec.get("source") == source and rec.get("stage") == stage and isinstance(ref, dict) and "file" in ref:
            seen.setdefault(key_of(ref), Seen(True, ref.get("digest")))
    return seen, ids


def changed(seen: Seen | None, digest: str) -> bool:
    """Has the folder changed since that invocation? (Unknown for runs that kept no digest: no.)"""
    return seen is not None and seen.digest is not None and seen.digest != digest
