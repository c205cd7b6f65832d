"""Check a reconstruction list against ``reconstruction.schema.json`` (reason ``schema_invalid``).

>>> schema_failures([{"reasoning": "向上滑动。", "function": {"name": "swipe", "parameters": {}}}])
[Failure(index=0, reason='schema_invalid', detail="function.parameters: 'direction' is a required property")]
"""
from __future__ import annotations

from ..schemas import validator
from .check import Failure


def schema_failures(items: list) -> list[Failure]:
    """One ``schema_invalid`` Failure per schema error, sorted by item index (None = the whole list).

    >>> [f.detail for f in schema_failures([{"reasoning": 1, "function": {"name": "tap", "parameters": {}}}])]
    ["function.name: 'tap' is not one of [...]", "reasoning: 1 is not of type 'string'"]
    >>> schema_failures([])
    [Failure(index=None, reason='schema_invalid', detail='list: [] should be non-empty')]
    """
    found = set()
    for err in validator("reconstruction").iter_errors(items):
        path = list(err.absolute_path)
        index = path.pop(0) if path and isinstance(path[0], int) else None
        # the item index lives in Failure.index (shown 1-based in repair prompts); the detail names the field
        where = ".".join(str(p) for p in path) if path else ("list" if index is None else "item")
        msg = err.message if len(err.message) <= 200 else err.message[:199] + "…"  # messages repr the instance
        found.add(Failure(index, "schema_invalid", f"{where}: {msg}"))
    return sorted(found, key=lambda f: (-1 if f.index is None else f.index, f.detail))
