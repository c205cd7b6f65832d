"""Executors: how a stage's units are mapped to their outcomes. A stage hands an executor ``(key, payload)``
pairs and a picklable function; the executor yields ``(key, outcome)`` **in input order** (an exception a unit
raised is its outcome, a :class:`Ready` payload is its own outcome). Units go to a worker in batches (the stage's
:attr:`~sftdata.stage.Stage.batch`, else the executor's default, never more than its
:attr:`~sftdata.stage.Stage.max_batch`), so units of a few milliseconds do not cost the driver a submission each;
``ray`` sizes its tasks from the units' measured CPU, from the stage's batch up. The driver, the stage's own
process, is the only writer of the ledgers and the manifest, so any executor that keeps this order writes the same
bytes.

``local`` (:class:`~sftdata.executors.local.LocalExecutor`, the default) is a bounded process pool on this
machine; ``ray`` (:class:`~sftdata.executors.ray_cluster.RayExecutor`, the ray extra) runs the units as Ray tasks
on a Ray started here or on the cluster at ``address``; another engine registers under its own name in
:data:`EXECUTORS` as a factory ``(workers, address) -> Executor``. An executor is a context manager: a command
opens one for all its stages and closes it at the end (a Ray started for the run is stopped then).

>>> list(executor("local", workers=1).map(abs, [("a", -1), ("b", Ready("kept"))]))
[('a', 1), ('b', 'kept')]
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar

from .local import LocalExecutor, Ready, ordered_map  # noqa: F401 (re-exported)

K = TypeVar("K")


class Executor(Protocol):
    name: str
    workers: int

    def map(self, fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]],
            batch: int | None = None, max_batch: int | None = None) -> Iterator[tuple[K, Any]]:
        """``(key, fn(payload))`` for each ``(key, payload)``, in input order; ``batch`` units to a task (None: the
        executor's default), never more than ``max_batch`` (units too large to carry many at once)."""

    def __enter__(self) -> "Executor":
        """Start what the executor needs (a Ray), once."""

    def __exit__(self, *exc: object) -> None:
        """Stop what :meth:`__enter__` started."""


def _local(workers: int, address: str | None = None) -> Executor:
    if address:
        from ..errors import FatalError
        raise FatalError(f"--address {address} is for the ray executor (--executor ray); the local executor runs on "
                         "this machine")
    return LocalExecutor(workers)


def _ray(workers: int, address: str | None = None) -> Executor:
    from .ray_cluster import RayExecutor  # here: importing sftdata never imports Ray
    return RayExecutor(workers, address=address)


EXECUTORS: dict[str, Callable[[int, str | None], Executor]] = {"local": _local, "ray": _ray}


def executor(name: str = "local", workers: int = 1, address: str | None = None) -> Executor:
    """The executor registered as ``name``, with ``workers`` workers (on the cluster at ``address``, if given)."""
    try:
        factory = EXECUTORS[name]
    except KeyError:
        from ..errors import FatalError
        raise FatalError(f"unknown executor {name!r}; choose one of {', '.join(sorted(EXECUTORS))}") from None
    return factory(workers, address)
