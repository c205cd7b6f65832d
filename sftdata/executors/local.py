"""The ``local`` executor: an ordered, bounded process-pool map on this machine (the default). Results come back
in input order, so ledgers are written in a stable order; at most ``2 * workers`` tasks (each a batch of units) are
in flight, so memory stays flat on a 47 GB input.

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

    def __repr__(self) -> str:
        return f"Ready({self.value!r})"


class Raised:
    """An exception a unit of a batch raised, carried back as a value (the batch's other units keep theirs)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def call_batch(fn: Callable[[Any], Any], payloads: list[Any]) -> list[Any]:
    """A batch's task body: ``fn(payload)`` for each payload, or the exception it raised as a :class:`Raised`."""
    outcomes = []
    for payload in payloads:
        try:
            outcomes.append(fn(payload))
        except Exception as exc:  # noqa: BLE001 - the unit's outcome, ledgered by the driver
            outcomes.append(Raised(exc))
    return outcomes


def batched(items: Iterable[tuple[K, Any]], size: int | Callable[[], int]) \
        -> Iterator[tuple[tuple[K, ...], list[Any] | Ready]]:
    """``(keys, payloads)`` of up to ``size`` consecutive units, or ``((key,), Ready)`` in its place (the units
    before it go first, so the order holds). ``size`` may be a function, asked as each batch begins.

    >>> list(batched([("a", 1), ("b", 2), ("c", Ready(0)), ("d", 4)], 2))[:2]
    [(('a', 'b'), [1, 2]), (('c',), Ready(0))]
    """
    size_now = size if callable(size) else lambda: size
    keys: list = []
    batch: list = []
    limit = 1
    for key, payload in items:
        if isinstance(payload, Ready):
            if batch:
                yield tuple(keys), batch
                keys, batch = [], []
            yield (key,), payload
            continue
        if not batch:
            limit = size_now()
        keys.append(key)
        batch.append(payload)
        if len(batch) >= limit:
            yield tuple(keys), batch
            keys, batch = [], []
    if batch:
        yield tuple(keys), batch


def ordered_map(fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]], workers: int = 1,
                window: int | None = None, batch: int = 1) -> Iterator[tuple[K, Any]]:
    """For each ``(key, payload)`` yield ``(key, fn(payload))``, or ``(key, exception)`` when ``fn`` raised.
    ``workers <= 1`` runs in this process (no pickling, easiest to debug); else ``batch`` units go to a worker as
    one task (units of a few milliseconds then cost the driver one submission and one result per batch), with at
    most ``window`` tasks (default ``2 * workers``) in flight."""
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
        for keys, payloads in batched(items, max(1, batch)):
            pending.append((keys, payloads if isinstance(payloads, Ready) else _submit(pool, fn, payloads)))
            while len(pending) >= window:
                yield from _results(*pending.popleft())
        while pending:
            yield from _results(*pending.popleft())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _submit(pool: Any, fn: Callable[[Any], Any], payloads: list[Any]) -> Any:
    """The batch's future, or the error that refused it (a pool broken by a dead worker), as its outcome."""
    try:
        return pool.submit(call_batch, fn, payloads)
    except RuntimeError as exc:  # BrokenProcessPool: the units keep their place, each failing with it
        return Raised(exc)


def _results(keys: tuple, future) -> Iterator[tuple[Any, Any]]:
    if isinstance(future, Ready):
        yield keys[0], future.value
        return
    try:
        outcomes = [future] * len(keys) if isinstance(future, Raised) else future.result()
    except Exception as exc:  # noqa: BLE001 - the whole batch failed (a worker died): each unit's outcome
        outcomes = [Raised(exc)] * len(keys)
    for key, outcome in zip(keys, outcomes):
        yield key, outcome.error if isinstance(outcome, Raised) else outcome


class LocalExecutor:
    """Units mapped over ``workers`` processes of this machine (``workers <= 1``: in this process).

    >>> list(LocalExecutor(1).map(abs, [("a", -2)]))
    [('a', 2)]
    """

    name = "local"

    def __init__(self, workers: int = 1, batch: int = 1) -> None:
        self.workers, self.batch = workers, batch

    def __enter__(self) -> "LocalExecutor":
        return self  # a pool lives as long as one map: nothing to start or stop here

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]],
            batch: int | None = None, max_batch: int | None = None) -> Iterator[tuple[K, Any]]:
        """``batch``: units per task, as the stage declares it (default: this executor's), no more than
        ``max_batch``."""
        batch = batch or self.batch
        return ordered_map(fn, items, self.workers, batch=min(batch, max_batch) if max_batch else batch)
