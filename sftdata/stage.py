"""The stage engine: every stage (each ingest source, annotate, judge, validate, export, report, the review
import) is a :class:`Stage`, and the bookkeeping of the contract is written here once, in the way datatrove's
pipeline steps share one executor's:

- **lock**: the run's writer lock is held for the stage (a stage that only reads a run, export and report,
  notes itself in the manifest only when it can take the lock: :attr:`Stage.reads_only`);
- **fingerprint and skip**: a stage names what it reads (:meth:`Stage.fingerprint`, the options marked as
  fingerprinted included, :meth:`Stage.fingerprint_options`); a manifest entry that finished with the same
  fingerprint is not redone;
- **resume**: what is done is read back from the stage's ledgers (:meth:`Stage.prepare`), so the units it
  yields (:meth:`Stage.units`) are only those left; finished work is ledgered unit by unit by the driver;
- **units over an executor**: the units are mapped in order over an executor (:mod:`sftdata.executors`) by a
  picklable ``process(payload) -> record | Reject | Deferred``; only this process writes the ledgers and the
  manifest, so any executor gives the same files;
- **rejects and --strict**: a :class:`Reject` goes to ``rejects.jsonl`` with its machine-readable reason (and
  stops the stage under ``--strict``); a :class:`Deferred` unit is left for a rerun;
- **manifest last**: the entry (:meth:`Stage.entry`, counts read back from the ledgers) is written at the end,
  accumulating the elapsed time (and the LLM counters) of earlier invocations (:class:`StageRun`).

>>> import tempfile
>>> from sftdata.rundir import RunDir
>>> run = RunDir(tempfile.mkdtemp())
>>> first = StageRun(run, "ingest", "sample", fingerprint={"inputs": [], "options": {}})
>>> first.unchanged, sorted(first.finish({"counts": {"exported": 3}}))
(False, ['counts', 'elapsed_s', 'fingerprint', 'finished'])
>>> StageRun(run, "ingest", "sample", fingerprint={"inputs": [], "options": {}}).unchanged
True
"""
from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Iterable, Mapping

from .command import Command
from .errors import FatalError
from .io import Ledger, disk_full_guard, text_for_output

# what an LLM stage counts, summed over its invocations
LLM_STATS = ("requests", "retries", "cache_hits", "prompt_tokens", "completion_tokens", "usage_unknown",
             "failed_requests")


def fingerprint(paths: Iterable[Path], options: dict[str, Any]) -> dict[str, Any]:
    """A stage's inputs (path, size, mtime of each file) and options: equal fingerprints, equal work."""
    inputs = []
    for p in paths:
        st = p.stat()
        inputs.append({"path": text_for_output(str(p.resolve())), "size": st.st_size, "mtime": int(st.st_mtime)})
    return {"inputs": inputs, "options": options}


def output_key(run: Any, path: str | Path) -> str:
    """How a stage that writes ``path`` (an export, a report) is keyed in the manifest: relative to the run
    directory when inside it, else the whole path."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(run.path.resolve()))
    except ValueError:
        return text_for_output(str(path))


def _count(value: Any) -> int | None:
    """A running total read back from the manifest, if it is one (a non-negative integer)."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def public_options(opts: Any) -> dict[str, Any]:
    """An options record as the manifest keeps it: no progress flag, an endpoint without credentials."""
    return redacted({k: v for k, v in asdict(opts).items() if k != "progress"})


