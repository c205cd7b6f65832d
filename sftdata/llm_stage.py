"""The LLM stage loop, written once for annotate and judge: a :class:`LLMStage` is a :class:`~sftdata.stage.Stage`
whose units are episodes and whose ``process(unit)`` is a coroutine that asks a model (or an offline backend) and
returns a record, a :class:`~sftdata.stage.Reject` or a :class:`~sftdata.stage.Deferred`. What the loop owns:

- **bounded concurrency in the driver**: units run in this process on one event loop, at most ``2 * concurrency``
  of them at a time, and only a request in flight holds one of the backend's ``--concurrency`` slots; so the limit
  is the run's (cluster-wide), whatever executor runs the other stages;
- **unit order**: outcomes are taken in the order of the units, whatever finishes first, so any concurrency writes
  the same ledgers;
- **the endpoint-failure stop**: a :class:`Deferred` unit (the endpoint failed on every attempt) is left for a rerun;
  ``max(8, 2 * concurrency)`` of them in a row stop the stage with :class:`~sftdata.exitcodes.EndpointUnavailable`;
- **--strict**: a unit holds a slot for its whole work, and the first reject halts the units not yet started;
- **LLM counters and cost**: summed over invocations in the manifest entry (:meth:`llm_entry`); an invocation that
  fails or stops still notes them, so nothing paid goes uncounted;
- **skip**: the fingerprint (:meth:`fingerprint`) is the stage's inputs and own ledgers, its options and prompt
  file, and the code; it is taken again after the work and kept only when nothing was deferred and no ``--limit``
  cut the run short, so an unchanged rerun does nothing and prints the counts of its entry;
- **the Batch API**: :meth:`write_requests` writes one request line per ``(custom_id, body)`` of each unit
  (:meth:`batch_requests`); with ``results=`` the stage imports result lines instead of asking: a unit whose lines
  are all there becomes :meth:`from_results`' record or reject, one whose lines are not is left for a later import.

The reply cache (:func:`sftdata.llm.ask.ask_cached`) is below this loop: an answer received is cached before its
slot is given back, so a killed run repeats only the requests that were in flight.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Iterable

from .errors import UsageError
from .exitcodes import EndpointUnavailable
from .io import Ledger, atomic_path
from .options import Flags, PathType, option
from .stage import LLM_STATS, Deferred, Reject, Stage, llm_cost

_NOT_ASKED = object()  # a unit halted by --strict before it started


@dataclass
class BatchFiles:
    """The batch backend's two commands: write the request lines, or import the result lines."""

    write_requests: Path | None = option(None, "batch: write OpenAI Batch API request lines here.", config=False,
                                         click_type=PathType(dir_okay=False, as_path=True))
    import_results: Path | None = option(None, "batch: read Batch API result lines and check them.", config=False,
                                         click_type=PathType(exists=True, dir_okay=False, as_path=True))


