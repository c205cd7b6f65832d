"""The OpenAI Batch API's file formats, shared by the annotate and judge ``batch`` backends: one request line per
call, and the reply text (or why there is none) of one result line.

>>> request_line("e::0-2", {"model": "m"})
'{"custom_id": "e::0-2", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m"}}'
>>> result_text({"response": {"status_code": 200, "body": {"choices": [{"message": {"content": "好"}}]}}})
('好', {})
>>> result_text({"error": {"message": "quota"}})
Traceback (most recent call last):
sftdata.llm.batch.BatchReplyError: ('llm_error', 'batch request failed: {"message": "quota"}')
"""
from __future__ import annotations

import json
from typing import Any

from .backends import clean_usage


class BatchReplyError(Exception):
    """A result line without a usable reply: ``reason`` (``llm_error``, ``empty_reply``, ``truncated``), ``detail``."""

    def __init__(self, reason: str, detail: str, usage: dict | None = None) -> None:
        super().__init__(reason, detail)
        self.reason, self.detail, self.usage = reason, detail, usage or {}


def request_line(custom_id: str, body: dict[str, Any]) -> str:
    """One line of a Batch API input file (without its newline)."""
    return json.dumps({"custom_id": custom_id, "method": "POST", "url": "/v1/chat/completions", "body": body},
                      ensure_ascii=False, allow_nan=False)


def result_text(line: dict[str, Any]) -> tuple[str, dict[str, int]]:
    """The reply text and usage of one Batch API output line; :class:`BatchReplyError` when it has none."""
    response = line.get("response") or {}
    if line.get("error") or response.get("status_code") != 200:
        detail = json.dumps(line.get("error") or response.get("body"), ensure_ascii=False)[:300]
        raise BatchReplyError("llm_error", f"batch request failed: {detail}")
    body = response.get("body") or {}
    try:
        choice = body["choices"][0]
        text = choice["message"]["content"] or ""
        if not isinstance(text, str):
            raise TypeError
    except (KeyError, IndexError, TypeError):
        raise BatchReplyError("empty_reply", "the batch result has no choices") from None
    usage = clean_usage(body.get("usage"))
    if choice.get("finish_reason") == "length":
        raise BatchReplyError("truncated", "the reply was cut off by max_tokens", usage)
    return text, usage
