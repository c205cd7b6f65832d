"""AndroidControl (Google Research, 2024) records -> canonical episodes.

One ``tf.train.Example`` per episode: N actions, N+1 screenshots and accessibility forests. The loader adds a
final ``done`` step on the last screenshot so every screenshot has exactly one action. Release action types map
to canonical ones; ``scroll`` (a *content* direction, no coordinates) becomes a finger ``swipe`` the opposite
way, starting at the centre of the largest visible scrollable element (DESIGN.md).

>>> to_canonical({"action_type": "navigate_back"}, [], 1080, 2400).type
'back'
>>> to_canonical({"action_type": "scroll", "direction": "down"}, [], 1080, 2400).direction
'up'
"""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from google.protobuf.message import DecodeError

from ..errors import RecordError
from ..io import ImageStore, sha256_hex
from ..model import OPPOSITE, Action, Episode, Screenshot, Step
from ..values import episode_id_of
from .a11y import decode_forest, scroll_gesture, smallest_containing
from .protos import parse_example
from .screen_signals import Shot, mark_steps_from_signals, png_intact

SOURCE = "androidcontrol"
_SIMPLE = {"navigate_back": "back", "navigate_home": "home", "wait": "wait"}
MAX_PIXELS = 50_000_000  # a screenshot larger than this is refused from its header, never decoded
REQUIRED_FEATURES = ("episode_id", "goal", "screenshots", "screenshot_widths", "screenshot_heights", "actions")
BYTES_FEATURES = ("goal", "screenshots", "actions", "step_instructions", "accessibility_trees")  # never numbers


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, without decoding pixels.

    >>> png_size(bytes.fromhex("89504e470d0a1a0a0000000d49484452") + (1080).to_bytes(4, "big") + (2400).to_bytes(4, "big"))
    (1080, 2400)
    """
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise RecordError("bad_screenshot", "screenshot is not a PNG (bad signature or missing IHDR)")
    return struct.unpack(">II", data[16:24])


@dataclass(frozen=True)
class StoredPng:
    """A screenshot already in the run's image store, handed to an ingest worker in place of its bytes: the key,
    the header (signature and IHDR, for the size checks) and whether its chunks are whole."""

    sha256: str
    path: str  # relative to the run
    head: bytes
    intact: bool


def stage_screenshots(features: dict[str, list[Any]], store: ImageStore) -> dict[str, list[Any]]:
    """``features`` with each screenshot stored and replaced by its :class:`StoredPng`, so a worker process
    receives keys, never pixels. A screenshot whose header the checks would refuse stays bytes: the worker
    rejects the record for it as before, and it is never stored.

    >>> import tempfile
    >>> png = bytes.fromhex("89504e470d0a1a0a0000000d49484452") + (8).to_bytes(4, "big") * 2 + bytes(20)
    >>> shot = stage_screenshots({"screenshots": [png]}, ImageStore(tempfile.mkdtemp()))["screenshots"][0]
    >>> shot.path.startswith("images/"), shot.intact
    (True, False)
    """
    staged = []
    for png in features["screenshots"]:
        try:
            width, height = png_size(png)
        except RecordError:
            staged.append(png)
            continue
        if width * height > MAX_PIXELS:
            staged.append(png)
            continue
        sha, path = store.put(png)
        staged.append(StoredPng(sha, path, bytes(png[:33]), png_intact(png)))
    return {**features, "screenshots": staged}


def _point(action: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    if isinstance(action.get("x"), bool) or isinstance(action.get("y"), bool):
        raise RecordError("bad_action", f"{action.get('action_type')} with a boolean coordinate: {action}")
    try:
        x, y = int(round(float(action["x"]))), int(round(float(action["y"])))
    except (KeyError, TypeError, ValueError, OverflowError):
        raise RecordError("bad_action", f"{action.get('action_type')} without numeric x/y: {action}") from None
    if not (0 <= x < width and 0 <= y < height):
        raise RecordError("point_outside_screen", f"({x}, {y}) is outside the {width}x{height} screenshot")
    return x, y


def to_canonical(action: dict[str, Any], elements, width: int, height: int) -> Action:
    """One release action (parsed JSON) -> canonical :class:`Action` on a ``width`` x ``height`` screen."""
    kind = action.get("action_type")
    if not isinstance(kind, str):
        raise RecordError("bad_action", "action without an action_type" if kind is None
                          else f"action_type must be a string, got {str(kind)[:60]!r}")
    if kind in ("click", "long_press"):
        point = _point(action, width, height)
        return Action(kind, point=point, element=smallest_containing(elements, point))
    if kind == "scroll":
        content = str(action.get("direction", "")).lower()
        if content not in OPPOSITE:
            raise RecordError("bad_action", f"scroll with direction {action.get('direction')!r}")
        start, end = scroll_gesture(elements, width, height, OPPOSITE[content])
        return Action("swipe", point=start, end=end)
    if kind == "input_text":
        if not isinstance(action.get("text"), str):
            raise RecordError("bad_action", f"input_text without text: {action}")
        return Action("input", text=action["text"])
    if kind == "open_app":
        if not isinstance(action.get("app_name"), str) or not action["app_name"].strip():
            raise RecordError("bad_action", f"open_app without an app_name string: {action}"[:300])
        return Action("open_app", app=str(action["app_name"]))
    if kind in _SIMPLE:
        return Action(_SIMPLE[kind])
    raise RecordError("unknown_action", f"action type {kind!r} is not in the AndroidControl action space")


def _text(value: bytes, what: str) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("bad_text", f"{what} is not valid UTF-8") from None


def _action_json(raw: bytes, i: int) -> Any:
    """Action ``i``'s JSON, parsed; ``bad_action_json`` for text that is not JSON (or nests beyond reason)."""
    text = _text(raw, f"action {i + 1}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise RecordError("bad_action_json", f"action {i + 1} is not valid JSON ({reason}): {text[:80]!r}") from None


def decode_features(data: bytes) -> dict[str, list[Any]]:
    """A record's features, checked for presence and value kinds (``bad_feature_type``: numbers where the
    release stores bytes)."""
    try:
        features = parse_example(data)
    except DecodeError as exc:
        raise RecordError("bad_example", f"record is not a tf.train.Example: {exc}") from None
    missing = [k for k in REQUIRED_FEATURES if k not in features]
    if missing:
        raise RecordError("missing_feature", f"missing feature(s): {', '.join(missing)}")
    if len(features["episode_id"]) != 1 or len(features["goal"]) != 1:
        raise RecordError("bad_example", "episode_id and goal must hold exactly one value")
    for name in BYTES_FEATURES:
        wrong = next((v for v in features.get(name, ()) if not isinstance(v, bytes)), None)
        if wrong is not None:
            raise RecordError("bad_feature_type", f"feature {name!r} holds {type(wrong).__name__} values; the "
                              "release stores it as bytes")
    return features


def episode_from_features(features: dict[str, list[Any]], store: ImageStore | None = None,
                          meta: dict[str, Any] | None = None, *, screen_change: bool = True) -> Episode:
    """Build the canonical episode; screenshots go into ``store`` byte for byte (only hashed when None).

    ``screen_change``: mark steps whose action left the screen unchanged (``step.meta["ineffective"]``), from
    the cheapest sufficient signal: the same bytes, differing visible elements, else the pixels of the pair
    (see :mod:`.screen_signals`). ``features["screenshots"]`` holds PNG bytes, or :class:`StoredPng` keys
    (:func:`stage_screenshots`, then ``store`` is the run's image store)."""
    shots, widths, heights = features["screenshots"], features["screenshot_widths"], features["screenshot_heights"]
    actions = [_action_json(a, i) if a else {} for i, a in enumerate(features["actions"])]
    instructions = [_text(s, "step instruction") for s in features.get("step_instructions", [])]
    trees = features.get("accessibility_trees", [])
    n = len(actions)
    if len(shots) != n + 1 or len(widths) != n + 1 or len(heights) != n + 1:
        raise RecordError("inconsistent_lengths", f"{n} actions need {n + 1} screenshots and sizes; got "
                          f"{len(shots)} screenshots, {len(widths)} widths, {len(heights)} heights")
    if trees and len(trees) != n + 1:
        raise RecordError("inconsistent_lengths", f"{len(trees)} accessibility trees for {n + 1} screenshots")
    if instructions and len(instructions) != n:
        raise RecordError("inconsistent_lengths", f"{len(instructions)} step instructions for {n} actions")
    steps: list[Step] = []
    frames: list[Shot] = []
    for i, png in enumerate(shots):
        width, height = png_size(png.head if isinstance(png, StoredPng) else png)
        if width * height > MAX_PIXELS:
            raise RecordError("image_too_large", f"screenshot {i + 1} is {width}x{height}, over "
                              f"{MAX_PIXELS // 1_000_000} megapixels")
        if (width, height) != (widths[i], heights[i]):
            raise RecordError("screenshot_size_mismatch", f"screenshot {i + 1} is {width}x{height}, "
                              f"the record says {widths[i]}x{heights[i]}")
        if isinstance(png, StoredPng):
            sha, path = png.sha256, png.path
            frames.append(Shot(sha, width, height, png.intact, (store.run_dir / path).read_bytes))  # type: ignore[union-attr]
        else:
            if store is not None:
                sha, path = store.put(png)
            else:
                sha = sha256_hex(png)
                path = ImageStore.relpath(sha)
            frames.append(Shot(sha, width, height, png_intact(png), lambda png=png: png))
        elements = decode_forest(trees[i]) if trees else []
        if i < n:
            if not isinstance(actions[i], dict):
                raise RecordError("bad_action", f"action {i + 1} is not a JSON object")
            try:
                action = to_canonical(actions[i], elements, width, height)
            except ValueError as exc:  # the model refused an impossible action
                raise RecordError("bad_action", f"action {i + 1}: {exc}") from None
        else:
            action = Action("done")
        steps.append(Step(index=i, screenshot=Screenshot(sha, path, width, height), action=action,
                          instruction=instructions[i] if i < n and instructions else None, elements=elements))
    if screen_change:  # after every check: a rejected record is never decoded (and most pairs never are)
        mark_steps_from_signals(steps, frames)
    return Episode(id=episode_id_of(features["episode_id"][0]), source=SOURCE, goal=_text(features["goal"][0], "goal"),
                   steps=steps, meta=dict(meta or {}))


def load_splits(path: str | Path) -> dict[str, str]:
    """``splits.json`` ({split name: [episode ids]}) -> {episode id: split name}."""
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: expected an object of split name -> episode id list")
    return {str(ep): name for name, ids in raw.items() for ep in ids}


def iter_episodes(paths: Iterable[str | Path], store: ImageStore | None = None) -> Iterator[Episode | RecordError]:
    """Library convenience: every record of ``paths`` as an Episode, or the RecordError that dropped it."""
    from .tfrecord import read_tfrecords

    for path in paths:
        for frame in read_tfrecords(path):
            if frame.error is not None:
                yield frame.error
                continue
            try:
                yield episode_from_features(decode_features(frame.data), store,  # type: ignore[arg-type]
                                            meta={"record": {"file": Path(path).name, "index": frame.index}})
            except RecordError as exc:
                yield exc
