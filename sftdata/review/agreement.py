"""Agreement between people and machines on the reviewed items: Cohen's kappa, raw agreement, and the
human-rated alignment rate with a Wilson 95% interval.

A reviewed item is aligned for the human when its decision is ``accept`` (``edit`` and ``reject`` say the
generated item was not good as it stood). The judge's label is its ``aligned`` verdict, the rules' label is
``check_items`` passing on the generated item.

>>> agreement_figures([True, True, False, False], [True, False, False, False])
{'n': 4, 'raw_agreement': 0.75, 'kappa': 0.5}
"""
from __future__ import annotations

import math
from typing import Sequence


def raw_agreement(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Share of pairs with the same label (None for no pairs).

    >>> raw_agreement([True, False, True], [True, True, True])
    0.6667
    """
    if len(a) != len(b):
        raise ValueError("label lists differ in length")
    if not a:
        return None
    return round(sum(x == y for x, y in zip(a, b)) / len(a), 4)


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two raters' binary labels: (p_o - p_e) / (1 - p_e). None for no pairs; 1.0 when both
    raters give one and the same label throughout (p_e = 1 and full agreement), 0.0 when p_e = 1 otherwise.

    >>> cohen_kappa([True, True, False, False], [True, False, True, False])
    0.0
    >>> cohen_kappa([True, True, True, False, False, False], [True, True, False, False, False, False])
    0.6667
    >>> cohen_kappa([True, False], [False, True])
    -1.0
    >>> cohen_kappa([True, True], [True, True])
    1.0
    """
    if len(a) != len(b):
        raise ValueError("label lists differ in length")
    n = len(a)
    if not n:
        return None
    p_o = sum(x == y for x, y in zip(a, b)) / n
    pa, pb = sum(a) / n, sum(b) / n
    p_e = pa * pb + (1 - pa) * (1 - pb)
    if p_e >= 1.0:
        return 1.0 if p_o >= 1.0 else 0.0
    return round((p_o - p_e) / (1 - p_e), 4)


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float] | None:
    """Wilson score interval of a proportion (95% for the default z). None for n = 0.

    >>> wilson_interval(8, 10)
    (0.4902, 0.9433)
    >>> wilson_interval(0, 5)
    (0.0, 0.4345)
    """
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def agreement_figures(machine: Sequence[bool], human: Sequence[bool]) -> dict:
    """``n``, raw agreement and kappa of one machine rater against the human labels."""
    return {"n": len(human), "raw_agreement": raw_agreement(machine, human), "kappa": cohen_kappa(machine, human)}


def alignment_rate(human: Sequence[bool]) -> dict:
    """The human-rated alignment rate with its Wilson 95% interval.

    >>> alignment_rate([True] * 8 + [False] * 2)
    {'n': 10, 'aligned': 8, 'rate': 0.8, 'ci95': [0.4902, 0.9433]}
    """
    n, k = len(human), sum(human)
    ci = wilson_interval(k, n)
    return {"n": n, "aligned": k, "rate": round(k / n, 4) if n else None, "ci95": list(ci) if ci else None}
