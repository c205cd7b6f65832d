"""Registries keyed by name (formats, model families, chat templates): an entry is added once.

>>> reg = {}
>>> from types import SimpleNamespace as NS
>>> add_unique(reg, NS(name="a"), "format").name
'a'
>>> add_unique(reg, NS(name="a"), "format")
Traceback (most recent call last):
ValueError: format 'a' is already registered
"""
from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def add_unique(registry: dict[str, Any], item: T, kind: str) -> T:
    """Add ``item`` to ``registry`` under its ``name``; a second ``kind`` with the same name is an error."""
    name = item.name  # type: ignore[attr-defined]
    if name in registry:
        raise ValueError(f"{kind} {name!r} is already registered")
    registry[name] = item
    return item
