"""One episode through an LLM judge: messages per window (annotator image and next screenshot per step), the
request through the shared reply cache (:func:`sftdata.llm.ask.ask_cached`), parsing, and re-asks.

A reply that is not a verdict (malformed, refused, truncated, the wrong steps) is a failed attempt: the judge is
asked again with the problem named, up to ``max_attempts``; then :class:`JudgeFailed`. An endpoint failure (no
answer, 429, 5xx after the SDK's retries) is also re-asked, and when every attempt failed so, the episode is left
for a rerun (``transport_only``), never ledgered.
"""
from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..model import Episode
from ..annotate.annotator import split_windows
from ..llm.ask import ask_cached
from ..llm.backends import ENDPOINT_FAILURES, LLMError, chat_body
from ..llm.cache import ImageCache, ReplyCache, request_key
from ..annotate.images import annotator_bytes, to_data_url
from ..annotate.parse import ReplyError
from ..schemas import load as load_schema
from .prompt import JudgePrompt, repair_text, screen_bytes, user_content
from .verdict import EpisodeVerdict, ItemVerdict, parse_verdict


class JudgeFailed(Exception):
    """No usable verdict after every attempt; ``reason`` is the last failure's."""

    def __init__(self, reason: str, detail: str, attempts: int, transport_only: bool) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail, self.attempts, self.transport_only = reason, detail, attempts, transport_only


def judge_format() -> dict[str, Any]:
    """``response_format`` asking for the judge schema (structured outputs).

    >>> judge_format()["json_schema"]["schema"]["required"]
    ['items', 'episode']
    """
    schema = {k: v for k, v in load_schema("judge").items() if k not in ("$schema", "$id")}
    return {"type": "json_schema", "json_schema": {"name": "judge", "strict": False, "schema": schema}}


class LLMJudge:
    """Judges episodes through ``backend`` (an :class:`sftdata.llm.backends.OpenAIBackend` or alike)."""

    def __init__(self, run_path: Path, backend: Any, prompt: JudgePrompt, *, window: int = 10,
                 max_attempts: int = 3, concurrency: int = 8, image_max_side: int | None = None,
                 image_format: str = "jpeg", structured: bool = False) -> None:
        self.run_path, self.backend, self.prompt = Path(run_path), backend, prompt
        self.window, self.max_attempts = window, max_attempts
        self.image_max_side, self.image_format, self.structured = image_max_side, image_format, structured
        self.replies = ReplyCache(self.run_path / "cache" / "judge")
        self.images = ImageCache(self.run_path / "cache" / "judge-images")
        self.stats: Counter = Counter()
        self.pool = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1))
        self.slots = asyncio.Semaphore(max(1, concurrency))

    @property
    def model(self) -> str:
        return getattr(self.backend, "model", "")

    def _image(self, kind: str, step, make) -> str:
        fmt, side = self.image_format, self.image_max_side
        action = json.dumps(step.action.to_dict(), sort_keys=True, ensure_ascii=False) if kind == "before" else ""
        key = request_key({"image": f"{step.screenshot.sha256}-{action}", "kind": kind, "fmt": fmt, "side": side},
                          ground_truth=[], prompt_version="judge-draw/v1")
        return to_data_url(self.images.get_or_make(key, make), fmt)

    def messages(self, episode: Episode, items: list[dict], start: int, end: int) -> list[dict]:
        steps = episode.steps
        fmt, side = self.image_format, self.image_max_side
        before = [self._image("before", s, lambda s=s: annotator_bytes(self.run_path, s, side, fmt))
                  for s in steps[start:end]]
        after = [self._image("after", steps[i + 1], lambda n=steps[i + 1]: screen_bytes(self.run_path, n, side, fmt))
                 if i + 1 < len(steps) else None for i in range(start, end)]
        return [{"role": "system", "content": self.prompt.text},
                {"role": "user", "content": user_content(episode, items, start, end, before, after)}]

    def body(self, messages: list[dict]) -> dict[str, Any]:
        """A ``/v1/chat/completions`` request body (with the judge schema as ``response_format`` if structured)."""
        return chat_body(self.model, messages, getattr(self.backend, "max_tokens", 4096),
                         getattr(self.backend, "temperature", None), judge_format() if self.structured else None)

    def request(self, messages: list[dict], attempt: int) -> tuple[bytes, str]:
        """The serialized request body and its cache key (the attempt number is part of it)."""
        body = self.body(messages)
        key = request_key(body, ground_truth=[{"judge_attempt": attempt}], prompt_version=self.prompt.version,
                          endpoint=getattr(self.backend, "endpoint", ""))
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), key

    def _first(self, episode: Episode, items: list[dict], start: int, end: int):
        try:
            messages = self.messages(episode, items, start, end)
        except Exception as exc:  # a screenshot that cannot be opened: this episode only
            raise JudgeFailed("bad_screenshot", f"{type(exc).__name__}: {exc}", 0, False) from None
        return (messages, *self.request(messages, 1))

    async def window_verdict(self, episode: Episode, items: list[dict], start: int, end: int,
                             usage: Counter) -> tuple[list[ItemVerdict], EpisodeVerdict, int]:
        loop = asyncio.get_running_loop()
        base, content, key = await loop.run_in_executor(self.pool, self._first, episode, items, start, end)
        messages = base
        reason, detail, transport = "judge_no_verdict", "", True
        for attempt in range(1, self.max_attempts + 1):
            if attempt > 1:
                content, key = await loop.run_in_executor(self.pool, self.request, messages, attempt)
            try:
                reply = await ask_cached(self.backend, self.replies, self.slots, self.stats, content, key)
            except LLMError as exc:
                reason, detail = exc.reason, exc.detail
                transport = transport and exc.reason in ENDPOINT_FAILURES
                continue
            transport = False
            usage.update(reply.usage)
            try:
                if reply.finish_reason == "length":
                    raise ReplyError("judge_truncated", "the verdict was cut off by max_tokens")
                verdicts, ep = parse_verdict(reply.text, end - start, start + 1)
                return verdicts, ep, attempt
            except ReplyError as exc:
                reason, detail = exc.reason, exc.detail
                self.stats["bad_verdicts"] += 1
            messages = base + [{"role": "assistant", "content": reply.text[:20000]},
                               {"role": "user", "content": repair_text(reason, detail, start, end)}]
        raise JudgeFailed(reason, detail, self.max_attempts, transport)

    async def episode(self, episode: Episode, items: list[dict]) -> tuple[list[ItemVerdict], EpisodeVerdict,
                                                                          dict[str, int]]:
        """Verdicts for every item (windows of ``window`` steps; the episode verdict is the last window's)."""
        if len(items) != len(episode.steps):
            raise JudgeFailed("item_count_mismatch", f"{len(items)} items for {len(episode.steps)} steps", 0, False)
        usage: Counter = Counter()
        verdicts: list[ItemVerdict] = []
        ep = EpisodeVerdict()
        for start, end in split_windows(len(episode.steps), self.window):
            got, ep, _ = await self.window_verdict(episode, items, start, end, usage)
            verdicts += got
        return verdicts, ep, {"prompt_tokens": usage["prompt_tokens"],
                              "completion_tokens": usage["completion_tokens"]}
