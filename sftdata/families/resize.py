"""The resize rules of the model families' image processors: an image's size after resizing decides how many
image tokens it costs and, for formats written in resized pixels, where its points lie.

* ``smart_resize``: Qwen2-VL's (transformers ``models/qwen2_vl/image_processing_qwen2_vl.py``), and with
  ``clamp_small`` qwen-vl-utils' ``fetch_image`` variant that ms-swift resizes Qwen2/2.5/3-VL images with.
* ``glm4v_smart_resize``: GLM-4.1V's (transformers ``models/glm4v/image_processing_glm4v.py``).
"""
from __future__ import annotations

import math


def smart_resize(height: int, width: int, *, factor: int, min_pixels: int, max_pixels: int,
                 clamp_small: bool = False) -> tuple[int, int]:
    """(height, width) the Qwen2-VL image processor resizes to: multiples of ``factor``, pixel count in
    [min_pixels, max_pixels], aspect ratio kept as far as rounding allows (Python's round-half-to-even).

    Mirrors transformers' (5.x) ``smart_resize``: an aspect ratio above 200 raises ValueError; a downscale keeps
    at least one ``factor`` per side. ``clamp_small=True`` gives qwen-vl-utils' ``fetch_image`` variant (what
    ms-swift resizes Qwen2/2.5/3-VL images with): tiny sides are clamped to ``factor`` before the min_pixels
    upscale, and a downscale is not clamped.

    >>> smart_resize(2400, 1080, factor=28, min_pixels=3136, max_pixels=12845056)
    (2408, 1092)
    >>> smart_resize(2400, 1080, factor=28, min_pixels=3136, max_pixels=28 * 28 * 1280)
    (1484, 672)
    >>> smart_resize(3, 3, factor=28, min_pixels=3136, max_pixels=12845056, clamp_small=True)
    (56, 56)
    >>> smart_resize(28, 5880, factor=28, min_pixels=3136, max_pixels=12845056)
    Traceback (most recent call last):
    ValueError: absolute aspect ratio must be smaller than 200, got 210.0
    """
    if max(height, width) / min(height, width) > 200:
        raise ValueError(f"absolute aspect ratio must be smaller than 200, got {max(height, width) / min(height, width)}")
    h_bar = round(height / factor) * factor
    w_bar = round(width / factor) * factor
    if clamp_small:
        h_bar, w_bar = max(factor, h_bar), max(factor, w_bar)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
        if not clamp_small:
            h_bar, w_bar = max(factor, h_bar), max(factor, w_bar)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


def glm4v_smart_resize(height: int, width: int, *, factor: int, min_pixels: int, max_pixels: int,
                       temporal_factor: int = 2, num_frames: int = 2) -> tuple[int, int]:
    """GLM-4.1V's resize rule: like Qwen's, but the pixel limits bound ``frames * h * w`` (an image is
    processed as ``temporal_patch_size`` = 2 frames), small sides are scaled up to ``factor`` first, and the
    downscale keeps at least one ``factor`` per side.

    >>> glm4v_smart_resize(2400, 1080, factor=28, min_pixels=12544, max_pixels=9633792)
    (2408, 1092)
    >>> glm4v_smart_resize(4800, 2160, factor=28, min_pixels=12544, max_pixels=9633792)
    (3248, 1456)
    """
    if num_frames < temporal_factor:
        raise ValueError(f"t:{num_frames} must be larger than temporal_factor:{temporal_factor}")
    if height < factor or width < factor:
        scale = max(factor / height, factor / width)
        height, width = int(height * scale), int(width * scale)
    if max(height, width) / min(height, width) > 200:
        raise ValueError(f"absolute aspect ratio must be smaller than 200, got {max(height, width) / min(height, width)}")
    h_bar = round(height / factor) * factor
    w_bar = round(width / factor) * factor
    t_bar = round(num_frames / temporal_factor) * temporal_factor
    if t_bar * h_bar * w_bar > max_pixels:
        beta = math.sqrt((num_frames * height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif t_bar * h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (num_frames * height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar
