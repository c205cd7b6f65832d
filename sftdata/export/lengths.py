"""Per-sample token lengths: exact image tokens for the target family from each image's header, text tokens
from a local tokenizer or a documented upper bound.

>>> lm = LengthModel("qwen2.5-vl")
>>> lm.describe()["text"]
'upper bound: UTF-8 bytes of each message + 10 template tokens'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RecordError
from .samples import Sample
from .tokens import FAMILIES, MESSAGE_OVERHEAD, count_text_tokens, load_tokenizer, png_size


class LengthModel:
    def __init__(self, family: str, max_pixels: int | None = None, min_pixels: int | None = None,
                 tokenizer: str | None = None) -> None:
        if family not in FAMILIES:
            raise ValueError(f"unknown model family {family!r}; known: {', '.join(FAMILIES)}")
        self.family = FAMILIES[family]
        self.max_pixels, self.min_pixels = max_pixels, min_pixels
        self.tokenizer_path = tokenizer
        self.tokenizer = load_tokenizer(tokenizer) if tokenizer else None
        self._image_cache: dict[str, int] = {}

    def image_tokens(self, path: Path, key: str) -> int:
        if key not in self._image_cache:
            try:
                width, height = png_size(path)
            except (OSError, ValueError) as exc:
                raise RecordError("unreadable_image", f"{path.name}: {exc}") from None
            self._image_cache[key] = self.family.image_tokens(width, height, self.min_pixels, self.max_pixels) \
                + self.family.image_overhead
        return self._image_cache[key]

    def measure(self, sample: Sample, run_dir: Path) -> tuple[int, int]:
        """(text tokens, image tokens) of ``sample``; ``<image>`` tags are counted as text (an over-count)."""
        contents = [m["content"] for m in sample.record["messages"]]
        if "tools" in sample.record:
            contents.append(sample.record["tools"])
        text = sum(count_text_tokens(c, self.tokenizer) + MESSAGE_OVERHEAD for c in contents)
        images = sum(self.image_tokens(run_dir / s.screenshot.path, s.screenshot.sha256) for s in sample.image_steps)
        return text, images

    def describe(self) -> dict[str, Any]:
        text = (f"tokenizer {self.tokenizer_path} + {MESSAGE_OVERHEAD} template tokens per message"
                if self.tokenizer else f"upper bound: UTF-8 bytes of each message + {MESSAGE_OVERHEAD} template tokens")
        return {"family": self.family.name, "text": text,
                "min_pixels": self.min_pixels or self.family.min_pixels,
                "max_pixels": self.max_pixels or self.family.max_pixels}
