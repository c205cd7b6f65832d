"""What every ingest source shares as a :class:`~sftdata.stage.Stage`: its manifest key (the source), its options
(the source's record of :mod:`sftdata.sources` for the command line and the config, :class:`IngestOptions` for
the work), the ledgers it writes (an episode line per unit, a reject with its ``record`` reference otherwise), how
a failed unit is ledgered, its manifest entry and its result.

A source declares the rest: :meth:`~sftdata.stage.Stage.check` (its inputs), :meth:`fingerprint`,
:meth:`~sftdata.stage.Stage.prepare` (what is done, read from the ledgers), ``units`` (keyed ``(ref,
episode_id)``) and a picklable ``process(payload)`` that returns the episode's ledger line, encoded (the driver
only appends it).
"""
from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from ..errors import FatalError, RecordError
from ..exitcodes import NothingProduced
from ..io import Ledger, disk_full_error, text_for_output
from ..options import Flags, PathType, ProgressFlag, option
from ..plural import counted
from ..stage import Reject, Stage, StageOutcome
from ..toplevel import TopLevel

STAGE = "ingest"


def _max_record_bytes() -> int:
    from ..loaders.tfrecord import DEFAULT_MAX_RECORD_BYTES  # here: the reader's zlib is not loaded for --help

    return DEFAULT_MAX_RECORD_BYTES


@dataclass
class IngestOptions:
    splits: str | None = None
    split: str | None = None
    episode_ids: list[str] | None = None
    limit: int | None = None
    strict: bool = False
    max_record_bytes: int = field(default_factory=_max_record_bytes)
    workers: int = option(1, "Processes for decoding, the image store and mark removal.", cli=False, config=False,
                          fingerprint=False)
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


@dataclass
class IngestTarget:
    """The run ``sftdata ingest TYPE`` writes into (the run config names it at its top level)."""

    run_dir: Path | None = option(None, "Run directory to write into (created if missing; re-running resumes).",
                                  cli="--out", config=False, cli_required=True,
                                  click_type=PathType(file_okay=False, as_path=True))


def ingest_options(src: Any, *, strict: bool = False, workers: int = 1) -> IngestOptions:
    """What the ingest stage is given for the source record ``src``: its selection, its own switches and the run's
    strict/workers."""
    return IngestOptions(splits=str(src.splits) if getattr(src, "splits", None) else None,
                         split=getattr(src, "split", None), episode_ids=src.episodes, limit=src.limit, strict=strict,
                         max_record_bytes=getattr(src, "max_record_mb", 1024) << 20,
                         screen_change=getattr(src, "screen_change", True), workers=workers)


def line_bytes(line: str) -> bytes:
    """The episode line as the ledger writes it (UTF-8), made by the worker so the driver only appends it; a lone
    surrogate from a JSON escape cannot be stored as UTF-8: ``bad_text``.

    >>> line_bytes('{"goal": "打开设置"}') == '{"goal": "打开设置"}'.encode()
    True
    """
    try:
        return line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RecordError("bad_text", f"text with an unpaired surrogate at {exc.start}: "
                          "it cannot be stored as UTF-8") from None


def duplicate(episode_id: str, seen_ids: set[str], where: str = "") -> RecordError | None:
    """Claim ``episode_id`` for this run: None, or the ``duplicate_episode`` error of a second input with it."""
    if episode_id in seen_ids:
        return RecordError("duplicate_episode", f"episode {episode_id} was already ingested {where}".rstrip())
    seen_ids.add(episode_id)
    return None


