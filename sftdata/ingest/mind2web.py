"""Multimodal-Mind2Web as an ingest stage: release Parquet shards or text-only JSON -> ``RUN/episodes.jsonl``.

An input is a task (``annotation_id``): it ends as an episode or as one ``ingest`` line in ``rejects.jsonl``
(the manifest's ``counts.in`` counts tasks, as the accounting does). A step the episode could not keep is a line
of stage ``ingest:step`` with the episode id, the step number (0-based ``step``) and its ``action_uid``: the
episode holds the steps before it (see :mod:`sftdata.loaders.mind2web_tasks`). A unit is one task: this process
reads the rows and groups them by task, ``process`` builds the episode (its screenshots cropped and stored) and its
ledger lines. Resumable: tasks already exported or rejected are passed over without decoding; a finished stage
with the same inputs and options is skipped.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FatalError, RecordError
from ..executors import Ready
from ..io import disk_full_guard
from ..rundir import RunDir
from ..sources import Mind2WebSource
from ..stage import Reject, fingerprint
from ..values import size_of
from .stage import STAGE, IngestStage, line_bytes

STEP_STAGE = "ingest:step"
SOURCE = Mind2WebSource.type


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


def input_files(paths: list[Any]) -> list[Path]:
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


@dataclass
class Built:
    """What ``process`` made of a task that kept an episode: its line, then the steps it dropped (each a reject of
    stage ``ingest:step``, keyed by (episode id, action uid, step) so a resume ledgers it once)."""

    line: bytes
    dropped: list[tuple[tuple[str, str, int], Reject]]


def build_task(payload: tuple) -> Built | Reject:
    """Worker: one task (its rows, or a text-only JSON task) -> its episode line and dropped steps, or the task's
    reject (with every step it could not use)."""
    from ..loaders import mind2web_tasks as tasks

    kind, task, run_path, viewport, shots = payload
    store = RunDir(run_path).images
    outcome = (tasks.build_task(task, store, viewport) if kind == "parquet"
               else tasks.build_json_task(*task, store, viewport, Path(shots) if shots else None))
    task_id, line = outcome.annotation_id, b""
    if outcome.episode is not None:
        try:
            line = line_bytes(outcome.episode.to_json())
        except RecordError as exc:
            outcome.error, outcome.episode = exc, None
    if outcome.episode is None:
        error = outcome.error or RecordError("no_actions", "the task has no usable step")
        first_step = outcome.dropped and error is outcome.dropped[0][2]
        detail = f"step {outcome.dropped[0][0] + 1}: {error.detail}" if first_step else error.detail
        later = len(outcome.dropped) - 1
        if later > 0:
            detail += f" ({later} later step(s) not used)"
        return Reject(error.reason, detail, task_id, SOURCE, {"record": outcome.first_row, "steps": [
            {"step": i, "action_uid": uid, "reason": e.reason} for i, uid, e in outcome.dropped]})
    return Built(line, [((task_id, uid, index), Reject(
        error.reason, error.detail, task_id, SOURCE, {"record": outcome.rows.get(uid, outcome.first_row),
                                                      "step": index, "action_uid": uid}, stage=STEP_STAGE))
        for index, uid, error in outcome.dropped])


class Mind2WebIngest(IngestStage):
    """Ingest Multimodal-Mind2Web Parquet shards (or text-only Mind2Web JSON), streaming a few rows at a time.

    \b
    Each task becomes one web episode (no final done: there is no screen after the last action). A step's image
    is a viewport-sized crop of the whole page around the target (the page is kept in the image store); a step
    that cannot be used (no_positive_candidate, box_outside_page, missing_screenshot, bad_image) cuts its task
    there, the later steps are ledgered as after_dropped_step.

    \b
    Examples:
      sftdata ingest mind2web data/train-000*-of-00027.parquet --out processed/m2w
      sftdata ingest mind2web data/ --out processed/m2w        (a folder: its shards in order)
      sftdata ingest mind2web data/train/train_0.json --screenshots raw_dump/task --out processed/m2w-text
    """

    name, source, options, arguments = STAGE, SOURCE, Mind2WebSource, (("paths", "paths"),)
    batch = max_batch = 1  # a task carries its whole pages: one to a task, on any executor, so memory stays flat
    process = staticmethod(build_task)

    def check(self) -> None:
        from ..loaders.mind2web_tasks import open_parquet

        self.files = files = input_files(self.src.paths)
        for f in files:
            if not f.is_file():
                raise FatalError(f"input {f} does not exist or is not a file")
        kinds = {input_kind(f) for f in files}
        if len(kinds) > 1:
            raise FatalError("give either Parquet shards or Mind2Web JSON files, not both")
        self.kind = kinds.pop()
        shots = self.shots = Path(self.src.screenshots) if self.src.screenshots else None
        if shots is not None and not shots.is_dir():
            raise FatalError(f"--screenshots {shots} is not a directory")
        if self.kind == "parquet":
            if shots is not None:
                raise FatalError("--screenshots is for the text-only JSON; the Parquet shards carry their screenshots")
            self.rows = sum(open_parquet(f).metadata.num_rows for f in files)  # every schema checked before any work
        else:
            self.rows = None
        self.bar_unit = "step" if self.kind == "parquet" else "task"
        self.run.ensure_writable()

    def options_entry(self) -> dict[str, Any]:
        return {**{k: v for k, v in super().options_entry().items() if k in ("episode_ids", "limit", "strict")},
                "viewport": list(size_of(self.src.viewport, 64)),
                "screenshots": str(self.shots.resolve()) if self.shots else None}

    def fingerprint(self) -> dict[str, Any]:
        return fingerprint(self.files, self.options_entry())

    def prepare(self) -> None:
        self.done_ids, self.done_steps, self.repeats = _done(self.run)
        self.open_ledgers()

    def bar_total(self) -> int | None:
        return self.rows

    def units(self):
        """This process reads the rows (or the JSON tasks) and groups them by task; a task id met again after other
        tasks is a reject of its own (a Ready outcome, in its place)."""
        from ..loaders import mind2web_tasks as tasks

        opts, result = self.opts, self.result
        wanted = set(opts.episode_ids) if opts.episode_ids else None
        handled = len(self.done_ids)

        def skip(task_id: str) -> bool:
            if task_id in self.done_ids:
                return True
            if wanted is not None and task_id not in wanted:
                result.filtered += 1
                return True
            return opts.limit is not None and handled >= opts.limit

        viewport, shots = size_of(self.src.viewport, 64), str(self.shots) if self.shots else None
        found = (tasks.parquet_tasks(self.files, skip, self.bar.update) if self.kind == "parquet"
                 else tasks.json_tasks(self.files, skip, self.bar.update))
        with disk_full_guard(self.run.path):
            for task in found:
                if isinstance(task, tuple) and len(task) == 2:  # a task id met again after other tasks
                    task_id, where = task
                    if (where["file"], where["row"]) not in self.repeats:
                        yield (where, task_id), Ready(Reject(
                            "duplicate_episode", f"rows of task {task_id} again at {where['file']} row "
                            f"{where['row']}, after other tasks: a task's rows must be consecutive", task_id,
                            SOURCE, {"record": where}))
                    continue
                task_id, first_row = (task.annotation_id, task.first_row) if self.kind == "parquet" \
                    else (task[1], task[2])
                handled += 1
                self.done_ids.add(task_id)
                yield (first_row, task_id), (self.kind, task, str(self.run.path), viewport, shots)
                if opts.limit is not None and handled >= opts.limit:
                    return

    def write(self, key: Any, built: Built) -> None:
        """The task's dropped steps (each once across resumes), then its episode."""
        for step, reject in built.dropped:
            if step not in self.done_steps:
                self.reject(reject)
        super().write(key, built.line)

    def counts(self) -> dict[str, Any]:
        """The tasks' counts, and the steps': kept in episodes, dropped by reason."""
        steps = sum(len(rec.get("steps", ())) for rec in self.run.episode_records() if rec.get("source") == SOURCE)
        step_reasons = self.book.reasons(stage=STEP_STAGE, source=SOURCE)
        return {**super().counts(), "steps": {"exported": steps, "dropped": sum(step_reasons.values()),
                                              "by_reason": step_reasons}}

    def summary_lines(self, entry: dict[str, Any]) -> list[str]:
        steps = entry["counts"]["steps"]
        return [f"steps: {steps['exported']} kept, {steps['dropped']} dropped"
                + "".join(f"\n  dropped: {reason:<28} {count:>6}" for reason, count in steps["by_reason"].items())]


@dataclass
class Mind2WebOptions:
    viewport: tuple[int, int] = (1280, 720)
    screenshots: str | None = None  # text-only JSON: the raw dump's task folders with processed/screenshot.json


def ingest_mind2web(paths: list[Any], run: RunDir, opts: Any, m2w: Mind2WebOptions | None = None,
                    progress: bool | None = None, executor: Any = None):
    """Read Mind2Web files (Parquet shards in order, or text-only JSON) into ``run``: :class:`Mind2WebIngest`."""
    m2w = m2w or Mind2WebOptions()
    src = Mind2WebSource(paths=[Path(p) for p in paths], viewport="{}x{}".format(*m2w.viewport),
                         screenshots=Path(m2w.screenshots) if m2w.screenshots else None)
    return Mind2WebIngest(run, src, opts, progress=progress, executor=executor).ingest()
