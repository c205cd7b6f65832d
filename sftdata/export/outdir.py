"""Where an export may be written, and how it replaces an earlier one without destroying anything else.

An output directory is used when it is new or empty; an earlier export of ours (our manifest, our files only) is
replaced only with ``force``; the run directory, a folder holding it or in it (``RUN/export/NAME`` excepted) and
any foreign folder are refused. Staging and replaced directories of killed exports are removed only when their
process is gone and they hold nothing but export files.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from ..errors import FatalError

_OURS = {"manifest.json", "splits.json", "lengths.json", "held_back.json", "train.sh", "preflight.json", "images",
         "train_grpo.sh", "sftdata_rewards.py", "eval"}  # the RL export's script, its reward plugin, sftdata eval


def _only_our_files(path: Path) -> bool:
    """Every entry of ``path`` is named like something an export writes (shards, images/, dot temp files)."""
    return all(p.name in _OURS or p.name.endswith(".jsonl") or p.name.startswith(".") for p in path.iterdir())


def is_our_export(path: Path) -> bool:
    """A directory holding an earlier sftdata export and nothing else: our manifest, our files."""
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        return (isinstance(manifest, dict) and {"format", "shards", "fingerprint"} <= set(manifest)
                and _only_our_files(path))
    except (OSError, ValueError):
        return False


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def check_out(run: Path, out: Path, force: bool) -> None:
    """Refuse an ``out`` whose replacement would destroy what is not an export of ours: the run directory, a
    folder holding it or in it (RUN/export/NAME excepted), a foreign folder, or an earlier export without force."""
    _check_place(run.resolve(), out)
    _check_contents(out, force)


def _check_place(run: Path, out: Path) -> None:
    if _inside(run, out):
        raise FatalError(f"--out {out} is {'the run directory' if out == run else 'a folder holding the run'}; "
                         "replacing it would destroy the run: choose another directory")
    if _inside(out, run) and out.parent != run / "export":
        raise FatalError(f"--out {out} is inside the run directory: use {run / 'export' / out.name} or a "
                         "directory outside the run")


def _check_contents(out: Path, force: bool) -> None:
    if not out.exists() and not out.is_symlink():
        return
    if not out.is_dir():
        raise FatalError(f"--out {out} exists and is not a directory: choose another one")
    if is_our_export(out):
        if not force:
            raise FatalError(f"--out {out} holds an earlier export: pass --force to replace it")
    elif _not_empty(out):
        raise FatalError(f"--out {out} is not empty and is not an sftdata export: nothing was changed; "
                         "choose a new or empty directory")


def _not_empty(path: Path) -> bool:
    try:
        return any(path.iterdir())
    except OSError as exc:
        raise FatalError(f"cannot read {path}: {exc.strerror or exc}") from None


def check_hf_out(run: Path, out: Path, hf: Path) -> None:
    """``--hf-dataset`` may overwrite only a new or empty folder, or a dataset saved before, away from the run."""
    if _inside(hf, run.resolve()) or _inside(run.resolve(), hf) or _inside(hf, out) or _inside(out, hf):
        raise FatalError(f"--hf-dataset {hf} overlaps the run or the export directory: choose another one")
    if hf.exists() and (not hf.is_dir() or (_not_empty(hf) and not (hf / "dataset_dict.json").exists())):
        raise FatalError(f"--hf-dataset {hf} exists and is not a saved dataset: choose a new or empty directory")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_ours(path: Path) -> None:
    """Remove a staging or replaced directory only if it looks like what we made: a real directory (no symlink)
    holding nothing but export files."""
    try:
        if not path.is_symlink() and path.is_dir() and _only_our_files(path):
            shutil.rmtree(path, ignore_errors=True)
    except OSError:
        pass  # unreadable: not ours to judge


def remove_leftovers(out: Path) -> None:
    """Staging and replaced directories (``.OUT.staging-PID``, ``.OUT.old-PID``) of exports that were killed
    (their process is gone)."""
    if not out.parent.is_dir():
        return
    for path in out.parent.glob(f".{out.name}.*-*"):
        kind, _, pid = path.name[len(out.name) + 2:].rpartition("-")
        if kind in ("staging", "old") and pid.isdigit() and not _pid_alive(int(pid)):
            remove_ours(path)


def swap_into_place(stage: Path, out: Path, force: bool) -> None:
    """Rename ``stage`` to ``out``; an earlier export (checked again: it may have changed meanwhile) goes."""
    try:
        _check_contents(out, force)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.replace(out, old)
    os.replace(stage, out)
    remove_ours(old)
