"""Canonical episode model: every source loads into these records, every stage reads them.

Coordinates are absolute pixels of the step's own screenshot. Seed-002 style relative coordinates
(0..1000 on both axes) exist only at the edges and are converted with :func:`to_relative` /
:func:`from_relative`.

An episode's ``platform`` is ``mobile`` (phone screens; the default, not written) or ``web`` (browser pages).
Web steps may carry the page ``url`` and, when the step's image is a viewport-sized crop of a taller page,
``meta["crop"]`` = ``{"page": <Screenshot of the whole page>, "box": [left, top, right, bottom]}`` in page
pixels (see :func:`crop_of`); the step's elements and action are in pixels of the crop. Web actions add
``type`` (text into an element), ``select`` (an option of a dropdown, its value in ``text``), ``scroll``
(``direction`` is where the *view* moves: ``down`` reveals what is below, unlike a swipe's finger direction),
``go_to_url`` and ``new_tab`` (``url``). A web recording that has no screen after its last action (Mind2Web)
sets ``meta["no_final_screen"]`` and ends without ``done``: no screen exists to decide it on.

>>> a = Action("swipe", point=(540, 1600), end=(540, 800))
>>> a.direction
'up'
>>> Action.from_dict(a.to_dict()) == a
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from .errors import RecordError
from .element import ELEMENT_FLAGS, Element, RawElements  # noqa: F401 (re-exported)
from .geometry import finger_direction, from_relative, to_relative  # noqa: F401 (re-exported)
from .values import (EpisodeError, MalformedEpisode, Point, as_point, episode_id_of,  # noqa: F401 (re-exported)
                     goal_of, loads_strict)

MOBILE_ACTIONS = ("click", "long_press", "swipe", "input", "open_app", "back", "home", "wait", "done")
WEB_ACTIONS = ("type", "select", "scroll", "go_to_url", "new_tab")  # web pages also click, go back and are done
ACTION_TYPES = MOBILE_ACTIONS + WEB_ACTIONS
ELEMENT_ACTIONS = ("click", "long_press", "type", "select")  # actions aimed at a place on the screen
PLATFORMS = ("mobile", "web")
DIRECTIONS = ("up", "down", "left", "right")
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


@dataclass(frozen=True)
class Action:
    """A canonical action. ``direction`` of a swipe is the finger's and is derived from point->end."""

    type: str
    point: Point | None = None
    end: Point | None = None
    direction: str | None = None
    text: str | None = None
    app: str | None = None
    element: Element | None = None
    target: str | None = None  # a description of the target element, for formats that name it in words
    url: str | None = None  # go_to_url / new_tab: the address

    def __post_init__(self) -> None:
        for name in ("point", "end"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, as_point(value, f"{self.type} {name}"))
        if self.type not in ACTION_TYPES:
            raise ValueError(f"unknown action type {self.type!r}; expected one of {', '.join(ACTION_TYPES)}")
        for name in ("direction", "text", "app", "target", "url"):
            if not isinstance(getattr(self, name), (str, type(None))):
                raise RecordError("bad_action", f"a {self.type} action's {name} must be a string, got "
                                  f"{type(getattr(self, name)).__name__}")
        if self.type in ("click", "long_press") and self.point is None and not self.target:
            raise ValueError(f"a {self.type} action needs a point or a target description")
        if self.type == "swipe":
            if (self.point is None) != (self.end is None):
                raise ValueError("a swipe action needs both a start and an end point, or neither")
            if self.point is None:
                if self.direction not in DIRECTIONS:
                    raise ValueError("a swipe action needs points or a direction")
            else:
                derived = finger_direction(self.point, self.end)  # type: ignore[arg-type]
                if self.direction is None:
                    object.__setattr__(self, "direction", derived)
                elif self.direction != derived:
                    raise ValueError(f"swipe direction {self.direction!r} disagrees with its points ({derived!r})")
        if self.type in ("input", "type") and self.text is None:
            raise ValueError(f"an {self.type} action needs text")
        if self.type in ("type", "select") and self.point is None and self.element is None and not self.target:
            raise ValueError(f"a {self.type} action needs a point, an element or a target description")
        if self.type == "select" and not self.text:
            raise ValueError("a select action needs the option's value as text")
        if self.type == "scroll" and self.direction not in DIRECTIONS:
            raise ValueError("a scroll action needs a direction (where the view moves)")
        if self.type == "go_to_url" and not self.url:
            raise ValueError("a go_to_url action needs a url")
        if self.type == "open_app" and not self.app:
            raise ValueError("an open_app action needs an app name")

    def to_dict(self) -> dict[str, Any]:
        out = {
            "type": self.type,
            "point": list(self.point) if self.point is not None else None,
            "end": list(self.end) if self.end is not None else None,
            "direction": self.direction,
            "text": self.text,
            "app": self.app,
            "element": self.element.to_dict() if self.element is not None else None,
        }
        if self.target is not None:
            out["target"] = self.target
        if self.url is not None:
            out["url"] = self.url
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Action":
        element = d.get("element")
        return cls(
            type=d["type"], point=d.get("point"), end=d.get("end"),
            direction=d.get("direction"), text=d.get("text"), app=d.get("app"),
            element=Element.from_dict(element) if element is not None else None, target=d.get("target"),
            url=d.get("url"),
        )


