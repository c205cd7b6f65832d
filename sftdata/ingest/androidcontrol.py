"""AndroidControl TFRecord shards as an ingest stage: a unit is one record. This process reads the shards, checks
the CRCs, decodes the features, filters and stores the screenshots; ``process`` builds the episode. Resumable:
records already exported or rejected are recognised by their resume key (:mod:`.shards`) and passed over without
being decoded again.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, Callable

from ..errors import FatalError, RecordError
from ..executors import Ready
from ..io import disk_full_guard, text_for_output
from ..rundir import RunDir
from ..sources import AndroidControlSource
from ..stage import Reject, fingerprint
from ..values import episode_id_of
from .shards import DoneRecords, content_id
from .stage import STAGE, IngestStage, duplicate, line_bytes


def record_labels(files: list[Path]) -> dict[Path, str]:
    """How each input file is named in the ledgers: its file name, or its whole path when another input has the
    same name. The resume key adds the file's content identity (:mod:`.shards`), so two shards ``a/part-0`` and
    ``b/part-0`` are two inputs, never one, in this invocation or any later one.

    >>> record_labels([Path("/d/a/x.gz"), Path("/d/b/x.gz"), Path("/d/y.gz")])[Path("/d/y.gz")]
    'y.gz'
    """
    names = [f.name for f in files]
    return {f: f.name if names.count(f.name) == 1 else text_for_output(str(f.resolve())) for f in files}


def build_episode(task: tuple[dict, str, dict, bool]) -> bytes:
    """Worker: one decoded record -> the episode's ledger line (screenshots written to the run's store)."""
    from ..loaders import androidcontrol

    features, run_path, meta, screen_change = task
    episode = androidcontrol.episode_from_features(features, RunDir(run_path).images, meta,
                                                   screen_change=screen_change)
    return line_bytes(episode.to_json())


def _select(opts: Any) -> tuple[Callable[[str], bool], dict[str, str]]:
    from ..loaders import androidcontrol

    split_of: dict[str, str] = {}
    if opts.splits:
        try:
            split_of = androidcontrol.load_splits(opts.splits)
        except (OSError, ValueError) as exc:
            raise FatalError(f"cannot read splits file {opts.splits}: {exc}") from None
        if opts.split and opts.split not in set(split_of.values()):
            raise FatalError(f"split {opts.split!r} is not in {opts.splits} "
                             f"(it has: {', '.join(sorted(set(split_of.values())))})")
    elif opts.split:
        raise FatalError("--split needs --splits FILE (the release's splits.json)")
    wanted = set(opts.episode_ids) if opts.episode_ids else None

    def selected(episode_id: str) -> bool:
        if opts.split and split_of.get(episode_id) != opts.split:
            return False
        return wanted is None or episode_id in wanted

    return selected, split_of


class AndroidControlIngest(IngestStage):
    """Ingest AndroidControl TFRecord files (GZIP or plain), streaming record by record.

    \b
    Every record becomes one episode (N actions + a final done step) or a line in rejects.jsonl with a
    reason code (data_crc_mismatch, length_crc_mismatch, truncated, bad_example, ...).

    \b
    Example:
      sftdata ingest androidcontrol data/android_control-000*-of-00020 --out processed/ac \\
          --splits data/splits.json --split test
    """

    name, source, options, arguments = STAGE, AndroidControlSource.type, AndroidControlSource, (("paths", "files"),)
    # a record takes a worker about 4 ms: eight to a task cut the driver's CPU per record (0.37 ms for one, 0.27 for
    # two) so two workers reach 1.80x one on two idle cores (1.69x with two, 1.72x with four): docs/cluster.md
    bar_unit, batch = "B", 8
    process = staticmethod(build_episode)

    def check(self) -> None:
        self.files = [Path(p) for p in self.src.paths]
        for f in self.files:
            if not f.is_file():
                raise FatalError(f"input {f} does not exist or is not a file")
        self.run.ensure_writable()

    def options_entry(self) -> dict[str, Any]:
        options = super().options_entry()
        if self.opts.splits:
            options["splits"] = str(Path(self.opts.splits).resolve())
        return options

    def fingerprint(self) -> dict[str, Any]:
        return fingerprint(self.files, self.options_entry())

    def prepare(self) -> None:
        """The records already handled (see :mod:`.shards`) and the episode ids already exported."""
        self.selected, self.split_of = _select(self.opts)
        self.done, self.seen_ids = DoneRecords(), set()
        for rec in self.run.episode_records():
            if rec.get("source") == self.source:
                self.seen_ids.add(str(rec["id"]))
                ref = rec.get("meta", {}).get("record")
                if ref:
                    self.done.add(ref, rec["id"])
        for rec in self.run.rejects():
            ref = rec.get("record")
            if rec.get("source") == self.source and rec.get("stage") == self.name and ref:
                self.done.add(ref, rec.get("episode_id"))
        self.open_ledgers()

    def bar_total(self) -> int:
        return sum(f.stat().st_size for f in self.files)

    def bar_options(self) -> dict[str, Any]:
        return {"unit_scale": True, "unit_divisor": 1024}

    def units(self):
        """This process reads, checks CRCs and filters; a record the reader rejects is a Ready outcome, ledgered in
        record order."""
        from ..loaders import androidcontrol
        from ..loaders.read_ahead import read_ahead
        from ..loaders.tfrecord import read_tfrecords

        opts, done, labels = self.opts, self.done, record_labels(self.files)
        handled, read = len(done), deque()  # compressed bytes read, for the bar (moved here, not in a reading thread)
        with disk_full_guard(self.run.path):
            for f in self.files:
                where = {"file": labels[f], "content": content_id(f)}  # two seeks each: see .shards
                frames = read_tfrecords(f, max_record_bytes=opts.max_record_bytes,
                                        skip=lambda i, w=where: done.passed_over({**w, "index": i}),
                                        on_progress=read.append)
                for frame in read_ahead(frames) if self.pooled() else frames:
                    while read:
                        self.bar.update(read.popleft())
                    if opts.limit is not None and handled >= opts.limit:
                        return
                    ref = {**where, "index": frame.index, "offset": frame.offset}
                    if frame.error is not None:
                        if not done.passed_over(ref):
                            handled += 1
                            yield (ref, None), Ready(frame.error)
                        continue
                    if frame.data is None:  # passed over: handled by an earlier run
                        continue
                    try:
                        features = androidcontrol.decode_features(frame.data)
                        episode_id = episode_id_of(features["episode_id"][0])  # never "b'ep'" from bytes
                    except RecordError as exc:
                        handled += 1
                        yield (ref, None), Ready(exc)
                        continue
                    if done.legacy_holds(ref, episode_id):  # ledgered by a run that kept no identities
                        continue
                    if not self.selected(episode_id):
                        self.result.filtered += 1
                        continue
                    handled += 1
                    again = duplicate(episode_id, self.seen_ids)
                    if again is not None:
                        yield (ref, episode_id), Ready(again)
                        continue
                    meta: dict[str, Any] = {"record": {**where, "index": frame.index}}
                    if episode_id in self.split_of:
                        meta["split"] = self.split_of[episode_id]
                    features = androidcontrol.stage_screenshots(features, self.run.images)  # workers get keys
                    yield (ref, episode_id), (features, str(self.run.path), meta, opts.screen_change)

    def pooled(self) -> bool:
        """Whether the episodes are built outside this process (a pool, Ray): then the next records are inflated in
        a thread while this one stores screenshots and feeds the workers (:mod:`..loaders.read_ahead`); one worker
        in this process keeps the whole ingest on one core."""
        return self.executor.name != "local" or self.executor.workers > 1

    def strict_message(self, reject: Reject) -> str:
        ref = reject.extra["record"]
        return f"{ref['file']} record {ref['index']}: {reject.reason}: {reject.detail} (--strict)"
