"""The annotate stage: episodes -> ``RUN/annotations.jsonl`` (one accepted reconstruction per episode) or a
reject with every reason.

Per episode and window: build the prompt and annotator images, ask the backend (or the reply cache), parse,
check against the ground truth; on failure re-ask with the failures listed, up to ``max_attempts``. Episodes longer
than ``window`` screenshots are asked in windows carrying a summary of earlier steps; ``done`` is only expected in
the last one, and the stitched result must pass the whole-episode check. A finished episode (accepted or
rejected) is never asked again; every reply is cached by request key, so a killed run repeats no request.
"""
from __future__ import annotations

import asyncio
import json
import math
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from tqdm import tqdm

from ..errors import FatalError, RecordError
from ..model import Episode, Step
from ..rundir import RunDir
from .backends import LLMError, OpenAIBackend, Reply
from .cache import ImageCache, ReplyCache, request_key
from .check import Failure, check_items, failure_summary
from .images import annotator_bytes, to_data_url
from .parse import ReplyError, parse_reply, schema_failures
from .prompt import fill_template, load_template, repair_message, user_content, window_note

STAGE = "annotate"
ANNOTATIONS = "annotations.jsonl"
BACKENDS = ("template", "openai")


@dataclass
class AnnotateOptions:
    backend: str = "template"
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    prompt_file: str | None = None
    structured: bool = False
    image_max_side: int | None = None
    image_format: str = "jpeg"
    max_tokens: int = 8192
    temperature: float | None = None
    timeout: float = 120.0
    max_retries: int = 4
    concurrency: int = 8
    max_attempts: int = 3
    window: int = 20
    price_in: float | None = None  # per million prompt tokens
    price_out: float | None = None  # per million completion tokens
    episode_ids: list[str] | None = None
    limit: int | None = None
    strict: bool = False
    progress: bool | None = None


