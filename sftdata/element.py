"""An accessibility (or DOM) element of a step's screen, and the elements of a step read from JSON but not yet built.

>>> raw = RawElements([{"index": 0, "bounds": [0, 0, 10, 10], "text": "OK", "flags": ["clickable"]}])
>>> raw.build()[0].label, raw.build()[0].has("clickable")
('OK', True)
>>> RawElements([{"index": 0, "bounds": [0, 0, 10]}])
Traceback (most recent call last):
...
sftdata.values.MalformedEpisode: malformed_episode: an element's bounds are [left, top, right, bottom], got [0, 0, 10]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .values import MalformedEpisode, Point

ELEMENT_FLAGS = (
    "clickable", "long_clickable", "editable", "scrollable", "checkable", "checked",
    "focusable", "focused", "selected", "enabled", "visible",
)


@dataclass(frozen=True)
class Element:
    """One accessibility node with pixel bounds ``(left, top, right, bottom)``."""

    index: int
    bounds: tuple[int, int, int, int]
    text: str = ""
    desc: str = ""
    hint: str = ""
    class_name: str = ""
    resource_id: str = ""
    package: str = ""
    flags: tuple[str, ...] = ()
    depth: int = 0
    window: int = 0
    tag: str = ""  # web: the DOM tag (button, input, a, select...)
    attrs: tuple[tuple[str, str], ...] = ()  # web: attributes that identify the node (id, name, type, aria_label...)

    def attr(self, name: str) -> str:
        """A web attribute's value, '' when absent."""
        for key, value in self.attrs:
            if key == name:
                return value
        return ""

    @property
    def area(self) -> int:
        left, top, right, bottom = self.bounds
        return max(0, right - left) * max(0, bottom - top)

    @property
    def center(self) -> Point:
        left, top, right, bottom = self.bounds
        return ((left + right) // 2, (top + bottom) // 2)

    def contains(self, point: Point) -> bool:
        left, top, right, bottom = self.bounds
        return left <= point[0] < right and top <= point[1] < bottom

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def label(self) -> str:
        """The most human-readable name of the node: its text, else description, else hint."""
        return self.text or self.desc or self.hint

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "bounds": list(self.bounds)}
        for key in ("text", "desc", "hint", "class_name", "resource_id", "package"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        out["flags"] = list(self.flags)
        out["depth"] = self.depth
        out["window"] = self.window
        if self.tag:
            out["tag"] = self.tag
        if self.attrs:
            out["attrs"] = dict(self.attrs)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Element":
        # hot path (hundreds of nodes per step): JSON already gives ints, so no per-value conversion
        g = d.get
        bounds = tuple(d["bounds"])
        if len(bounds) != 4:
            raise MalformedEpisode(f"an element's bounds are [left, top, right, bottom], got {str(d['bounds'])[:40]}")
        return cls(d["index"], bounds, g("text", ""), g("desc", ""), g("hint", ""),  # type: ignore[arg-type]
                   g("class_name", ""), g("resource_id", ""), g("package", ""), tuple(g("flags", ())),
                   g("depth", 0), g("window", 0), g("tag", ""), _attrs(g("attrs")))


def check_element(d: dict[str, Any]) -> None:
    """Raise what :meth:`Element.from_dict` raises for ``d``, in the same order, without building the element."""
    g = d.get
    bounds = tuple(d["bounds"])
    if len(bounds) != 4:
        raise MalformedEpisode(f"an element's bounds are [left, top, right, bottom], got {str(d['bounds'])[:40]}")
    d["index"]  # noqa: B018 - a missing index is a KeyError, as in from_dict
    tuple(g("flags", ()))
    _attrs(g("attrs"))


def _attrs(value: Any) -> tuple[tuple[str, str], ...]:
    if not value:
        return ()
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise MalformedEpisode("an element's attrs must be an object of strings")
    return tuple(value.items())


class RawElements:
    """A step's elements as read from JSON: each checked at once (a malformed one fails the episode where it is
    read, as before), built into :class:`Element` objects only when the step's ``elements`` are first read."""

    __slots__ = ("dicts",)

    def __init__(self, dicts: Iterable[dict[str, Any]]) -> None:
        self.dicts = list(dicts)
        for d in self.dicts:
            check_element(d)

    def build(self) -> list[Element]:
        return [Element.from_dict(d) for d in self.dicts]
