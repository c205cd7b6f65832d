"""Values from untrusted sources, checked before they become records: pixel coordinates, episode ids,
goals, and strict JSON (no ``NaN``/``Infinity``). Each failure is a :class:`~sftdata.errors.RecordError` with a
machine-readable reason.

>>> as_point([540, 1200], "click"), episode_id_of(7)
((540, 1200), '7')
"""
from __future__ import annotations

import difflib
import json
import math
import re
from typing import Any, Sequence

from .errors import FatalError, RecordError

Point = tuple[int, int]


class EpisodeError(RecordError, FatalError, ValueError):
    """A bad episodes.jsonl record: a RecordError where records are dropped with their reason (export,
    validate), a FatalError with one clear line where they cannot be (annotate, report)."""


class MalformedEpisode(EpisodeError):
    """An episodes.jsonl record that is not an episode (missing or mistyped fields): ``malformed_episode``."""

    def __init__(self, detail: str) -> None:
        super().__init__("malformed_episode", detail)


def whole_number(value: Any, what: str) -> int:
    """``value`` as an int when it is one (or an integral, finite float); booleans, strings, NaN, infinities
    and fractions raise RecordError(``bad_coordinates``).

    >>> whole_number(5, "x"), whole_number(5.0, "x")
    (5, 5)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise RecordError("bad_coordinates", f"{what} must be a whole number, got {str(value)[:40]!r}")


def pixel(value: Any, what: str) -> int:
    """A pixel coordinate: an int as it is, a finite float rounded half to even (Python's ``round``, as every
    loader rounds: 540.6 -> 541, 540.5 -> 540, 541.5 -> 542); booleans, strings, NaN and infinities raise
    RecordError(``bad_coordinates``).

    >>> pixel(540.6, "x"), pixel(540.5, "x"), pixel(541.5, "x"), pixel(7, "x")
    (541, 540, 542, 7)
    """
    if isinstance(value, float) and math.isfinite(value):
        return round(value)
    return whole_number(value, what)


def as_point(value: Any, what: str) -> Point | None:
    """``[x, y]`` (exactly two numbers, fractions rounded by :func:`pixel`) as a Point; None stays None; else
    ``bad_coordinates``.

    >>> as_point([540.6, 1200.4], "click"), as_point(None, "click")
    ((541, 1200), None)
    """
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise RecordError("bad_coordinates", f"{what} must be [x, y], got {str(value)[:60]}")
    return (pixel(value[0], what), pixel(value[1], what))


def episode_id_of(value: Any) -> str:
    """An episode id from a source: a string or an integer (never bytes, booleans or floats: ``bad_episode_id``).

    >>> episode_id_of(7), episode_id_of("ep-1")
    ('7', 'ep-1')
    """
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise RecordError("bad_episode_id", f"an episode id must be a non-empty string or an integer, got "
                      f"{type(value).__name__} {str(value)[:60]!r}")


def goal_of(value: Any) -> str:
    """The task goal: a non-empty string (``bad_goal`` for another type, ``empty_goal`` for a blank one)."""
    if not isinstance(value, str):
        raise RecordError("bad_goal", f"the goal must be a string, got {type(value).__name__}")
    if not value.strip():
        raise RecordError("empty_goal", "the goal is empty")
    return value


def _no_constant(name: str) -> Any:
    raise RecordError("non_finite_number", f"{name} is not a JSON number (only finite numbers are allowed)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordError("non_finite_number", f"{text[:40]} is too large for a JSON number")
    return value


# json.loads hooks that refuse what is not a finite JSON number (RecordError ``non_finite_number``)
FINITE_NUMBERS = {"parse_constant": _no_constant, "parse_float": _finite_float}


def loads_strict(text: str | bytes) -> Any:
    """Standard JSON only: ``NaN``/``Infinity`` (or ``1e999``) raise ``non_finite_number``, bad syntax
    ``malformed_json``."""
    try:
        return json.loads(text, **FINITE_NUMBERS)
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("malformed_json", "nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError("malformed_json", f"not valid JSON ({getattr(exc, 'msg', exc)})") from None


def size_of(text: Any, least: int = 1) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; a ValueError that says what was expected otherwise.

    >>> size_of("1080x2400"), size_of(" 1280 X 720 ")
    ((1080, 2400), (1280, 720))
    """
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(text))
    if not match:
        raise ValueError(f"expected WIDTHxHEIGHT, got {text!r}")
    width, height = int(match[1]), int(match[2])
    if min(width, height) < least:
        raise ValueError(f"{text} is too small (each side at least {least})")
    return width, height


def close_names(value: Any, names: Sequence[str]) -> list[str]:
    """The ``names`` that ``value`` is probably a typo of (difflib, any case), closest first."""
    folded = {n.casefold(): n for n in names}
    return [folded[c] for c in difflib.get_close_matches(str(value).casefold(), list(folded), n=3, cutoff=0.6)]


def known_name(value: Any, names: Sequence[str], what: str) -> str:
    """``value`` as one of ``names`` (a registry's names, an option's choices), written in any case; ValueError
    naming the close ones otherwise. The one lookup of every name a user types.

    >>> known_name("React-ZH", ["react-zh", "ui-tars"], "format")
    'react-zh'
    >>> known_name("reactzh", ["react-zh", "ui-tars"], "format")
    Traceback (most recent call last):
    ValueError: unknown format 'reactzh'; did you mean react-zh? (one of react-zh, ui-tars)
    """
    if value in names:
        return value
    folded = {n.casefold(): n for n in names}
    if isinstance(value, str) and value.casefold() in folded:
        return folded[value.casefold()]
    close = close_names(value, names)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise ValueError(f"unknown {what} {str(value)[:60]!r}{hint} (one of {', '.join(names)})")

