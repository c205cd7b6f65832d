"""What a benchmark prints with its figures: the machine (CPU model, usable cores, Python), the load before and
after, and min / median / max of interleaved rounds (each round runs every contender once, in turn, so a burst of
load from elsewhere falls on all of them). Beside wall-clock seconds, :func:`interleaved` keeps the CPU seconds
of this process and its finished children: on a machine shared with other work they move much less with the load.
"""
from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Callable


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model}, {cores} cores, Python {sys.version.split()[0]}"


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


CPU: dict[str, list[float]] = {}  # the CPU seconds of the last interleaved() call, by contender


def cpu_seconds() -> float:
    """User + system seconds of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def live_descendants_cpu() -> dict[str, float]:
    """CPU seconds (user + system) so far of this process's descendants still running, summed by command name
    (``ray::IDLE`` and ``ray::timed_batch`` as ``ray::``): the processes of a Ray this process started (its raylet,
    GCS and workers), which :func:`cpu_seconds` cannot count before they end."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[tuple[int, str, float]]] = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat:
            name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
            name = "ray::" if name.startswith("ray::") else name  # a Ray worker renames itself after its task
            cpu = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
            children.setdefault(int(fields[1]), []).append((int(entry.name), name, cpu))
    totals: dict[str, float] = {}
    stack = [os.getpid()]
    while stack:
        for pid, name, cpu in children.get(stack.pop(), []):
            totals[name] = totals.get(name, 0.0) + cpu
            stack.append(pid)
    return totals


def interleaved(contenders: dict[str, Callable[[], object]], rounds: int,
                between: Callable[[], object] | None = None) -> dict[str, list[float]]:
    """Wall-clock seconds of each contender in each of ``rounds`` rounds, the contenders taking turns within a
    round (their CPU seconds go to :data:`CPU`). ``between`` runs untimed before every timed call (dropping the
    page cache, a fresh output folder)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    CPU.clear()
    CPU.update({name: [] for name in contenders})
    for _ in range(rounds):
        for name, fn in contenders.items():
            if between is not None:
                between()
            c0, t0 = cpu_seconds(), time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
            CPU[name].append(cpu_seconds() - c0)
    return times


def spread(values: list[float], scale: float = 1.0, digits: int = 2) -> str:
    """``min / median / max`` of ``values`` times ``scale``."""
    return " / ".join(f"{v * scale:.{digits}f}" for v in (min(values), statistics.median(values), max(values)))


def ratios(top: list[float], bottom: list[float]) -> list[float]:
    """Round by round ratios of two interleaved contenders."""
    return [a / b for a, b in zip(top, bottom)]


def header(what: str) -> None:
    print(f"machine: {machine()}; {load()} (start); {what}")


def footer() -> None:
    print(f"{load()} (end)")


def evict(paths) -> str:
    """Drop ``paths`` (files) from the page cache so the next read comes from the disk: ``posix_fadvise(DONTNEED)``
    on each file after a ``sync`` (no root needed, other processes' cached files untouched). Returns what is left
    cached, as ``fincore`` reports it, or why it could not be checked."""
    import subprocess

    paths = [str(p) for p in paths]
    subprocess.run(["sync"], check=False)
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return cached(paths)


def cached(paths) -> str:
    """``"<cached> of <total> MB in the page cache"`` for ``paths``, from util-linux's ``fincore``."""
    import shutil
    import subprocess

    paths = [str(p) for p in paths]
    if not shutil.which("fincore"):
        return "page cache not checked (no fincore)"
    held = total = 0
    for start in range(0, len(paths), 500):
        out = subprocess.run(["fincore", "--bytes", "--noheadings", "--raw", "--output", "RES,SIZE",
                              *paths[start:start + 500]], capture_output=True, text=True).stdout
        for line in out.splitlines():
            res, size = line.split()
            held, total = held + int(res), total + int(size)
    if held >= total:  # fincore counts whole pages: a file's last one rounds up
        return f"all {total / 1e6:.0f} MB in the page cache"
    return f"{held / 1e6:.0f} of {total / 1e6:.0f} MB in the page cache"
