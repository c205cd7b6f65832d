"""A progress bar that costs nothing when none is shown: tqdm (about 25 ms to import) is loaded only for a bar
that will be drawn.

>>> with progress_bar(lambda: 3, progress=False, desc="x") as bar:
...     bar.update(1)
>>> type(bar).__name__
'NoBar'
"""
from __future__ import annotations

import sys
from typing import Any, Callable


class NoBar:
    """What a hidden bar does: nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "NoBar":
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: Callable[[], int | None], progress: bool | None, **kwargs: Any):
    """A tqdm bar, or :class:`NoBar` when ``progress`` is False, or None and stderr is not a terminal (tqdm's own
    rule for ``disable=None``). ``total`` is called only for a bar that is shown."""
    if progress is False or (progress is None and not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())):
        return NoBar()
    from tqdm import tqdm

    return tqdm(total=total(), **kwargs)
