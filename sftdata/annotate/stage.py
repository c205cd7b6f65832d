"""The annotate stage: episodes -> ``RUN/annotations.jsonl`` (one accepted reconstruction per episode) or a
reject with every reason.

Per episode and window: build the prompt and annotator images, ask the backend (or the reply cache), parse,
check against the ground truth; on failure re-ask with the failures listed, up to ``max_attempts``. Episodes longer
than ``window`` screenshots are asked in windows carrying a summary of earlier steps; ``done`` is only expected in
the last one, and the stitched result must pass the whole-episode check. A finished episode (accepted or
rejected) is never asked again; every reply is cached by request key, so a killed run repeats no request.
The work on one episode is :class:`sftdata.annotate.annotator.Annotator`; the loop around it (concurrency, order,
the endpoint-failure stop, the Batch API, the manifest entry) is :class:`sftdata.llm_stage.LLMStage`.
"""
from __future__ import annotations

import asyncio
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import FatalError
from ..llm_stage import LLMStage
from ..model import Episode
from ..rundir import RunDir
from .annotator import BACKENDS, TRANSPORT, AnnotateOptions, Annotator, EpisodeRejected, split_windows  # noqa: F401
from ..stage import LLM_STATS, Deferred, Reject, StageOutcome  # noqa: F401 (LLM_STATS re-exported)
from ..checks.check import Failure

STAGE = "annotate"
from ..rundir import ANNOTATIONS  # noqa: E402,F401 (re-exported)


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
    skipped: bool = False  # an unchanged rerun: the counts are those its manifest entry recorded


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


