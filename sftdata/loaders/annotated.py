"""Human-annotated trajectories (one folder each) -> canonical episodes.

A folder holds the screenshots in step order (natural sort, or ``task.json["screenshots"]``) and a
``task.json``::

    {"goal": "...", "actions": ["OPEN APP Zoho Meeting", "CLICK [500,162]", "DONE"],
     "marked": true,              # frames carry the annotator's red marks (default: detected)
     "coordinates": "relative",   # 0..1000 (default) or "pixels"
     "instructions": [...]}       # optional, one per step

Frames may carry burned-in marks (red label, circle, arrow). Those marks are detected to recover omitted
coordinates and to cross-check given ones. Training frames never carry marks: ``clean/<same name>`` is used
byte for byte when present, otherwise the marks are inpainted away and the step is flagged ``meta.restored``
(a derived PNG, labelled as such). Inpainting only ever touches confirmed marks:

- ``"marked": true``: the frames are marked; a circle / arrow off the given coordinates is ``mark_mismatch``.
  Of several red rings the one at the action's point is the mark (an app's red ring icon is left alone).
- ``"marked": false``: nothing is searched; the frames are stored as they are.
- not stated: the frames count as marked only when some frame's label text *and* circle / arrow agree with its
  action (circle within the tolerance of the point, arrow along the swipe); then each frame's label and its
  matching circle / arrow are removed. Otherwise red that looks like a mark is the app's own (red UI text, a
  red ring icon): the frames are kept unmodified (``meta.marks_ignored``), never ``mark_mismatch`` -- unless a
  label band is there and the circle / arrow sits exactly where the 0..1000 coordinates would be read as pixels:
  that is ``mark_mismatch`` saying to set ``"coordinates": "pixels"`` (see :mod:`.annotated_action`).

A SWIPE that names only a direction and has no arrow takes the default geometry AndroidControl's scrolls take
(from the screen's centre, a third of the screen in the finger's direction); a list one action short whose last
action is not DONE is ``missing_done`` (the last screenshot needs DONE).

Web pages: ``"platform": "web"`` in task.json, with optional ``urls`` and ``elements`` per step
(:mod:`.web_task`) and the web actions (:mod:`.web_actions`: TYPE / 输入, SELECT / 选择, SCROLL / 向下滚动,
GO TO URL / 打开网址, NEW TAB, BACK, DONE; click, type and select point at a circle). The episode is
``platform="web"``; each step carries its ``url`` and elements, and a click / type / select names the smallest
interactive element under its point (``Action.element``, ``Action.target``). Marks are found the same way on
desktop-sized frames.

Screenshot checks (format from the bytes, usable sizes, EXIF orientation, hidden files) are in
:mod:`.images`. A folder or file name that is not valid UTF-8 is rejected as ``bad_path_encoding``: episode
ids must be text in every ledger and export, and a silently renamed id could collide with another folder.
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator

from PIL import Image

from ..errors import RecordError
from ..io import ImageStore, sha256_hex, text_for_output
from ..model import Episode, Screenshot, Step
from .action_text import RawAction, parse_action, parse_task
from .annotated_action import resolve_action  # noqa: F401 (re-exported)
from .colour import colour_at
from .images import IMAGE_SUFFIXES, MAX_FILE_BYTES, MAX_PIXELS, is_hidden, read_image  # noqa: F401 (re-exported)
from .screen_change import mark_steps, screen_grid
from .web_actions import parse_web_action
from .web_task import describe, element_at, elements_for, platform_of

SOURCE = "annotated"
TASK_FILE = "task.json"


@dataclass
class AnnotatedOptions:
    tolerance_px: float | None = None  # None: 2% of the frame's diagonal
    require_clean: bool = False
    ocr: bool = False  # phone frames without elements get OCR text lines (the ``ocr`` extra)


def natural_key(name: str) -> list[Any]:
    """Sort key that puts ``step2.png`` before ``step10.png``."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


def find_trajectories(root: Path) -> Iterator[Path]:
    """Every folder under ``root`` (``root`` included) that has a task.json, in natural order."""
    if (root / TASK_FILE).is_file():
        yield root
        return
    for child in sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: natural_key(p.name)):
        if child.name == "clean" or is_hidden(child.name):
            continue
        if child.is_symlink():  # never descend through links (loops); a linked trajectory is still checked
            if (child / TASK_FILE).is_file():
                yield child
            continue
        yield from find_trajectories(child)


