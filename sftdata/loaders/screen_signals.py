"""Did a step change the screen? Decided from the cheapest signal that is sufficient; pixels only when none is.

For each pair of consecutive frames, in this order:

1. **the same bytes** (equal sha256) of an intact PNG: unchanged. Decoding gives the same grid twice, score 0.0.
2. **visible accessibility elements that differ** over at least :data:`TREE_MARGIN` times the grid cells a change
   needs (:data:`.screen_change.INEFFECTIVE_BELOW` of the cells below the status bar): changed. An element is
   compared by its bounds (cut to the screen below the status bar band) and its text, as a multiset, so a
   re-ordered tree is no difference, and neither are nodes not visible to the user, nodes of the status bar
   (the clock) or flags alone (a ticked box draws a few cells: the pixels decide it).
3. **otherwise** both frames are decoded and compared (:func:`.screen_change.screen_change`): an identical tree
   says nothing (the screen may still have changed), nor does a frame without visible elements (a tree that was
   not captured), nor a small difference (a counter going from 1 to 2 moves a handful of cells, maybe fewer than
   the threshold), nor a pair with a broken PNG (decoding it fails and the pair stays unmarked, as before).

The decisions are the ones decoding every frame gives, on every pair of the real fixtures, the synthetic sets
and a hostile set where trees lie (tests/loaders/test_screen_signals.py). The one assumption: a tree whose
visible elements differ over ``TREE_MARGIN`` x the threshold's cells describes a screen that changed; on the
real fixtures and the generated sets none of them differed over an unchanged screen. Step 2 records no score
(``meta["screen_change"]`` is present only when pixels were compared).

>>> from sftdata.model import Element
>>> a = [Element(0, (0, 300, 1080, 900), text="Wi-Fi", flags=("visible",))]
>>> b = [Element(0, (0, 300, 1080, 900), text="Bluetooth", flags=("visible",))]
>>> differing_cells(visible_signature(a, 1080, 2400), visible_signature(b, 1080, 2400), 1080, 2400)
2652
>>> differing_cells(visible_signature(a + b, 1080, 2400), visible_signature(b + a, 1080, 2400), 1080, 2400)
0
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np

from ..model import Element
from .screen_change import (GRID_COLUMNS, INEFFECTIVE_BELOW, STATUS_BAR, grid_or_none, is_ineffective,  # noqa: F401
                            png_intact, screen_change)

TREE_MARGIN = 2  # the differing elements must cover this many times the cells a change needs

Signature = Counter  # ((left, top, right, bottom), text) -> how many visible elements have it


@dataclass(frozen=True)
class Shot:
    """One frame as the decision sees it: its hash, whether its PNG is whole, and how to read its bytes (only
    called when the pixels must be compared)."""

    sha256: str
    width: int
    height: int
    intact: bool
    read: Callable[[], bytes]


def grid_geometry(width: int, height: int) -> tuple[int, int, int, int]:
    """(cell size in pixels, grid rows, grid columns, rows of the status bar band) of
    :func:`.screen_change.screen_grid` for a ``width`` x ``height`` frame.

    >>> grid_geometry(1080, 2400)
    (16, 150, 68, 8)
    """
    factor = max(1, width // GRID_COLUMNS)
    rows, columns = -(-height // factor), -(-width // factor)
    return factor, rows, columns, int(round(rows * STATUS_BAR))


def visible_signature(elements: Iterable[Element], width: int, height: int) -> Signature:
    """The visible elements below the status bar band, as a multiset of (bounds cut to that area, text). An
    element must reach a cell's height below the band: the fixtures' status bar nodes (the clock, the battery)
    end at row 136, 8 px below the band's 128, over pixels that are the bar's background."""
    factor, _, _, cut = grid_geometry(width, height)
    band = cut * factor
    out: Signature = Counter()
    for e in elements:
        if "visible" not in e.flags:
            continue
        left, top, right, bottom = e.bounds
        left, top, right, bottom = max(0, left), max(band, top), min(width, right), min(height, bottom)
        if right > left and bottom - top >= factor:  # a cell tall below the band: status bar nodes reach 8 px in
            out[((left, top, right, bottom), e.text)] += 1
    return out


def differing_cells(a: Signature, b: Signature, width: int, height: int) -> int:
    """Grid cells below the status bar covered by the elements of one signature that the other lacks."""
    factor, rows, columns, cut = grid_geometry(width, height)
    mask = np.zeros((rows, columns), dtype=bool)
    for (left, top, right, bottom), _ in (a - b) + (b - a):
        mask[top // factor:-(-bottom // factor), left // factor:-(-right // factor)] = True
    return int(np.count_nonzero(mask[cut:]))


def cells_for_a_change(width: int, height: int) -> int:
    """The fewest changed cells whose score is not ineffective (10 of 9,656 for 1080x2400).

    >>> cells_for_a_change(1080, 2400)
    10
    """
    _, rows, columns, cut = grid_geometry(width, height)
    return math.ceil(INEFFECTIVE_BELOW * (rows - cut) * columns)


def mark_steps_from_signals(steps: Sequence, shots: Sequence[Shot]) -> dict[str, int]:
    """Set ``meta["ineffective"]`` (and ``meta["screen_change"]`` where pixels were compared or the bytes are the
    same) on every step that has a following frame, as :func:`.screen_change.mark_steps` does with every frame
    decoded. ``shots[i]`` is step ``i``'s frame. Returns how many pairs each signal decided."""
    counts = {"same_bytes": 0, "elements": 0, "pixels": 0, "frames_decoded": 0}
    grids: dict[str, np.ndarray | None] = {}
    signatures: list[Signature | None] = [None] * len(shots)

    def signature(i: int) -> Signature:
        if signatures[i] is None:
            signatures[i] = visible_signature(steps[i].elements, shots[i].width, shots[i].height)
        return signatures[i]  # type: ignore[return-value]

    def grid(shot: Shot) -> np.ndarray | None:
        if shot.sha256 not in grids:
            counts["frames_decoded"] += 1
            grids[shot.sha256] = grid_or_none(shot.read())
        return grids[shot.sha256]

    for i, (step, before, after) in enumerate(zip(steps, shots, shots[1:])):
        whole = before.intact and after.intact
        if whole and before.sha256 == after.sha256:
            counts["same_bytes"] += 1
            step.meta["screen_change"] = 0.0
            step.meta["ineffective"] = True
            continue
        same_size = (before.width, before.height) == (after.width, after.height)
        if whole and same_size and signature(i) and signature(i + 1) and differing_cells(
                signature(i), signature(i + 1), after.width, after.height) >= TREE_MARGIN * cells_for_a_change(
                after.width, after.height):
            counts["elements"] += 1
            step.meta["ineffective"] = False
            continue
        a, b = grid(before), grid(after)
        if a is None or b is None:
            continue
        counts["pixels"] += 1
        score = screen_change(a, b)
        step.meta["screen_change"] = round(score, 4)
        step.meta["ineffective"] = is_ineffective(score)
    return counts
