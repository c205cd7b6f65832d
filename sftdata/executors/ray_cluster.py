"""The ``ray`` executor: a stage's units as Ray tasks, on a Ray started here or on a cluster (``pip install
'sftdata[ray]'``; docs/cluster.md). Outcomes come back **in input order** with at most ``window`` tasks in flight
(twice the cluster's CPUs unless given), so the driver, the only writer of the ledgers and the manifest, writes the
same bytes as under the ``local`` executor. A task is a batch of units sized from what the units took so far: about
``task_s`` of a worker's CPU (:class:`TaskSize`), since each Ray task costs 2-6 ms of CPU between the driver, the
raylet and the worker (the more when its arguments or results pass 100 KB and go through the object store), as
much as an ingest unit: docs/cluster.md.

The rule for a unit's function (the stages' workers keep it): **a task is idempotent**. It returns its outcome and
writes nothing the driver reads back as a result; what it does write (the run's content-addressed image store) is
written atomically under a name fixed by the content, so a second attempt writes the same bytes. Ray runs a task
again when its worker process dies (``max_retries`` times), and the driver reads only the attempt that returned.

- ``RayExecutor(workers)`` starts a Ray on this machine bound to 127.0.0.1 (``workers`` CPUs, no dashboard, usage
  statistics off, a token for this run only kept in the environment, nothing written to the home folder), waits
  until each of its workers has run a first task (a fresh Ray's first task waits about 0.6 s for its worker: a
  start cost, paid here once, not in the first stage's time) and stops it on :meth:`~RayExecutor.close`;
- ``RayExecutor(workers, address="HOST:PORT")`` joins that cluster (``workers`` is then unused: the window follows
  the cluster's CPUs) and leaves it running; an address nobody answers is a :class:`~sftdata.errors.FatalError`
  within ``connect_timeout_s``, never a hang.

An exception the unit raised is its outcome, as the unit raised it (a ``RecordError`` keeps its reason); a unit
whose worker died on every attempt has a ``FatalError`` as its outcome, which stops the stage, and the run
resumes from there.

    with RayExecutor(2) as ex:
        for key, outcome in ex.map(build, units):
            ...
"""
from __future__ import annotations

import functools
import os
import secrets
import socket
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, TypeVar

from ..errors import FatalError
from .local import Raised, Ready, batched, call_batch

K = TypeVar("K")

# the environment of a Ray started here (its processes inherit it): loopback only, no usage report, a token for
# this run alone (an empty home folder is never written), and no other Ray picked up from RAY_ADDRESS
_LOCAL_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # Ray then takes 127.0.0.1 as this node's address
              "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token"}


@functools.cache
def _token() -> str:
    """This process's token for the Rays it starts (Ray's loader keeps the first token it reads)."""
    return secrets.token_hex(32)


def timed_batch(fn: Callable[[Any], Any], payloads: list[Any]) -> tuple[list[Any], float]:
    """A Ray task's body: the batch's outcomes (:func:`~sftdata.executors.local.call_batch`) and the CPU seconds
    the worker's thread spent on them, which size the tasks that follow (CPU, not wall time: a loaded machine would
    make the units look slower and the tasks smaller, while Ray's cost per task, CPU too, stays the same)."""
    start = time.thread_time()
    outcomes = call_batch(fn, payloads)
    return outcomes, time.thread_time() - start


def _nothing(_payload: Any) -> None:
    """The warm-up unit: the task around it is the point (a worker leased, the task function loaded)."""


