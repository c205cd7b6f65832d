"""Points and directions on a screenshot: the finger's direction of a swipe, and seed-002 relative coordinates
(0..1000 on both axes) to and from pixels. Re-exported by :mod:`sftdata.model`."""
from __future__ import annotations

from .values import Point

RELATIVE_MAX = 1000  # seed 002's relative coordinates: 0..RELATIVE_MAX on both axes, whatever the frame's size


def finger_direction(start: Point, end: Point) -> str:
    """Direction the finger moves from ``start`` to ``end`` (the dominant axis wins).

    >>> finger_direction((500, 1500), (500, 700))
    'up'
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    if dx == 0 and dy == 0:
        raise ValueError(f"a swipe needs distinct start and end points, got {start} twice")
    if abs(dy) >= abs(dx):
        return "down" if dy > 0 else "up"
    return "right" if dx > 0 else "left"


def to_relative(point: Point, width: int, height: int) -> tuple[int, int]:
    """Pixels -> seed 002 relative coordinates (0..1000 on both axes).

    >>> to_relative((540, 1200), 1080, 2400)
    (500, 500)
    """
    return (min(RELATIVE_MAX, max(0, round(point[0] * RELATIVE_MAX / width))),
            min(RELATIVE_MAX, max(0, round(point[1] * RELATIVE_MAX / height))))


def from_relative(rel: tuple[float, float], width: int, height: int) -> Point:
    """Seed 002 relative coordinates (0..1000) -> pixels of a ``width`` x ``height`` frame.

    >>> from_relative((500, 500), 1080, 2400)
    (540, 1200)
    """
    x = min(width - 1, max(0, round(rel[0] * width / RELATIVE_MAX)))
    y = min(height - 1, max(0, round(rel[1] * height / RELATIVE_MAX)))
    return (int(x), int(y))
