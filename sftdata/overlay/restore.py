"""Remove burned-in annotator marks: inpaint the mark mask, keep every other pixel as it was.

>>> import numpy as np
>>> from PIL import Image, ImageDraw
>>> img = Image.new("RGB", (300, 400), (200, 220, 240))
>>> ImageDraw.Draw(img).ellipse((120, 170, 180, 230), outline=(255, 0, 0), width=5)
>>> clean, mask = remove_marks(img)
>>> bool(mask.any()), detect_marks(clean).circle
(True, None)
"""
from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from .detect import Marks, as_rgb_array, detect_marks, mark_mask, mask_blocks


def remove_marks(image: Image.Image | np.ndarray, *, dilate_px: int = 5, marks: Marks | None = None,
                 inpaint_radius: int = 5) -> tuple[Image.Image, np.ndarray]:
    """(clean RGB image, boolean mask of the inpainted pixels). Pixels outside the mask are untouched.

    ``marks`` defaults to :func:`detect_marks` on ``image``.
    """
    rgb = as_rgb_array(image)
    marks = detect_marks(rgb) if marks is None else marks
    mask = mark_mask(rgb, marks, dilate_px=dilate_px)
    if not mask.any():
        return Image.fromarray(np.ascontiguousarray(rgb)), mask
    out = np.array(rgb, copy=True)
    m8 = mask.astype(np.uint8) * 255
    pad = inpaint_radius + 2  # Telea only looks this far from the mask
    for y0, y1, x0, x1 in mask_blocks(m8, pad):  # inpainting a few blocks beats the whole frame
        fixed = cv2.inpaint(np.ascontiguousarray(rgb[y0:y1, x0:x1]), m8[y0:y1, x0:x1],
                            inpaint_radius, cv2.INPAINT_TELEA)
        # exact outside the mask, whatever the inpainting does at its border
        np.copyto(out[y0:y1, x0:x1], fixed, where=mask[y0:y1, x0:x1, None])
    return Image.fromarray(out), mask