def redacted(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with its endpoint (``base_url``) redacted: never a key from its userinfo or query."""
    if options.get("base_url"):
        from .llm.backends import redact_url
        options["base_url"] = redact_url(options["base_url"])
    return options


def llm_cost(stats: Mapping[str, int], price_in: float | None, price_out: float | None) -> float | None:
    """What the tokens cost at the given prices per million (None when no price is given)."""
    if price_in is None and price_out is None:
        return None
    return round(stats.get("prompt_tokens", 0) / 1e6 * (price_in or 0)
                 + stats.get("completion_tokens", 0) / 1e6 * (price_out or 0), 6)


@dataclass
class StageRun:
    """One invocation of a stage on a run: its manifest entry ``stages[stage][key]`` before and after."""

    run: Any  # RunDir
    stage: str
    key: str
    fingerprint: dict[str, Any] | None = None
    resumes: bool = True  # False: every invocation does the whole work again (export, report), so no time adds up
    started: float = field(default_factory=time.monotonic)
    previous: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        entry = self.run.manifest().get("stages", {}).get(self.stage, {}).get(self.key, {})
        self.previous = entry if isinstance(entry, dict) else {}

    @property
    def unchanged(self) -> bool:
        """Did an earlier invocation finish on the same inputs and options?"""
        return (self.fingerprint is not None and bool(self.previous.get("finished"))
                and self.previous.get("fingerprint") == self.fingerprint)

    def elapsed_s(self) -> float:
        """Seconds spent so far, earlier invocations included."""
        before = self.previous.get("elapsed_s") if self.resumes else 0.0
        before = before if isinstance(before, (int, float)) and math.isfinite(before) and before >= 0 else 0.0
        return round(before + time.monotonic() - self.started, 3)

    def llm_stats(self, new: Mapping[str, int]) -> Counter:
        """The LLM counters of earlier invocations (those that are counts) plus ``new``."""
        earlier = self.previous.get("llm") if isinstance(self.previous.get("llm"), dict) else {}
        stats = Counter({k: n for k, v in earlier.items() if k in LLM_STATS and (n := _count(v)) is not None})
        stats.update({k: v for k, v in new.items() if k in LLM_STATS})
        return stats

    def reasons(self, stage: str | None = None, source: str | None = None,
                unless: set[str] | None = None) -> dict[str, int]:
        """Counts by reason of this stage's entries in the rejects ledger (of ``source``; not of the episode
        ids in ``unless``)."""
        stage = stage or self.stage
        counts: Counter = Counter()
        for r in self.run.rejects():
            if r.get("stage") != stage or (source is not None and r.get("source") != source):
                continue
            if unless is not None and str(r.get("episode_id")) in unless:
                continue
            counts[r["reason"]] += 1
        return dict(counts)

    def finish(self, entry: dict[str, Any]) -> dict[str, Any]:
        """Write the stage's manifest entry: ``entry`` with the accumulated ``elapsed_s`` (and, for a stage
        with a fingerprint, ``finished`` and the fingerprint, so an unchanged rerun skips)."""
        full = {**entry, "elapsed_s": self.elapsed_s()}
        if self.fingerprint is not None:
            full = {"finished": True, "fingerprint": self.fingerprint, **full}
        try:
            json.dumps(full, allow_nan=False)
        except ValueError:
            raise FatalError(f"refusing to write a non-finite number into the manifest ({self.stage}); "
                             "this is a bug") from None
        with disk_full_guard(self.run.manifest_path):
            self.run.update_manifest(self.stage, self.key, full)
        return full


@dataclass
class Reject:
    """A unit the stage drops: one line of ``rejects.jsonl`` (``extra`` keys follow the reason and detail)."""

    reason: str
    detail: str
    episode_id: str | None = None
    source: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    stage: str | None = None  # another ledger stage than the stage's name (``ingest:step``)

    def line(self, stage: str) -> dict[str, Any]:
        return {"episode_id": self.episode_id, "source": self.source, "stage": self.stage or stage,
                "reason": self.reason, "detail": self.detail, **self.extra}


@dataclass
class Deferred:
    """A unit left for a rerun (the endpoint failed on every attempt): nothing is ledgered for it."""

    reason: str
    detail: str = ""


@dataclass
class StageOutcome:
    """What one invocation of a stage did: skipped or not, its manifest entry, and what it added."""

    stage: "Stage"
    skipped: bool
    entry: dict[str, Any]
    seconds: float  # this invocation's wall time
    new: Counter = field(default_factory=Counter)  # records / rejects / deferred of this invocation


class Stage(Command):
    """One stage over one run. A stage declares :attr:`name`, :attr:`options` (its options record),
    :attr:`key` (its manifest key), :meth:`fingerprint` (what it reads), :meth:`units` and :meth:`process`;
    :meth:`execute` does the rest (see the module docstring). Its command is made from it (:mod:`sftdata.command`)."""

    name: ClassVar[str]
    options: ClassVar[type]
    resumes: ClassVar[bool] = True  # False: each invocation does the whole work again (no time adds up)
    reads_only: ClassVar[bool] = False  # True: a read-only or busy run is still read, and its manifest not noted
    bar_unit: ClassVar[str | None] = "ep"  # None: no progress bar (a stage that is one unit)
    noted_on_failure: ClassVar[bool] = False  # True: an invocation that fails still notes what it did (LLM usage)
    batch: ClassVar[int | None] = None  # units sent to a worker as one task (None: the executor's default; ray: the
    # fewest, its tasks sized from the units' measured time)
    max_batch: ClassVar[int | None] = None  # the most units to a task on any executor (large units: flat memory)
    stores_images: ClassVar[bool] = False  # True: its units put screenshots in the run's store (a kill's leftovers swept)

    def __init__(self, run: Any, opts: Any, *, progress: bool | None = None, executor: Any = None) -> None:
        from .executors import executor as make_executor

        self.run, self.opts, self.progress = run, opts, progress
        self.executor = executor or make_executor("local", getattr(opts, "workers", 1) or 1)
        self.new: Counter = Counter()
        self._rejects: Ledger | None = None

    # -- what a stage declares ----------------------------------------------------------------------------------
    @property
    def key(self) -> str:
        raise NotImplementedError

    @property
    def strict(self) -> bool:
        return bool(getattr(self.opts, "strict", False))

    def fingerprint(self) -> dict[str, Any] | None:
        """What the stage reads, its fingerprinted options included; None: never skipped."""
        return None

    def fingerprint_options(self) -> dict[str, Any]:
        """The options record's fields that change what the stage makes: all but those declared with
        ``fingerprint=False`` (how it runs: workers, progress), an endpoint without credentials."""
        return redacted({f.name: getattr(self.opts, f.name) for f in fields(self.opts)
                         if getattr(f.metadata.get("sftdata.option"), "fingerprint", True)})

    def done(self, previous: dict[str, Any]) -> bool:
        """An unchanged finished entry is skipped when its outputs are still there."""
        return True

    def check(self) -> None:
        """Refuse what cannot run (before the skip decision)."""

    def prepare(self) -> None:
        """Read what is already done from the ledgers (after the skip decision)."""

    def units(self) -> Iterable[tuple[Any, Any]]:
        """``(key, payload)`` of every unit left (a :class:`~sftdata.executors.Ready` payload is its own outcome)."""
        return ()

    @staticmethod
    def process(payload: Any) -> Any:
        """One unit -> a record, a :class:`Reject` or a :class:`Deferred` (picklable: it may run elsewhere)."""
        raise NotImplementedError

    def write(self, key: Any, record: Any) -> None:
        """Ledger one record (in the driver)."""

    def failed(self, key: Any, error: BaseException) -> Any:
        """A unit that raised: re-raised, unless the stage turns it into a :class:`Reject`."""
        raise error

    def complete(self) -> None:
        """After the last unit: whatever is written from all of them (an export's shards)."""

    def entry(self) -> dict[str, Any]:
        """The manifest entry, counts read back from the ledgers."""
        return {}

    def noted(self) -> bool:
        """Whether this invocation writes its entry (a stage that added nothing may keep its earlier one)."""
        return True

    def final_fingerprint(self, completed: bool) -> dict[str, Any] | None:
        """The fingerprint the entry keeps (None: not finished, so the next invocation works again): by default
        the one taken before the work; a stage whose ledgers are also its inputs takes it again after."""
        return self.book.fingerprint

    def bar_total(self) -> int | None:
        return None

    def bar_options(self) -> dict[str, Any]:
        """More of the progress bar's settings (a bar of bytes scales its unit)."""
        return {}

    def advance(self, key: Any) -> None:
        """Move the progress bar (:attr:`bar`, shown or not) once a unit is taken (a source that reads bytes moves
        it as it reads)."""
        self.bar.update(1)

    def strict_message(self, reject: Reject) -> str:
        return f"{reject.episode_id}: {reject.reason}: {reject.detail} (--strict)"

    # -- the contract, once -------------------------------------------------------------------------------------
    def execute(self, *, force: bool = False) -> StageOutcome:
        """Run the stage under the run's lock; skipped when unchanged (unless ``force``)."""
        started = time.monotonic()
        with self._locked() as writable:
            self.check()
            self.book = StageRun(self.run, self.name, self.key, self.fingerprint(), resumes=self.resumes)
            if not force and self.book.unchanged and self.done(self.book.previous):
                return StageOutcome(self, True, self.book.previous, time.monotonic() - started)
            if self.stores_images:
                self.run.images.sweep_partial()
            self.prepare()
            try:
                self._map()
                self.complete()
            except BaseException:
                self.discard()
                if writable and self.noted_on_failure:
                    self._note(completed=False)
                raise
            entry = self._note(completed=True) if writable and self.noted() else self.entry()
        return StageOutcome(self, False, entry, time.monotonic() - started, self.new)

    def _note(self, completed: bool) -> dict[str, Any]:
        entry = self.entry()
        self.book.fingerprint = self.final_fingerprint(completed)
        return self.book.finish(entry)

    def _map(self) -> None:
        """Every unit over the executor, in order; each outcome taken here, in the driver."""
        from .progress import progress_bar

        with progress_bar(self.bar_total, False if self.bar_unit is None else self.progress, unit=self.bar_unit,
                          desc=self.describe(), dynamic_ncols=True, **self.bar_options()) as self.bar:
            try:
                self._feed(self.bar)
            finally:
                self._close_rejects()

    def _feed(self, bar: Any) -> None:
        """Each unit's outcome, in unit order, taken here (:meth:`take`)."""
        for key, outcome in self.executor.map(self.process, self.units(), batch=self.batch, max_batch=self.max_batch):
            self.take(key, outcome)
            self.advance(key)

    def _close_rejects(self) -> None:
        if self._rejects is not None:
            self._rejects.close()
            self._rejects = None

    def ledger_rejects(self, rejects: Iterable[Reject]) -> None:
        """Ledger rejects found outside the units (after the last one)."""
        try:
            for reject in rejects:
                self.reject(reject)
        finally:
            self._close_rejects()

    def discard(self) -> None:
        """After a failure: remove what the stage staged (an export's staging directory)."""

    def describe(self) -> str:
        return f"{self.name} {self.key}"

    def take(self, key: Any, outcome: Any) -> None:
        """One unit's outcome, in unit order: a record is written, a reject ledgered, a deferral counted."""
        if isinstance(outcome, BaseException):
            outcome = self.failed(key, outcome)
        if isinstance(outcome, Reject):
            self.reject(outcome)
        elif isinstance(outcome, Deferred):
            self.new["deferred"] += 1
        else:
            self.write(key, outcome)
            self.new["records"] += 1

    def reject(self, reject: Reject) -> None:
        """Ledger ``reject`` under this stage (and stop here under ``--strict``)."""
        if self._rejects is None:
            self._rejects = self.run.open_rejects()
        self._rejects.append(reject.line(self.name))
        self.new["rejects"] += 1
        if self.strict:
            raise FatalError(text_for_output(self.strict_message(reject)))

    def _locked(self):
        if self.reads_only:
            return self.run.recording()
        return _writing(self.run)


class _writing:
    """The writer lock, as a context that says the manifest may be written (always, under it)."""

    def __init__(self, run: Any) -> None:
        self._cm = run.writing()

    def __enter__(self) -> bool:
        self._cm.__enter__()
        return True

    def __exit__(self, *exc: Any) -> Any:
        return self._cm.__exit__(*exc)