class LLMStage(Stage):
    """A stage that asks a model (see the module doc). A subclass declares :attr:`name`, :attr:`options`,
    :attr:`key`, :attr:`ledger` (its records' file in the run), :attr:`batch_prefix`, :meth:`inputs`, :meth:`units`,
    ``async`` :meth:`process`, :meth:`batch_requests`, :meth:`batch_ids`, :meth:`from_results` and :meth:`entry`."""

    noted_on_failure = True
    flags_after = (Flags(BatchFiles),)
    ledger: ClassVar[str]
    batch_prefix: ClassVar[str] = ""  # the custom_id prefix of this stage's lines in a Batch API file
    verb: ClassVar[str] = "processed"  # "annotated": what a deferred episode was not

    def __init__(self, run: Any, opts: Any, *, progress: bool | None = None, executor: Any = None,
                 backend: Any = None, results: str | Path | None = None) -> None:
        super().__init__(run, opts, progress=opts.progress if progress is None else progress, executor=executor)
        self.backend, self.results_path = backend, results
        self.results: dict[str, dict] | None = None  # custom_id -> result line, when importing
        self.stats: Counter = Counter()  # this invocation's LLM counters (the client's own Counter)
        self.deferred: Counter = Counter()  # the units left for a rerun, by their last endpoint failure
        self.streak = 0  # units in a row that the endpoint failed
        self.halted = False  # --strict: a unit was rejected, the units not yet started are not asked

    # -- what a subclass declares -------------------------------------------------------------------------------
    def inputs(self) -> list[Path]:
        """The files the stage reads, its own ledger included (an edit to any of them redoes the stage)."""
        raise NotImplementedError

    async def process(self, unit: Any) -> Any:  # type: ignore[override]
        """One unit -> a record, a :class:`Reject` or a :class:`Deferred` (in this process, on the event loop)."""
        raise NotImplementedError

    def batch_requests(self, unit: Any) -> Iterable[tuple[str, dict]]:
        """``(custom_id, request body)`` of each request the unit's first attempt would send."""
        raise NotImplementedError

    def batch_ids(self, unit: Any) -> list[str]:
        """The custom_ids of the unit's result lines."""
        raise NotImplementedError

    def from_results(self, unit: Any, lines: list[dict]) -> Any:
        """A unit's record or :class:`Reject` from its Batch API result lines."""
        raise NotImplementedError

    def tell(self, outcome: Any, echo: Any, run_dir: Path) -> None:
        """What the command says of an invocation (and the exit status it calls for, raised)."""
        raise NotImplementedError

    def release(self) -> None:
        """Give back what :meth:`prepare` took (thread pools)."""

    async def aclose(self) -> None:
        """Close the backend's client (on the event loop that used it)."""
        close = getattr(self.backend, "close", None)
        if close is not None:
            await close()

    # -- the loop ----------------------------------------------------------------------------------------------
    def check(self) -> None:
        from .llm.batch import read_results

        if self.results_path is not None:
            self.results = read_results(Path(self.results_path), self.run, prefix=self.batch_prefix)

    def fingerprint(self) -> dict[str, Any] | None:
        """Inputs (size and mtime), options (an endpoint without credentials), the prompt file and the code; None
        for the batch backend (an import is never skipped: each results file is new)."""
        from .stage_inputs import code_stamp, file_digest, file_stat

        if self.opts.backend == "batch":
            return None
        prompt = getattr(self.opts, "prompt_file", None)
        return {"inputs": {p.name: file_stat(p) for p in self.inputs()}, "options": self.fingerprint_options(),
                "prompt": file_digest(Path(prompt)) if prompt else None, "code": code_stamp()}

    def final_fingerprint(self, completed: bool) -> dict[str, Any] | None:
        """Taken again after the work (the stage wrote its own inputs); none when a rerun has work left."""
        finished = completed and not self.deferred and getattr(self.opts, "limit", None) is None
        return self.fingerprint() if finished else None

    def _feed(self, bar: Any) -> None:
        from .gc_tuning import fewer_collections

        self._rejects = self.run.open_rejects()  # both ledgers exist after an invocation, even when empty
        self.records = Ledger(self.run.path / self.ledger)
        try:
            if self.results is not None:
                self._import(bar)
            else:
                with fewer_collections():
                    asyncio.run(self._drive(bar))
        finally:
            self.records.close()
            self.release()

    def write(self, key: Any, record: Any) -> None:
        self.records.append(record)

    def take(self, key: Any, outcome: Any) -> None:
        """As :meth:`Stage.take`, and the endpoint-failure stop: too many deferred units in a row end the stage."""
        super().take(key, outcome)
        if not isinstance(outcome, Deferred):
            self.streak = 0
            return
        self.deferred[outcome.reason] += 1
        self.streak += 1
        if self.streak >= max(8, 2 * self.opts.concurrency):
            raise EndpointUnavailable(f"the endpoint failed for {self.streak} episodes in a row ({outcome.reason}: "
                                      f"{outcome.detail}); nothing was rejected, run again to resume")

    async def _drive(self, bar: Any) -> None:
        """Every unit through :meth:`process`, a bounded number at a time; outcomes taken in unit order."""
        whole = asyncio.Semaphore(self.opts.concurrency) if self.strict else contextlib.nullcontext()
        todo = iter(self.units())
        pending: set[asyncio.Future] = set()
        ready: dict[int, tuple[Any, Any]] = {}  # finished before an earlier unit
        started = taken = 0

        async def one(seq: int, key: Any, unit: Any) -> tuple[int, Any, Any]:
            async with whole:
                if self.halted:
                    return seq, key, _NOT_ASKED
                try:
                    outcome = await self.process(unit)
                except Exception as exc:  # noqa: BLE001 - taken in its turn: ledgered or raised by failed()
                    outcome = exc
                self.halted = self.halted or (self.strict and isinstance(outcome, (Reject, Exception)))
                return seq, key, outcome

        try:
            while True:
                while len(pending) + len(ready) < 2 * self.opts.concurrency:  # a bounded number in memory
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    pending.add(asyncio.ensure_future(one(started, *nxt)))
                    started += 1
                if not pending:
                    return
                finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                ready.update((seq, (key, out)) for seq, key, out in (task.result() for task in finished))
                while taken in ready:
                    key, outcome = ready.pop(taken)
                    taken += 1
                    if outcome is not _NOT_ASKED:
                        self.take(key, outcome)
                        bar.update(1)
        finally:
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)  # no orphaned task logs a traceback
            await self.aclose()

    def _import(self, bar: Any) -> None:
        for key, unit in self.units():
            lines = [self.results.get(custom_id) for custom_id in self.batch_ids(unit)]
            if any(line is None for line in lines):
                continue  # not all in this file: left for a later import
            self.take(key, self.from_results(unit, lines))
            bar.update(1)

    def write_requests(self, path: str | Path) -> int:
        """Write the Batch API request lines of every unit left; returns how many lines (nothing is ledgered)."""
        from .llm.batch import request_line

        self.check()
        self.prepare()
        lines = 0
        try:
            with atomic_path(Path(path)) as tmp, open(tmp, "w", encoding="utf-8") as out:
                for _, unit in self.units():
                    for custom_id, body in self.batch_requests(unit):
                        out.write(request_line(custom_id, body) + "\n")
                        lines += 1
        finally:
            self.release()
        return lines

    def llm_entry(self) -> dict[str, Any]:
        """The LLM counters of every invocation so far (this one's included) and what they cost."""
        self.totals = self.book.llm_stats(self.stats)
        return {"llm": {k: self.totals[k] for k in LLM_STATS},
                "cost": llm_cost(self.totals, self.opts.price_in, self.opts.price_out)}

    def deferred_message(self, count: int) -> str:
        from .plural import counted, plural

        return (f"{counted(count, 'episode')} {plural(count, 'was', 'were')} not {self.verb} because the endpoint "
                "failed on every attempt; nothing was rejected for it: run again to resume")

    @classmethod
    def invoke(cls, echo: Any, opts: Any, *, run_dir: Path, write_requests: Path | None,
               import_results: Path | None) -> None:
        """The stage on ``run_dir`` under its writer lock, said by :meth:`tell`; with the batch backend the request
        lines written or the result lines imported."""
        from .plural import counted
        from .rundir import RunDir

        batch = opts.backend == "batch"
        if batch and bool(write_requests) == bool(import_results):
            raise UsageError("the batch backend needs exactly one of --write-requests or --import-results")
        run = RunDir(run_dir)
        with run.writing():
            stage = cls(run, opts, results=import_results if batch else None)
            if batch and write_requests:
                n = stage.write_requests(write_requests)
                echo(f"wrote {counted(n, 'request line')} to {write_requests}; submit them to the Batch API, then "
                     "run --import-results with the output file")
                return
            outcome = stage.execute()
        stage.tell(outcome, echo, run_dir)


def llm_stats_line(stats) -> str:
    """Requests, retries, cache hits and tokens of an LLM stage, on one line."""
    failed = stats.get("failed_requests", 0)
    return (f"requests {stats['requests']}   retries {stats['retries']}   cache hits {stats['cache_hits']}   "
            f"tokens in {stats['prompt_tokens']} out {stats['completion_tokens']}"
            + (f"   failed requests {failed} (no answer: endpoint down, timeouts, 5xx)" if failed else ""))
