"""The ``local`` executor: an ordered, bounded process-pool map on this machine (the default). Results come back
in input order, so ledgers are written in a stable order; at most ``2 * workers`` items are in flight, so memory
stays flat on a 47 GB input.

>>> list(ordered_map(abs, [("a", -1), ("b", 2)], workers=1))
[('a', 1), ('b', 2)]
"""
from __future__ import annotations

from collections import deque
from typing import Any, Callable, Iterable, Iterator, TypeVar

K = TypeVar("K")


class Ready:
    """A payload whose result is already known (a record the reader rejected): it takes its place in the
    order like any other, so ledgers come out the same with any number of workers.

    >>> list(ordered_map(abs, [("a", -1), ("b", Ready("bad")), ("c", 3)], workers=1))
    [('a', 1), ('b', 'bad'), ('c', 3)]
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def ordered_map(fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]], workers: int = 1,
                window: int | None = None) -> Iterator[tuple[K, Any]]:
    """For each ``(key, payload)`` yield ``(key, fn(payload))``, or ``(key, exception)`` when ``fn`` raised.
    ``workers <= 1`` runs in this process (no pickling, easiest to debug)."""
    if workers <= 1:
        for key, payload in items:
            if isinstance(payload, Ready):
                yield key, payload.value
                continue
            try:
                yield key, fn(payload)
            except Exception as exc:  # noqa: BLE001 - handed to the caller, which ledgers it
                yield key, exc
        return
    window = window or 2 * workers
    from concurrent.futures import ProcessPoolExecutor  # here: one worker never loads multiprocessing

    pool = ProcessPoolExecutor(max_workers=workers)
    pending: deque = deque()
    try:
        for key, payload in items:
            pending.append((key, payload if isinstance(payload, Ready) else pool.submit(fn, payload)))
            while len(pending) >= window:
                yield _result(*pending.popleft())
        while pending:
            yield _result(*pending.popleft())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _result(key, future) -> tuple[Any, Any]:
    if isinstance(future, Ready):
        return key, future.value
    try:
        return key, future.result()
    except Exception as exc:  # noqa: BLE001
        return key, exc


class LocalExecutor:
    """Units mapped over ``workers`` processes of this machine (``workers <= 1``: in this process).

    >>> list(LocalExecutor(1).map(abs, [("a", -2)]))
    [('a', 2)]
    """

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def __enter__(self) -> "LocalExecutor":
        return self  # a pool lives as long as one map: nothing to start or stop here

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]]) -> Iterator[tuple[K, Any]]:
        return ordered_map(fn, items, self.workers)
