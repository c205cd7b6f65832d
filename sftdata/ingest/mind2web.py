"""The ingest stage for Multimodal-Mind2Web: release Parquet shards or text-only JSON -> ``RUN/episodes.jsonl``.

An input is a task (``annotation_id``): it ends as an episode or as one ``ingest`` line in ``rejects.jsonl``
(the manifest's ``counts.in`` counts tasks, as the accounting does). A step the episode could not keep is a line
of stage ``ingest:step`` with the episode id, the step number (0-based ``step``) and its ``action_uid``: the
episode holds the steps before it (see :mod:`sftdata.loaders.mind2web_tasks`). Resumable: tasks already exported
or rejected are passed over without decoding; a finished stage with the same inputs and options is skipped.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..errors import FatalError, RecordError
from . import STAGE, IngestOptions, IngestResult, _checked_line, _unchanged
from ..stage import StageRun, fingerprint
from ..io import disk_full_guard, text_for_output
from ..loaders.mind2web import SOURCE
from ..loaders.mind2web_tasks import TaskOutcome, json_tasks, open_parquet, parquet_tasks
from ..rundir import RunDir

STEP_STAGE = "ingest:step"


@dataclass
class Mind2WebOptions:
    viewport: tuple[int, int] = (1280, 720)
    screenshots: str | None = None  # text-only JSON: the raw dump's task folders with processed/screenshot.json


def input_kind(path: Path) -> str:
    """``parquet`` or ``json`` by the file's first bytes (FatalError for anything else)."""
    with open(path, "rb") as f:
        head = f.read(4)
        f.seek(0)
        start = f.read(64).lstrip()
    if head == b"PAR1":
        return "parquet"
    if start.startswith(b"["):
        return "json"
    raise FatalError(f"{path} is neither a Parquet shard of Multimodal-Mind2Web nor a Mind2Web JSON file "
                     "(an array of tasks)")


def _done(run: RunDir) -> tuple[set[str], set[tuple[str, str, int]], set[tuple[str, int]]]:
    """Task ids already handled, the step rejects already ledgered (episode id, action uid, step) and the places
    (file, row) of repeated tasks already ledgered."""
    ids = {str(r["id"]) for r in run.episode_records() if r.get("source") == SOURCE}
    steps, repeats = set(), set()
    for r in run.rejects():
        if r.get("source") != SOURCE:
            continue
        if r.get("stage") == STAGE and r.get("reason") == "duplicate_episode":
            ref = r.get("record") or {}
            repeats.add((str(ref.get("file")), int(ref.get("row", -1))))
        elif r.get("stage") == STAGE and r.get("episode_id") is not None:
            ids.add(str(r["episode_id"]))
        elif r.get("stage") == STEP_STAGE:
            steps.add((str(r.get("episode_id")), str(r.get("action_uid")), int(r.get("step", -1))))
    return ids, steps, repeats


def input_files(paths: list[str | os.PathLike]) -> list[Path]:
    """The files to read: each path as given, a folder as its ``*.parquet`` shards (else its ``*.json`` files) in
    natural order (``train-2`` before ``train-10``), as the release lays them out (``data/train-000NN-of-000MM``)."""
    from ..loaders.annotated import natural_key
    from ..loaders.images import is_hidden

    out: list[Path] = []
    for p in map(Path, paths):
        if not p.is_dir():
            out.append(p)
            continue
        for suffix in (".parquet", ".json"):
            found = sorted((f for f in p.iterdir() if f.suffix == suffix and f.is_file() and not is_hidden(f.name)),
                           key=lambda f: natural_key(f.name))
            if found:
                out += found
                break
        else:
            raise FatalError(f"folder {p} holds no .parquet or .json file")
    return out


