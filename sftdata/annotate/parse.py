"""Get the seed-002 JSON list out of an LLM reply (its shape is checked by :func:`sftdata.checks.schema.schema_failures`).

Only the *shape* is repaired (fences, prose, full-width punctuation used as JSON syntax, trailing commas,
single quotes, a lone item, a wrapper object); content is never fixed: the alignment check
(:mod:`sftdata.checks.check`) and the repair loop deal with content.

>>> parse_reply('好的：\\n```json\\n[{"reasoning"："点击“设置”，进入设置页。"，"function"：{"name"："done"，"parameters"：{}}},]\\n```')
[{'reasoning': '点击“设置”，进入设置页。', 'function': {'name': 'done', 'parameters': {}}}]
"""
from __future__ import annotations

import json
import re
from typing import Any

import json_repair

from ..errors import RecordError
from ..values import FINITE_NUMBERS

WRAPPER_KEYS = ("items", "actions", "steps", "output", "outputs", "result", "results", "data", "response",
                "reconstruction", "trajectory")
_OPEN, _CLOSE = "[{【［｛", "]}】］｝"
_TOKEN = re.compile(r'["\\\[\]{}【】［］｛｝]')
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_LIST_OF_OBJECTS = re.compile(r"[\[［【]\s*[{｛]")
# Outside ASCII ("..." or '...') strings: curly-quoted strings become JSON strings, ，/： become , and : only where JSON
# syntax expects them (after a value / after a key), full-width brackets become brackets.
_FULLWIDTH = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|\'[^\'\\]*(?:\\.[^\'\\]*)*\'|“[^”“]*”|‘[^’‘]*’|(?<=["”’\'\]}】］｝\del])(\s*)，'
                        r'|(?<=["”’\'])(\s*)：|[【［｛】］｝“”‘’\u3000]', re.S)
_HALF = {"【": "[", "［": "[", "｛": "{", "】": "]", "］": "]", "｝": "}", "“": '"', "”": '"', "‘": "'", "’": "'",
         "\u3000": " "}


class ReplyError(RecordError):
    """The reply cannot be used at all (``empty_reply``, ``reply_too_large``, ``reply_too_deep``,
    ``unparseable_reply``, ``non_finite_number``)."""


def _scan(text: str, max_depth: int) -> list[tuple[int, int]]:
    """Top-level bracket spans of ``text`` (string-aware, linear); raises ``reply_too_deep``. An unclosed
    last span runs to the end.

    >>> _scan('see [1] and {"a": "]"}', 64)
    [(4, 7), (12, 22)]
    """
    spans: list[tuple[int, int]] = []
    depth, start, in_str, skip_to = 0, 0, False, -1
    for m in _TOKEN.finditer(text):
        i, c = m.start(), m.group()
        if i < skip_to:
            continue
        if in_str:
            if c == "\\":
                skip_to = i + 2
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in _OPEN:
            depth += 1
            if depth > max_depth:
                raise ReplyError("reply_too_deep", f"brackets nest deeper than {max_depth} levels")
            if depth == 1:
                start = i
        elif c in _CLOSE and depth:
            depth -= 1
            if not depth:
                spans.append((start, i + 1))
    if depth:
        spans.append((start, len(text)))
    return spans


def _locate(text: str, max_depth: int) -> str | None:
    """The JSON-looking part of ``text``: the first list of objects (else the first span) plus the spans
    that directly follow it; several top-level objects (``{..}\\n{..}``) are joined into a list."""
    spans = _scan(text, max_depth)
    if not spans:
        return None
    first = next((k for k, (a, _) in enumerate(spans) if _LIST_OF_OBJECTS.match(text, a) or text[a] in "{｛"), 0)
    run = [spans[first]]
    for a, b in spans[first + 1:]:
        if text[run[-1][1]:a].strip(" \t\r\n,，"):
            break
        run.append((a, b))
    parts = [text[a:b] for a, b in run]
    if len(parts) > 1 and all(p[0] in "{｛" for p in parts):
        return "[" + ",".join(parts) + "]"
    return parts[0]