@dataclass
class AnnotateResult:
    annotated: int = 0
    rejected: int = 0
    new_annotated: int = 0
    new_rejected: int = 0
    deferred: int = 0  # left for a rerun: the endpoint failed on every attempt
    stats: Counter = field(default_factory=Counter)
    by_reason: dict[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0


# no answer at all (refused connection, timeout, rate limit after the SDK's retries): they say nothing about the
# episode, so it is left for a later run instead of rejected. A 5xx is an answer about this request: it rejects.
TRANSPORT = frozenset({"llm_timeout", "llm_connection", "llm_rate_limited"})


class EpisodeRejected(Exception):
    def __init__(self, failures: list[Failure], attempts: int, window: tuple[int, int] | None = None) -> None:
        super().__init__(failures[0].reason if failures else "rejected")
        self.failures, self.attempts, self.window = failures, attempts, window

    @property
    def transport_only(self) -> bool:
        return bool(self.failures) and all(f.reason in TRANSPORT for f in self.failures)


def split_windows(n: int, size: int) -> list[tuple[int, int]]:
    """Balanced ``[start, end)`` windows of at most ``size`` steps.

    >>> split_windows(5, 20), split_windows(45, 20)
    ([(0, 5)], [(0, 15), (15, 30), (30, 45)])
    """
    count = max(1, math.ceil(n / size))
    bounds = [round(i * n / count) for i in range(count + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


class Annotator:
    def __init__(self, run: RunDir, opts: AnnotateOptions, backend: Any | None = None) -> None:
        if opts.backend not in BACKENDS + ("batch",):
            raise FatalError(f"unknown backend {opts.backend!r}; choose one of {', '.join(BACKENDS)}")
        self.run, self.opts = run, opts
        self.prompt = load_template(opts.prompt_file)
        self.backend = backend
        if backend is None and opts.backend == "openai":
            self.backend = OpenAIBackend(model=opts.model or "", base_url=opts.base_url, api_key_env=opts.api_key_env,
                                         timeout=opts.timeout, max_retries=opts.max_retries,
                                         max_tokens=opts.max_tokens, temperature=opts.temperature,
                                         structured=opts.structured)
        self.replies = ReplyCache(run.path / "cache" / "llm")
        self.images = ImageCache(run.path / "cache" / "annotator")
        self.stats: Counter = Counter()
        self.pool = ThreadPoolExecutor(max_workers=4)

    @property
    def model(self) -> str:
        if self.opts.backend == "template":
            from .template import TEMPLATE_VERSION
            return TEMPLATE_VERSION
        return getattr(self.backend, "model", self.opts.model or "")

    # --- one window ---------------------------------------------------------------------------------------
    def _image_urls(self, steps: list[Step]) -> list[str]:
        fmt, side = self.opts.image_format, self.opts.image_max_side
        urls = []
        for step in steps:
            key = f"{step.screenshot.sha256}-{json.dumps(step.action.to_dict(), sort_keys=True, ensure_ascii=False)}"
            key = request_key({"image": key, "fmt": fmt, "side": side}, ground_truth=[], prompt_version="draw/v1")
            data = self.images.get_or_make(key, lambda s=step: annotator_bytes(self.run.path, s, side, fmt))
            urls.append(to_data_url(data, fmt))
        return urls

    async def _ask(self, body: dict[str, Any], key: str) -> Reply:
        cached = self.replies.get(key)
        if cached is not None:
            self.stats["cache_hits"] += 1
            return Reply(**{k: cached[k] for k in ("text", "finish_reason", "model", "usage")})
        reply = await self.backend.complete(body)
        self.stats["requests"] += 1
        self.stats["retries"] += reply.retries
        self.stats["prompt_tokens"] += reply.usage.get("prompt_tokens", 0)
        self.stats["completion_tokens"] += reply.usage.get("completion_tokens", 0)
        await asyncio.get_running_loop().run_in_executor(self.pool, self.replies.put, key, reply.to_dict())
        return reply

    def judge(self, text: str, episode: Episode, steps: list[Step], is_last: bool) -> tuple[list, list[Failure]]:
        try:
            items = parse_reply(text)
        except ReplyError as exc:
            return [], [Failure(None, exc.reason, exc.detail)]
        failures = schema_failures(items)
        return items, failures or check_items(items, episode, steps=steps, expect_done=is_last)

    def messages(self, episode: Episode, start: int, end: int) -> list[dict]:
        """The first-attempt chat messages for steps ``[start, end)``: the filled prompt, then the images."""
        steps, is_last = episode.steps[start:end], end == len(episode.steps)
        note = window_note(start, len(steps), len(episode.steps), is_last, episode.steps[:start]) \
            if (start or not is_last) else None
        system = fill_template(self.prompt.text, goal=episode.goal, screenshot_count=len(steps))
        return [{"role": "system", "content": system},
                {"role": "user", "content": user_content(self._image_urls(steps), start, note)}]

    async def window(self, episode: Episode, start: int, end: int) -> tuple[list[dict], int]:
        steps, is_last = episode.steps[start:end], end == len(episode.steps)
        if self.opts.backend == "template":
            from .template import template_items
            items, failures = self.judge(json.dumps(template_items(episode, steps, start), ensure_ascii=False),
                                          episode, steps, is_last)
            if failures:
                raise EpisodeRejected(failures, 1)
            return items, 1
        loop = asyncio.get_running_loop()
        try:
            base = await loop.run_in_executor(self.pool, self.messages, episode, start, end)
        except Exception as exc:  # a screenshot that cannot be opened or drawn rejects its episode only
            from PIL import Image
            reason = "image_too_large" if isinstance(exc, Image.DecompressionBombError) else "bad_screenshot"
            raise EpisodeRejected([Failure(None, reason, f"annotator image: {type(exc).__name__}: {exc}")], 0) \
                from None
        messages = base
        truth = [s.action.to_dict() for s in steps]
        failures: list[Failure] = []
        for attempt in range(1, self.opts.max_attempts + 1):
            body = self.backend.body(messages)
            # the attempt number is part of the key: a model that repeats a wrong reply makes attempt k+1's
            # messages equal attempt k's, and the cache must not answer for it
            key = request_key(body, ground_truth=truth + [{"attempt": attempt}], prompt_version=self.prompt.version,
                              endpoint=getattr(self.backend, "endpoint", ""))
            try:
                reply = await self._ask(body, key)
            except LLMError as exc:
                failures = [Failure(None, exc.reason, exc.detail)]
                continue  # same request again: failed requests are not cached
            if reply.finish_reason == "length":
                failures = [Failure(None, "reply_truncated", "the reply was cut off by max_tokens")]
            else:
                items, failures = self.judge(reply.text, episode, steps, is_last)
                if not failures:
                    return items, attempt
            messages = base + [{"role": "assistant", "content": reply.text[:20000]},
                               {"role": "user", "content": repair_message(failure_summary(failures), len(steps))}]
        shifted = [Failure(f.index + start if f.index is not None else None, f.reason, f.detail) for f in failures]
        raise EpisodeRejected(shifted, self.opts.max_attempts, (start, end))

    # --- one episode --------------------------------------------------------------------------------------
    async def episode(self, episode: Episode) -> dict[str, Any]:
        before = Counter(self.stats)
        items: list[dict] = []
        attempts = 0
        windows = split_windows(len(episode.steps), self.opts.window)
        for start, end in windows:
            try:
                got, tries = await self.window(episode, start, end)
            except EpisodeRejected as exc:  # count the attempts of the windows that passed too
                raise EpisodeRejected(exc.failures, attempts + exc.attempts, exc.window) from None
            items += got
            attempts += tries
        stitched = check_items(items, episode)
        if stitched:
            raise EpisodeRejected(stitched, attempts)
        spent = self.stats - before
        return {"id": episode.id, "source": episode.source, "backend": self.opts.backend, "model": self.model,
                "prompt_version": self.prompt.version, "attempts": attempts, "windows": len(windows),
                "items": items, "usage": {"prompt_tokens": spent["prompt_tokens"],
                                          "completion_tokens": spent["completion_tokens"]},
                "requests": spent["requests"], "cache_hits": spent["cache_hits"]}


def _done_ids(run: RunDir, backend: str, model: str, prompt_version: str) -> set[str]:
    """Episodes not to ask again for this model and prompt version: annotated ones, and rejected ones, except
    that a batch reject (one unrepaired answer) leaves the episode open for a live backend, which repairs.
    Another model or prompt version is another generation: its episodes are asked anew (the last annotation
    of an episode is the one exported)."""
    from ..io import iter_jsonl

    def same(r: dict) -> bool:
        return r.get("model") == model and r.get("prompt_version") == prompt_version

    done = {str(r["id"]) for r in iter_jsonl(run.path / ANNOTATIONS) if same(r)}
    done |= {str(r["episode_id"]) for r in run.rejects() if r.get("stage") == STAGE and same(r)
             and not (r.get("backend") == "batch" and backend != "batch")}
    return done


async def _annotate(run: RunDir, opts: AnnotateOptions, annotator: Annotator, result: AnnotateResult) -> None:
    from ..io import Ledger

    done = _done_ids(run, opts.backend, annotator.model, annotator.prompt.version)
    wanted = set(opts.episode_ids) if opts.episode_ids else None
    todo = (Episode.from_dict(r) for r in run.episode_records()
            if str(r["id"]) not in done and (wanted is None or str(r["id"]) in wanted))
    with open(run.episodes_path, "rb") as f:
        total = sum(1 for _ in f) - len(done) if wanted is None else len(wanted - done)
    if opts.limit is not None:
        total = min(total, opts.limit)
    bar = tqdm(total=max(total, 0), unit="ep", desc=f"annotate {opts.backend}", dynamic_ncols=True,
               disable=(not opts.progress) if opts.progress is not None else None)
    sem = asyncio.Semaphore(opts.concurrency)

    async def one(ep: Episode):
        async with sem:
            try:
                return ep, await annotator.episode(ep), None
            except (EpisodeRejected, FatalError) as exc:
                return ep, None, exc

    async def stop(error: FatalError) -> None:
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)  # no orphaned task logs a traceback
        raise error

    pending: set[asyncio.Future] = set()
    started = 0
    streak = 0  # episodes in a row that the endpoint failed

    def refill() -> None:  # keep a bounded number of episodes in memory, not the whole run
        nonlocal started
        while len(pending) < 2 * opts.concurrency and (opts.limit is None or started < opts.limit):
            ep = next(todo, None)
            if ep is None:
                return
            pending.add(asyncio.ensure_future(one(ep)))
            started += 1

    with Ledger(run.path / ANNOTATIONS) as annotations, run.open_rejects() as rejects:
        refill()
        while pending:
            finished, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            pending.difference_update(finished)
            for task in finished:
                ep, record, rejected = task.result()
                if isinstance(rejected, FatalError):
                    await stop(rejected)
                if record is not None:
                    annotations.append(record)
                    result.new_annotated += 1
                    streak = 0
                elif rejected.transport_only:
                    result.deferred += 1
                    streak += 1
                    if streak >= max(8, 2 * opts.concurrency):
                        first = rejected.failures[0]
                        await stop(FatalError(f"the endpoint failed for {streak} episodes in a row ({first.reason}: "
                                              f"{first.detail}); nothing was rejected, run again to resume"))
                else:
                    streak = 0
                    first = rejected.failures[0] if rejected.failures else Failure(None, "rejected", "")
                    rejects.append({**run.reject_record(STAGE, ep.source, RecordError(first.reason, first.detail),
                                                        episode_id=ep.id),
                                    "backend": opts.backend, "model": annotator.model,
                                    "prompt_version": annotator.prompt.version, "attempts": rejected.attempts,
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
    run.ensure_writable()
    annotator = Annotator(run, opts, backend)
    previous = run.manifest().get("stages", {}).get(STAGE, {}).get("reconstruction", {})
    result = AnnotateResult()
    started = time.monotonic()

    async def main() -> None:
        try:
            await _annotate(run, opts, annotator, result)
        finally:
            close = getattr(annotator.backend, "close", None)
            if close is not None:
                await close()

    try:
        asyncio.run(main())
    finally:
        annotator.pool.shutdown(wait=False)
        _record(run, opts, annotator, result, previous, started)
    return result


def _record(run: RunDir, opts: AnnotateOptions, annotator: Annotator, result: AnnotateResult,
            previous: dict[str, Any], started: float) -> None:
    from ..io import iter_jsonl

    stats = Counter(previous.get("llm", {}))
    stats.update(annotator.stats)
    result.stats = stats
    annotated = {str(r["id"]) for r in iter_jsonl(run.path / ANNOTATIONS)}
    result.annotated = len(annotated)
    # an episode rejected by a batch import and annotated later by a live backend counts once, as annotated
    by_reason = Counter(r["reason"] for r in run.rejects()
                        if r.get("stage") == STAGE and str(r.get("episode_id")) not in annotated)
    result.by_reason, result.rejected = dict(by_reason), sum(by_reason.values())
    result.elapsed_s = round(previous.get("elapsed_s", 0.0) + time.monotonic() - started, 3)
    cost = None
    if opts.price_in is not None or opts.price_out is not None:
        cost = round(stats["prompt_tokens"] / 1e6 * (opts.price_in or 0)
                     + stats["completion_tokens"] / 1e6 * (opts.price_out or 0), 6)
    options = {k: v for k, v in asdict(opts).items() if k != "progress"}
    run.update_manifest(STAGE, "reconstruction", {
        "backend": opts.backend, "model": annotator.model, "prompt_version": annotator.prompt.version,
        "options": options, "elapsed_s": result.elapsed_s,
        "counts": {"annotated": result.annotated, "rejected": result.rejected, "by_reason": result.by_reason},
        "llm": {k: stats[k] for k in ("requests", "retries", "cache_hits", "prompt_tokens", "completion_tokens")},
        "cost": cost,
    })
