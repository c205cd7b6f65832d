"""Screenshot files of human-annotated folders: which files are frames, and whether a frame can be used.

Every check reads the file's bytes, never trusts its name, and runs before anything is stored:

- **format**: PNG, JPEG or WebP by content (what the export's header reader and every model family's
  processor take); a GIF, BMP or TIFF named ``.png`` is ``unsupported_image_format``.
- **size**: over 50 megapixels or 256 MB is ``image_too_large``; a side under :data:`MIN_SIDE` px, an aspect
  ratio over :data:`MAX_ASPECT` (the Qwen/GLM processors' limit), or any size some model family's resize rule
  refuses is ``unusable_image_size`` (otherwise it would only fail at export, for every format).
- **orientation**: an EXIF orientation other than 1 (a photo stored sideways with a tag that viewers apply) is
  ``exif_rotated``. The annotator saw the rotated image and wrote coordinates for it, while the stored pixels
  (what we export, byte for byte) are turned: neither keeping them nor guessing which orientation the
  coordinates meant is safe, so such frames are rejected rather than silently re-oriented.

Hidden files (``.DS_Store``, macOS ``._000.png`` resource forks, any dot file) and Windows' ``Thumbs.db`` /
``desktop.ini`` are never frames.
"""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from ..errors import RecordError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp"}
FORMATS = {"PNG": "png", "JPEG": "jpg", "MPO": "jpg", "WEBP": "webp"}  # Pillow format -> stored extension
MAX_PIXELS = 50_000_000
MAX_FILE_BYTES = 256 << 20
MIN_SIDE = 16
MAX_ASPECT = 200
EXIF_ORIENTATION = 0x0112
_OS_FILES = {"thumbs.db", "ehthumbs.db", "desktop.ini", "__macosx", "icon\r"}


def is_hidden(name: str) -> bool:
    """True for names that are file-system or OS litter, never a screenshot or a trajectory.

    >>> [is_hidden(n) for n in ("._000.png", ".DS_Store", "Thumbs.db", "__MACOSX", "000.png")]
    [True, True, True, True, False]
    """
    return name.startswith(".") or name.lower() in _OS_FILES


def check_size(width: int, height: int, name: str) -> None:
    """RecordError(unusable_image_size) unless every model family can take a ``width`` x ``height`` image.

    >>> check_size(1080, 2400, "a.png")
    >>> check_size(3000, 10, "b.png")
    Traceback (most recent call last):
    sftdata.errors.RecordError: unusable_image_size: b.png is 3000x10: a side under 16 px
    """
    from ..families import FAMILIES

    if min(width, height) < MIN_SIDE:
        raise RecordError("unusable_image_size", f"{name} is {width}x{height}: a side under {MIN_SIDE} px")
    if max(width, height) / min(width, height) > MAX_ASPECT:
        raise RecordError("unusable_image_size", f"{name} is {width}x{height}: aspect ratio over {MAX_ASPECT}")
    for family in FAMILIES.values():
        try:
            family.image_tokens(width, height)
        except ValueError as exc:
            raise RecordError("unusable_image_size", f"{name} is {width}x{height}: {family.name} cannot take it "
                              f"({exc})") from None


def read_image(path: Path) -> tuple[bytes, Image.Image, str]:
    """The file's bytes, its decoded RGB image and the extension of its real format, after the checks of the
    module docstring (each failure is a RecordError with its reason)."""
    if not path.is_file():
        raise RecordError("missing_screenshot", f"{path.name} does not exist")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RecordError("image_too_large", f"{path.name} is {path.stat().st_size} bytes")
    data = path.read_bytes()
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in FORMATS:
                raise RecordError("unsupported_image_format", f"{path.name} is {probe.format or 'an unknown format'}, "
                                  "not PNG, JPEG or WebP")
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise RecordError("image_too_large", f"{path.name} is {width}x{height}, over "
                                  f"{MAX_PIXELS // 1_000_000} megapixels")
            check_size(width, height, path.name)
            ext = FORMATS[probe.format]
            image = probe.convert("RGB")
            orientation = probe.getexif().get(EXIF_ORIENTATION, 1)
    except RecordError:
        raise
    except Image.DecompressionBombError as exc:  # over PIL's own limit, refused before decoding
        raise RecordError("image_too_large", f"{path.name}: {exc}") from None
    except Exception as exc:  # PIL raises many kinds for broken files
        raise RecordError("unreadable_image", f"{path.name} is not a readable image: {exc}") from None
    if orientation not in (1, None, 0):
        raise RecordError("exif_rotated", f"{path.name} carries EXIF orientation {orientation}: viewers (and the "
                          "annotator) see it turned, its stored pixels are not what was annotated")
    return data, image, ext
