"""Per-sample token lengths: exact image tokens for the target family from each image's header; text tokens
exact for the Qwen families (Swift's chat template, :mod:`.chat`, counted with the Qwen vocabulary,
:mod:`.vocab`, or with ``--tokenizer``), else a documented upper bound (the UTF-8 bytes of that text), as for
GLM-4.1V, whose vocabulary ships in no package.

>>> LengthModel("glm-4.1v").describe()["method"]
'bound'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RecordError
from .chat import template_text
from .samples import Sample
from ..families import FAMILIES, load_tokenizer, png_size
from .vocab import count_tokens, qwen_encoding, vocab_available


class LengthModel:
    def __init__(self, family: str, max_pixels: int | None = None, min_pixels: int | None = None,
                 tokenizer: str | None = None) -> None:
        if family not in FAMILIES:
            raise ValueError(f"unknown model family {family!r}; known: {', '.join(FAMILIES)}")
        self.family = FAMILIES[family]
        self.max_pixels, self.min_pixels = max_pixels, min_pixels
        self.tokenizer_path = tokenizer
        self.tokenizer = load_tokenizer(tokenizer) if tokenizer else None
        exact = self.family.template.exact  # a family whose Swift template we render exactly
        self._uses_vocab = exact and self.tokenizer is None
        self.exact = exact and (self.tokenizer is not None or vocab_available(family))
        self._image_cache: dict[str, int] = {}

    @property
    def encoding(self):
        """The Qwen vocabulary's encoding for this family, loaded when a text is first measured (never for a
        bound family, a --tokenizer, or an export with nothing to measure)."""
        return qwen_encoding(self.family.name) if self._uses_vocab else None

    def image_tokens(self, path: Path, key: str) -> int:
        if key not in self._image_cache:
            try:
                width, height = png_size(path)
            except (OSError, ValueError) as exc:
                raise RecordError("unreadable_image", f"{path.name}: {exc}") from None
            try:  # an aspect ratio over 200, or a side the rule refuses: this sample is dropped, not the export
                tokens = self.family.image_tokens(width, height, self.min_pixels, self.max_pixels)
            except ValueError as exc:
                raise RecordError("unusable_image_size", f"{path.name} is {width}x{height}: {exc}") from None
            self._image_cache[key] = tokens + self.family.image_overhead
        return self._image_cache[key]

    def render(self, record: dict) -> str:
        """The text Swift's template makes of ``record`` (images as their two framing tokens)."""
        return template_text(record, self.family.name)

    def measure(self, sample: Sample, run_dir: Path) -> tuple[int, int]:
        """(text tokens, image tokens) of ``sample``: image tokens are each image's placeholders plus the
        special tokens around it; text tokens are the rest of what Swift encodes, exact or bounded.

        Exact: the Qwen families, counted with the Qwen vocabulary or ``--tokenizer``. Bound: the text's UTF-8
        bytes (a byte-level BPE token holds at least one byte, a special token is one token of several bytes),
        or with ``--tokenizer`` its count plus a few spare tokens for newlines the GLM template may add."""
        images = sum(self.image_tokens(run_dir / s.screenshot.path, s.screenshot.sha256) for s in sample.image_steps)
        total = self.text_tokens(self.render(sample.record))
        return total - self.family.image_overhead * len(sample.image_steps), images

    def text_tokens(self, text: str) -> int:
        """Tokens of ``text``: exact for the Qwen families (or ``--tokenizer``), else the bound of :meth:`measure`."""
        if self.tokenizer is not None:
            return len(self.tokenizer.encode(text, add_special_tokens=False).ids) + self.family.template.spare_tokens
        if self.encoding is not None:
            return count_tokens(self.encoding, text)
        return len(text.encode("utf-8"))

    def describe(self) -> dict[str, Any]:
        if self.exact:
            source = f"tokenizer {self.tokenizer_path}" if self.tokenizer is not None else "the Qwen vocabulary"
            text = f"exact: Swift's {self.family.name} chat template counted with {source}"
        elif self.tokenizer is not None:
            text = (f"upper bound: tokenizer {self.tokenizer_path} over Swift's {self.family.name} template text "
                    f"+ {self.family.template.spare_tokens}")
        else:
            text = f"upper bound: UTF-8 bytes of Swift's {self.family.name} template text"
        return {"family": self.family.name, "method": "exact" if self.exact else "bound", "text": text,
                "min_pixels": self.min_pixels or self.family.min_pixels,
                "max_pixels": self.max_pixels or self.family.max_pixels}
