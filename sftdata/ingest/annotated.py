"""Folders of human-annotated trajectories as an ingest stage: a unit is one trajectory folder (episode id = its
path below the root), built by ``process`` (mark detection and removal happen there). What a rerun does with a
folder it met before (skipped, read again after a fix, reported as changed) is in :mod:`.trajectories`.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..errors import FatalError, RecordError
from ..executors import Ready
from ..io import disk_full_guard, text_for_output
from ..rundir import RunDir
from ..sources import AnnotatedSource
from ..stage import fingerprint
from .stage import STAGE, IngestStage, duplicate, line_bytes
from .trajectories import changed, folder_digest, key_of, seen_trajectories


def build_episode(task: tuple[str, str, str, Any, dict]) -> bytes:
    """Worker: one trajectory folder -> the episode's ledger line (mark detection and removal happen here)."""
    from ..loaders import annotated

    folder, root, run_path, aopts, ref = task
    episode = annotated.load_trajectory(Path(folder), Path(root), RunDir(run_path).images, aopts)
    episode.meta["record"] = ref
    return line_bytes(episode.to_json())


class AnnotatedIngest(IngestStage):
    """Ingest folders of human-annotated screenshots (one trajectory per folder with a task.json).

    \b
    Actions are read in seed 002's text form (CLICK [x,y], SWIPE [x1,y1] to [x2,y2], INPUT <text>, ...,
    0..1000 coordinates) or as JSON objects. Red marks burned into the frames are detected: they fill in
    omitted coordinates and are cross-checked against given ones. Exported frames never carry marks.
    A task.json with "platform": "web" is a browser recording: urls and elements per step, web labels
    (TYPE / 输入, SELECT / 选择, SCROLL DOWN / 向下滚动, GO TO URL / 打开网址, NEW TAB, BACK, DONE).

    \b
    Examples:
      sftdata ingest annotated data/annotated --out processed/mine --tolerance 30
      sftdata ingest annotated raw/web-annotated --out processed/web-annotated
      sftdata ingest annotated ../shared/fixtures/annotated --out processed/ocr --ocr
    """

    name, source, options, arguments = STAGE, AnnotatedSource.type, AnnotatedSource, (("root", "folder"),)
    bar_unit = "ep"
    process = staticmethod(build_episode)

    def __init__(self, run: Any, src: AnnotatedSource, settings: Any = None, **kwargs: Any) -> None:
        from ..loaders.annotated import AnnotatedOptions

        super().__init__(run, src, settings, **kwargs)
        self.aopts = AnnotatedOptions(tolerance_px=src.tolerance, require_clean=src.require_clean, ocr=src.ocr)

    def check(self) -> None:
        from ..loaders import annotated

        self.root = root = Path(self.src.root)
        if not root.is_dir():
            raise FatalError(f"{root} is not a directory of annotated trajectories")
        self.run.ensure_writable()
        self.folders = list(annotated.find_trajectories(root))
        self.orphans = list(annotated.find_orphans(root))
        if not self.folders and not self.orphans:
            from ..exitcodes import NothingProduced
            raise NothingProduced(f"no trajectory found under {root}: each one is a folder with a task.json beside "
                                  "its screenshots")
        self.ids = {f: text_for_output(annotated.episode_id_for(f, root)) for f in [*self.folders, *self.orphans]}
        self.digests = {f: folder_digest(f) for f in [*self.folders, *self.orphans]}

    def options_entry(self) -> dict[str, Any]:
        from dataclasses import asdict
        return {**super().options_entry(), **asdict(self.aopts)}

    def fingerprint(self) -> dict[str, Any]:
        from ..loaders.annotated import TASK_FILE

        prints = fingerprint([folder / TASK_FILE for folder in self.folders], self.options_entry())
        prints["root"] = text_for_output(str(self.root.resolve()))
        prints["no_task_json"] = [self.ids[o] for o in self.orphans]
        prints["contents"] = hashlib.sha256(" ".join(self.digests.values()).encode()).hexdigest()[:16]  # screenshots
        return prints

    def prepare(self) -> None:
        """What became of each folder earlier; a trajectory rejected earlier and changed since is read again: its
        reject is taken back first, so a kill in between leaves it in neither ledger and the next run reads it."""
        root_text = text_for_output(str(self.root.resolve()))
        self.refs = {f: {"file": self.ids[f], "index": 0, "root": root_text, "digest": self.digests[f]}
                     for f in self.digests}
        self.keys = {f: key_of(ref) for f, ref in self.refs.items()}
        seen, self.seen_ids = seen_trajectories(self.run, self.source, self.name)
        self.earlier = {f: seen.get(self.keys[f]) or seen.get(self.ids[f]) for f in self.digests}
        self.again = {self.keys[f] for f, prev in self.earlier.items()
                      if prev and prev.rejected and changed(prev, self.digests[f])}
        if self.again:
            self.run.withdraw_rejects(lambda r: r.get("stage") == self.name and r.get("source") == self.source
                                      and isinstance(r.get("record"), dict) and key_of(r["record"]) in self.again)
            self.result.reread = len(self.again)
        self.open_ledgers()

    def bar_total(self) -> int:
        return len(self.folders)

    def _done(self, folder: Path) -> bool:
        prev = self.earlier[folder]
        if prev is None or self.keys[folder] in self.again:
            return False
        if not prev.rejected and changed(prev, self.digests[folder]):
            self.result.changed_kept += 1  # said in the output; the episode stays as it was ingested
        return True

    def units(self):
        """The orphans' rejects (screenshots without a task.json: a clear reason in the ledger, once), then each
        trajectory folder not done yet."""
        from ..loaders.annotated import TASK_FILE

        for orphan in self.orphans:
            if not self._done(orphan):
                yield (self.refs[orphan], self.ids[orphan]), Ready(RecordError(
                    "no_task_json", f"{self.ids[orphan]} holds screenshots but no {TASK_FILE}: write one (goal and "
                    "actions) beside them"))
        opts, wanted = self.opts, set(self.opts.episode_ids) if self.opts.episode_ids else None
        handled = sum(1 for f in self.folders if self.earlier[f] is not None and self.keys[f] not in self.again)
        with disk_full_guard(self.run.path):
            for folder in self.folders:
                self.bar.update(1)
                if opts.limit is not None and handled >= opts.limit:
                    return
                # a name with undecodable bytes keeps them as \udcff text in every ledger (the loader rejects
                # it as bad_path_encoding); the escaped id is also the resume key
                episode_id, ref = self.ids[folder], self.refs[folder]
                if self._done(folder):
                    continue
                if wanted is not None and episode_id not in wanted:
                    self.result.filtered += 1
                    continue
                handled += 1
                again = duplicate(episode_id, self.seen_ids, "from another folder")
                yield (ref, episode_id), (Ready(again) if again is not None
                                          else (str(folder), str(self.root), str(self.run.path), self.aopts, ref))
