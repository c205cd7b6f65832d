"""The ingest stage: sources -> ``RUN/episodes.jsonl`` + ``RUN/images/``, with every dropped input in
``RUN/rejects.jsonl``. Resumable: inputs already exported or rejected are recognised by their record key
and passed over without being decoded again; a finished stage with the same inputs and options is skipped.
"""
from __future__ import annotations

import hashlib
import os
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from tqdm import tqdm

from ..errors import FatalError, RecordError
from ..io import disk_full_error, disk_full_guard, text_for_output
from ..loaders import androidcontrol
from ..loaders.tfrecord import DEFAULT_MAX_RECORD_BYTES, read_tfrecords
from ..executors import Executor, LocalExecutor, Ready
from ..rundir import RunDir
from ..stage import StageRun, fingerprint
from ..values import episode_id_of
from .shards import DoneRecords, content_id
from .trajectories import changed, folder_digest, key_of, seen_trajectories

if TYPE_CHECKING:
    from ..loaders.annotated import AnnotatedOptions

STAGE = "ingest"


@dataclass
class IngestOptions:
    splits: str | None = None
    split: str | None = None
    episode_ids: list[str] | None = None
    limit: int | None = None
    strict: bool = False
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    workers: int = 1  # processes for decoding, the image store and mark removal
    screen_change: bool = True  # decode AndroidControl screenshots to mark ineffective steps (the costly part)


