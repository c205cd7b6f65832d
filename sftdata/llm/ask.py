"""One request through the reply cache: the piece every LLM stage (annotate, judge) shares.

A cached reply is returned without a request; otherwise the request takes one of the ``slots`` (requests in
flight), goes to the backend, and its reply is cached before the slot is given back, so a kill loses at most
the replies of requests in flight. ``stats`` counts requests, retries, cache hits and tokens.
"""
from __future__ import annotations

import asyncio
from collections import Counter

from .backends import LLMError, Reply, clean_usage
from .cache import ReplyCache


async def ask_cached(backend, replies: ReplyCache, slots: asyncio.Semaphore, stats: Counter,
                     content: bytes, key: str) -> Reply:
    """The reply to a serialized request ``content`` with cache ``key``: from ``replies`` or ``backend``.

    >>> import tempfile
    >>> cache = ReplyCache(tempfile.mkdtemp()); cache.put("ab12", {"text": "[]"})
    >>> stats = Counter()
    >>> asyncio.run(ask_cached(None, cache, asyncio.Semaphore(1), stats, b"{}", "ab12")).text, stats["cache_hits"]
    ('[]', 1)
    """
    cached = replies.get(key)
    if cached is not None:
        stats["cache_hits"] += 1
        return Reply(text=cached["text"], finish_reason=cached["finish_reason"], model=cached["model"],
                     usage=clean_usage(cached["usage"]))
    async with slots:
        try:
            reply = await backend.complete(content)
        except LLMError:
            stats["failed_requests"] += 1
            raise
        # usage numbers from the endpoint are checked before they are summed or written (NaN, negative,
        # strings and absurd sizes are left out and counted as unknown), whatever the backend
        reply.usage = clean_usage(reply.usage)
        # cached before the slot is given back (a small write, on the loop): a kill can then lose at most the
        # replies of requests in flight, never one that waits for the pool
        replies.put(key, reply.to_dict())
    stats["requests"] += 1
    stats["retries"] += reply.retries if isinstance(reply.retries, int) else 0
    stats["prompt_tokens"] += reply.usage.get("prompt_tokens", 0)
    stats["completion_tokens"] += reply.usage.get("completion_tokens", 0)
    if len(reply.usage) < 2:
        stats["usage_unknown"] += 1
    return reply
