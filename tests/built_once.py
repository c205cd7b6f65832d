"""Costly, deterministic test inputs built once per test session and shared by every test (and every xdist worker)
that asks for the same one: generated samples (the same bytes for the same arguments) and runs ingested from the
real fixtures. What :func:`built_once` returns is read-only: tests copy it (:func:`copy_of`) before changing it.

The session's cache lives beside the workers' temporary directories (pytest's base temp, removed with it); a lock
file per entry lets one worker build while the other waits for it."""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

_root: Path | None = None


def set_root(base_temp: Path) -> None:
    """Called once per worker (tests/conftest.py): under xdist the workers' base temps share a parent."""
    global _root
    _root = (base_temp.parent if os.environ.get("PYTEST_XDIST_WORKER") else base_temp) / "built-once"


def built_once(key: str, build: Callable[[Path], object]) -> Path:
    """The directory ``build(directory)`` filled, built by the session's first caller of ``key`` (a name saying
    everything the build depends on)."""
    global _root
    if _root is None:  # outside pytest's session fixtures (a helper run by hand)
        _root = Path(tempfile.mkdtemp(prefix="sftdata-built-once-"))
    done = _root / key
    if done.is_dir():
        return done
    _root.mkdir(parents=True, exist_ok=True)
    with open(_root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_dir():
            building = _root / f"{key}.building"
            shutil.rmtree(building, ignore_errors=True)
            building.mkdir()
            build(building)
            building.rename(done)
    return done


def copy_of(built: Path, dest: Path) -> Path:
    """A private copy of a built file or directory at ``dest``."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if built.is_dir():
        shutil.copytree(built, dest, symlinks=True)
    else:
        shutil.copyfile(built, dest)
    return dest


def sample_file(path: Path, n_episodes: int, seed: int = 0, size: tuple[int, int] = (1080, 2400)) -> int:
    """:func:`sftdata.synthetic.sample.write_sample` at ``path``, its bytes generated once per session."""
    from sftdata.synthetic.sample import write_sample

    name = "sample.tfrecord.gz"
    built = built_once(f"sample-{n_episodes}-{seed}-{size[0]}x{size[1]}",
                       lambda d: write_sample(d / name, n_episodes=n_episodes, seed=seed, size=size))
    copy_of(built / name, Path(path))
    return n_episodes
