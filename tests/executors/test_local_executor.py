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
