"""What a benchmark prints with its figures: the machine (CPU model, usable cores, Python), the load before and
after, and min / median / max of interleaved rounds (each round runs every contender once, in turn, so a burst of
load from elsewhere falls on all of them)."""
from __future__ import annotations

import os
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


def interleaved(contenders: dict[str, Callable[[], object]], rounds: int,
                between: Callable[[], object] | None = None) -> dict[str, list[float]]:
    """Seconds of each contender in each of ``rounds`` rounds, the contenders taking turns within a round.
    ``between`` runs untimed before every timed call (dropping the page cache, a fresh output folder)."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            if between is not None:
                between()
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
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
