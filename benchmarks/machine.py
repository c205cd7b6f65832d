"""The machine a benchmark ran on, printed with its figures: CPU model, usable cores, Python."""
from __future__ import annotations

import os
import sys
from pathlib import Path


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
