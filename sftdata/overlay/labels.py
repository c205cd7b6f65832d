"""The annotator's label: glyph-sized red components chained into text lines; the label is the first line if it
starts in the top 5% of the frame's longer side, plus the lines wrapped below it (red text lines elsewhere are app
text). The longer side, not the height: the label's size and margin grow with the width, so on a landscape desktop
frame it reaches further down in proportion to the height than on a portrait phone."""
from __future__ import annotations

import numpy as np


def text_lines(stats: np.ndarray, ids: np.ndarray, glyph_max: int) -> list[list[int]]:
    """Glyph-sized components chained side by side into lines of >= 3 (red text), top line first."""
    cand = sorted((int(i) for i in ids if stats[i, 3] <= glyph_max and stats[i, 2] <= 2 * glyph_max),
                  key=lambda i: stats[i, 0])
    parent = {i: i for i in cand}

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for pos, a in enumerate(cand):
        ax, ay, aw, ah = stats[a, :4]
        for b in cand[pos + 1:]:
            if stats[b, 0] > ax + aw + glyph_max:
                break
            if min(ay + ah, stats[b, 1] + stats[b, 3]) - max(ay, stats[b, 1]) > 0.3 * min(ah, stats[b, 3]):
                parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in cand:
        groups.setdefault(root(i), []).append(i)
    # a mark touching the text is taller than the line's letters: not part of the line
    lines = [[i for i in g if stats[i, 3] <= 1.4 * float(np.median(stats[g, 3])) + 2] for g in groups.values()]
    return sorted((g for g in lines if len(g) >= 3), key=lambda g: int(stats[g, 1].min()))


def find_label(lines: list[list[int]], stats: np.ndarray, extent: int, glyph_max: int) -> list[int]:
    """The first text line if it starts in the top 5% of ``extent`` (the frame's longer side), plus the lines
    wrapped below it."""
    label: list[int] = []
    bottom = 0  # lowest row of the label so far
    for line in lines:
        top = int(stats[line, 1].min())
        if (not label and top > 0.05 * extent) or (label and top > bottom + glyph_max // 2):
            break
        label += line
        bottom = int((stats[label, 1] + stats[label, 3]).max())
    return label

