"""Counts in messages: a number with its noun in the form the number takes ("1 episode", "2 episodes").

>>> counted(1, "new episode"), counted(2, "new episode"), counted(0, "pack")
('1 new episode', '2 new episodes', '0 packs')
>>> counted(3, "reply", "replies"), f"{1234:,} {plural(1234, 'sample')}"
('3 replies', '1,234 samples')
"""
from __future__ import annotations


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``noun`` as ``n`` takes it: ``many`` (default ``noun + "s"``) unless ``n`` is 1."""
    return noun if n == 1 else many if many is not None else noun + "s"


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun`` in its form for ``n``."""
    return f"{n} {plural(n, noun, many)}"
