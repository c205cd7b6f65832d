"""Shared fixtures for the overlay tests: the real frames in ../shared/fixtures (skipped when absent)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sftdata.loaders.action_text import parse_action
from sftdata.model import Action, from_relative
from support import missing_shared

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip(missing_shared())
    return FIXTURES


def load_rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def action_in_pixels(text: str, width: int, height: int) -> Action:
    """Seed 002 text form (relative 0..1000) -> canonical Action in pixels, through the project's own parser."""
    raw = parse_action(text)
    point = from_relative(raw.point, width, height) if raw.point is not None else None
    end = from_relative(raw.end, width, height) if raw.end is not None else None
    return Action(raw.type, point=point, end=end, text=raw.text, app=raw.app)


def marked_frames(fixtures: Path, episode: str) -> list[tuple[Path, str]]:
    """(frame path, action text) for each frame of an annotated episode."""
    task = json.loads((fixtures / "annotated" / episode / "task.json").read_text(encoding="utf-8"))
    return [(fixtures / "annotated" / episode / f"{i:03d}.png", a) for i, a in enumerate(task["actions"])]


def screenshot_paths(fixtures: Path) -> list[Path]:
    return sorted((fixtures / "androidcontrol" / "screenshots").glob("*/*.png"))


@pytest.fixture(scope="session")
def screenshots(fixtures_dir: Path) -> list[Image.Image]:
    """The 11 original AndroidControl screenshots (RGB, 1080x2400)."""
    return [Image.open(p).convert("RGB") for p in screenshot_paths(fixtures_dir)]


@pytest.fixture(scope="session")
def annotated(fixtures_dir: Path):
    """``annotated(episode)`` -> [(marked RGB image, Action in pixels, action text)] for a fixture episode."""
    def load(episode: str) -> list[tuple[Image.Image, Action, str]]:
        out = []
        for path, text in marked_frames(fixtures_dir, episode):
            img = Image.open(path).convert("RGB")
            out.append((img, action_in_pixels(text, img.width, img.height), text))
        return out
    return load