@dataclass
class IngestResult:
    source: str
    skipped: bool
    exported: int = 0
    rejected: int = 0
    filtered: int = 0
    new_exported: int = 0
    new_rejected: int = 0
    reread: int = 0  # annotated: trajectories rejected earlier and changed since, read again
    changed_kept: int = 0  # annotated: trajectories ingested earlier and changed since (their episodes kept)
    by_reason: dict[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0


def record_labels(files: list[Path]) -> dict[Path, str]:
    """How each input file is named in the ledgers: its file name, or its whole path when another input has the
    same name. The resume key adds the file's content identity (:mod:`.shards`), so two shards ``a/part-0`` and
    ``b/part-0`` are two inputs, never one, in this invocation or any later one.

    >>> record_labels([Path("/d/a/x.gz"), Path("/d/b/x.gz"), Path("/d/y.gz")])[Path("/d/y.gz")]
    'y.gz'
    """
    names = [f.name for f in files]
    return {f: f.name if names.count(f.name) == 1 else text_for_output(str(f.resolve())) for f in files}


def _done(run: RunDir, source: str) -> tuple[DoneRecords, set[str]]:
    """Records already handled for ``source`` (see :mod:`.shards`) and the episode ids already exported."""
    done = DoneRecords()
    ids: set[str] = set()
    for rec in run.episode_records():
        if rec.get("source") == source:
            ids.add(str(rec["id"]))
            ref = rec.get("meta", {}).get("record")
            if ref:
                done.add(ref, rec["id"])
    for rec in run.rejects():
        ref = rec.get("record")
        if rec.get("source") == source and rec.get("stage") == STAGE and ref:
            done.add(ref, rec.get("episode_id"))
    return done, ids


def _select(opts: IngestOptions) -> tuple[Callable[[str], bool], dict[str, str]]:
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


def ingest_androidcontrol(paths: list[str | os.PathLike], run: RunDir, opts: IngestOptions,
                          progress: bool | None = None, executor: Executor | None = None) -> IngestResult:
    """Read AndroidControl TFRecord files into ``run``, the records built over ``executor`` (default: a local
    pool of ``opts.workers``). See the module docstring for resume rules."""
    source = androidcontrol.SOURCE
    files = [Path(p) for p in paths]
    for f in files:
        if not f.is_file():
            raise FatalError(f"input {f} does not exist or is not a file")
    run.ensure_writable()
    options = {k: v for k, v in asdict(opts).items() if k != "workers"}
    if opts.splits:
        options["splits"] = str(Path(opts.splits).resolve())
    stage = StageRun(run, STAGE, source, fingerprint(files, options))
    if stage.unchanged:
        return _unchanged(stage)

    selected, split_of = _select(opts)
    labels = record_labels(files)
    contents = {f: content_id(f) for f in files}  # two seeks each: see .shards
    done, seen_ids = _done(run, source)
    result = IngestResult(source, False)
    handled = len(done)
    total_bytes = sum(f.stat().st_size for f in files)
    bar = tqdm(total=total_bytes, unit="B", unit_scale=True, unit_divisor=1024, desc=f"ingest {source}",
               disable=(not progress) if progress is not None else None, dynamic_ncols=True)
    with disk_full_guard(run.path), run.open_episodes() as episodes, run.open_rejects() as rejects:
        reject = _rejecter(run, rejects, source, result, opts.strict)

        def tasks():  # this process reads, checks CRCs and filters; the pool builds episodes
            nonlocal handled  # a record the reader rejects is a Ready outcome: ledgered in record order
            for f in files:
                where = {"file": labels[f], "content": contents[f]}
                for frame in read_tfrecords(f, max_record_bytes=opts.max_record_bytes,
                                            skip=lambda i, w=where: done.passed_over({**w, "index": i}),
                                            on_progress=bar.update):
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
                    if not selected(episode_id):
                        result.filtered += 1
                        continue
                    handled += 1
                    duplicate = _duplicate(episode_id, seen_ids)
                    if duplicate is not None:
                        yield (ref, episode_id), Ready(duplicate)
                        continue
                    meta: dict[str, Any] = {"record": {**where, "index": frame.index}}
                    if episode_id in split_of:
                        meta["split"] = split_of[episode_id]
                    features = androidcontrol.stage_screenshots(features, run.images)  # workers get keys, not pixels
                    yield (ref, episode_id), (features, str(run.path), meta, opts.screen_change)

        for (ref, episode_id), outcome in (executor or LocalExecutor(opts.workers)).map(_build_androidcontrol, tasks()):
            _outcome(outcome, ref, episode_id, episodes, reject, result, run)
            bar.set_postfix(episodes=result.new_exported, rejected=result.new_rejected, refresh=False)
    bar.close()

    _finish(stage, result, options)
    return result


def _rejecter(run: RunDir, rejects, source: str, result: IngestResult, strict: bool):
    """A function that ledgers one dropped input (and stops the run under --strict)."""
    def reject(error: RecordError, ref: dict[str, Any], episode_id: str | None = None) -> None:
        rejects.append(run.reject_record(STAGE, source, error, episode_id=episode_id, record=ref))
        result.new_rejected += 1
        if strict:
            where = episode_id if source != "androidcontrol" else f"{ref['file']} record {ref['index']}"
            raise FatalError(text_for_output(f"{where}: {error.reason}: {error.detail} (--strict)"))
    return reject


def _duplicate(episode_id: str, seen_ids: set[str], where: str = "") -> RecordError | None:
    """Claim ``episode_id`` for this run: None, or the ``duplicate_episode`` error of a second record with it."""
    if episode_id in seen_ids:
        return RecordError("duplicate_episode", f"episode {episode_id} was already ingested {where}".rstrip())
    seen_ids.add(episode_id)
    return None


def _build_androidcontrol(task: tuple[dict, str, dict, bool]) -> str:
    """Worker: one decoded record -> the episode's JSON line (screenshots written to the run's store)."""
    features, run_path, meta, screen_change = task
    episode = androidcontrol.episode_from_features(features, RunDir(run_path).images, meta,
                                                   screen_change=screen_change)
    return _checked_line(episode.to_json())


def _checked_line(line: str) -> str:
    """The episode line, if it can be written as UTF-8 (a lone surrogate from a JSON escape cannot)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError("bad_text", f"text with an unpaired surrogate at {exc.start}: "
                          "it cannot be stored as UTF-8") from None
    return line


def _build_annotated(task: tuple[str, str, str, "AnnotatedOptions", dict]) -> str:
    """Worker: one trajectory folder -> the episode's JSON line (mark detection and removal happen here)."""
    from ..loaders import annotated

    folder, root, run_path, aopts, ref = task
    episode = annotated.load_trajectory(Path(folder), Path(root), RunDir(run_path).images, aopts)
    episode.meta["record"] = ref
    return _checked_line(episode.to_json())


def _outcome(outcome: Any, ref: dict, episode_id: str | None, episodes, reject, result: IngestResult,
             run: RunDir) -> None:
    """Ledger one worker result: an episode line, or the reason it was dropped."""
    if isinstance(outcome, str):
        episodes.append(outcome)
        result.new_exported += 1
    elif isinstance(outcome, RecordError):
        reject(outcome, ref, episode_id)
    elif isinstance(outcome, FatalError):  # a worker hit a full disk (see io.disk_full_error): stop here
        raise outcome
    elif isinstance(outcome, OSError):
        raise disk_full_error(outcome, run.images.run_dir / "images") or FatalError(
            f"cannot write to {run.path}: {outcome.strerror or outcome}")
    elif isinstance(outcome, MemoryError):  # this input is too big to build here; the next ones may fit
        reject(RecordError("out_of_memory", "building this episode ran out of memory (with fewer --workers each "
                           "one has more)"), ref, episode_id)
    elif isinstance(outcome, BrokenProcessPool):  # a worker was killed (the OS's out-of-memory killer?)
        raise FatalError(text_for_output(
            f"a worker process died while building {episode_id or 'the record'} ({ref['file']} #{ref['index']}); "
            "nothing after it was ledgered: run the same command again to resume, with fewer --workers if memory "
            "is short"))
    else:  # a decoder bug must not kill a 47 GB run: ledger it, go on (every known failure has its own reason)
        reject(RecordError("unexpected_error", f"{type(outcome).__name__}: {outcome}"), ref, episode_id)


def _finish(stage: StageRun, result: IngestResult, options: dict[str, Any]) -> None:
    """Recount from the ledgers (so the numbers hold across kills) and record the stage in the manifest."""
    exported = stage.run.totals()["episodes_by_source"].get(stage.key, 0)
    by_reason = stage.reasons(source=stage.key)
    result.exported, result.rejected, result.by_reason = exported, sum(by_reason.values()), by_reason
    entry = stage.finish({
        "inputs": [{"path": i["path"], "size": i["size"]} for i in stage.fingerprint["inputs"]],
        "options": options,
        "counts": {"in": exported + result.rejected, "exported": exported, "rejected": result.rejected,
                   "filtered": result.filtered, "by_reason": by_reason},
    })
    result.elapsed_s = entry["elapsed_s"]


def _unchanged(stage: StageRun) -> IngestResult:
    """The result of an ingest that finished earlier on the same inputs and options."""
    counts = stage.previous.get("counts", {})
    return IngestResult(stage.key, True, counts.get("exported", 0), counts.get("rejected", 0),
                        counts.get("filtered", 0), by_reason=counts.get("by_reason", {}))


def ingest_annotated(root: str | os.PathLike, run: RunDir, opts: IngestOptions,
                     annotated_opts: "AnnotatedOptions | None" = None, progress: bool | None = None,
                     executor: Executor | None = None) -> IngestResult:
    """Read every trajectory folder under ``root`` into ``run`` (episode id = folder path relative to root), the
    folders built over ``executor`` (default: a local pool of ``opts.workers``)."""
    from ..loaders import annotated

    source = annotated.SOURCE
    root = Path(root)
    if not root.is_dir():
        raise FatalError(f"{root} is not a directory of annotated trajectories")
    run.ensure_writable()
    folders = list(annotated.find_trajectories(root))
    orphans = list(annotated.find_orphans(root))
    if not folders and not orphans:
        from ..exitcodes import NothingProduced
        raise NothingProduced(f"no trajectory found under {root}: each one is a folder with a task.json beside its "
                              "screenshots")
    aopts = annotated_opts or annotated.AnnotatedOptions()
    options = {**{k: v for k, v in asdict(opts).items() if k != "workers"}, **asdict(aopts)}
    root_text = text_for_output(str(root.resolve()))
    ids = {folder: text_for_output(annotated.episode_id_for(folder, root)) for folder in [*folders, *orphans]}
    digests = {folder: folder_digest(folder) for folder in [*folders, *orphans]}
    prints = fingerprint([folder / annotated.TASK_FILE for folder in folders], options)
    prints["root"] = root_text
    prints["no_task_json"] = [ids[o] for o in orphans]
    prints["contents"] = hashlib.sha256(" ".join(digests.values()).encode()).hexdigest()[:16]  # screenshots too
    stage = StageRun(run, STAGE, source, prints)
    if stage.unchanged:
        return _unchanged(stage)
    refs = {folder: {"file": ids[folder], "index": 0, "root": root_text, "digest": digests[folder]}
            for folder in digests}
    keys = {folder: key_of(ref) for folder, ref in refs.items()}
    seen, seen_ids = seen_trajectories(run, source, STAGE)
    result = IngestResult(source, False)
    earlier = {folder: seen.get(keys[folder]) or seen.get(ids[folder]) for folder in digests}
    # a trajectory rejected earlier and changed since is read again: its reject is taken back first, so a kill
    # in between leaves it in neither ledger and the next run reads it
    again = {keys[f] for f, prev in earlier.items() if prev and prev.rejected and changed(prev, digests[f])}
    if again:
        run.withdraw_rejects(lambda r: r.get("stage") == STAGE and r.get("source") == source
                             and isinstance(r.get("record"), dict) and key_of(r["record"]) in again)
        result.reread = len(again)

    def done(folder: Path) -> bool:
        prev = earlier[folder]
        if prev is None or keys[folder] in again:
            return False
        if not prev.rejected and changed(prev, digests[folder]):
            result.changed_kept += 1  # said in the output; the episode stays as it was ingested
        return True

    wanted = set(opts.episode_ids) if opts.episode_ids else None
    handled = sum(1 for f in folders if earlier[f] is not None and keys[f] not in again)
    bar = tqdm(folders, unit="ep", desc=f"ingest {source}", dynamic_ncols=True,
               disable=(not progress) if progress is not None else None)
    with disk_full_guard(run.path), run.open_episodes() as episodes, run.open_rejects() as rejects:
        reject = _rejecter(run, rejects, source, result, opts.strict)
        for orphan in orphans:  # screenshots without a task.json: a clear reason in the ledger, once
            if not done(orphan):
                reject(RecordError("no_task_json", f"{ids[orphan]} holds screenshots but no {annotated.TASK_FILE}: "
                                   "write one (goal and actions) beside them"), refs[orphan], ids[orphan])

        def tasks():
            nonlocal handled
            for folder in bar:
                if opts.limit is not None and handled >= opts.limit:
                    return
                # a name with undecodable bytes keeps them as \udcff text in every ledger (the loader rejects
                # it as bad_path_encoding); the escaped id is also the resume key
                episode_id, ref = ids[folder], refs[folder]
                if done(folder):
                    continue
                if wanted is not None and episode_id not in wanted:
                    result.filtered += 1
                    continue
                handled += 1
                duplicate = _duplicate(episode_id, seen_ids, "from another folder")
                yield (ref, episode_id), (Ready(duplicate) if duplicate is not None
                                          else (str(folder), str(root), str(run.path), aopts, ref))

        for (ref, episode_id), outcome in (executor or LocalExecutor(opts.workers)).map(_build_annotated, tasks()):
            _outcome(outcome, ref, episode_id, episodes, reject, result, run)
    bar.close()
    _finish(stage, result, options)
    return result