@dataclass(frozen=True)
class Screenshot:
    """A screenshot in the run's content-addressed image store (``path`` is relative to the run)."""

    sha256: str
    path: str
    width: int
    height: int

    def to_dict(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "path": self.path, "width": self.width, "height": self.height}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Screenshot":
        path = d["path"]
        if (not isinstance(path, str) or not path or path.startswith(("/", "\\"))
                or ".." in path.replace("\\", "/").split("/")):
            raise MalformedEpisode(f"a screenshot path is relative to the run and stays inside it, "
                                   f"got {str(path)[:60]!r}")
        return cls(sha256=d["sha256"], path=path, width=_size(d["width"], "width"),
                   height=_size(d["height"], "height"))


def _size(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise MalformedEpisode(f"screenshot {what} must be a positive integer, got {str(value)[:40]!r}")


@dataclass
class Step:
    index: int
    screenshot: Screenshot
    action: Action
    instruction: str | None = None
    elements: list[Element] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    url: str | None = None  # web: the page's address when the source knows it

    def __post_init__(self) -> None:
        if self.url is not None and not isinstance(self.url, str):
            raise MalformedEpisode(f"step {self.index + 1}: url must be a string")
        w, h = self.screenshot.width, self.screenshot.height
        for point in (self.action.point, self.action.end):
            if point is not None and not (0 <= point[0] < w and 0 <= point[1] < h):
                raise RecordError("point_outside_screen", f"step {self.index + 1}: {list(point)} is outside the "
                                  f"{w}x{h} screenshot")

    def to_dict(self) -> dict[str, Any]:
        out = {
            "index": self.index,
            "screenshot": self.screenshot.to_dict(),
            "action": self.action.to_dict(),
            "instruction": self.instruction,
            "elements": [e.to_dict() for e in self.elements],
        }
        if self.meta:
            out["meta"] = self.meta
        if self.url is not None:
            out["url"] = self.url
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Step":
        return cls(
            index=_index(d["index"]), screenshot=Screenshot.from_dict(d["screenshot"]),
            action=Action.from_dict(d["action"]), instruction=d.get("instruction"),
            elements=RawElements(d.get("elements", ())), meta=dict(d.get("meta", {})),
            url=d.get("url"),
        )


def _get_elements(step: Step) -> list[Element]:
    elements = step.__dict__["_elements"]
    if type(elements) is RawElements:  # read from JSON, checked, not built yet: build them now, once
        elements = step.__dict__["_elements"] = elements.build()
    return elements


def _set_elements(step: Step, elements: list[Element]) -> None:
    step.__dict__["_elements"] = elements


# Step.elements is built when read: a step read from episodes.jsonl keeps its elements' JSON objects (checked as
# Element.from_dict checks them) until something asks for them; most stages never do (export of a format that
# lists no elements reads about 260 per step of AndroidControl for nothing)
Step.elements = property(_get_elements, _set_elements)  # type: ignore[assignment]


def _index(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise MalformedEpisode(f"step index must be a non-negative integer, got {str(value)[:40]!r}")


@dataclass
class Episode:
    """A task: its goal and its steps. Invariants (RecordError otherwise): ``id`` a non-empty string, ``goal``
    a non-empty string (``bad_goal``/``empty_goal``), at least one action before ``done`` (``no_actions``)."""

    id: str
    source: str
    goal: str
    steps: list[Step]
    meta: dict[str, Any] = field(default_factory=dict)
    platform: str = "mobile"  # or "web"; written only when not mobile, so mobile records are unchanged

    @property
    def web(self) -> bool:
        return self.platform == "web"

    @property
    def ends_with_done(self) -> bool:
        """False for a recording with no screen after its last action (``meta["no_final_screen"]``)."""
        return not self.meta.get("no_final_screen")

    def __post_init__(self) -> None:
        if self.platform not in PLATFORMS:
            raise RecordError("bad_platform", f"platform must be one of {', '.join(PLATFORMS)}, got "
                              f"{str(self.platform)[:40]!r}")
        if not isinstance(self.id, str) or not self.id.strip():
            raise RecordError("bad_episode_id", f"an episode id must be a non-empty string, got {self.id!r}"[:120])
        goal_of(self.goal)
        if all(s.action.type == "done" for s in self.steps):
            raise RecordError("no_actions", f"episode {self.id} has no action"
                              + (" before done" if self.steps else "s"))

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "source": self.source, "goal": self.goal, "meta": self.meta,
               "steps": [s.to_dict() for s in self.steps]}
        if self.platform != "mobile":
            out["platform"] = self.platform
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Any) -> "Episode":
        """An episode record, or RecordError: ``malformed_episode`` for a missing or mistyped field, or the
        specific reason of a bad value (``bad_episode_id``, ``bad_goal``, ``bad_coordinates``, ...)."""
        if not isinstance(d, dict):
            raise MalformedEpisode(f"an episode is a JSON object, got {type(d).__name__}")
        missing = [k for k in ("id", "source", "goal", "steps") if k not in d]
        if missing:
            raise MalformedEpisode(f"episode record without {', '.join(map(repr, missing))}")
        if not isinstance(d["steps"], list):
            raise MalformedEpisode("'steps' must be a list")
        try:
            if not isinstance(d["source"], str):
                raise MalformedEpisode(f"'source' must be a string, got {type(d['source']).__name__}")
            return cls(id=episode_id_of(d["id"]), source=d["source"], goal=goal_of(d["goal"]),
                       meta=dict(d.get("meta") or {}), steps=[Step.from_dict(s) for s in d["steps"]],
                       platform=d.get("platform", "mobile"))
        except EpisodeError:
            raise
        except RecordError as exc:
            raise EpisodeError(exc.reason, f"episode {str(d['id'])[:60]}: {exc.detail}") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise MalformedEpisode(f"episode {str(d['id'])[:60]}: {type(exc).__name__}: {exc}"[:300]) from None

    @classmethod
    def from_json(cls, line: str | bytes) -> "Episode":
        """One episodes.jsonl line -> Episode; EpisodeError (``malformed_json``, ``non_finite_number``, ...)."""
        try:
            record = loads_strict(line)
        except RecordError as exc:
            raise EpisodeError(exc.reason, exc.detail) from None
        return cls.from_dict(record)


