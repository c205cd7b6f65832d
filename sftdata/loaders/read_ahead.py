"""Run an iterator one step ahead of its reader, in a thread: the reading process of a pooled ingest inflates the
next records while it stores the screenshots of the last ones and feeds the workers.

Inflating (zlib-ng), CRC32C and SHA-256 release the GIL, so the thread and its consumer take two cores where the
machine has them; a serial run (one worker, in this process) does not use it and stays on one core. The queue is
bounded (``depth`` items: a few records, a few MB), an exception in the thread is raised in the consumer at the
place it happened, and closing the generator (a ``--limit`` reached, an error upstream) stops the thread.

>>> list(read_ahead(iter(range(5)), depth=2))
[0, 1, 2, 3, 4]
>>> def broken():
...     yield 1
...     raise ValueError("bad")
>>> out = read_ahead(broken()); next(out)
1
>>> next(out)
Traceback (most recent call last):
ValueError: bad
"""
from __future__ import annotations

import queue
import threading
from typing import Iterator, TypeVar

T = TypeVar("T")

_END = object()


class _Raised:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def read_ahead(items: Iterator[T], depth: int = 4) -> Iterator[T]:
    """Yield what ``items`` yields, in order, with a thread producing up to ``depth`` items ahead."""
    ready: queue.Queue = queue.Queue(maxsize=max(1, depth))
    stop = threading.Event()

    def offer(item: object) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not offer(item):
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, raised there
            offer(_Raised(exc))
            return
        finally:
            close = getattr(items, "close", None)
            if stop.is_set() and close is not None:
                close()  # the file the iterator holds is closed in the thread that drives it
        offer(_END)

    thread = threading.Thread(target=produce, name="sftdata-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item = ready.get()
            if item is _END:
                return
            if isinstance(item, _Raised):
                raise item.error
            yield item
    finally:
        stop.set()
        thread.join()
