"""Human-annotated trajectories (one folder each) -> canonical episodes.

A folder holds the screenshots in step order (natural sort, or ``task.json["screenshots"]``) and a
``task.json``::

    {"goal": "...", "actions": ["OPEN APP Zoho Meeting", "CLICK [500,162]", "DONE"],
     "marked": true,              # frames carry the annotator's red marks (default: detected)
     "coordinates": "relative",   # 0..1000 (default) or "pixels"
     "instructions": [...]}       # optional, one per step

Frames may carry burned-in marks (red label, circle, arrow). Those marks are detected to recover omitted
coordinates and to cross-check given ones (``mark_mismatch`` beyond the tolerance). Training frames never carry
marks: ``clean/<same name>`` is used byte for byte when present, otherwise the marks are inpainted away and
the step is flagged ``meta.restored``.
"""
from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from PIL import Image

from ..errors import RecordError
from ..io import ImageStore, sha256_hex
from ..model import Action, Episode, Screenshot, Step, finger_direction, from_relative
from .action_text import RawAction, parse_action

SOURCE = "annotated"
TASK_FILE = "task.json"
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp"}
MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 256 << 20


@dataclass
class AnnotatedOptions:
    tolerance_px: float | None = None  # None: 2% of the frame's diagonal
    require_clean: bool = False


def natural_key(name: str) -> list[Any]:
    """Sort key that puts ``step2.png`` before ``step10.png``."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


def find_trajectories(root: Path) -> Iterator[Path]:
    """Every folder under ``root`` (``root`` included) that has a task.json, in natural order."""
    if (root / TASK_FILE).is_file():
        yield root
        return
    for child in sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: natural_key(p.name)):
        if child.name == "clean":
            continue
        if child.is_symlink():  # never descend through links (loops); a linked trajectory is still checked
            if (child / TASK_FILE).is_file():
                yield child
            continue
        yield from find_trajectories(child)


def episode_id_for(folder: Path, root: Path) -> str:
    """The folder's path relative to ``root`` as found (symlinks are not followed for the id)."""
    try:
        rel = folder.relative_to(root).as_posix()
    except ValueError:
        rel = folder.name
    return folder.resolve().name if rel == "." else rel


def _inside(path: Path, base: Path, what: str) -> Path:
    """``path`` resolved, or RecordError(path_escape) when it (or a symlink on the way) leaves ``base``."""
    resolved = path.resolve()
    if not resolved.is_relative_to(base.resolve()):
        raise RecordError("path_escape", f"{what} {path.name!r} points outside the trajectory folder")
    return resolved


