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
import re
import sys
from pathlib import Path
from typing import Any

from ..io import iter_jsonl
from ..plural import counted, plural
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
    if not isinstance(response, dict):
        raise BatchReplyError("llm_error", f"the result line's response is not an object: {str(response)[:80]!r}")
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


_CUSTOM_ID = re.compile(r"(.+)::(\d+)-(\d+)", re.S)  # <episode id>::<first step>-<end step>


def read_results(path: Path, run: Any, prefix: str = "") -> dict[str, dict[str, Any]]:
    """The result lines of a Batch API output file by ``custom_id``, checked against ``run``: a file with no
    result line, or none for an episode of this run, is a :class:`~sftdata.exitcodes.NothingProduced` naming why
    (another run's results, a request file, the wrong file); lines of other runs' episodes are said and skipped.
    ``prefix``: the stage's custom_id prefix (``judge::``)."""
    from ..exitcodes import NothingProduced

    results: dict[str, dict[str, Any]] = {}
    other = 0
    for line in iter_jsonl(path):
        if isinstance(line, dict) and isinstance(line.get("custom_id"), str) and "method" not in line:
            results[line["custom_id"]] = line
        else:
            other += 1
    if not results:
        what = "request lines (the file to submit), not results" if other else "no line"
        raise NothingProduced(f"{path} holds {what}: give the Batch API's output file (lines with custom_id and "
                              "response); nothing was imported")
    ours = {str(r.get("id")) for r in run.episode_records() if isinstance(r, dict)}
    foreign = [cid for cid in results if not ((m := _CUSTOM_ID.fullmatch(cid[len(prefix):]))
                                              and cid.startswith(prefix) and m[1] in ours)]
    if len(foreign) == len(results):
        raise NothingProduced(f"no line of {path} answers a request of this run ({len(results)} result lines, e.g. "
                              f"custom_id {foreign[0][:60]!r}): results of another run or stage? nothing was imported")
    notes = []
    if foreign:
        notes.append(f"{counted(len(foreign), 'result line')} {plural(len(foreign), 'answers', 'answer')} no request "
                     f"of this run (e.g. {foreign[0][:60]!r}); skipped")
    if other:
        notes.append(f"{counted(other, 'line')} {plural(other, 'is', 'are')} not a result object (no custom_id, or a "
                     "request line); skipped")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return {cid: line for cid, line in results.items() if cid not in foreign}
