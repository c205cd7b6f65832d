"""A run directory: the one place every stage reads from and writes to.

::

    RUN/episodes.jsonl   canonical episodes, one JSON line each (append-only, flushed per line)
    RUN/rejects.jsonl    every dropped input with its stage and reason code (append-only)
    RUN/images/          content-addressed screenshots (sha256-named, original bytes)
    RUN/manifest.json    per-stage options, inputs, counts and timings (rewritten atomically)
    RUN/.lock            flock()ed by the one process writing the run (see :meth:`RunDir.writing`)
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

from . import __version__
from .errors import FatalError, RecordError
from .io import ImageStore, Ledger, atomic_path, iter_jsonl, json_text, read_json, write_json_atomic
from .model import Episode

LOCK = ".lock"
_held: dict[Path, list[int]] = {}  # run directory -> [lock fd, depth]: a process may nest its own lock


def _lock_holder(fd: int) -> str:
    """The pid holding the flock on ``fd``'s file, from the kernel's /proc/locks ('unknown' without one). Read,
    not written into the lock file: taking the lock changes nothing in the run."""
    st = os.fstat(fd)
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            for line in f:  # "1: FLOCK  ADVISORY  WRITE 4242 00:2f:1234 0 EOF"
                fields = line.split()
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == where:
                    return fields[4]
    except OSError:
        pass
    return "unknown"


def _acquire(path: Path, readonly_ok: bool) -> int | None:
    """flock ``path/.lock`` without waiting; None when the directory is read-only and ``readonly_ok``."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if readonly_ok and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return None
        raise FatalError(f"run directory {path} is not writable: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(fd)
        os.close(fd)
        raise FatalError(f"{path} is in use by another sftdata process (pid {holder}); "
                         "wait for it or stop it") from None
    return fd


EPISODES, REJECTS = "episodes.jsonl", "rejects.jsonl"
ANNOTATIONS = "annotations.jsonl"  # annotate: one record per (re-)annotation of an episode, the last one wins
JUDGEMENTS = "judgements.jsonl"  # judge: one record per judgement of an episode's items
REVIEWS = "reviews.jsonl"  # review import: one record per reviewer decision on a step


class RunDir:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.episodes_path = self.path / EPISODES
        self.rejects_path = self.path / REJECTS
        self.manifest_path = self.path / "manifest.json"
        self.annotations_path = self.path / ANNOTATIONS
        self.judgements_path = self.path / JUDGEMENTS
        self.reviews_path = self.path / REVIEWS
        self.images = ImageStore(self.path)
        self._totals: tuple[list[int], dict[str, Any]] | None = None

    @contextlib.contextmanager
    def writing(self, *, readonly_ok: bool = False, busy_ok: bool = False) -> Iterator["RunDir"]:
        """Hold the run's writer lock for the block: a second writing process gets a FatalError naming the
        holder's pid. An OS lock (flock): it dies with its process, so a kill -9 leaves no stale lock. Nests
        within one process. ``readonly_ok``: a read-only run directory (one that only export reads) is not locked;
        ``busy_ok``: nor is one another process writes, or one that cannot be locked (see :meth:`recording`)."""
        key = self.path.resolve()
        if key in _held:
            _held[key][1] += 1
        else:
            try:
                fd = _acquire(self.path, readonly_ok)
            except FatalError:
                if not busy_ok:
                    raise
                fd = None
            if fd is None:
                yield self
                return
            _held[key] = [fd, 1]
        try:
            yield self
        finally:
            _held[key][1] -= 1
            if not _held[key][1]:
                os.close(_held.pop(key)[0])

    @contextlib.contextmanager
    def recording(self) -> Iterator[bool]:
        """For a stage that reads a run and may note what it did in the manifest (export, report): True inside
        the block when the writer lock is held (taken without waiting, or already held by this process); False
        when the run is read-only or another process is writing it, and then nothing is recorded."""
        with self.writing(readonly_ok=True, busy_ok=True):
            yield self.path.resolve() in _held

    @contextlib.contextmanager
    def creating(self) -> Iterator["RunDir"]:
        """For a command that may create the run: when it fails before anything was ledgered, a directory it
        created is removed again (a wrong input leaves no empty run behind); one that existed is never touched."""
        existed = self.path.exists()
        try:
            yield self
        except BaseException:
            if not existed and self.path.is_dir() and not self._holds_work():
                shutil.rmtree(self.path, ignore_errors=True)
            raise

    def _holds_work(self) -> bool:
        return any(p.exists() and p.stat().st_size > 0 for p in (self.episodes_path, self.rejects_path,
                                                                   self.manifest_path))

    def require_run(self) -> None:
        """Refuse a folder that is not an sftdata run (a reader would otherwise report an empty one)."""
        if not (self.manifest_path.exists() or self.episodes_path.exists()):
            raise FatalError(f"{self.path} is not an sftdata run (no manifest.json or episodes.jsonl): give the "
                             "folder `sftdata ingest --out` or `sftdata run` wrote")

    def require_episodes(self, ids: Any, option: str = "--episodes") -> None:
        """Refuse episode ids the run does not hold, naming them with the close ones and some of the run's own ids
        (a typo must not annotate, judge or draw nothing in silence)."""
        if not ids:
            return
        from .io import iter_jsonl_lines, record_id
        from .values import close_names

        known = [record_id(raw, self.episodes_path, n) for n, raw in iter_jsonl_lines(self.episodes_path)] \
            if self.episodes_path.exists() else []
        missing = [str(i) for i in ids if str(i) not in set(known)]
        if not missing:
            return
        close = close_names(missing[0], known) if len(missing) == 1 else []
        some = ", ".join(known[:8]) + (f", … ({len(known)} in all)" if len(known) > 8 else "")
        raise FatalError(f"{option}: no episode {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''} in "
                         f"{self.episodes_path}" + (f"; did you mean {' or '.join(close)}?" if close else "")
                         + (f" (its ids: {some})" if known else " (it holds no episode)"))

    def ensure_writable(self) -> None:
        """Fail early, with a clear message, when the run directory cannot be created or written."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-probe"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise FatalError(f"run directory {self.path} is not writable: {exc.strerror or exc}") from None

    # ledgers -------------------------------------------------------------------------------------------
    def episodes(self) -> Iterator[Episode]:
        for record in iter_jsonl(self.episodes_path):
            yield Episode.from_dict(record)

    def episode_records(self) -> Iterator[dict]:
        return iter_jsonl(self.episodes_path)

    def rejects(self) -> Iterator[dict]:
        return iter_jsonl(self.rejects_path)

    def latest_annotations(self) -> dict[str, dict]:
        """Episode id -> its latest annotation record (a re-annotation supersedes the earlier one); empty when
        the run has not been annotated."""
        if not self.annotations_path.exists():
            return {}
        return {str(r["id"]): r for r in iter_jsonl(self.annotations_path) if isinstance(r, dict) and "id" in r}

    def withdraw_rejects(self, withdrawn: Callable[[dict], bool]) -> int:
        """Rewrite the rejects ledger without the records ``withdrawn`` matches (a decision taken back: a step a
        reviewer now accepts, an episode a later export used); atomic; how many were withdrawn. Call it holding
        the writer lock."""
        if not self.rejects_path.exists():
            return 0
        kept, gone = [], 0
        for record in iter_jsonl(self.rejects_path):
            if isinstance(record, dict) and withdrawn(record):
                gone += 1
            else:
                kept.append(record)
        if gone:
            with atomic_path(self.rejects_path) as tmp:
                tmp.write_text("".join(json_text(r, what=self.rejects_path) + "\n" for r in kept), encoding="utf-8")
        return gone

    def open_episodes(self) -> Ledger:
        return Ledger(self.episodes_path)

    def open_rejects(self) -> Ledger:
        return Ledger(self.rejects_path)

    @staticmethod
    def reject_record(stage: str, source: str, error: RecordError, *, episode_id: str | None = None,
                      record: dict[str, Any] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"episode_id": episode_id, "source": source, "stage": stage,
                               "reason": error.reason, "detail": error.detail}
        if record is not None:
            out["record"] = record
        return out

    # manifest ------------------------------------------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        try:
            data = read_json(self.manifest_path, default=None)
        except json.JSONDecodeError:
            data = None  # a manifest is rewritten atomically, so this is a foreign or hand-edited file
        return data or {"sftdata": __version__, "stages": {}}

    def update_manifest(self, stage: str, key: str, entry: dict[str, Any]) -> dict[str, Any]:
        manifest = self.manifest()
        manifest["sftdata"] = __version__
        manifest.setdefault("stages", {}).setdefault(stage, {})[key] = entry
        manifest["totals"] = self.totals()
        manifest["totals_key"] = self._ledger_key()
        manifest["updated"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        write_json_atomic(self.manifest_path, manifest)
        return manifest

    def _ledger_key(self) -> list[int]:
        """Size and modification time of both ledgers: the totals change only when one of these does."""
        key = []
        for path in (self.episodes_path, self.rejects_path):
            st = path.stat() if path.exists() else None
            key += [st.st_size, st.st_mtime_ns] if st else [-1, -1]
        return key

    def totals(self) -> dict[str, Any]:
        """Counts from the ledgers, so they hold after any kill and resume. Counting parses every episode (GBs
        on the full release), so the result is reused while both ledgers are unchanged: from this object, or
        from the manifest that stored it with the same ledger key."""
        key = self._ledger_key()
        if self._totals is not None and self._totals[0] == key:
            return self._totals[1]
        manifest = self.manifest()
        totals = manifest.get("totals") if manifest.get("totals_key") == key else None
        if totals is None:
            totals = self._count()
        self._totals = (key, totals)
        return totals

    def _count(self) -> dict[str, Any]:
        episodes = steps = 0
        actions: Counter[str] = Counter()
        by_source: Counter[str] = Counter()
        for number, record in enumerate(self.episode_records(), 1):
            try:
                steps += len(record["steps"])
                by_source[record["source"]] += 1
                actions.update(s["action"]["type"] for s in record["steps"])
            except (KeyError, TypeError, AttributeError) as exc:
                raise FatalError(f"{self.episodes_path}:{number}: not an episode record "
                                 f"({type(exc).__name__}: {exc}); it was not written by sftdata ingest") from None
            episodes += 1
        rejected: Counter[str] = Counter()
        by_stage: Counter[str] = Counter()
        for r in self.rejects():
            rejected[r["reason"]] += 1
            by_stage[r["stage"]] += 1
        return {"episodes": episodes, "steps": steps, "episodes_by_source": dict(by_source),
                "actions": dict(actions.most_common()), "rejected": sum(rejected.values()),
                "rejected_by_reason": dict(rejected.most_common()), "rejected_by_stage": dict(by_stage)}
