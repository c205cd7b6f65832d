"""Fewer cyclic garbage collections while a stage decodes records at a high rate.

Decoded episodes are trees of dicts, lists and dataclasses without cycles: reference counting frees them, and
the cyclic collector only rescans them. With CPython's default threshold (a collection every 700 container
allocations) one decoded AndroidControl episode triggers several collections, and the full ones walk every
live episode of the run's window. ``fewer_collections`` raises the first threshold for the duration of a stage
(collections still happen, rarely) and restores the previous settings after.

>>> import gc
>>> before = gc.get_threshold()
>>> with fewer_collections():
...     gc.get_threshold()[0] >= 50_000
True
>>> gc.get_threshold() == before
True
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator

THRESHOLD = 50_000


@contextlib.contextmanager
def fewer_collections(threshold: int = THRESHOLD) -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(max(threshold, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