def check_episode(episode: Episode) -> list[str]:
    """Structural problems of an episode (empty when it is well formed): one action per screenshot,
    ``done`` last and only last, steps numbered 0..N-1."""
    problems = []
    if not episode.steps:
        return ["episode has no steps"]
    for i, step in enumerate(episode.steps):
        if step.index != i:
            problems.append(f"step {i + 1}: index is {step.index}")
        if step.action.type == "done" and i != len(episode.steps) - 1:
            problems.append(f"step {i + 1}: done before the last step")
    if episode.steps[-1].action.type != "done" and episode.ends_with_done:
        problems.append(f"step {len(episode.steps)}: last action is {episode.steps[-1].action.type}, not done")
    return problems


def crop_of(step: Step) -> tuple[Screenshot, tuple[int, int, int, int]] | None:
    """The whole page a web step's image was cut from and the cut's box in page pixels, or None.

    >>> page = Screenshot("1" * 64, "images/p.png", 1280, 5000)
    >>> shot = Screenshot("2" * 64, "images/c.png", 1280, 720)
    >>> crop_of(Step(0, shot, Action("done"), meta={"crop": {"page": page.to_dict(), "box": [0, 900, 1280, 1620]}}))
    (Screenshot(sha256='11...', path='images/p.png', width=1280, height=5000), (0, 900, 1280, 1620))
    """
    crop = step.meta.get("crop")
    if not crop:
        return None
    left, top, right, bottom = (int(v) for v in crop["box"])
    return Screenshot.from_dict(crop["page"]), (left, top, right, bottom)


def action_histogram(episodes: Iterable[Episode]) -> dict[str, int]:
    counts = {t: 0 for t in ACTION_TYPES}
    for ep in episodes:
        for step in ep.steps:
            counts[step.action.type] += 1
    return {k: v for k, v in counts.items() if v}
