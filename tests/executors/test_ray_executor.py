"""The ray executor against the local one, on a Ray started on 127.0.0.1: the same outcomes in the same order
(values, the exceptions units raise, Ready payloads), a worker killed mid-map retried with every result yielded
once, an address nobody answers refused in one line, and no Ray imported by importing sftdata."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from sftdata.errors import FatalError, RecordError
from sftdata.executors import LocalExecutor, Ready
from support import ROOT

BOUND_S = 120  # the most any child process here may take: a hang fails, it never blocks the suite


def unit(n: int) -> tuple[int, int]:
    """A unit that fails like the stages' units do: a RecordError with a reason, or an unexpected error."""
    if n % 13 == 0:
        raise RecordError("thirteen", f"unit {n}")
    if n % 29 == 0:
        raise ValueError(f"unexpected in {n}")
    return n, n * n


def payloads(count: int) -> list[tuple[str, object]]:
    return [(f"k{n}", Ready(("ready", n)) if n % 17 == 0 else n) for n in range(count)]


def comparable(outcome: object) -> object:
    if isinstance(outcome, BaseException):
        return type(outcome).__name__, getattr(outcome, "reason", None), str(outcome)
    return outcome


def sleeps_once(marker: str, n: int) -> tuple[int, int]:
    """Unit 5 reports its worker's pid in ``marker`` and sleeps there, the first time only (the retry runs
    through): the test kills that worker while it sleeps."""
    if n == 5 and not os.path.exists(marker):
        with open(f"{marker}.tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(f"{marker}.tmp", marker)
        time.sleep(BOUND_S)
    return n, os.getpid()


@pytest.fixture(scope="module")
def ray_executor():
    pytest.importorskip("ray")  # the marker skips first; this keeps the import out of collection
    from ray import cloudpickle

    from sftdata.executors.ray_cluster import RayExecutor

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # Ray's workers cannot import a test module
    with RayExecutor(2) as ex:
        yield ex


@pytest.mark.ray
def test_same_outcomes_and_order_as_local(ray_executor) -> None:
    items = payloads(300)
    local = [(k, comparable(o)) for k, o in LocalExecutor(2).map(unit, items)]
    got = [(k, comparable(o)) for k, o in ray_executor.map(unit, items)]
    assert got == local
    assert [k for k, _ in got] == [k for k, _ in items]
    assert got[13][1] == ("RecordError", "thirteen", "thirteen: unit 13")  # the reason survives the trip
    assert got[29][1][0] == "ValueError" and got[17][1] == ("ready", 17)


@pytest.mark.ray
def test_exception_is_the_units_own_object(ray_executor) -> None:
    [(key, outcome)] = list(ray_executor.map(unit, [("a", 26)]))
    assert key == "a" and type(outcome) is RecordError and outcome.reason == "thirteen"


@pytest.mark.ray
def test_on_the_local_ray_only(ray_executor) -> None:
    import ray

    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert [n["NodeManagerAddress"] for n in nodes] == ["127.0.0.1"]
    assert ray_executor.cpus() == 2


@pytest.mark.ray
def test_window_bounds_what_is_in_flight(ray_executor) -> None:
    pulled = []

    def items():
        for n in range(400):
            pulled.append(n)
            yield n, n

    results = ray_executor.map(unit, items())
    first = next(results)
    in_flight = 2 * ray_executor.cpus() * ray_executor.max_batch  # tasks of at most `max_batch` units, twice the CPUs
    assert first[0] == 0 and len(pulled) <= in_flight < 400  # not the whole input up front
    assert [k for k, _ in results] == list(range(1, 400))


@pytest.mark.ray
def test_tasks_grow_from_the_stages_batch_and_never_pass_max_batch(ray_executor) -> None:
    """Units of microseconds: after the first task returns, tasks carry ``max_batch`` units (many units in flight
    for one consumed); a stage's ``max_batch`` of 1 keeps one unit to a task (a window of units in flight)."""
    pulled = []

    def items(count):
        pulled.clear()
        for n in range(count):
            pulled.append(n)
            yield n, n * 13 + 1  # never a multiple of 13 or 29: every unit succeeds

    window = 2 * ray_executor.cpus()
    results = ray_executor.map(abs, items(3000), batch=1)
    consumed = [next(results) for _ in range(200)]
    assert [k for k, _ in consumed] == list(range(200)) and len(pulled) > 200 + window
    assert [k for k, _ in results] == list(range(200, 3000))
    results = ray_executor.map(abs, items(300), batch=4, max_batch=1)
    assert next(results) == (0, 1) and len(pulled) <= window
    assert [k for k, _ in results] == list(range(1, 300))


@pytest.mark.ray
def test_killed_worker_is_retried_and_nothing_lost_or_doubled(ray_executor, tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    killed: list[int] = []

    def kill_when_reported() -> None:
        deadline = time.monotonic() + BOUND_S
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if marker.exists():
            pid = int(marker.read_text())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    killer = threading.Thread(target=kill_when_reported, daemon=True)
    killer.start()
    got = list(ray_executor.map(partial(sleeps_once, str(marker)), [(n, n) for n in range(12)]))
    killer.join(BOUND_S)
    assert killed, "the sleeping unit never reported its pid"
    assert [k for k, _ in got] == list(range(12))
    assert all(isinstance(o, tuple) and o[0] == k for k, o in got), got
    assert got[5][1][1] != killed[0]  # unit 5's result came from the retry, in another process


def _refused_address() -> str:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.ray
def test_unreachable_address_is_one_line_not_a_hang() -> None:
    address = _refused_address()
    code = ("from sftdata.executors.ray_cluster import RayExecutor\n"
            "from sftdata.errors import FatalError\n"
            f"try:\n    RayExecutor(2, address={address!r}, connect_timeout_s=5).open()\n"
            "except FatalError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND_S, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cannot reach the Ray cluster at {address}"), done.stdout


def test_fatal_error_without_a_listener_in_process() -> None:
    """The reachability check alone (no Ray needed): refused at once, with the address in the line."""
    from sftdata.executors.ray_cluster import _reachable

    address = _refused_address()
    with pytest.raises(FatalError, match=f"cannot reach the Ray cluster at {address}"):
        _reachable(address, timeout_s=5)


def test_importing_sftdata_never_imports_ray() -> None:
    code = ("import sys, sftdata.cli_base, sftdata.executors, sftdata.ingest, sftdata.export.stage\n"
            "from sftdata.executors import EXECUTORS\n"
            "assert 'ray' in EXECUTORS and 'ray' not in sys.modules, sorted(m for m in sys.modules if 'ray' in m)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND_S, cwd=ROOT)
    assert done.returncode == 0, done.stderr
