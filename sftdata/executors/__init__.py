"""Executors: how a stage's units are mapped to their outcomes. A stage hands an executor ``(key, payload)``
pairs and a picklable function; the executor yields ``(key, outcome)`` **in input order** (an exception a unit
raised is its outcome, a :class:`Ready` payload is its own outcome). The driver, the stage's own process, is the
only writer of the ledgers and the manifest, so any executor that keeps this order writes the same bytes.

``local`` (:class:`~sftdata.executors.local.LocalExecutor`, the default) is a bounded process pool on this
machine; another engine (a cluster) registers under its own name in :data:`EXECUTORS`.

>>> list(executor("local", workers=1).map(abs, [("a", -1), ("b", Ready("kept"))]))
[('a', 1), ('b', 'kept')]
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar

from .local import LocalExecutor, Ready, ordered_map  # noqa: F401 (Ready and ordered_map re-exported)

K = TypeVar("K")


class Executor(Protocol):
    name: str
    workers: int

    def map(self, fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]]) -> Iterator[tuple[K, Any]]:
        """``(key, fn(payload))`` for each ``(key, payload)``, in input order."""


EXECUTORS: dict[str, Callable[[int], Executor]] = {"local": LocalExecutor}
EXECUTORS["ray"] = lambda workers: __import__(f"{__name__}.ray_cluster", fromlist=["_"]).RayExecutor(workers)  # lazy


def executor(name: str = "local", workers: int = 1) -> Executor:
    """The executor registered as ``name``, with ``workers`` workers."""
    try:
        return EXECUTORS[name](workers)
    except KeyError:
        from ..errors import FatalError
        raise FatalError(f"unknown executor {name!r}; choose one of {', '.join(sorted(EXECUTORS))}") from None
