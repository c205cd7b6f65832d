"""Colours and type faces of the drawn screens.

Faces come from :mod:`sftdata.overlay.fonts` (a fontconfig CJK font that is checked to draw real Han glyphs;
:class:`~sftdata.overlay.fonts.FontMissingError` names ``fonts-noto-cjk`` when there is none). Text is laid out
with Pillow's BASIC engine so the pixels do not depend on whether libraqm is installed.

>>> f = font(40)
>>> fit("Connected to HomeNet-5G", f, f.getlength("Connected")).endswith("…")
True
"""
from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

from ...overlay import fonts

WHITE, INK, GREY, LINE = (255, 255, 255), (32, 33, 36), (95, 99, 104), (230, 232, 235)
RED, ORANGE, BLUE, BLACK = (228, 30, 38), (255, 136, 0), (26, 115, 232), (0, 0, 0)
# icon discs of settings rows and avatars
PALETTE = [(26, 115, 232), (30, 142, 62), (217, 48, 37), (249, 171, 0), (161, 66, 244), (0, 137, 123), (95, 99, 104)]


@functools.lru_cache(maxsize=None)
def faces() -> dict[bool, tuple[str, int]]:
    """``{bold: (font file, face index)}``: the CJK face of :func:`~sftdata.overlay.fonts.find_cjk_font` and,
    when fontconfig lists one, the bold file of the same family (else the regular face again).

    >>> sorted(faces())
    [False, True]
    """
    regular = fonts.find_cjk_font()
    bold = next((spec for spec in fonts.list_cjk_fonts()
                 if spec.family == regular.family and spec.path != regular.path
                 and "bold" in Path(spec.path).name.lower() and fonts.renders_cjk(spec)), regular)
    return {False: (regular.path, regular.index), True: (bold.path, bold.index)}


@functools.lru_cache(maxsize=None)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The screens' face at ``size`` px (at least 6).

    >>> font(3).size
    6
    """
    path, index = faces()[bold]
    return ImageFont.truetype(path, max(6, size), index=index, layout_engine=ImageFont.Layout.BASIC)


def fit(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` shortened with an ellipsis to at most ``width`` pixels.

    >>> fit("短", font(40), 1000)
    '短'
    """
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
