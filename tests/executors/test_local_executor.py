"""The local executor with batches (several units to a worker task): the same outcomes in the same order as one
unit at a time and as in-process (values, the exceptions units raise, Ready payloads between batches), what is in
flight bounded by the window of batches, and a worker that dies failing its units (a stage stops at the first),
never losing or reordering one."""
from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from sftdata.executors import LocalExecutor
from test_ray_executor import comparable, payloads, unit  # the units the ray executor is held to


@pytest.mark.parametrize("workers, batch", [(2, 1), (2, 5), (2, 64), (1, 5)])
def test_batches_give_the_outcomes_of_one_unit_at_a_time(workers, batch) -> None:
    items = payloads(120)
    alone = [(k, comparable(o)) for k, o in LocalExecutor(1).map(unit, items)]
    got = [(k, comparable(o)) for k, o in LocalExecutor(workers).map(unit, items, batch=batch)]
    assert got == alone and [k for k, _ in got] == [k for k, _ in items]
    assert got[13][1] == ("RecordError", "thirteen", "thirteen: unit 13") and got[17][1] == ("ready", 17)


def test_the_executors_own_batch_is_the_default() -> None:
    items = payloads(40)
    assert [(k, comparable(o)) for k, o in LocalExecutor(2, batch=7).map(unit, items)] == \
        [(k, comparable(o)) for k, o in LocalExecutor(1).map(unit, items)]


def test_the_window_bounds_what_is_in_flight() -> None:
    pulled = []

    def items():
        for n in range(1, 400):
            if n % 13 and n % 29:
                pulled.append(n)
                yield n, n

    results = LocalExecutor(2).map(unit, items(), batch=4)
    first = next(results)
    assert first == (1, (1, 1)) and len(pulled) <= 2 * 2 * 4 < 370  # twice the workers' batches, not the input
    assert len([k for k, _ in results]) == len(pulled) - 1


def test_max_batch_caps_the_batch(monkeypatch) -> None:
    """A stage's ``max_batch`` (units too large to carry many at once) wins over its batch and the executor's."""
    import sftdata.executors.local as local

    asked: list[int] = []
    real = local.batched
    monkeypatch.setattr(local, "batched", lambda items, size: asked.append(size) or real(items, size))
    items = payloads(30)
    got = [(k, comparable(o)) for k, o in LocalExecutor(2, batch=7).map(unit, items, max_batch=1)]
    assert asked == [1] and got == [(k, comparable(o)) for k, o in LocalExecutor(1).map(unit, items)]
    list(LocalExecutor(2).map(unit, items, batch=5))
    assert asked == [1, 5]  # no cap: the batch as given


def test_batched_asks_a_size_function_as_each_batch_begins() -> None:
    sizes = iter([1, 3, 2, 9])
    got = [keys for keys, _ in local_batched([(n, n) for n in range(8)], lambda: next(sizes))]
    assert got == [(0,), (1, 2, 3), (4, 5), (6, 7)]


def local_batched(items, size):
    from sftdata.executors.local import batched

    return batched(items, size)


def test_task_size_aims_at_the_task_time_within_floor_and_cap() -> None:
    from sftdata.executors.ray_cluster import TaskSize  # a plain record: Ray is not imported

    size = TaskSize(floor=2, cap=64, task_s=0.1)
    assert size() == 2  # nothing measured yet: the stage's batch
    size.add(units=4, seconds=0.016)  # 4 ms a unit: 25 to a 0.1 s task
    assert size() == 25
    size.add(units=96, seconds=0.0)  # cheaper units on average: more, up to the cap
    assert size() == 64
    assert TaskSize(floor=2, cap=64, task_s=0.1, units=1, seconds=3.0)() == 2  # slow units: never below the floor
    assert TaskSize(floor=4, cap=1, task_s=0.1)() == 1  # large units: the cap wins over the batch
    assert TaskSize(floor=1, cap=1, task_s=0.1, units=10, seconds=0.001)() == 1


def dies_at(n: int) -> int:
    if n == 9:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_dead_worker_fails_its_units_and_keeps_the_others_in_their_place() -> None:
    """Every unit has its outcome in its place: its value (a batch finished before the death), or the broken pool
    (the dead worker's batch, the batches in flight with it and those submitted after)."""
    got = list(LocalExecutor(2).map(dies_at, [(n, n) for n in range(40)], batch=4))
    assert [k for k, _ in got] == list(range(40))
    assert all(o == k or isinstance(o, BrokenProcessPool) for k, o in got)
    assert isinstance(got[9][1], BrokenProcessPool) and isinstance(got[8][1], BrokenProcessPool)  # its batch
