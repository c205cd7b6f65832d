"""Contact sheets: one episode as the pipeline sees it, annotator images (red label, circle, arrow) in a
grid with the step number (1-based), the action and the step instruction under each, the goal on top.

>>> from sftdata.model import Action
>>> caption_lines(3, Action("input", text="蓝牙耳机"), "Type the product name")
['step 4  INPUT 蓝牙耳机', 'Type the product name']
"""
from __future__ import annotations

import textwrap
from pathlib import Path

from PIL import Image, ImageDraw

from .errors import FatalError
from .io import atomic_path
from .model import Action, Episode
from .overlay.draw import action_label, annotator_image
from .overlay.fonts import load_font
from .rundir import RunDir

THUMB_WIDTH = 360
COLUMNS = 5
PAD = 16


def caption_lines(index: int, action: Action, instruction: str | None, width: int = 1080,
                  height: int = 2400) -> list[str]:
    """The caption under one frame: "step N" (1-based; ``index`` is the 0-based step index), the action, and up to
    three lines of the step's instruction.

    >>> caption_lines(0, Action("back"), None)
    ['step 1  BACK']
    """
    lines = [f"step {index + 1}  {action_label(action, width, height)}"]
    if instruction:
        lines += textwrap.wrap(instruction, 34)[:3]
    return lines


def find_episode(run: RunDir, episode_id: str) -> Episode:
    for episode in run.episodes():
        if episode.id == episode_id:
            return episode
    run.require_episodes([episode_id], "--episode")  # names some of the run's ids
    raise FatalError(f"no episode {episode_id!r} in {run.episodes_path}")


def contact_sheet(run: RunDir, episode: Episode, columns: int = COLUMNS, thumb_width: int = THUMB_WIDTH) -> Image.Image:
    """The annotator images of ``episode`` (drawn on its stored, mark-free screenshots) in a captioned grid."""
    font = load_font(18)
    title_font = load_font(24)
    thumbs = []
    for step in episode.steps:
        with Image.open(run.path / step.screenshot.path) as shot:
            marked = annotator_image(shot.convert("RGB"), step.action)
        height = round(marked.height * thumb_width / marked.width)
        caption = caption_lines(step.index, step.action, step.instruction, step.screenshot.width,
                                step.screenshot.height)
        if step.url:  # a web page: where it was
            caption.insert(1, step.url)
        thumbs.append((marked.resize((thumb_width, height), Image.Resampling.LANCZOS), caption))
    columns = max(1, min(columns, len(thumbs)))
    rows = (len(thumbs) + columns - 1) // columns
    line_h = 24
    caption_h = line_h * max(len(c) for _, c in thumbs) + PAD
    cell_h = max(t.height for t, _ in thumbs) + caption_h
    title = textwrap.wrap(f"{episode.id}  ·  {episode.source}  ·  {episode.goal}", 90)[:3]
    top = PAD + 32 * len(title) + PAD
    sheet = Image.new("RGB", (PAD + columns * (thumb_width + PAD), top + rows * (cell_h + PAD)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, line in enumerate(title):
        draw.text((PAD, PAD + 32 * i), line, fill="black", font=title_font)
    for n, (thumb, caption) in enumerate(thumbs):
        x = PAD + (n % columns) * (thumb_width + PAD)
        y = top + (n // columns) * (cell_h + PAD)
        sheet.paste(thumb, (x, y))
        draw.rectangle((x - 1, y - 1, x + thumb.width, y + thumb.height), outline=(180, 180, 180))
        for k, line in enumerate(caption):
            draw.text((x, y + thumb.height + 6 + k * line_h), fit(draw, line, font, thumb_width),
                      fill="black" if k == 0 else (90, 90, 90), font=font)
    return sheet


def fit(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """``text`` cut with an ellipsis so that it is no wider than ``width`` pixels (a caption never runs into the
    next frame's)."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


IMAGE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}  # what --out's extension says it holds


def write_contact_sheet(run_dir: str | Path, episode_id: str, out: str | Path) -> Path:
    """Draw the sheet into ``out`` in the format its extension names (PNG, or JPEG for .jpg/.jpeg)."""
    out = Path(out)
    kind = IMAGE_FORMATS.get(out.suffix.lower())
    if kind is None:
        raise FatalError(f"--out {out}: the contact sheet is written as PNG or JPEG; end the name with .png, .jpg "
                         "or .jpeg")
    run = RunDir(run_dir)
    sheet = contact_sheet(run, find_episode(run, episode_id))
    with atomic_path(out) as tmp:
        sheet.save(tmp, format=kind, **({"quality": 90} if kind == "JPEG" else {}))
    return out
