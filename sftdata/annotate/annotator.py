"""One episode's reconstruction: prompt, annotator images, requests (or the reply cache), parsing, the alignment
check and the repair loop, in windows for long episodes. :mod:`sftdata.annotate.stage` runs it over a run.

CPU work (decoding, drawing, serializing, hashing, judging) goes to a small thread pool, a few trips per
attempt, so the event loop only sends requests and reads replies; only a request in flight holds one of the
``concurrency`` slots.
"""
from __future__ import annotations

import asyncio
import json
import math
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import FatalError
from ..model import Episode, Step
from ..rundir import RunDir
from ..llm.ask import ask_cached
from ..llm.backends import ENDPOINT_FAILURES, LLMError, OpenAIBackend, Reply
from ..llm.cache import ImageCache, ReplyCache, request_key
from ..checks.check import Failure, check_items, failure_summary
from .images import annotator_bytes, to_data_url
from ..checks.schema import schema_failures
from .parse import ReplyError, parse_reply
from .prompt import (NO_FINAL_SCREEN_NOTE, PromptTemplate, structured_format, fill_template, ineffective_note, load_templates,
                     repair_message, user_content, window_note)

from .options import BACKENDS, AnnotateOptions  # noqa: E402,F401 (re-exported)


# the endpoint failed (no answer, a timeout, 429, a 5xx, a 200 that is not a chat completion): that says nothing
# about the episode, so it is left for a later run instead of rejected. Only real answers that fail the
# ground-truth check on every attempt (or a 400 about this very request) reject an episode.
TRANSPORT = ENDPOINT_FAILURES


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
        self.prompts = load_templates(opts.prompt_file)  # per platform; a user's --prompt-file serves both
        self.prompt = self.prompts["mobile"]
        self.backend = backend
        if backend is None and opts.backend == "openai":
            self.backend = OpenAIBackend(model=opts.model or "", base_url=opts.base_url, api_key_env=opts.api_key_env,
                                         timeout=opts.timeout, max_retries=opts.max_retries,
                                         max_tokens=opts.max_tokens, temperature=opts.temperature,
                                         response_format=structured_format() if opts.structured else None)
        self.replies = ReplyCache(run.path / "cache" / "llm")
        self.images = ImageCache(run.path / "cache" / "annotator")
        self.stats: Counter = Counter()
        self.pool = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1))
        # only a request in flight holds a slot: building messages, judging replies and cache hits do not
        self.slots = asyncio.Semaphore(max(1, opts.concurrency))
        self.notes: dict[str, dict[int, str]] = {}  # --repair-judged: the judge's notes per episode and item
        if opts.repair_judged:
            from ..judge.notes import judge_notes

            if opts.backend == "template":
                raise FatalError("--repair-judged needs a model that reads the judge's notes (--backend openai)")
            self.notes = judge_notes(run.path, run.latest_annotations())

    @property
    def model(self) -> str:
        if self.opts.backend == "template":
            from .template import TEMPLATE_VERSION
            return TEMPLATE_VERSION
        return getattr(self.backend, "model", self.opts.model or "")

    def prompt_for(self, episode: Episode) -> PromptTemplate:
        return self.prompts[episode.platform]

    @property
    def prompt_versions(self) -> frozenset[str]:
        """The versions this annotator writes (one per platform's template)."""
        return frozenset(p.version for p in self.prompts.values())

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

    def request(self, messages: list[dict], truth: list[dict], attempt: int,
                version: str | None = None) -> tuple[bytes, str]:
        """The request body, serialized once (the backend posts these bytes), and its cache key (``version``: the
        prompt's, default the mobile one)."""
        body = self.backend.body(messages)
        # the attempt number is part of the key: a model that repeats a wrong reply makes attempt k+1's
        # messages equal attempt k's, and the cache must not answer for it
        key = request_key(body, ground_truth=truth + [{"attempt": attempt}],
                          prompt_version=version or self.prompt.version,
                          endpoint=getattr(self.backend, "endpoint", ""))
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), key

    def first_request(self, episode: Episode, start: int, end: int, truth: list[dict]) \
            -> tuple[list[dict], bytes, str]:
        """The first attempt's messages, body and key (in one trip to the pool)."""
        try:
            messages = self.messages(episode, start, end)
        except Exception as exc:  # a screenshot that cannot be opened or drawn rejects its episode only
            from PIL import Image
            reason = "image_too_large" if isinstance(exc, Image.DecompressionBombError) else "bad_screenshot"
            raise EpisodeRejected([Failure(None, reason, f"annotator image: {type(exc).__name__}: {exc}")], 0) \
                from None
        return (messages, *self.request(messages, truth, 1, self.prompt_for(episode).version))

    async def _ask(self, content: bytes, key: str) -> Reply:
        """The reply to a request, from the cache or the backend (then cached)."""
        return await ask_cached(self.backend, self.replies, self.slots, self.stats, content, key)

    def settle(self, reply: Reply, episode: Episode, steps: list[Step], is_last: bool) -> tuple[list, list[Failure]]:
        """Judge a reply (a truncated one fails as such)."""
        if reply.finish_reason == "length":
            return [], [Failure(None, "reply_truncated", "the reply was cut off by max_tokens")]
        return self.judge(reply.text, episode, steps, is_last)

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
        note = window_note(start, len(steps), len(episode.steps), is_last, episode.steps[:start], episode.web) \
            if (start or not is_last) else None
        if is_last and not episode.ends_with_done:
            note = "\n\n".join(n for n in (note, NO_FINAL_SCREEN_NOTE) if n)
        misses = ineffective_note(steps, start, episode.steps[start - 1] if start else None)
        fix = None
        if episode.id in self.notes:
            from ..judge.notes import repair_note
            fix = repair_note(self.notes[episode.id], start, end)
        note = "\n\n".join(n for n in (note, misses, fix) if n) or None
        system = fill_template(self.prompt_for(episode).text, goal=episode.goal, screenshot_count=len(steps))
        return [{"role": "system", "content": system},
                {"role": "user", "content": user_content(self._image_urls(steps), start, note)}]

    def prepare(self, episode: Episode) -> Any:
        """What :meth:`window` needs first for the episode's first window, made ahead in the pool: its
        :meth:`first_request`, or the rejection it raised (None for the template backend)."""
        if self.opts.backend == "template":
            return None
        start, end = split_windows(len(episode.steps), self.opts.window)[0]
        try:
            return self.first_request(episode, start, end, [s.action.to_dict() for s in episode.steps[start:end]])
        except EpisodeRejected as exc:
            return exc

    async def window(self, episode: Episode, start: int, end: int, first: Any = None) -> tuple[list[dict], int]:
        steps, is_last = episode.steps[start:end], end == len(episode.steps)
        if self.opts.backend == "template":
            from .template import template_items
            items, failures = self.judge(json.dumps(template_items(episode, steps, start), ensure_ascii=False),
                                          episode, steps, is_last)
            if failures:
                raise EpisodeRejected(failures, 1)
            return items, 1
        # CPU work (drawing, serializing, hashing, judging) runs in the pool, two trips per attempt, so
        # the event loop is free to send requests and read replies
        loop = asyncio.get_running_loop()
        truth = [s.action.to_dict() for s in steps]
        if first is None:
            first = await loop.run_in_executor(self.pool, self.first_request, episode, start, end, truth)
        elif isinstance(first, EpisodeRejected):
            raise first
        base, content, key = first
        messages = base
        failures: list[Failure] = []
        for attempt in range(1, self.opts.max_attempts + 1):
            if attempt > 1:
                content, key = await loop.run_in_executor(self.pool, self.request, messages, truth, attempt,
                                                          self.prompt_for(episode).version)
            try:
                reply = await self._ask(content, key)
            except LLMError as exc:
                failures = [Failure(None, exc.reason, exc.detail)]
                continue  # same request again: failed requests are not cached
            items, failures = await loop.run_in_executor(self.pool, self.settle, reply, episode, steps, is_last)
            if not failures:
                return items, attempt
            messages = base + [{"role": "assistant", "content": reply.text[:20000]},
                               {"role": "user", "content": repair_message(failure_summary(failures), len(steps))}]
        shifted = [Failure(f.index + start if f.index is not None else None, f.reason, f.detail) for f in failures]
        raise EpisodeRejected(shifted, self.opts.max_attempts, (start, end))

    # --- one episode --------------------------------------------------------------------------------------
    async def episode(self, episode: Episode, first: Any = None) -> dict[str, Any]:
        """Annotate one episode; ``first`` is :meth:`prepare`'s result, when it was made ahead."""
        before = Counter(self.stats)
        items: list[dict] = []
        attempts = 0
        windows = split_windows(len(episode.steps), self.opts.window)
        for start, end in windows:
            try:
                got, tries = await self.window(episode, start, end, first if start == 0 else None)
            except EpisodeRejected as exc:  # count the attempts of the windows that passed too
                raise EpisodeRejected(exc.failures, attempts + exc.attempts, exc.window) from None
            items += got
            attempts += tries
        # one window was checked against the whole episode already; windows are checked stitched together
        stitched = check_items(items, episode) if len(windows) > 1 else []
        if stitched:
            raise EpisodeRejected(stitched, attempts)
        spent = self.stats - before
        return {"id": episode.id, "source": episode.source, "backend": self.opts.backend, "model": self.model,
                "prompt_version": self.prompt_for(episode).version, "attempts": attempts, "windows": len(windows),
                "items": items, "usage": {"prompt_tokens": spent["prompt_tokens"],
                                          "completion_tokens": spent["completion_tokens"]},
                "requests": spent["requests"], "cache_hits": spent["cache_hits"],
                **({"repair": "judge"} if episode.id in self.notes else {})}
