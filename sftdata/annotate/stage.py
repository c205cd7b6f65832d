"""The annotate stage: episodes -> ``RUN/annotations.jsonl`` (one accepted reconstruction per episode) or a
reject with every reason.

Per episode and window: build the prompt and annotator images, ask the backend (or the reply cache), parse,
check against the ground truth; on failure re-ask with the failures listed, up to ``max_attempts``. Episodes longer
than ``window`` screenshots are asked in windows carrying a summary of earlier steps; ``done`` is only expected in
the last one, and the stitched result must pass the whole-episode check. A finished episode (accepted or
rejected) is never asked again; every reply is cached by request key, so a killed run repeats no request.
The work on one episode is :class:`sftdata.annotate.annotator.Annotator`; this module streams the run through it.
"""
from __future__ import annotations

import asyncio
import contextlib
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from ..errors import FatalError, RecordError
from ..exitcodes import EndpointUnavailable
from ..gc_tuning import fewer_collections
from ..model import Episode
from ..rundir import RunDir
from .annotator import BACKENDS, TRANSPORT, AnnotateOptions, Annotator, EpisodeRejected, split_windows  # noqa: F401
from ..stage import LLM_STATS, StageRun, llm_cost, public_options  # noqa: F401 (LLM_STATS re-exported)
from ..checks.check import Failure

STAGE = "annotate"
from ..rundir import ANNOTATIONS  # noqa: F401 (re-exported)


@dataclass
class AnnotateResult:
    annotated: int = 0
    rejected: int = 0
    new_annotated: int = 0
    new_rejected: int = 0
    deferred: int = 0  # left for a rerun: the endpoint failed on every attempt
    deferred_by_reason: dict[str, int] = field(default_factory=dict)  # the last endpoint failure of each
    stats: Counter = field(default_factory=Counter)
    by_reason: dict[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0


def _done_ids(run: RunDir, backend: str, model: str, prompt_version: str | frozenset[str]) -> set[str]:
    """Episodes not to ask again for this model and prompt version: annotated ones, and rejected ones, except
    that a batch reject (one unrepaired answer) leaves the episode open for a live backend, which repairs, and
    that a reject for an endpoint failure (an older version's) leaves it open for anyone.
    Another model or prompt version is another generation: its episodes are asked anew (the last annotation
    of an episode is the one exported)."""
    from ..io import iter_jsonl

    versions = {prompt_version} if isinstance(prompt_version, str) else prompt_version  # one per platform

    def same(r: dict) -> bool:
        return r.get("model") == model and r.get("prompt_version") in versions

    done = {str(r["id"]) for r in iter_jsonl(run.path / ANNOTATIONS) if same(r)}
    # an endpoint failure is no verdict on the episode: a reject for one (written by an older version, which
    # rejected after a 5xx on every attempt) leaves the episode open
    done |= {str(r["episode_id"]) for r in run.rejects() if r.get("stage") == STAGE and same(r)
             and not (r.get("backend") == "batch" and backend != "batch") and r.get("reason") not in TRANSPORT}
    return done


async def _annotate(run: RunDir, opts: AnnotateOptions, annotator: Annotator, result: AnnotateResult) -> None:
    from ..io import Ledger, count_lines, iter_jsonl_lines, parse_jsonl_line, record_id

    done = _done_ids(run, opts.backend, annotator.model, annotator.prompt_versions)
    wanted = set(opts.episode_ids) if opts.episode_ids else None
    if opts.repair_judged:  # only the episodes the judge failed, annotated before or not by this model
        done -= set(annotator.notes)
        wanted = set(annotator.notes) & wanted if wanted is not None else set(annotator.notes)
    path = run.episodes_path
    # raw lines: only the id is read here; the episode is decoded in the pool, off the event loop
    todo = ((number, raw) for number, raw in iter_jsonl_lines(path)
            if (eid := record_id(raw, path, number)) not in done and (wanted is None or eid in wanted))
    total = count_lines(run.episodes_path) - len(done) if wanted is None else len(wanted - done)
    if opts.limit is not None:
        total = min(total, opts.limit)
    bar = tqdm(total=max(total, 0), unit="ep", desc=f"annotate {opts.backend}", dynamic_ncols=True,
               disable=(not opts.progress) if opts.progress is not None else None)
    loop = asyncio.get_running_loop()

    def load(number: int, raw: bytes) -> tuple[Episode, Any]:  # in the pool, one trip: decode and prepare
        episode = Episode.from_dict(parse_jsonl_line(raw, path, number))
        return episode, annotator.prepare(episode)

    # --strict stops at the first reject: there, a slot is held for the whole episode (judging included), and a
    # reject halts the others before the slot is given back, so no further request goes out
    whole_episode = asyncio.Semaphore(opts.concurrency) if opts.strict else contextlib.nullcontext()
    halted = False

    async def one(seq: int, number: int, raw: bytes):
        nonlocal halted
        ep, first = await loop.run_in_executor(annotator.pool, load, number, raw)
        async with whole_episode:
            if halted:
                return seq, (ep, None, None)  # never asked: the run is stopping
            try:
                return seq, (ep, await annotator.episode(ep, first), None)
            except (EpisodeRejected, FatalError) as exc:
                halted = opts.strict and not (isinstance(exc, EpisodeRejected) and exc.transport_only)
                return seq, (ep, None, exc)

    async def stop(error: FatalError) -> None:
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)  # no orphaned task logs a traceback
        raise error

    pending: set[asyncio.Future] = set()
    ready: dict[int, tuple] = {}  # finished before an earlier episode: ledgered in episode order, whatever finishes first
    taken = 0  # the episodes ledgered (or passed over) so far, in order
    started = 0
    streak = 0  # episodes in a row that the endpoint failed

    def refill() -> None:  # a bounded number of episodes in memory (in flight, or prepared to go), not the run
        nonlocal started
        while len(pending) + len(ready) < 2 * opts.concurrency and (opts.limit is None or started < opts.limit):
            line = next(todo, None)
            if line is None:
                return
            pending.add(asyncio.ensure_future(one(started, *line)))
            started += 1

    with Ledger(run.path / ANNOTATIONS) as annotations, run.open_rejects() as rejects:
        refill()
        while pending:
            finished, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            pending.difference_update(finished)
            ready.update(task.result() for task in finished)
            while taken in ready:
                ep, record, rejected = ready.pop(taken)
                taken += 1
                if record is None and rejected is None:
                    continue  # halted by --strict before it was asked
                if isinstance(rejected, FatalError):
                    await stop(rejected)
                if record is not None:
                    annotations.append(record)
                    result.new_annotated += 1
                    streak = 0
                elif rejected.transport_only:
                    result.deferred += 1
                    first = rejected.failures[0]
                    result.deferred_by_reason[first.reason] = result.deferred_by_reason.get(first.reason, 0) + 1
                    streak += 1
                    if streak >= max(8, 2 * opts.concurrency):
                        await stop(EndpointUnavailable(
                            f"the endpoint failed for {streak} episodes in a row ({first.reason}: {first.detail}); "
                            "nothing was rejected, run again to resume"))
                else:
                    streak = 0
                    first = rejected.failures[0] if rejected.failures else Failure(None, "rejected", "")
                    rejects.append({**run.reject_record(STAGE, ep.source, RecordError(first.reason, first.detail),
                                                        episode_id=ep.id),
                                    "backend": opts.backend, "model": annotator.model,
                                    "prompt_version": annotator.prompt_for(ep).version, "attempts": rejected.attempts,
                                    "window": list(rejected.window) if rejected.window else None,
                                    "failures": [f.to_dict() for f in rejected.failures]})
                    result.new_rejected += 1
                    if opts.strict:
                        await stop(FatalError(f"episode {ep.id}: {first.reason}: {first.detail} (--strict)"))
                bar.update(1)
            refill()
    bar.close()