def ingest_mind2web(paths: list[str | os.PathLike], run: RunDir, opts: IngestOptions,
                    m2w: Mind2WebOptions | None = None, progress: bool | None = None) -> IngestResult:
    """Read Mind2Web files (Parquet shards in order, or text-only JSON) into ``run``."""
    m2w = m2w or Mind2WebOptions()
    files = input_files(paths)
    for f in files:
        if not f.is_file():
            raise FatalError(f"input {f} does not exist or is not a file")
    kinds = {input_kind(f) for f in files}
    if len(kinds) > 1:
        raise FatalError("give either Parquet shards or Mind2Web JSON files, not both")
    kind = kinds.pop()
    shots = Path(m2w.screenshots) if m2w.screenshots else None
    if shots is not None and not shots.is_dir():
        raise FatalError(f"--screenshots {shots} is not a directory")
    if kind == "parquet":
        if shots is not None:
            raise FatalError("--screenshots is for the text-only JSON; the Parquet shards carry their screenshots")
        total = sum(open_parquet(f).metadata.num_rows for f in files)  # also checks every schema before any work
    else:
        total = None
    run.ensure_writable()
    options = {**{k: v for k, v in asdict(opts).items() if k in ("episode_ids", "limit", "strict")},
               "viewport": list(m2w.viewport), "screenshots": str(shots.resolve()) if shots else None}
    stage = StageRun(run, STAGE, SOURCE, fingerprint(files, options))
    if stage.unchanged:
        return _unchanged(stage)
    done_ids, done_steps, repeats = _done(run)
    wanted = set(opts.episode_ids) if opts.episode_ids else None
    result = IngestResult(SOURCE, False)
    handled = len(done_ids)
    bar = tqdm(total=total, unit="step" if kind == "parquet" else "task", desc=f"ingest {SOURCE}",
               disable=(not progress) if progress is not None else None, dynamic_ncols=True)

    def skip(task_id: str) -> bool:
        if task_id in done_ids:
            return True
        if wanted is not None and task_id not in wanted:
            result.filtered += 1
            return True
        return opts.limit is not None and handled >= opts.limit

    with disk_full_guard(run.path), run.open_episodes() as episodes, run.open_rejects() as rejects:
        def reject(stage: str, error: RecordError, episode_id: str | None, ref: dict, **extra: Any) -> None:
            rejects.append({**run.reject_record(stage, SOURCE, error, episode_id=episode_id, record=ref), **extra})
            if opts.strict:
                raise FatalError(text_for_output(f"{episode_id}: {error.reason}: {error.detail} (--strict)"))

        tasks = (parquet_tasks(files, run.images, m2w.viewport, skip, bar.update) if kind == "parquet"
                 else json_tasks(files, run.images, m2w.viewport, shots, skip, bar.update))
        for outcome in tasks:
            if isinstance(outcome, tuple):  # a task id met again after other tasks: its rows are an input of their own
                task_id, where = outcome
                if (where["file"], where["row"]) not in repeats:
                    reject(STAGE, RecordError("duplicate_episode", f"rows of task {task_id} again at {where['file']} "
                           f"row {where['row']}, after other tasks: a task's rows must be consecutive"),
                           task_id, where)
                    result.new_rejected += 1
                continue
            handled += 1
            done_ids.add(outcome.annotation_id)
            _write(outcome, episodes, reject, done_steps, result)
            bar.set_postfix(episodes=result.new_exported, rejected=result.new_rejected, refresh=False)
            if opts.limit is not None and handled >= opts.limit:
                break
    bar.close()
    _finish(stage, result, options)
    return result


def _write(outcome: TaskOutcome, episodes, reject, done_steps: set, result: IngestResult) -> None:
    """Ledger one task: the episode line or its task reject, then its dropped steps (each once across resumes)."""
    task_id = outcome.annotation_id
    line = ""
    if outcome.episode is not None:
        try:
            line = _checked_line(outcome.episode.to_json())
        except RecordError as exc:
            outcome.error, outcome.episode = exc, None
    if outcome.episode is None:
        error = outcome.error or RecordError("no_actions", "the task has no usable step")
        first_step = outcome.dropped and error is outcome.dropped[0][2]
        detail = f"step {outcome.dropped[0][0] + 1}: {error.detail}" if first_step else error.detail
        later = len(outcome.dropped) - 1
        if later > 0:
            detail += f" ({later} later step(s) not used)"
        reject(STAGE, RecordError(error.reason, detail), task_id, outcome.first_row,
               steps=[{"step": i, "action_uid": uid, "reason": e.reason} for i, uid, e in outcome.dropped])
        result.new_rejected += 1
        return
    for index, uid, error in outcome.dropped:
        if (task_id, uid, index) in done_steps:
            continue
        reject(STEP_STAGE, error, task_id, outcome.rows.get(uid, outcome.first_row), step=index, action_uid=uid)
    episodes.append(line)
    result.new_exported += 1


def _finish(stage: StageRun, result: IngestResult, options: dict[str, Any]) -> None:
    """Recount tasks and steps from the ledgers and record the stage in the manifest."""
    exported = steps = 0
    for rec in stage.run.episode_records():
        if rec.get("source") == SOURCE:
            exported += 1
            steps += len(rec.get("steps", ()))
    by_reason = stage.reasons(source=SOURCE)
    step_reasons = stage.reasons(stage=STEP_STAGE, source=SOURCE)
    result.exported, result.rejected, result.by_reason = exported, sum(by_reason.values()), by_reason
    entry = stage.finish({
        "inputs": [{"path": i["path"], "size": i["size"]} for i in stage.fingerprint["inputs"]],
        "options": options,
        "counts": {"in": exported + result.rejected, "exported": exported, "rejected": result.rejected,
                   "filtered": result.filtered, "by_reason": by_reason,
                   "steps": {"exported": steps, "dropped": sum(step_reasons.values()), "by_reason": step_reasons}},
    })
    result.elapsed_s = entry["elapsed_s"]
