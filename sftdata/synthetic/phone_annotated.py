"""A small set of human-annotated phone trajectories, generated: the synthetic phone episodes of :mod:`.sample`
(drawn screens whose every frame follows its action) written the way annotators hand them in, one folder each
(the annotated-folder input format): the screenshots with the annotator's red marks burned in by the overlay's
own drawing (:func:`sftdata.overlay.draw.annotator_image`: the action's label at the top, a circle on the point
tapped, an arrow along a swipe) and a ``task.json`` with the goal, one action per screenshot in seed 002's text
form (relative 0..1000 coordinates, ``DONE`` last) and the step instructions.

Three ways of annotating, in turn, so that ingest shows each of them at work:

- ``coords``: every action with its coordinates, ``"marked": true`` (the marks cross-check them);
- ``marks``: CLICK / LONG PRESS without coordinates and SWIPE with its direction only (``SWIPE UP``): the
  detected circle and arrow give the points (where the detector would not find a mark, a red circle on a red
  product, the coordinates are written, as an annotator would); ``marked`` not stated (the marks are confirmed
  by agreeing);
- ``clean``: coordinates given and the unmarked frames in ``clean/`` (trained on byte for byte).

>>> import tempfile
>>> out = Path(tempfile.mkdtemp()) / "mine"
>>> write_phone_annotated(out, n_episodes=1, size=(540, 1200))
1
>>> sorted(p.name for p in out.iterdir() if p.is_dir())
['phone_000_mall_search_coords_540x1200']
"""
from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

from PIL import Image

from ..loaders.androidcontrol import decode_features, episode_from_features
from ..model import Action
from ..overlay.draw import action_label, annotator_image
from .sample import SCRIPTS, generate_records
from .sample_dir import MARKERS, prepare

__all__ = ["STYLES", "trajectory", "write_phone_annotated"]
MARKER = MARKERS[1]
STYLES = ("coords", "marks", "clean")  # how trajectory k is annotated: STYLES[k % 3]


def _marks_give(action: Action, marked: Image.Image) -> bool:
    """Does the detector find this action's circle / arrow on ``marked`` where it was drawn? (Not on a red
    product, say: there an annotator writes the coordinates.)"""
    from ..overlay.detect import detect_marks

    marks, near = detect_marks(marked), 0.02 * math.hypot(*marked.size)
    if action.type == "swipe":
        return marks.arrow is not None and max(math.dist(marks.arrow.start, action.point),
                                               math.dist(marks.arrow.end, action.end)) <= near
    return marks.circle is not None and math.dist(marks.circle.point, action.point) <= near


def _written(action: Action, marked: Image.Image, style: str) -> str:
    """The action as task.json holds it: seed 002's text form, without the coordinates the marks give."""
    if style == "marks" and action.type in ("click", "long_press", "swipe") and _marks_give(action, marked):
        if action.type == "swipe":
            return f"SWIPE {action.direction.upper()}"  # the finger's direction; the arrow gives the path
        return "CLICK" if action.type == "click" else "LONG PRESS"
    return action_label(action, *marked.size)


def trajectory(k: int, record: bytes) -> tuple[str, dict[str, Any], list[tuple[bytes, Image.Image]]]:
    """Trajectory ``k`` from the synthetic phone ``record`` (one of :func:`.sample.generate_records`): (folder
    name, task.json object, [(clean PNG bytes, marked frame)])."""
    features = decode_features(record)
    episode = episode_from_features(features, screen_change=False)
    style = STYLES[k % len(STYLES)]
    frames, actions = [], []
    for step, png in zip(episode.steps, features["screenshots"]):
        with Image.open(io.BytesIO(png)) as shot:
            marked = annotator_image(shot, step.action)
        frames.append((png, marked))
        actions.append(_written(step.action, marked, style))
    task: dict[str, Any] = {"goal": episode.goal, "actions": actions,
                            "instructions": [s.instruction for s in episode.steps]}
    if style == "coords":
        task["marked"] = True
    w, h = episode.steps[0].screenshot.width, episode.steps[0].screenshot.height
    return f"phone_{k:03d}_{SCRIPTS[k % len(SCRIPTS)].__name__.strip('_')}_{style}_{w}x{h}", task, frames


def write_phone_annotated(out: str | Path, n_episodes: int = 4, seed: int = 0,
                          size: tuple[int, int] = (1080, 2400)) -> int:
    """Write ``n_episodes`` trajectory folders under ``out``; returns how many. ``out`` must be new, empty or
    written by ``sftdata sample`` before (:mod:`.sample_dir`): the phone folders written earlier are replaced."""
    out = prepare(out, MARKER, r"phone_\d{3}_[a-z_]+_\d+x\d+", "--annotated")
    for k, record in enumerate(generate_records(n_episodes, seed, size)):
        folder, task, frames = trajectory(k, record)
        path = out / folder
        path.mkdir()
        clean = STYLES[k % len(STYLES)] == "clean"
        if clean:
            (path / "clean").mkdir()
        for i, (png, marked) in enumerate(frames):
            marked.save(path / f"{i:03d}.png")
            if clean:
                (path / "clean" / f"{i:03d}.png").write_bytes(png)  # the screenshot as the phone took it
        (path / "task.json").write_text(json.dumps(task, ensure_ascii=False, indent=1), encoding="utf-8")
    return n_episodes
