"""A model family's record and the registry that holds one per family, the way ms-swift's ``ModelMeta`` registry
does: every fact sftdata knows about a family (its image rule, its tokenizer's added tokens, the model and the
Swift template ``train.sh`` names, the point convention of its own agent answers) is a field here, and every
other module asks the record. The records themselves are in :mod:`.qwen`, :mod:`.glm` and :mod:`.ui_tars`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..registry import add_unique
from .resize import glm4v_smart_resize, smart_resize
from .templates import TEMPLATES, ChatTemplate


@dataclass(frozen=True)
class Family:
    """One model family. ``factor`` = patch_size * merge_size: one image token per factor² pixels after resizing;
    ``min_pixels``/``max_pixels`` are the limits in force by default under ms-swift; ``image_overhead`` counts
    the special tokens around each image's placeholders."""

    name: str
    # the image processor
    patch_size: int
    merge_size: int
    min_pixels: int
    max_pixels: int
    rule: str  # "qwen": qwen-vl-utils fetch_image (smart_resize, clamp_small); "glm4v": glm4v_smart_resize
    # training: what train.sh trains when --model is not given, and ms-swift's model_type and template, given
    # explicitly: Swift cannot choose by itself for a local model folder (qwen3_vl vs qwen3_vl_emb/_reranker,
    # qwen2_5_vl vs mimo_vl)
    default_model: str
    swift_model_type: str
    swift_template: str
    # the tokenizer
    vocabulary: str  # whose byte-level BPE ranks: "qwen" (Qwen2's, shipped offline in dashscope) or "glm"
    first_special_id: int  # the id of the first added token (= the number of BPE ranks)
    special_tokens: tuple[str, ...]  # added tokens from first_special_id on, in the tokenizer's order
    special_count: int  # how many of them are "special" (the rest are added as text)
    vocab_size: int  # rows of the model's embedding (config.json vocab_size)
    eos_token: str
    pad_token: str
    tokenizer_class: str  # tokenizer_config.json's tokenizer_class
    image_overhead: int = 2
    temporal_patch_size: int = 2  # frames per patch: an image is processed as this many frames
    # the {shortest_edge, longest_edge} of the model's preprocessor_config.json where they differ from the limits
    # Swift applies (Qwen3-VL: qwen-vl-utils resizes before the processor, whose own limits then never apply)
    processor_pixels: tuple[int, int] | None = None
    base: str | None = None  # the family this one is a fine-tune of (its image rule, tokenizer and template)
    # the family's own agent answers
    agent_system: str | None = None  # the system line its cookbook's agent prompts open with
    grid: int | None = None  # points on a 0..grid grid on both axes; None: pixels of the resized image
    point_markup: str | None = None  # how a point is written, "{x}" and "{y}" filled in (UI-TARS: <point>x y</point>)

    @property
    def factor(self) -> int:
        return self.patch_size * self.merge_size

    @property
    def template(self) -> ChatTemplate:
        """Swift's chat template for the family (``swift_template`` in the template registry)."""
        return TEMPLATES[self.swift_template]

    @property
    def default_system(self) -> str | None:
        """Swift's system for a row that has none (its template's)."""
        return self.template.default_system

    @property
    def pixel_limits(self) -> tuple[int, int]:
        """(shortest_edge, longest_edge) of the model's own image processor config."""
        return self.processor_pixels or (self.min_pixels, self.max_pixels)

    def token_id(self, token: str) -> int:
        """The id of one of the family's added tokens.

        >>> FAMILIES["qwen2.5-vl"].token_id("<|image_pad|>"), FAMILIES["glm-4.1v"].token_id("<|begin_of_image|>")
        (151655, 151339)
        """
        return self.first_special_id + self.special_tokens.index(token)

    @cached_property
    def point_pattern(self) -> re.Pattern:
        """A regex reading ``point_markup`` back (spaces around the numbers tolerated): groups x and y.

        >>> FAMILIES["ui-tars"].point_pattern.search("click(point='<point> 12  34</point>')").groups()
        ('12', '34')
        """
        if self.point_markup is None:
            raise ValueError(f"{self.name} writes no point markup of its own")
        head, rest = self.point_markup.split("{x}")
        between, tail = rest.split("{y}")
        gap = r"\s+" if not between.strip() else r"\s*" + re.escape(between.strip()) + r"\s*"
        return re.compile(re.escape(head) + r"\s*(-?\d+)" + gap + r"(-?\d+)\s*" + re.escape(tail))

    def point_text(self, x: int, y: int) -> str:
        """``point_markup`` for (x, y)."""
        if self.point_markup is None:
            raise ValueError(f"{self.name} writes no point markup of its own")
        return self.point_markup.format(x=x, y=y)

    def resize(self, width: int, height: int, min_pixels: int | None = None,
               max_pixels: int | None = None) -> tuple[int, int]:
        """(width, height) after the family's resize; limits default to the family's."""
        lo = self.min_pixels if min_pixels is None else min_pixels
        hi = self.max_pixels if max_pixels is None else max_pixels
        if self.rule == "glm4v":
            h, w = glm4v_smart_resize(height, width, factor=self.factor, min_pixels=lo, max_pixels=hi,
                                      temporal_factor=self.temporal_patch_size)
        else:
            h, w = smart_resize(height, width, factor=self.factor, min_pixels=lo, max_pixels=hi, clamp_small=True)
        if h <= 0 or w <= 0:
            raise ValueError(f"{self.name}: {width}x{height} resizes to {w}x{h} under max_pixels={hi}")
        return w, h

    def image_tokens(self, width: int, height: int, min_pixels: int | None = None,
                     max_pixels: int | None = None) -> int:
        """Image placeholder tokens (<|image_pad|> / <|image|>) for one image, without ``image_overhead``.

        >>> FAMILIES["qwen2.5-vl"].image_tokens(1440, 3120)
        5661
        >>> FAMILIES["qwen2.5-vl"].image_tokens(1080, 2400, max_pixels=1280 * 28 * 28)
        1272
        """
        w, h = self.resize(width, height, min_pixels, max_pixels)
        return (h // self.factor) * (w // self.factor)

    def same_image_space(self, other: "Family") -> bool:
        """Whether a point written for this family is right for ``other``: the same 0..grid grid, or (no grid)
        the same resized image (same rule, factor and default limits)."""
        if self.grid is not None or other.grid is not None:
            return self.grid == other.grid
        return (self.rule, self.factor, self.min_pixels, self.max_pixels) == \
            (other.rule, other.factor, other.min_pixels, other.max_pixels)


FAMILIES: dict[str, Family] = {}


def register_family(family: Family) -> Family:
    """Add ``family`` under its name; a second family with the same name, or one whose Swift template is not
    registered, is an error."""
    if family.swift_template not in TEMPLATES:
        raise ValueError(f"model family {family.name!r} names an unknown template {family.swift_template!r}")
    return add_unique(FAMILIES, family, "model family")


def point_families(name: str) -> tuple[str, ...]:
    """``name`` and the other families whose points are written in the same space (for a format whose points
    are its family's): the families ``--family`` may pick for it.

    >>> point_families("qwen2.5-vl"), point_families("qwen3-vl")
    (('qwen2.5-vl', 'qwen2-vl', 'ui-tars'), ('qwen3-vl',))
    """
    own = FAMILIES[name]
    return (name,) + tuple(n for n, f in FAMILIES.items() if n != name and own.same_image_space(f))