def _read_task(folder: Path) -> dict[str, Any]:
    try:
        task = json.loads((folder / TASK_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError("bad_task_json", f"{TASK_FILE} is unreadable: {exc}") from None
    if not isinstance(task, dict) or not isinstance(task.get("actions"), list):
        raise RecordError("bad_task_json", f"{TASK_FILE} needs an object with an 'actions' list")
    if not isinstance(task.get("goal"), str) or not task["goal"].strip():
        raise RecordError("missing_goal", f"{TASK_FILE} has no goal")
    if task.get("coordinates", "relative") not in ("relative", "pixels"):
        raise RecordError("bad_task_json", "'coordinates' must be 'relative' or 'pixels'")
    return task


def _frames(folder: Path, task: dict[str, Any]) -> list[Path]:
    base = folder.resolve()
    if "screenshots" not in task:
        listed = sorted((p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
                        key=lambda p: natural_key(p.name))
        return [_inside(p, base, "screenshot") for p in listed]
    names = task["screenshots"]
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("bad_task_json", "'screenshots' must be a list of file names")
    frames = []
    for name in names:
        path = (folder / name).resolve()
        if not path.is_relative_to(base):
            raise RecordError("path_escape", f"screenshot {name!r} points outside the trajectory folder")
        frames.append(path)
    return frames


def read_image(path: Path) -> tuple[bytes, Image.Image]:
    """The file's bytes and its decoded RGB image, refusing non-images and decompression bombs early."""
    if not path.is_file():
        raise RecordError("missing_screenshot", f"{path.name} does not exist")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RecordError("image_too_large", f"{path.name} is {path.stat().st_size} bytes")
    data = path.read_bytes()
    try:
        with Image.open(io.BytesIO(data)) as probe:
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise RecordError("image_too_large", f"{path.name} is {width}x{height}, over "
                                  f"{MAX_PIXELS // 1_000_000} megapixels")
            image = probe.convert("RGB")
    except RecordError:
        raise
    except Image.DecompressionBombError as exc:  # over PIL's own limit, refused before decoding
        raise RecordError("image_too_large", f"{path.name}: {exc}") from None
    except Exception as exc:  # PIL raises many kinds for broken files
        raise RecordError("unreadable_image", f"{path.name} is not a readable image: {exc}") from None
    return data, image


def _to_pixels(xy: tuple[float, float], width: int, height: int, unit: str) -> tuple[int, int]:
    if unit == "relative":
        if not all(0 <= v <= 1000 for v in xy):
            raise RecordError("point_outside_screen", f"{list(xy)} is outside the 0..1000 range")
        return from_relative(xy, width, height)
    x, y = round(xy[0]), round(xy[1])
    if not (0 <= x < width and 0 <= y < height):
        raise RecordError("point_outside_screen", f"({x}, {y}) is outside the {width}x{height} frame")
    return (x, y)


def _check(given: tuple[int, int], found: tuple[int, int], tolerance: float, what: str, i: int) -> None:
    distance = math.dist(given, found)
    if distance > tolerance:
        raise RecordError("mark_mismatch", f"step {i}: task.json {what} {list(given)} but the mark is at "
                          f"{list(found)} ({distance:.0f} px apart, tolerance {tolerance:.0f} px)")


def _px(point) -> tuple[int, int]:
    """A detected mark position as whole pixels."""
    return (int(round(point[0])), int(round(point[1])))


def resolve_action(raw: RawAction, i: int, image: Image.Image, marks, unit: str, tolerance: float) -> Action:
    """Canonical action for step ``i``: coordinates from task.json, cross-checked against (or recovered
    from) the detected ``marks`` (None when the frame is clean)."""
    w, h = image.size
    point = _to_pixels(raw.point, w, h, unit) if raw.point is not None else None
    end = _to_pixels(raw.end, w, h, unit) if raw.end is not None else None
    if raw.type in ("click", "long_press"):
        circle = marks.circle if marks is not None else None
        if point is None:
            if circle is None:
                raise RecordError("missing_coordinates" if marks is None else "mark_not_found",
                                  f"step {i}: {raw.type} has no coordinates and no circle mark to recover them from")
            point = _px(circle.point)
        elif circle is not None:
            _check(point, _px(circle.point), tolerance, "point", i)
    elif raw.type == "swipe":
        arrow = marks.arrow if marks is not None else None
        if point is None:
            if arrow is None:
                raise RecordError("missing_coordinates" if marks is None else "mark_not_found",
                                  f"step {i}: swipe has no coordinates and no arrow mark to recover them from")
            point = _px(arrow.start)
            end = _px(arrow.end)
        elif arrow is not None:
            _check(point, _px(arrow.start), tolerance, "swipe start", i)
            _check(end, _px(arrow.end), tolerance, "swipe end", i)
        if point == end:
            raise RecordError("bad_action", f"step {i}: swipe starts and ends at {list(point)}")
        if raw.direction and finger_direction(point, end) != raw.direction:
            raise RecordError("mark_mismatch", f"step {i}: SWIPE {raw.direction.upper()} but the arrow goes "
                              f"{finger_direction(point, end)}")
    return Action(raw.type, point=point, end=end, text=raw.text, app=raw.app)


def _check_done(actions: list[RawAction]) -> None:
    done_at = [i for i, a in enumerate(actions) if a.type == "done"]
    if not done_at:
        raise RecordError("missing_done", "the last action must be DONE")
    if done_at != [len(actions) - 1]:
        raise RecordError("done_not_last", f"DONE at step(s) {done_at}; it must appear once, as the last action")


def _png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def load_trajectory(folder: Path, root: Path, store: ImageStore | None = None,
                    opts: AnnotatedOptions | None = None) -> Episode:
    """One trajectory folder -> Episode, or RecordError with the reason it cannot be used."""
    opts = opts or AnnotatedOptions()
    _inside(folder, root, "trajectory folder")
    task = _read_task(folder)
    frames = _frames(folder, task)
    if len(frames) != len(task["actions"]):
        raise RecordError("action_count_mismatch",
                          f"{len(task['actions'])} actions for {len(frames)} screenshots (one action per screenshot)")
    raws = []
    for i, value in enumerate(task["actions"]):
        try:
            raws.append(parse_action(value))
        except RecordError as exc:
            raise RecordError(exc.reason, f"step {i}: {exc.detail}") from None
    _check_done(raws)
    instructions = task.get("instructions")
    if instructions is not None and (not isinstance(instructions, list) or len(instructions) != len(raws)):
        raise RecordError("bad_task_json", "'instructions' must be a list with one entry per action")
    clean_dir = folder / "clean"
    marked = task.get("marked")
    unit = task.get("coordinates", "relative")
    steps: list[Step] = []
    for i, (frame, raw) in enumerate(zip(frames, raws)):
        data, image = read_image(frame)
        marks = None
        if marked is not False:
            from ..overlay.detect import detect_marks  # OpenCV is only needed for marked frames

            marks = detect_marks(image)
            if marked is None and marks.circle is None and marks.arrow is None and marks.label_band is None:
                marks = None
        tolerance = opts.tolerance_px if opts.tolerance_px is not None else 0.02 * math.hypot(*image.size)
        action = resolve_action(raw, i, image, marks, unit, tolerance)
        meta: dict[str, Any] = {"frame": frame.name}
        clean = clean_dir / frame.name
        if clean_dir.is_dir():
            train_bytes, clean_image = read_image(_inside(clean, folder, "clean frame"))
            if clean_image.size != image.size:
                raise RecordError("clean_size_mismatch", f"clean/{frame.name} is {clean_image.size}, "
                                  f"the marked frame {image.size}")
            meta["clean"] = True
        elif marks is not None:
            if opts.require_clean:
                raise RecordError("no_clean_frames", f"{frame.name} carries marks and there is no clean/ frame")
            from ..overlay.restore import remove_marks

            restored, _ = remove_marks(image)
            train_bytes = _png_bytes(restored)
            meta["restored"] = True
        else:
            train_bytes = data
        ext = "png" if meta.get("restored") else frame.suffix.lower().lstrip(".").replace("jpeg", "jpg")
        sha, path = store.put(train_bytes, ext) if store is not None else (sha256_hex(train_bytes), "")
        instruction = instructions[i] if instructions is not None else None
        steps.append(Step(index=i, screenshot=Screenshot(sha, path or ImageStore.relpath(sha, ext), *image.size),
                          action=action, instruction=instruction if isinstance(instruction, str) else None,
                          meta=meta))
    return Episode(id=episode_id_for(folder, root), source=SOURCE, goal=task["goal"].strip(), steps=steps,
                   meta={"folder": episode_id_for(folder, root), "marked": any(
                       s.meta.get("clean") or s.meta.get("restored") for s in steps)})