def find_orphans(root: Path) -> Iterator[Path]:
    """Folders under ``root`` that hold screenshots but no task.json, lie in no trajectory and hold none: an annotator's
    folder whose task file is missing (ledgered as ``no_task_json``, never skipped in silence)."""
    if (root / TASK_FILE).is_file():
        return
    if (any(p.suffix.lower() in IMAGE_SUFFIXES and not is_hidden(p.name) and p.is_file() for p in root.iterdir())
            and next(find_trajectories(root), None) is None):  # a folder of trajectories is not one itself
        yield root
    for child in sorted((p for p in root.iterdir() if p.is_dir() and not p.is_symlink()),
                        key=lambda p: natural_key(p.name)):
        if child.name != "clean" and not is_hidden(child.name):
            yield from find_orphans(child)


def episode_id_for(folder: Path, root: Path) -> str:
    """The folder's path relative to ``root`` as found (symlinks are not followed for the id)."""
    try:
        rel = folder.relative_to(root).as_posix()
    except ValueError:
        rel = folder.name
    return folder.resolve().name if rel == "." else rel


def _is_text(name: str) -> bool:
    """False for a name holding undecodable bytes (Python keeps them as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _inside(path: Path, base: Path, what: str) -> Path:
    """``path`` resolved, or RecordError(path_escape) when it (or a symlink on the way) leaves ``base``."""
    resolved = path.resolve()
    if not resolved.is_relative_to(base.resolve()):
        raise RecordError("path_escape", f"{what} {path.name!r} points outside the trajectory folder")
    return resolved


def _read_task(folder: Path) -> dict[str, Any]:
    try:
        text = (folder / TASK_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("bad_task_json", f"{TASK_FILE} is unreadable: {exc}") from None
    return parse_task(text)  # goal, actions and option fields checked there


def _frames(folder: Path, task: dict[str, Any]) -> list[Path]:
    base = folder.resolve()
    if "screenshots" not in task:
        listed = sorted((p for p in folder.iterdir()
                         if p.suffix.lower() in IMAGE_SUFFIXES and not is_hidden(p.name) and p.is_file()),
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


def _check_count(actions: list, parsed: list[RawAction], frames: int) -> None:
    """One action per screenshot; a list one short whose last action is not DONE is told to end with DONE."""
    if len(actions) == frames:
        return
    if len(actions) == frames - 1 and len(parsed) == len(actions) and parsed[-1].type != "done":
        raise RecordError("missing_done", f"{frames} screenshots but {len(actions)} actions: the last screenshot "
                          "needs an action too, add DONE as the last action (one action per screenshot)")
    raise RecordError("action_count_mismatch", f"{len(actions)} actions for {frames} screenshots (one action per "
                      "screenshot, DONE on the last)")


def _check_done(actions: list[RawAction]) -> None:
    done_at = [i for i, a in enumerate(actions) if a.type == "done"]
    if not done_at:
        raise RecordError("missing_done", "the last action must be DONE (on the last screenshot)")
    if done_at != [len(actions) - 1]:
        raise RecordError("done_not_last", f"DONE at step(s) {done_at}; it must appear once, as the last action")


def _ocr_step(data: bytes, sha: str, store: ImageStore | None, marks, action, size):
    """OCR text lines of the training frame as the step's elements (never the annotator's label band), and the
    action's element: the smallest line under a tap."""
    from ..ocr import ocr_elements

    exclude = []
    if marks is not None and marks.label_band is not None:  # the band was inpainted: nothing there is the app's
        exclude.append((0, 0, size[0], marks.label_band[1] + 1))
    cache = store.run_dir / "ocr" if store is not None else None
    elements = ocr_elements(data, sha, cache_dir=cache, exclude=exclude)
    if action.type in ("click", "long_press") and action.point is not None and action.element is None:
        under = sorted((e for e in elements if e.contains(action.point)), key=lambda e: e.area)
        if under:
            action = replace(action, element=under[0])
    return elements, action


