"""Multimodal-Mind2Web files -> tasks, streamed: release Parquet shards and the text-only Mind2Web JSON.

- **Parquet** (one row per step): read with ``ParquetFile.iter_batches`` a few rows at a time, only the columns
  used (never ``raw_html``), with buffered page reads so a 300 MB row group is never held whole. Consecutive rows
  with one ``annotation_id`` are one task, also across row groups and across files given in order. A task's rows
  are kept (:class:`TaskRows`, its screenshots still encoded) and built as one unit (:func:`build_task`, on an
  executor's worker): each screenshot cropped and stored, the steps ordered by ``target_action_index``.
- **Text-only JSON** (``train_*.json``: an array of tasks with ``actions``): read task by task with ijson. It
  has no screenshots; with ``screenshots=DIR`` each task's ``DIR/<annotation_id>/processed/screenshot.json``
  (the raw dump's per-action ``before`` screenshots, base64) is streamed alongside. A step without one is
  ``missing_screenshot``, never invented.

A dropped step cuts its task there: the steps after it would carry a history with a hole, so they are dropped
too (``after_dropped_step``) and the episode keeps the steps before it. A task with no usable first step is
rejected whole, under the first step's reason.
"""
from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import FatalError, RecordError
from ..io import ImageStore
from ..model import Episode, Step
from .mind2web import SOURCE, StepInput, build_step

# the release's columns, in its order (osunlp/Multimodal-Mind2Web)
COLUMNS = ("action_uid", "raw_html", "cleaned_html", "operation", "pos_candidates", "neg_candidates", "website",
           "domain", "subdomain", "annotation_id", "confirmed_task", "screenshot", "action_reprs",
           "target_action_index", "target_action_reprs")
READ = ("action_uid", "cleaned_html", "operation", "pos_candidates", "neg_candidates", "website", "domain",
        "subdomain", "annotation_id", "confirmed_task", "screenshot", "target_action_index", "target_action_reprs")
BATCH_ROWS = 4
READ_BUFFER = 1 << 20


@dataclass
class TaskOutcome:
    """A finished task: its episode (None when no step was usable) and every step it could not use."""

    annotation_id: str
    episode: Episode | None
    dropped: list[tuple[int, str, RecordError]] = field(default_factory=list)  # (step index, action_uid, why)
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)  # action_uid -> the row's place in its file
    first_row: dict[str, Any] = field(default_factory=dict)  # where the task starts: file and row
    error: RecordError | None = None  # why the whole task was rejected

    @property
    def steps(self) -> int:
        return len(self.episode.steps) if self.episode else 0


class TaskBuilder:
    """Collects one task's steps as they arrive; :meth:`finish` orders them and cuts at the first drop."""

    def __init__(self, annotation_id: str, goal: Any, meta: dict[str, Any], first_row: dict[str, Any],
                 store: ImageStore | None, viewport: tuple[int, int]) -> None:
        self.annotation_id, self.goal, self.meta, self.first_row = annotation_id, goal, meta, first_row
        self.store, self.viewport = store, viewport
        self.steps: dict[int, tuple[str, Step | RecordError]] = {}
        self.first_drop: int | None = None
        self.extra: list[tuple[int, str, RecordError]] = []  # rows that cannot take a place (bad or repeated index)
        self.rows: dict[str, dict[str, Any]] = {}

    def add(self, row: StepInput) -> None:
        if row.where is not None:
            self.rows[row.action_uid] = row.where
        if row.index < 0:
            self.extra.append((row.index, row.action_uid,
                               RecordError("bad_step_index", "target_action_index is not a step number")))
            return
        if row.index in self.steps:
            self.extra.append((row.index, row.action_uid, RecordError(
                "duplicate_step", f"a second row for step {row.index + 1} (action {row.action_uid})")))
            return
        if self.first_drop is not None and row.index > self.first_drop:
            self.steps[row.index] = (row.action_uid, _after(self.first_drop))  # never decoded nor stored
            return
        try:
            outcome: Step | RecordError = build_step(row, row.index, self.store, self.viewport)
        except RecordError as exc:
            outcome = exc
            self.first_drop = row.index if self.first_drop is None else min(self.first_drop, row.index)
        self.steps[row.index] = (row.action_uid, outcome)

    def finish(self) -> TaskOutcome:
        out = TaskOutcome(self.annotation_id, None, dropped=list(self.extra), first_row=self.first_row, rows=self.rows)
        kept: list[Step] = []
        cut: int | None = None
        for expected, index in enumerate(sorted(self.steps)):
            uid, outcome = self.steps[index]
            if cut is None and index != expected:
                cut = expected
                out.dropped.append((expected, "", RecordError(
                    "missing_step", f"no row for step {expected + 1}: the steps after it are not used")))
            if cut is None and isinstance(outcome, Step):
                kept.append(outcome)
                continue
            if cut is None:
                cut = index
                out.dropped.append((index, uid, outcome))  # type: ignore[arg-type]
            else:
                out.dropped.append((index, uid, _after(cut)))
        try:
            if not kept:
                raise out.dropped[0][2] if out.dropped else RecordError("no_actions", "the task has no step")
            out.episode = Episode(id=self.annotation_id, source=SOURCE, goal=self.goal, steps=kept,
                                  meta={**self.meta, "no_final_screen": True, "record": self.first_row},
                                  platform="web")
        except RecordError as exc:
            out.error, out.episode = exc, None
        return out


