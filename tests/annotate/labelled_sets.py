"""What the labelled-set builders and benchmarks share: the ids already in a side file, a run spec, the sets."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator


def written_ids(path: str, key: str) -> set[str]:
    """The ``key`` of every line already in ``path`` (empty when it does not exist yet)."""
    try:
        return {json.loads(line)[key] for line in open(path, encoding="utf-8")}
    except FileNotFoundError:
        return set()


def run_spec(spec: str) -> tuple[str, float]:
    """``RUN[:SHARE]`` -> (run, share of its steps to keep)."""
    run, _, share = spec.partition(":")
    return run, float(share or 1)


def labelled_sets(folder: Path, names: tuple[str, ...]) -> Iterator[tuple[str, list[dict] | None]]:
    """(name, records) for each set of ``names`` in ``folder``; records None for a set that is absent."""
    for name in names:
        path = folder / name
        if not path.exists():
            yield name, None
            continue
        yield name, [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