def _png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def load_trajectory(folder: Path, root: Path, store: ImageStore | None = None,
                    opts: AnnotatedOptions | None = None) -> Episode:
    """One trajectory folder -> Episode, or RecordError with the reason it cannot be used."""
    opts = opts or AnnotatedOptions()
    _inside(folder, root, "trajectory folder")
    episode_id = episode_id_for(folder, root)
    if not _is_text(episode_id):
        raise RecordError("bad_path_encoding", f"folder {text_for_output(episode_id)!r} is not valid UTF-8: rename it "
                          "(ids must be text in every ledger and export)")
    task = _read_task(folder)
    web = platform_of(task) == "web"
    frames = _frames(folder, task)
    for frame in frames:
        if not _is_text(frame.name):
            raise RecordError("bad_path_encoding", f"screenshot {text_for_output(frame.name)!r} is not a valid UTF-8 name")
    raws = []
    for i, value in enumerate(task["actions"]):
        try:
            raws.append(parse_web_action(value) if web else parse_action(value))
        except RecordError as exc:
            if len(frames) != len(task["actions"]):  # the count is the first thing to fix
                break
            raise RecordError(exc.reason, f"step {i + 1}: {exc.detail}") from None
    _check_count(task["actions"], raws, len(frames))
    _check_done(raws)
    instructions = task.get("instructions")
    if instructions is not None and (not isinstance(instructions, list) or len(instructions) != len(raws)):
        raise RecordError("bad_task_json", "'instructions' must be a list with one entry per action")
    clean_dir = folder / "clean"
    marked = task.get("marked")
    unit = task.get("coordinates", "relative")
    urls, page_elements = task.get("urls") or [None] * len(raws), task.get("elements") or [None] * len(raws)
    seen = []  # (frame, bytes, real extension, size, action, own marks, anything detected, grid, elements) per step
    for i, (frame, raw) in enumerate(zip(frames, raws)):
        data, image, ext = read_image(frame)
        marks = None
        if marked is not False:
            from ..overlay.detect import detect_marks  # OpenCV is only needed for marked frames

            marks = detect_marks(image)
        tolerance = opts.tolerance_px if opts.tolerance_px is not None else 0.02 * math.hypot(*image.size)
        try:
            action, own = resolve_action(raw, i, image, marks, unit, tolerance, trust=marked is True)
            elements = elements_for(page_elements[i], *image.size, i) if web else []
        except RecordError as exc:  # every detail names its step, 1-based
            if exc.detail.startswith(f"step {i + 1}:"):
                raise
            raise RecordError(exc.reason, f"step {i + 1}: {exc.detail}") from None
        target = element_at(elements, action.point) if action.point and action.type != "scroll" else None
        if target is not None:
            action = replace(action, element=target, target=describe(target))
        found = marks is not None and (marks.label_band is not None or marks.circle is not None
                                       or marks.arrow is not None)
        seen.append((frame, data, ext, image.size, action, own, found, screen_grid(image), elements))
        del image
    # task.json does not say: the frames count as marked when some frame's label and circle / arrow agree
    # with its action (an app's own red text or ring alone never does); then every frame's label is a mark too
    confirmed = marked is True or (marked is None and any(
        own.label_band is not None and (own.circle or own.arrow) for *_, own, _, _, _ in seen))
    steps: list[Step] = []
    grids = []  # the trained-on frame's grid per step, for the screen-change marks
    for i, (frame, data, ext, size, action, own, found, grid, elements) in enumerate(seen):
        meta: dict[str, Any] = {"frame": frame.name}
        has_marks = confirmed and own is not None and (own.label_band is not None or own.circle or own.arrow)
        if marked is None and found and not has_marks:
            meta["marks_ignored"] = True  # red that did not match the action: the frame is taken as clean
        train_bytes = data
        if clean_dir.is_dir():
            train_bytes, clean_image, ext = read_image(_inside(clean_dir / frame.name, folder, "clean frame"))
            if clean_image.size != size:
                raise RecordError("clean_size_mismatch", f"clean/{frame.name} is {clean_image.size}, "
                                  f"the marked frame {size}")
            meta["clean"] = True
            grid = screen_grid(clean_image)
            del clean_image
        elif has_marks:
            if opts.require_clean:
                raise RecordError("no_clean_frames", f"{frame.name} carries marks and there is no clean/ frame")
            from ..overlay.restore import remove_marks

            with Image.open(io.BytesIO(data)) as decoded:
                restored, mask = remove_marks(decoded.convert("RGB"), marks=own)
            if mask.any():  # a derived copy, labelled: the original bytes are not what is trained on
                train_bytes, ext = _png_bytes(restored), "png"
                meta["restored"] = True
                grid = screen_grid(restored)
        if action.type in ("click", "long_press") and action.point is not None:
            colour = colour_at(train_bytes, action.point)  # on the training frame: no annotator mark under it
            if colour:
                meta["target_colour"] = colour
        sha, path = store.put(train_bytes, ext) if store is not None else (sha256_hex(train_bytes), "")
        if opts.ocr and not web and not elements:
            try:
                elements, action = _ocr_step(train_bytes, sha, store, own if has_marks else None, action, size)
            except RecordError as exc:
                raise RecordError(exc.reason, f"step {i + 1}: {exc.detail}") from None
            meta["elements_from"] = "ocr"
        instruction = instructions[i] if instructions is not None else None
        steps.append(Step(index=i, screenshot=Screenshot(sha, path or ImageStore.relpath(sha, ext), *size),
                          action=action, instruction=instruction if isinstance(instruction, str) else None,
                          meta=meta, elements=elements, url=urls[i]))
        grids.append(grid)
    mark_steps(steps, grids)  # compares the frames as stored: clean or with the marks removed
    return Episode(id=episode_id, source=SOURCE, goal=task["goal"].strip(), steps=steps,
                   meta={"folder": episode_id, "marked": any(
                       s.meta.get("clean") or s.meta.get("restored") for s in steps)},
                   platform="web" if web else "mobile")
