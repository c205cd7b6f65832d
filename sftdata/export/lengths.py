"""Per-sample token lengths: exact image tokens for the target family from each image's header; text tokens
exact for the Qwen families (Swift's chat template, :mod:`.chat`, counted with the Qwen vocabulary,
:mod:`.vocab`, or with ``--tokenizer``), else a documented upper bound (UTF-8 bytes of each message plus
template tokens), as for GLM-4.1V, whose vocabulary ships in no package.

>>> LengthModel("glm-4.1v").describe()["method"]
'bound'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RecordError
from .samples import Sample
from .chat import DEFAULT_SYSTEM, chatml_text
from .tokens import FAMILIES, MESSAGE_OVERHEAD, count_text_tokens, load_tokenizer, png_size
from .vocab import count_tokens, qwen_encoding


class LengthModel:
    def __init__(self, family: str, max_pixels: int | None = None, min_pixels: int | None = None,
                 tokenizer: str | None = None) -> None:
        if family not in FAMILIES:
            raise ValueError(f"unknown model family {family!r}; known: {', '.join(FAMILIES)}")
        self.family = FAMILIES[family]
        self.max_pixels, self.min_pixels = max_pixels, min_pixels
        self.tokenizer_path = tokenizer
        self.tokenizer = load_tokenizer(tokenizer) if tokenizer else None
        chatml = family in DEFAULT_SYSTEM  # a family whose Swift template we render exactly
        self.encoding = qwen_encoding(family) if chatml and self.tokenizer is None else None
        self.exact = chatml and (self.tokenizer is not None or self.encoding is not None)
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
        """(text tokens, image tokens) of ``sample``: image tokens are each image's placeholders plus the
        special tokens around it; text tokens are the rest of what Swift encodes (exact) or a bound on it."""
        images = sum(self.image_tokens(run_dir / s.screenshot.path, s.screenshot.sha256) for s in sample.image_steps)
        if self.exact:
            text = chatml_text(sample.record, self.family.name)
            total = (len(self.tokenizer.encode(text, add_special_tokens=False).ids) if self.tokenizer is not None
                     else count_tokens(self.encoding, text))
            return total - self.family.image_overhead * len(sample.image_steps), images
        # <image> tags are counted as text (an over-count)
        contents = [m["content"] for m in sample.record["messages"]]
        if "tools" in sample.record:
            contents.append(sample.record["tools"])
        text_bound = sum(count_text_tokens(c, self.tokenizer) + MESSAGE_OVERHEAD for c in contents)
        return text_bound, images

    def describe(self) -> dict[str, Any]:
        if self.exact:
            source = f"tokenizer {self.tokenizer_path}" if self.tokenizer is not None else "the Qwen vocabulary"
            text = f"exact: Swift's {self.family.name} chat template counted with {source}"
        else:
            per = f"tokenizer {self.tokenizer_path} tokens" if self.tokenizer is not None else "UTF-8 bytes"
            text = f"upper bound: {per} of each message + {MESSAGE_OVERHEAD} template tokens"
        return {"family": self.family.name, "method": "exact" if self.exact else "bound", "text": text,
                "min_pixels": self.min_pixels or self.family.min_pixels,
                "max_pixels": self.max_pixels or self.family.max_pixels}