@dataclass
class TaskSize:
    """Units to the next Ray task: enough for about ``task_s`` CPU seconds of a worker at the mean seconds per
    unit measured so far, never fewer than ``floor`` (the stage's batch; used alone until a task has returned) nor
    more than ``cap`` (the stage's ``max_batch`` for large units, else the executor's).

    >>> size = TaskSize(floor=2, cap=64, task_s=0.2)
    >>> size(), size.add(units=2, seconds=0.008), size()
    (2, None, 50)
    """

    floor: int
    cap: int
    task_s: float
    units: int = 0
    seconds: float = 0.0

    def __call__(self) -> int:
        cap = max(1, self.cap)
        if not self.units:
            return max(1, min(self.floor, cap))
        want = self.task_s * self.units / self.seconds if self.seconds > 0 else cap
        return max(1, min(cap, max(self.floor, int(want))))

    def add(self, units: int, seconds: float) -> None:
        self.units += units
        self.seconds += seconds


def _import_ray():
    try:
        import ray
    except ImportError:
        raise FatalError("the ray executor needs Ray: pip install 'sftdata[ray]' (or make ray)") from None
    return ray


def _reachable(address: str, timeout_s: float) -> None:
    """A FatalError unless something accepts a TCP connection at ``address`` (``HOST:PORT`` or
    ``ray://HOST:PORT``); ``auto`` and other forms are left to Ray."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise FatalError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None


class RayExecutor:
    """Units as Ray tasks, yielded in input order; a context manager (or call :meth:`close`).

    ``workers``: CPUs of the Ray started here (without ``address``). Units per task: from ``batch`` (the stage's,
    else this executor's ``batch``) up to ``max_batch`` (the stage's, else this executor's), aiming at ``task_s``
    CPU seconds of a worker per task (:class:`TaskSize`). ``window``: tasks in flight (default twice the
    cluster's CPUs, so at most ``window * max_batch`` units). ``max_retries``: attempts Ray adds when a task's worker
    dies (the whole batch runs again).
    """

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None, window: int | None = None,
                 batch: int = 1, max_batch: int = 64, task_s: float = 0.2, max_retries: int = 3,
                 connect_timeout_s: float = 10.0) -> None:
        self.workers = max(1, workers)
        self.address = address
        self.window = window
        self.batch, self.max_batch, self.task_s = max(1, batch), max(1, max_batch), task_s
        self.max_retries = max_retries
        self.connect_timeout_s = connect_timeout_s
        self._ray = None
        self._task = None  # the remote task function (timed_batch), made once
        self._started = False  # this executor started the Ray it uses (and stops it)
        self._joined = False  # this executor joined a cluster (and leaves it, the cluster running on)
        self._saved_env: dict[str, str | None] = {}

    def __enter__(self) -> "RayExecutor":
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Start (or join) Ray; a second call does nothing."""
        if self._ray is not None:
            return
        ray = _import_ray()
        if ray.is_initialized():  # inside a Ray job already: use it, leave it running
            self._ray, self._task = ray, self._remote(ray)
            return
        if self.address:
            _reachable(self.address, self.connect_timeout_s)
            try:
                ray.init(address=self.address, logging_level="warning", log_to_driver=False)
                self._joined = True
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise FatalError(f"cannot join the Ray cluster at {self.address}: {str(exc).splitlines()[0]}") \
                    from None
        else:
            self._start_local(ray)
        self._ray, self._task = ray, self._remote(ray)
        if self._started:
            self._warm_up()

    def _remote(self, ray) -> Any:
        return ray.remote(num_cpus=1, max_retries=self.max_retries)(timed_batch)

    def _warm_up(self) -> None:
        """One empty task per CPU of the Ray started here, waited for: a fresh Ray's first tasks wait about 0.6 s
        for a worker (leased, connected to this job, the task function loaded), a start cost, paid in the start."""
        self._ray.get([self._task.remote(_nothing, [None]) for _ in range(self.cpus())])

    def _start_local(self, ray) -> None:
        from ray._private import ray_constants
        from ray._raylet import Config

        env = {**_LOCAL_ENV, "RAY_AUTH_TOKEN": _token()}
        self._saved_env = {k: os.environ.get(k) for k in (*env, "RAY_ADDRESS")}
        os.environ.update(env)
        os.environ.pop("RAY_ADDRESS", None)
        ray_constants.ENABLE_RAY_CLUSTER = False  # read when Ray picks this node's address (after an earlier import)
        Config.initialize("")  # this process reads the token mode again (as Ray does when it turns tokens on)
        self._started = True
        try:
            context = ray.init(address="local", num_cpus=self.workers, include_dashboard=False,
                               logging_level="warning", log_to_driver=False)
        except Exception as exc:  # noqa: BLE001 - Ray's start failures have no common base
            self.close()
            raise FatalError(f"cannot start a local Ray: {str(exc).splitlines()[0] if str(exc) else exc!r}") \
                from None
        host = context.address_info["address"].rpartition(":")[0]
        if host != "127.0.0.1":
            self.close()
            raise FatalError(f"the local Ray listens on {host}, not 127.0.0.1 only: stopped")

    def close(self) -> None:
        """Stop the Ray this executor started (a joined cluster keeps running); restore the environment."""
        if self._joined:
            self._ray.shutdown()  # this driver leaves; the cluster goes on
            self._joined = False
        if self._started:
            import ray

            ray.shutdown()
            from ray._private import ray_constants
            from ray._raylet import Config

            ray_constants.ENABLE_RAY_CLUSTER = True
            for key, value in self._saved_env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            Config.initialize("")
            self._started = False
        self._ray = self._task = None

    def cpus(self) -> int:
        """The CPUs of the cluster this executor runs on."""
        self.open()
        return max(1, int(self._ray.cluster_resources().get("CPU", self.workers)))

    def map(self, fn: Callable[[Any], Any], items: Iterable[tuple[K, Any]],
            batch: int | None = None, max_batch: int | None = None) -> Iterator[tuple[K, Any]]:
        """``(key, fn(payload))`` for each ``(key, payload)``, in input order (see the module docstring); ``batch``:
        the fewest units to a task, ``max_batch`` the most (large units), as the stage declares them (default: this
        executor's)."""
        self.open()
        ray = self._ray
        window = self.window or 2 * self.cpus()
        size = TaskSize(floor=batch or self.batch, cap=max_batch or self.max_batch, task_s=self.task_s)
        fn_ref = ray.put(fn)  # once per map: a partial's constants are not sent again with each task
        pending: deque = deque()  # (keys, ref) of a submitted batch, or ((key,), Ready) in its place
        try:
            for keys, payloads in batched(items, size):
                ref = payloads if isinstance(payloads, Ready) else self._task.remote(fn_ref, payloads)
                pending.append((keys, ref))
                while len(pending) >= window:
                    yield from self._outcomes(*pending.popleft(), size)
            while pending:
                yield from self._outcomes(*pending.popleft(), size)
        finally:  # the consumer stopped early (--strict, an error): drop what is left
            if ray.is_initialized():  # (a Ray call after close would start a Ray of its own)
                for _keys, ref in pending:
                    if not isinstance(ref, Ready):
                        ray.cancel(ref)

    def _outcomes(self, keys: tuple, ref, size: TaskSize) -> Iterator[tuple[Any, Any]]:
        if isinstance(ref, Ready):
            yield keys[0], ref.value
            return
        ray = self._ray
        if ray is None or not ray.is_initialized():
            raise FatalError("the ray executor was closed before its map ended")
        try:
            got, seconds = ray.get(ref)
            size.add(len(keys), seconds)
        except ray.exceptions.RayTaskError as exc:  # raised outside the units (the batch's results did not pickle)
            got = [Raised(exc.cause if isinstance(exc.cause, Exception) else exc)] * len(keys)
        except ray.exceptions.RayError as exc:  # the worker died on every attempt, or its node was lost
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            error = FatalError(f"a Ray task died {self.max_retries + 1} times running units {keys[0]!r}.. "
                               f"({type(exc).__name__}: {first}); nothing from there on was ledgered: run the "
                               "same command again to resume")
            got = [Raised(error)] * len(keys)
        for key, outcome in zip(keys, got):
            yield key, outcome.error if isinstance(outcome, Raised) else outcome