def _after(index: int) -> RecordError:
    return RecordError("after_dropped_step", f"step {index + 1} was dropped: this later step's history would "
                       "have a hole")


def _index(value: Any) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        return -1


def open_parquet(path: Path) -> pq.ParquetFile:
    """The file as a release shard, or FatalError when it is not Parquet or lacks the release's columns."""
    try:
        pf = pq.ParquetFile(path, buffer_size=READ_BUFFER, pre_buffer=False)
    except (pa.ArrowException, OSError) as exc:
        raise FatalError(f"{path} is not a Parquet file ({exc})"[:300]) from None
    names = set(pf.schema_arrow.names)
    missing = [c for c in READ if c not in names]
    if missing:
        raise FatalError(f"{path} is not a Multimodal-Mind2Web shard: no column(s) {', '.join(missing)}")
    shot = pf.schema_arrow.field("screenshot").type
    if not (pa.types.is_struct(shot) and shot.get_field_index("bytes") >= 0):
        raise FatalError(f"{path}: column screenshot is {shot}, not the release's struct<bytes, path>")
    return pf


def parquet_rows(paths: list[Path], on_row: Callable[[], None] | None = None) -> Iterator[tuple[dict, dict]]:
    """(row, where) for every row of the shards in order; ``where`` = {"file", "row"}."""
    for path in paths:
        pf = open_parquet(path)
        number = 0
        for batch in pf.iter_batches(batch_size=BATCH_ROWS, columns=list(READ), use_threads=False):
            for row in batch.to_pylist():
                yield row, {"file": path.name, "row": number}
                number += 1
                if on_row:
                    on_row()
            del batch


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def step_of_row(row: dict, where: dict[str, Any] | None = None) -> StepInput:
    shot = row.get("screenshot") or {}
    return StepInput(annotation_id=_text(row.get("annotation_id")), action_uid=_text(row.get("action_uid")),
                     index=_index(row.get("target_action_index")), operation=row.get("operation"),
                     pos=row.get("pos_candidates") or [], neg=row.get("neg_candidates") or [],
                     cleaned_html=_text(row.get("cleaned_html")),
                     image=shot.get("bytes") if isinstance(shot, dict) else None,
                     action_repr=_text(row.get("target_action_reprs")) or None, where=where)


def _meta(source: dict) -> dict[str, Any]:
    return {k: _text(source.get(k)) for k in ("website", "domain", "subdomain")}


@dataclass
class TaskRows:
    """One task's rows as read, none decoded yet: what :func:`build_task` makes the task from (elsewhere, maybe)."""

    annotation_id: str
    goal: Any
    meta: dict[str, Any]
    first_row: dict[str, Any]
    steps: list[StepInput] = field(default_factory=list)


def build_task(task: TaskRows, store: ImageStore | None, viewport: tuple[int, int]) -> TaskOutcome:
    """The finished task of ``task``'s rows, in the order they were read (screenshots cropped into ``store``)."""
    builder = TaskBuilder(task.annotation_id, task.goal, task.meta, task.first_row, store, viewport)
    for step in task.steps:
        builder.add(step)
    return builder.finish()