def annotate_run(run: RunDir, opts: AnnotateOptions, backend: Any | None = None) -> AnnotateResult:
    """Annotate every episode of ``run`` not yet annotated or rejected by this stage."""
    if not run.episodes_path.exists():
        raise FatalError(f"{run.path} has no episodes.jsonl: run `sftdata ingest` first")
    check_options(opts)
    run.require_episodes(opts.episode_ids)
    run.ensure_writable()
    annotator = Annotator(run, opts, backend)
    stage = StageRun(run, STAGE, "reconstruction")
    result = AnnotateResult()

    async def main() -> None:
        try:
            await _annotate(run, opts, annotator, result)
        finally:
            close = getattr(annotator.backend, "close", None)
            if close is not None:
                await close()

    try:
        with fewer_collections():
            asyncio.run(main())
    finally:
        annotator.pool.shutdown(wait=False)
        _record(stage, opts, annotator, result)
    return result


def check_options(opts: AnnotateOptions) -> None:
    """Numbers that are sent to the endpoint or written into the manifest must be finite (``--price-in nan``
    would make the manifest invalid JSON, ``--temperature nan`` the request body)."""
    for name in ("timeout", "temperature", "price_in", "price_out"):
        value = getattr(opts, name)
        if value is None:
            continue
        number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if not number or value < 0 or (name == "timeout" and value == 0):
            kind = "positive" if name == "timeout" else "non-negative"
            raise FatalError(f"--{name.replace('_', '-')} must be a finite {kind} number, not {value!r}")


def _record(stage: StageRun, opts: AnnotateOptions, annotator: Annotator, result: AnnotateResult) -> None:
    from ..io import iter_jsonl

    run = stage.run
    # counts of earlier runs, as far as they are counts (a manifest written before usage was checked may hold NaN)
    stats = stage.llm_stats(annotator.stats)
    result.stats = stats
    annotated = {str(r["id"]) for r in iter_jsonl(run.path / ANNOTATIONS)}
    result.annotated = len(annotated)
    # an episode rejected by a batch import and annotated later by a live backend counts once, as annotated
    result.by_reason = stage.reasons(unless=annotated)
    result.rejected = sum(result.by_reason.values())
    entry = stage.finish({
        "backend": opts.backend, "model": annotator.model, "prompt_version": annotator.prompt.version,
        "options": public_options(opts),
        "counts": {"annotated": result.annotated, "rejected": result.rejected, "by_reason": result.by_reason},
        # this invocation's episodes left for a rerun because the endpoint failed (by the last failure of each)
        "deferred": {"count": result.deferred, "by_reason": dict(result.deferred_by_reason)},
        "llm": {k: stats[k] for k in LLM_STATS},
        "cost": llm_cost(stats, opts.price_in, opts.price_out),
    })
    result.elapsed_s = entry["elapsed_s"]
