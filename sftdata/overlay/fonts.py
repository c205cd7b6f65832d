"""Find a real CJK-capable font through fontconfig, so labels never render as tofu boxes.

``fc-match ':lang=zh'`` is not trusted on its own: it returns the *best* match even when nothing
covers Chinese (on a bare Debian it answers ``DejaVuSans.ttf``). We list the fonts that claim ``zh``
with ``fc-list``, rank them (Sans CJK SC Regular first), and check with Pillow that two different
Chinese characters render to two different bitmaps, which a missing glyph (the same .notdef box
twice) cannot do.

>>> font = load_font(40)
>>> font.getbbox("中文")[2] > 40
True
"""
from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

INSTALL_HINT = (
    "no CJK-capable font found (fontconfig lists none for ':lang=zh'); install one, e.g. "
    "`apt-get install fonts-noto-cjk` or `apt-get install fonts-wqy-microhei`, or pass a font file "
    "explicitly (MarkStyle(font_path=...))"
)
# Checked when fontconfig is unavailable (no fc-list binary).
KNOWN_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)
PROBE = ("中", "文")  # two different glyphs: tofu renders both as the same box


class FontMissingError(RuntimeError):
    """No usable CJK font is installed; the message says which Debian package to install."""


@dataclass(frozen=True)
class FontSpec:
    """A font file and its face index inside a ``.ttc`` collection."""

    path: str
    index: int = 0
    family: str = ""


def _rank(spec: FontSpec, style: str) -> tuple[int, ...]:
    fam = spec.family.lower()
    return (
        "mono" in fam,                      # proportional first
        "serif" in fam and "sans" not in fam,
        not ("sc" in fam.split() or "gb" in fam or "microhei" in fam),  # Simplified Chinese first
        "regular" not in style.lower() and "book" not in style.lower(),
        spec.index,
    )


def list_cjk_fonts() -> list[FontSpec]:
    """Fonts that fontconfig says cover Chinese, best first (empty without fontconfig).

    >>> all(isinstance(s, FontSpec) for s in list_cjk_fonts())
    True
    """
    if shutil.which("fc-list") is None:
        return []
    try:
        out = subprocess.run(
            ["fc-list", ":lang=zh", "-f", "%{file}\t%{index}\t%{family[0]}\t%{style[0]}\n"],
            capture_output=True, text=True, timeout=30, check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    ranked = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 4 or not parts[0]:
            continue
        spec = FontSpec(parts[0], int(parts[1] or 0), parts[2])
        ranked.append((_rank(spec, parts[3]), spec))
    ranked.sort(key=lambda item: (item[0], item[1].path))
    return [spec for _, spec in ranked]


def renders_cjk(spec: FontSpec) -> bool:
    """True when the face draws distinct glyphs for two different Chinese characters.

    >>> renders_cjk(FontSpec("/nonexistent.ttf"))
    False
    """
    try:
        font = ImageFont.truetype(spec.path, 32, index=spec.index)
        masks = [font.getmask(ch) for ch in PROBE]
    except OSError:
        return False
    a, b = (bytes(m) for m in masks)
    return a != b and sum(a) > 0 and sum(b) > 0


def _candidates() -> list[FontSpec]:
    specs = list_cjk_fonts()
    specs += [FontSpec(p) for p in KNOWN_FILES if Path(p).is_file()]
    return specs


@functools.lru_cache(maxsize=1)
def find_cjk_font() -> FontSpec:
    """The best installed CJK font (cached); raises :class:`FontMissingError` when there is none.

    >>> find_cjk_font().path.endswith((".ttc", ".ttf", ".otf"))
    True
    """
    for spec in _candidates():
        if renders_cjk(spec):
            return spec
    raise FontMissingError(INSTALL_HINT)


@functools.lru_cache(maxsize=64)
def load_font(size: int, path: str | None = None, index: int = 0) -> ImageFont.FreeTypeFont:
    """A Pillow font of ``size`` px: the given file, else the CJK font from :func:`find_cjk_font`.

    >>> load_font(32, "/nonexistent.ttf")
    Traceback (most recent call last):
    ...
    sftdata.overlay.fonts.FontMissingError: cannot open font file /nonexistent.ttf ...
    """
    if path is None:
        spec = find_cjk_font()
        path, index = spec.path, spec.index
    try:
        return ImageFont.truetype(path, size, index=index)
    except OSError as exc:
        raise FontMissingError(f"cannot open font file {path} (index {index}): {exc}; {INSTALL_HINT}") from exc


def missing_glyph_mask(font: ImageFont.FreeTypeFont) -> bytes:
    """Bitmap of the font's .notdef box (what a character without a glyph renders as)."""
    return bytes(font.getmask("\uffff"))


def has_glyph(font: ImageFont.FreeTypeFont, char: str) -> bool:
    """Whether ``font`` draws ``char`` with a real glyph (whitespace always counts as covered).

    >>> has_glyph(load_font(32), "中")
    True
    """
    if char.isspace():
        return True
    return bytes(font.getmask(char)) != missing_glyph_mask(font)


@functools.lru_cache(maxsize=256)
def font_covering(char: str, size: int) -> ImageFont.FreeTypeFont | None:
    """A fontconfig font of ``size`` px with a real glyph for ``char`` (None when no font has one).

    >>> font_covering("\\U0010fffd", 20) is None
    True
    """
    if shutil.which("fc-list") is None:
        return None
    try:
        out = subprocess.run(["fc-list", f":charset={ord(char):x}", "-f", "%{file}\t%{index}\n"],
                             capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in sorted(set(out.splitlines())):
        path, _, index = line.partition("\t")
        try:
            font = ImageFont.truetype(path, size, index=int(index or 0))
        except (OSError, ValueError):
            continue
        if has_glyph(font, char):
            return font
    return None