def _halfwidth(m: re.Match) -> str:
    s = m.group()
    if s[0] in "\"'":
        return s
    if s[0] in "“‘" and len(s) > 1:
        return '"' + s[1:-1].replace('"', '\\"') + '"'
    if m.group(1) is not None or m.group(2) is not None:
        return s[:-1] + ("," if s[-1] == "，" else ":")
    return _HALF[s]


def _strict(text: str) -> Any:
    """``text`` as a JSON list or object, else None; ``NaN``/``Infinity`` raise ``non_finite_number``."""
    try:  # strict=False: raw newlines inside strings are fine
        value = json.loads(text, strict=False, **FINITE_NUMBERS)
    except RecordError as exc:  # NaN, Infinity or 1e999
        raise ReplyError(exc.reason, exc.detail) from None
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, (list, dict)) else None


def extract_json(text: str, *, max_chars: int = 1_000_000, max_depth: int = 64) -> Any:
    """The JSON list or object in an LLM reply (fenced or not, prose around it, slightly broken).

    >>> extract_json("Here you go:\\n```\\n[{'a': 1,},]\\n```\\nDone.")
    [{'a': 1}]
    >>> extract_json('[{“name”：“你好，世界”，“n”：1}]')
    [{'name': '你好，世界', 'n': 1}]
    >>> extract_json("I cannot do that.")
    Traceback (most recent call last):
    ...
    sftdata.annotate.parse.ReplyError: unparseable_reply: no JSON list or object in the reply
    """
    if len(text) > max_chars:
        raise ReplyError("reply_too_large", f"{len(text)} characters (limit {max_chars})")
    if not text.strip():
        raise ReplyError("empty_reply", "the reply is empty")
    _scan(text, max_depth)  # depth guard on the whole reply before any parser sees it
    value = _strict(text)
    if value is not None:
        return value
    fences = [m.group(1) for m in _FENCE.finditer(text) if any(c in m.group(1) for c in _OPEN)]
    part = _locate(fences[0] if fences else text, max_depth)
    if part is None:
        raise ReplyError("unparseable_reply", "no JSON list or object in the reply")
    value = _strict(part)
    if value is None:
        part = _FULLWIDTH.sub(_halfwidth, part)
        value = _strict(part)
    if value is None:
        try:
            value = json_repair.loads(part, skip_json_loads=True)
        except RecursionError:
            raise ReplyError("reply_too_deep", "the reply nests too deeply") from None
        except Exception as exc:  # json_repair raises ValueError and friends on hopeless input
            raise ReplyError("unparseable_reply", f"json_repair failed: {exc}") from None
    if not isinstance(value, (list, dict)) or not value:  # json_repair answers garbage with "" or [] / {}
        raise ReplyError("unparseable_reply", "no JSON list or object in the reply")
    return value


def parse_reply(text: str, **limits: int) -> list[dict]:
    """The reply as a list of items: a lone item becomes ``[item]``, ``{"items": [...]}`` (or another
    wrapper key, or any single key holding a list) is unwrapped. Items are not checked here.

    >>> parse_reply('{"reasoning": "完成。", "function": {"name": "done", "parameters": {}}}')
    [{'reasoning': '完成。', 'function': {'name': 'done', 'parameters': {}}}]
    >>> parse_reply('{"steps": [{"reasoning": "返回。"}]}')
    [{'reasoning': '返回。'}]
    """
    value = extract_json(text, **limits)
    for _ in range(3):
        if not isinstance(value, dict):
            break
        if "function" in value or "reasoning" in value:
            value = [value]
        else:
            lists = [value[k] for k in WRAPPER_KEYS if isinstance(value.get(k), list)]
            if not lists and len(value) == 1 and isinstance(next(iter(value.values())), (list, dict)):
                lists = list(value.values())
            if not lists:
                break
            value = lists[0]
    if not isinstance(value, list):
        keys = ", ".join(map(repr, list(value)[:5])) if isinstance(value, dict) else type(value).__name__
        raise ReplyError("unparseable_reply", f"expected a list of items, got an object with keys {keys}")
    return value