def parquet_tasks(paths: list[Path], skip: Callable[[str], bool] = lambda _id: False,
                  on_row: Callable[[], None] | None = None) -> Iterator[TaskRows | tuple[str, dict]]:
    """The tasks of the shards in order, as their rows (:func:`build_task` builds each). A task whose id ``skip``
    accepts is passed over (its rows never kept); a task id that comes back after other tasks yields
    ``(annotation_id, where)`` (its rows are not a task of their own: the caller ledgers them)."""
    task: TaskRows | None = None
    finished: set[str] = set()
    current: str | None = None
    for row, where in parquet_rows(paths, on_row):
        task_id = _text(row.get("annotation_id"))
        if task_id != current:
            if task is not None:
                yield task
            task, current = None, task_id
            if task_id in finished:
                yield (task_id, where)
                continue
            finished.add(task_id)
            if not skip(task_id):
                task = TaskRows(task_id, row.get("confirmed_task"), _meta(row), where)
        if task is not None:
            task.steps.append(step_of_row(row, where))
    if task is not None:
        yield task


def _screenshots(folder: Path | None, task_id: str) -> Iterator[tuple[str, bytes | None]]:
    """(action_uid, decoded ``before`` screenshot or None) from the raw dump's screenshot.json, streamed."""
    import ijson

    if folder is None:
        return
    path = folder / task_id / "processed" / "screenshot.json"
    if not path.is_file():
        return
    with open(path, "rb") as f:
        try:
            for item in ijson.items(f, "item"):
                shot = ((item or {}).get("before") or {}).get("screenshot")
                try:
                    data = base64.b64decode(shot, validate=False) if isinstance(shot, str) and shot else None
                except (binascii.Error, ValueError):
                    data = None
                yield str(item.get("action_uid", "")), data
        except ijson.JSONError:
            return  # a torn file: the steps it did not reach have no screenshot


def json_tasks(paths: list[Path], skip: Callable[[str], bool] = lambda _id: False,
               on_row: Callable[[], None] | None = None) -> Iterator[tuple[dict, str, dict]]:
    """``(task, annotation_id, where)`` of each task of text-only Mind2Web JSON files (each an array of tasks),
    streamed with ijson; :func:`build_json_task` builds one."""
    import ijson

    for path in paths:
        with open(path, "rb") as f:
            try:
                for number, task in enumerate(ijson.items(f, "item")):
                    if on_row:
                        on_row()
                    if not isinstance(task, dict):
                        raise FatalError(f"{path}: item {number} is not a Mind2Web task object")
                    task_id = _text(task.get("annotation_id"))
                    if skip(task_id):
                        continue
                    yield task, task_id, {"file": path.name, "row": number}
            except ijson.JSONError as exc:
                raise FatalError(f"{path} is not Mind2Web JSON (an array of tasks): {exc}"[:300]) from None


def build_json_task(task: dict, task_id: str, where: dict, store: ImageStore | None, viewport: tuple[int, int],
                    screenshots: Path | None) -> TaskOutcome:
    """The finished task of one text-only JSON task, its screenshots streamed from ``screenshots``."""
    actions = task.get("actions") if isinstance(task.get("actions"), list) else []
    reprs = task.get("action_reprs") if isinstance(task.get("action_reprs"), list) else []
    builder = TaskBuilder(task_id, task.get("confirmed_task"), _meta(task), where, store, viewport)
    pending = {}
    for i, action in enumerate(actions):
        action = action if isinstance(action, dict) else {}
        pending[_text(action.get("action_uid"))] = StepInput(
            task_id, _text(action.get("action_uid")), i, action.get("operation"), action.get("pos_candidates") or [],
            action.get("neg_candidates") or [], _text(action.get("cleaned_html")), None,
            _text(reprs[i]) if i < len(reprs) else None, {**where, "action": i})
    for uid, data in _screenshots(screenshots, task_id):  # one screenshot in memory at a time
        step = pending.pop(uid, None)
        if step is not None and data:
            step.image = data
            builder.add(step)
        elif step is not None:
            pending[uid] = step
    for step in pending.values():  # never found: missing_screenshot (build_step says so)
        builder.add(step)
    return builder.finish()