class IngestStage(Stage):
    """One source's ingest into a run (see the module docstring). ``src`` is the source's record, ``settings``
    what the work reads of it (by default made from it: :func:`ingest_options`)."""

    resumes = True
    stores_images = True
    name: ClassVar[str]  # STAGE, in each source's class (a base that declares no name is not a stage of its own)
    source: ClassVar[str]  # the manifest key and the ledgers' ``source``
    options: ClassVar[type]  # the source's record (sftdata.sources): its config keys and command-line options
    # the command's argument: ((the record's field, "files" | "folder" | "paths"),), in each source's class
    flags_before = (Flags(IngestTarget),)
    flags_after = (Flags(TopLevel, skip=("run_dir",)), Flags(ProgressFlag))

    @classmethod
    def command_name(cls) -> str:
        return cls.source  # sftdata ingest SOURCE

    def __init__(self, run: Any, src: Any, settings: IngestOptions | None = None, *, progress: bool | None = None,
                 executor: Any = None) -> None:
        from ..executors import executor as make_executor

        settings = settings or ingest_options(src)
        super().__init__(run, settings, progress=progress, executor=executor or make_executor("local",
                                                                                                settings.workers))
        self.src = src
        self.result = IngestResult(self.source, False)
        self.episodes: Ledger | None = None

    @property
    def key(self) -> str:
        return self.source

    def options_entry(self) -> dict[str, Any]:
        """The options as the manifest keeps them (and the fingerprint reads them): those that are fingerprinted."""
        return self.fingerprint_options()

    def open_ledgers(self) -> None:
        """Both ledgers, opened (a torn tail repaired) once what is done has been read, as every ingest did."""
        self.episodes, self._rejects = self.run.open_episodes(), self.run.open_rejects()

    def advance(self, key: Any) -> None:  # each source moves the bar as it reads (bytes, rows, folders)
        self.bar.set_postfix(episodes=self.result.new_exported, rejected=self.result.new_rejected, refresh=False)

    def write(self, key: Any, line: bytes) -> None:
        self.episodes.append(line)
        self.result.new_exported += 1

    def complete(self) -> None:
        self.discard()

    def discard(self) -> None:
        if self.episodes is not None:
            self.episodes.close()
            self.episodes = None

    def reject_error(self, error: RecordError, ref: dict[str, Any], episode_id: str | None, **extra: Any) -> Reject:
        return Reject(error.reason, error.detail, episode_id, self.source, {"record": ref, **extra})

    def reject(self, reject: Reject) -> None:
        if (reject.stage or self.name) == STAGE:
            self.result.new_rejected += 1
        super().reject(reject)

    def failed(self, key: tuple[dict, str | None], error: BaseException) -> Any:
        """A unit's exception as its reject (a record error, memory, a decoder bug), or the stop it calls for (a
        full disk, a dead worker: nothing after it is ledgered, the next run resumes there)."""
        ref, episode_id = key
        if isinstance(error, RecordError):
            return self.reject_error(error, ref, episode_id)
        if isinstance(error, FatalError):  # a worker hit a full disk (see io.disk_full_error)
            raise error
        if isinstance(error, OSError):
            raise disk_full_error(error, self.run.images.run_dir / "images") or FatalError(
                f"cannot write to {self.run.path}: {error.strerror or error}")
        if isinstance(error, MemoryError):  # this input is too big to build here; the next ones may fit
            return self.reject_error(RecordError("out_of_memory", "building this episode ran out of memory (with "
                                                 "fewer --workers each one has more)"), ref, episode_id)
        if isinstance(error, BrokenProcessPool):  # a worker was killed (the OS's out-of-memory killer?)
            raise FatalError(text_for_output(
                f"a worker process died while building {episode_id or 'the record'} ({ref['file']} "
                f"#{ref.get('index', ref.get('row'))}); nothing after it was ledgered: run the same command again to "
                "resume, with fewer --workers if memory is short"))
        # a decoder bug must not kill a 47 GB run: ledger it, go on (every known failure has its own reason)
        return self.reject_error(RecordError("unexpected_error", f"{type(error).__name__}: {error}"), ref, episode_id)

    def counts(self) -> dict[str, Any]:
        """The entry's counts, read back from the ledgers (so they hold across kills)."""
        exported = self.run.totals()["episodes_by_source"].get(self.source, 0)
        by_reason = self.book.reasons(source=self.source)
        rejected = sum(by_reason.values())
        return {"in": exported + rejected, "exported": exported, "rejected": rejected,
                "filtered": self.result.filtered, "by_reason": by_reason}

    def entry(self) -> dict[str, Any]:
        return {"inputs": [{"path": i["path"], "size": i["size"]} for i in self.book.fingerprint["inputs"]],
                "options": self.book.fingerprint["options"], "counts": self.counts()}

    def ingest(self) -> IngestResult:
        """Execute the stage; what it did, with the run's totals for this source (those of the earlier invocation
        when it is skipped)."""
        return self.result_of(self.execute())

    def result_of(self, outcome: StageOutcome) -> IngestResult:
        result, counts = self.result, outcome.entry.get("counts", {})
        result.skipped = outcome.skipped
        result.exported, result.rejected = counts.get("exported", 0), counts.get("rejected", 0)
        result.by_reason = counts.get("by_reason", {})
        if outcome.skipped:
            result.filtered = counts.get("filtered", 0)
        else:
            result.elapsed_s = outcome.entry["elapsed_s"]
        return result

    def summary_lines(self, entry: dict[str, Any]) -> list[str]:
        """What the command prints of this source's entry before the run's summary."""
        return []

    @classmethod
    def invoke(cls, echo: Any, src: Any, *, run_dir: Path, workers: int, executor: str, address: str | None,
               strict: bool, progress: bool | None) -> None:
        """Ingest the source record ``src`` (the command line's) into ``run_dir``, then say what it did and what the
        run holds; exit NOTHING_PRODUCED when the run holds no episode of this source."""
        from ..executors import executor as make_executor
        from ..rundir import RunDir
        from ..summary import format_summary

        chosen = make_executor(executor, workers, address)  # a wrong choice is refused before anything is written
        run = RunDir(run_dir)
        with run.creating(), run.writing(), chosen as running:
            stage = cls(run, src, ingest_options(src, strict=strict, workers=workers), progress=progress,
                        executor=running)
            result = stage.ingest()
        said(echo, run_dir, result)
        for line in stage.summary_lines(run.manifest()["stages"]["ingest"][cls.source]):
            echo(line)
        echo(format_summary(run))
        if not result.exported:
            inputs = "the only input was" if result.rejected == 1 else f"all {result.rejected} inputs were"
            why = (f"{inputs} rejected (reasons in {run_dir}/rejects.jsonl)" if result.rejected
                   else "no input was selected")
            raise NothingProduced(f"no {result.source} episode was ingested: {why}")


def said(echo: Any, run_dir: Path, result: IngestResult) -> None:
    """What ``sftdata ingest`` says of a source's ingest: skipped, or what it added and left out."""
    from ..rundir import RunDir
    from ..summary import rejected_inputs

    if result.skipped:
        echo(f"{run_dir}: ingest of {result.source} already finished with these inputs and options; nothing to do.")
    else:
        echo(f"ingested {counted(result.new_exported, f'new {result.source} episode')}, "
             f"rejected {result.new_rejected}"
             + (f", filtered out {result.filtered}" if result.filtered else "")
             + f" ({result.elapsed_s:.1f} s in total for this source)")
        named = rejected_inputs(RunDir(run_dir), result.source, result.new_rejected)
        if named:  # a partial ingest exits 0 (something was produced, nothing lost) but says what it left out
            echo(named)
    if result.reread:
        echo(f"read again {counted(result.reread, 'trajectory', 'trajectories')} rejected earlier and changed "
             "since (their old rejects were taken back)")
    if result.changed_kept:
        echo(f"note: {counted(result.changed_kept, 'trajectory', 'trajectories')} changed after ingest; "
             "their episodes stay as ingested (ingest into a new run to take the changes)")