class AnnotateStage(LLMStage):
    """Reconstruct Chinese ReAct reasoning and a function call for every step (RUN/annotations.jsonl).

    \b
    Each reply is checked against the ground truth (one item per screenshot, one done and it is last, every
    function and parameter equal to the action); failures are sent back to be fixed, up to --max-attempts.
    Replies are cached by request: a killed run resumes without paying twice.

    \b
    Examples:
      sftdata annotate processed/demo                       # offline template backend
      OPENAI_API_KEY=... sftdata annotate processed/demo --backend openai \\
          --base-url http://localhost:8000/v1 --model Qwen2.5-VL-72B-Instruct --concurrency 16
      sftdata annotate processed/demo --backend batch --model gpt-4o --write-requests batch.jsonl
      sftdata annotate processed/demo --backend batch --model gpt-4o --import-results results.jsonl
    """

    # its units are the episodes not yet annotated or rejected by this model and prompt version, each one
    # Annotator.episode; the batch backend writes or imports Batch API files (the docstring is the command's help)
    name, options, key, ledger, verb = STAGE, AnnotateOptions, "reconstruction", ANNOTATIONS, "annotated"

    def check(self) -> None:
        super().check()  # a results file to import is read first: what is wrong with it is said first
        if not self.run.episodes_path.exists():
            raise FatalError(f"{self.run.path} has no episodes.jsonl: run `sftdata ingest` first")
        check_options(self.opts)
        if self.opts.backend not in BACKENDS + ("batch",):
            raise FatalError(f"unknown backend {self.opts.backend!r}; choose one of {', '.join(BACKENDS)}")
        self.run.require_episodes(self.opts.episode_ids)
        self.run.ensure_writable()

    def inputs(self):
        return [self.run.episodes_path, self.run.annotations_path] + \
            ([self.run.judgements_path] if self.opts.repair_judged else [])

    def describe(self) -> str:
        return f"annotate {self.opts.backend}"

    def prepare(self) -> None:
        from .batch import BodyOnly

        backend = BodyOnly(self.opts) if self.opts.backend == "batch" else self.backend
        self.annotator = Annotator(self.run, self.opts, backend)
        self.backend, self.stats = self.annotator.backend, self.annotator.stats
        self.done_ids = _done_ids(self.run, self.opts.backend, self.annotator.model, self.annotator.prompt_versions)
        self.wanted = set(self.opts.episode_ids) if self.opts.episode_ids else None
        if self.opts.repair_judged:  # only the episodes the judge failed, annotated before or not by this model
            self.done_ids -= set(self.annotator.notes)
            notes = set(self.annotator.notes)
            self.wanted = notes & self.wanted if self.wanted is not None else notes

    def bar_total(self) -> int:
        from ..io import count_lines

        total = count_lines(self.run.episodes_path) - len(self.done_ids) if self.wanted is None \
            else len(self.wanted - self.done_ids)
        return max(min(total, self.opts.limit) if self.opts.limit is not None else total, 0)

    def units(self):
        """``(episode id, unit)`` of each episode left: live, the unit is its line (number and raw bytes: only the
        id is read here, the episode is decoded in the pool, off the event loop); batch, the decoded episode."""
        from ..io import iter_jsonl_lines, record_id

        path, count = self.run.episodes_path, 0
        for number, raw in iter_jsonl_lines(path):
            eid = record_id(raw, path, number)
            if eid in self.done_ids or (self.wanted is not None and eid not in self.wanted):
                continue
            if self.opts.limit is not None and count >= self.opts.limit:
                return
            count += 1
            yield eid, (self._load(number, raw, prepare=False)[0] if self.opts.backend == "batch" else (number, raw))

    def _load(self, number: int, raw: bytes, prepare: bool = True) -> tuple[Episode, Any]:
        """Decode an episode and make its first request ahead (in the pool: one trip)."""
        from ..io import parse_jsonl_line

        episode = Episode.from_dict(parse_jsonl_line(raw, self.run.episodes_path, number))
        return episode, self.annotator.prepare(episode) if prepare else None

    async def process(self, unit: tuple[int, bytes]) -> Any:
        episode, first = await asyncio.get_running_loop().run_in_executor(self.annotator.pool, self._load, *unit)
        try:
            return await self.annotator.episode(episode, first)
        except EpisodeRejected as exc:
            if exc.transport_only:
                return Deferred(exc.failures[0].reason, exc.failures[0].detail)
            return self.rejected(episode, exc.failures, exc.attempts, exc.window)

    def rejected(self, episode: Episode, failures: list[Failure], attempts: int,
                 window: tuple[int, int] | None = None) -> Reject:
        """An episode's reject line (a batch import's has no window: its episodes are asked whole, once)."""
        first = failures[0] if failures else Failure(None, "rejected", "")
        batch = self.opts.backend == "batch"
        return Reject(first.reason, first.detail, episode.id, episode.source, extra={
            "backend": self.opts.backend, "model": self.annotator.model,
            "prompt_version": self.annotator.prompt_for(episode).version, "attempts": attempts,
            **({} if batch else {"window": list(window) if window else None}),
            "failures": [f.to_dict() for f in failures]})

    def strict_message(self, reject: Reject) -> str:
        return f"episode {reject.episode_id}: {reject.reason}: {reject.detail} (--strict)"

    # the Batch API: its units are decoded episodes (:mod:`sftdata.annotate.batch`)
    def batch_requests(self, episode: Episode):
        from .batch import requests_of
        return requests_of(self.annotator, episode)

    def batch_ids(self, episode: Episode) -> list[str]:
        from .batch import custom_id
        return [custom_id(episode.id, s, e) for s, e in split_windows(len(episode.steps), self.opts.window)]

    def from_results(self, episode: Episode, lines: list[dict]):
        from .batch import record_of
        return record_of(self, episode, lines)

    def release(self) -> None:
        self.annotator.pool.shutdown(wait=False)

    def tell(self, outcome: StageOutcome, echo: Any, run_dir: Any) -> None:
        from ..exitcodes import EndpointUnavailable, NothingProduced
        from ..llm_stage import llm_stats_line
        from ..plural import counted

        result = result_of(outcome)
        echo(f"annotated {counted(result.new_annotated, 'new episode')}, rejected {result.new_rejected} "
             f"(run total: {result.annotated} annotated, {result.rejected} rejected)")
        if self.opts.backend != "template":
            echo(llm_stats_line(result.stats))
        for reason, count in sorted(result.by_reason.items(), key=lambda kv: -kv[1]):
            echo(f"  rejected: {reason:<28} {count:>6}")
        if result.deferred:
            raise EndpointUnavailable(self.deferred_message(result.deferred))
        if not result.annotated and result.rejected:
            raise NothingProduced(f"no episode was annotated: all {result.rejected} were rejected "
                                  f"(reasons in {run_dir}/rejects.jsonl)")

    def entry(self) -> dict[str, Any]:
        from ..io import iter_jsonl

        annotated = {str(r["id"]) for r in iter_jsonl(self.run.annotations_path)}
        # an episode rejected by a batch import and annotated later by a live backend counts once, as annotated
        by_reason = self.book.reasons(unless=annotated)
        return {"backend": self.opts.backend, "model": self.annotator.model,
                "prompt_version": self.annotator.prompt.version, "options": _public(self.opts),
                "counts": {"annotated": len(annotated), "rejected": sum(by_reason.values()), "by_reason": by_reason},
                # this invocation's episodes left for a rerun because the endpoint failed (by the last failure)
                "deferred": {"count": sum(self.deferred.values()), "by_reason": dict(self.deferred)},
                **self.llm_entry()}


def _public(opts: AnnotateOptions) -> dict[str, Any]:
    from ..stage import public_options
    return public_options(opts)


def result_of(outcome: StageOutcome) -> AnnotateResult:
    """What one invocation did, with the run's totals from its manifest entry (a skipped one: the entry's)."""
    entry, new = outcome.entry, outcome.new
    counts = entry.get("counts", {})
    deferred = entry.get("deferred", {}) if not outcome.skipped else {}
    return AnnotateResult(annotated=counts.get("annotated", 0), rejected=counts.get("rejected", 0),
                          new_annotated=new["records"], new_rejected=new["rejects"],
                          deferred=deferred.get("count", 0), deferred_by_reason=dict(deferred.get("by_reason", {})),
                          stats=Counter({k: v for k, v in entry.get("llm", {}).items() if k in LLM_STATS}),
                          by_reason=dict(counts.get("by_reason", {})), elapsed_s=entry.get("elapsed_s", 0.0),
                          skipped=outcome.skipped)


def annotate_run(run: RunDir, opts: AnnotateOptions, backend: Any | None = None, *,
                 results: Any = None) -> AnnotateResult:
    """Annotate every episode of ``run`` not yet annotated or rejected by this stage (``results``: import the
    batch backend's result lines instead)."""
    return result_of(AnnotateStage(run, opts, backend=backend, results=results).execute())


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
