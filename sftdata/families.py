"""The model families an export is sized and trained for, and their image-token rules: token-length estimates
for SFT samples, computed without decoding images or loading a model. Formats (coordinates in a family's
resized image), loaders and export all read the families here.

* ``png_size``: (width, height) from a PNG, JPEG or WebP header.
* ``smart_resize`` / ``glm4v_smart_resize``: the resize rules of the Qwen2-VL and GLM-4.1V image processors
  (transformers ``models/qwen2_vl/image_processing_qwen2_vl.py`` and ``models/glm4v/image_processing_glm4v.py``).
* ``FAMILIES``: per-model rule + default pixel limits; ``FAMILIES[name].image_tokens(w, h)`` is the number of
  image placeholder tokens, ``.image_overhead`` the special tokens around each image.
* ``load_tokenizer``: a ``tokenizers.Tokenizer`` from a ``tokenizer.json`` (for ``--tokenizer``).

>>> fam = FAMILIES["qwen2.5-vl"]
>>> fam.image_tokens(1080, 2400), fam.image_overhead
(3354, 2)
>>> FAMILIES["qwen3-vl"].image_tokens(1080, 2400), FAMILIES["glm-4.1v"].image_tokens(1080, 2400)
(2550, 3354)
"""
from __future__ import annotations

import io
import json
import math
import os
import struct
from dataclasses import dataclass
from pathlib import Path

_PNG_SIG = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers carrying the frame size (not DHT C4, JPG C8, DAC CC), as Pillow reads them.
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_JPEG_MAX_SEGMENTS = 512


def png_size(source: str | os.PathLike | bytes | bytearray | memoryview) -> tuple[int, int]:
    """(width, height) of a PNG, JPEG or WebP file (path) or its leading bytes, read from the header only.

    PNG needs the first 24 bytes (signature + IHDR), WebP 30; JPEG walks segment headers (seeking over
    their bodies) to the first SOF marker. Pixels are never decoded, so a truncated file with an intact
    header still gives its size. Anything else raises ValueError.

    >>> png_size(b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I4sII", 13, b"IHDR", 1080, 2400))
    (1080, 2400)
    >>> png_size(b"GIF89a...")
    Traceback (most recent call last):
    ValueError: <bytes>: not a PNG, JPEG or WebP header (starts with b'GIF89a...')
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _header_size(io.BytesIO(bytes(source)), "<bytes>")
    with open(source, "rb") as f:
        return _header_size(f, os.fspath(source))


def _header_size(f, name: str) -> tuple[int, int]:
    head = f.read(30)
    if head.startswith(_PNG_SIG):
        if len(head) < 24 or head[12:16] != b"IHDR":
            raise ValueError(f"{name}: PNG without an IHDR chunk in its first 24 bytes")
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return _webp_size(head, name)
    if head.startswith(b"\xff\xd8"):
        f.seek(2)
        return _jpeg_size(f, name)
    raise ValueError(f"{name}: not a PNG, JPEG or WebP header (starts with {head[:8]!r})")


def _webp_size(head: bytes, name: str) -> tuple[int, int]:
    chunk = head[12:16]
    if len(head) < 30:
        raise ValueError(f"{name}: truncated WebP header")
    if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":  # lossy: 14-bit sizes after the start code
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and head[20] == 0x2F:  # lossless: 14-bit (size - 1) fields
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: 24-bit (canvas size - 1) fields
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    raise ValueError(f"{name}: unsupported WebP chunk {chunk!r}")


def _jpeg_size(f, name: str) -> tuple[int, int]:
    for _ in range(_JPEG_MAX_SEGMENTS):
        byte = f.read(1)
        while byte and byte != b"\xff":  # tolerate garbage between segments, as decoders do
            byte = f.read(1)
        while byte == b"\xff":  # fill bytes
            byte = f.read(1)
        if not byte:
            break
        marker = byte[0]
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # standalone markers carry no length
            continue
        if marker in (0xD9, 0xDA):
            raise ValueError(f"{name}: JPEG reached {'EOI' if marker == 0xD9 else 'SOS'} before a SOF marker")
        raw = f.read(2)
        if len(raw) < 2:
            break
        (length,) = struct.unpack(">H", raw)
        if marker in _JPEG_SOF:
            body = f.read(5)
            if len(body) < 5:
                break
            _, h, w = struct.unpack(">BHH", body)
            return w, h
        f.seek(length - 2, 1)
    raise ValueError(f"{name}: truncated JPEG header (no SOF marker found)")


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


# Added tokens, in the order of the models' tokenizer_config.json. Qwen2/Qwen2.5(-VL): ids 151643..151664, the first
# QWEN_SPECIAL_COUNT "special"; Qwen3(-VL) adds four (151665..151668).
QWEN25_SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
                  "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
                  "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>",
                  "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>")
QWEN3_SPECIAL = QWEN25_SPECIAL + ("<tool_response>", "</tool_response>", "<think>", "</think>")
QWEN_SPECIAL_COUNT = 14
# GLM-4 / GLM-4.1V from id 151329 (<|image|>/<|video|> at 151343/151344, its config's image/video_token_id); the
# first GLM_SPECIAL_COUNT are "special"
GLM4V_SPECIAL = ("<|endoftext|>", "[MASK]", "[gMASK]", "[sMASK]", "<sop>", "<eop>", "<|system|>", "<|user|>",
                 "<|assistant|>", "<|observation|>", "<|begin_of_image|>", "<|end_of_image|>", "<|begin_of_video|>",
                 "<|end_of_video|>", "<|image|>", "<|video|>", "<|begin_of_transcription|>", "<|end_of_transcription|>",
                 "<|code_prefix|>", "<|code_middle|>", "<|code_suffix|>",
                 "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>",
                 "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "/nothink", "<|begin_of_box|>",
                 "<|end_of_box|>")
GLM_SPECIAL_COUNT = 21


@dataclass(frozen=True)
class Family:
    """A model family's image-token rule. ``factor`` = patch_size * merge_size (one token per factor²
    pixels after resizing); ``min_pixels``/``max_pixels`` are the limits in force by default under ms-swift;
    ``image_overhead`` counts the special tokens around each image's placeholders."""

    name: str
    factor: int
    min_pixels: int
    max_pixels: int
    image_overhead: int
    rule: str  # "qwen": qwen-vl-utils fetch_image (smart_resize, clamp_small); "glm4v": glm4v_smart_resize
    default_model: str = ""  # what train.sh trains when --model is not given
    # ms-swift's model_type and template, given explicitly: Swift cannot choose by itself for a local model folder
    # (qwen3_vl vs qwen3_vl_emb/_reranker, qwen2_5_vl vs mimo_vl)
    swift_model_type: str = ""
    swift_template: str = ""
    chat: str = "chatml"  # the chat markup of Swift's template: "chatml" (rendered exactly) or "glm"
    default_system: str | None = None  # Swift's default system when a row has none (its TemplateMeta)
    special_tokens: tuple[str, ...] = ()  # added tokens from the first special id on, in the tokenizer's order
    special_count: int = 0  # how many of them are "special" (the rest are added as text)
    grid: int | None = None  # the point grid of the family's own agent format (Qwen3-VL: 0..999); None: pixels

    def resize(self, width: int, height: int, min_pixels: int | None = None,
               max_pixels: int | None = None) -> tuple[int, int]:
        """(width, height) after the family's resize; limits default to the family's."""
        lo = self.min_pixels if min_pixels is None else min_pixels
        hi = self.max_pixels if max_pixels is None else max_pixels
        if self.rule == "glm4v":
            h, w = glm4v_smart_resize(height, width, factor=self.factor, min_pixels=lo, max_pixels=hi)
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


# Default limits = what ms-swift (>= 4) applies. Qwen: swift/template/templates/qwen.py resizes with
# qwen_vl_utils.fetch_image, then calls the HF image processor with do_resize=False; qwen-vl-utils
# (vision_process.py) defaults to 4..16384 tokens * factor², i.e. 3136..12845056 px for Qwen2/2.5-VL (equal
# to their preprocessor_config min/max_pixels) and 4096..16777216 px for Qwen3-VL (patch_size 16; its
# preprocessor_config shortest_edge 65536 only applies when transformers itself resizes). GLM-4.1V: the HF
# Glm4vImageProcessor resizes, with preprocessor_config size {shortest_edge 12544, longest_edge 9633792}.
FAMILIES: dict[str, Family] = {
    "qwen2-vl": Family("qwen2-vl", 28, 3136, 12845056, 2, "qwen", "Qwen/Qwen2-VL-7B-Instruct", "qwen2_vl", "qwen2_vl",
                       default_system="You are a helpful assistant.", special_tokens=QWEN25_SPECIAL,
                       special_count=QWEN_SPECIAL_COUNT),
    "qwen2.5-vl": Family("qwen2.5-vl", 28, 3136, 12845056, 2, "qwen", "Qwen/Qwen2.5-VL-7B-Instruct", "qwen2_5_vl",
                         "qwen2_5_vl", default_system="You are a helpful assistant.", special_tokens=QWEN25_SPECIAL,
                         special_count=QWEN_SPECIAL_COUNT),
    "qwen3-vl": Family("qwen3-vl", 32, 4 * 32 * 32, 16384 * 32 * 32, 2, "qwen", "Qwen/Qwen3-VL-8B-Instruct",
                       "qwen3_vl", "qwen3_vl", special_tokens=QWEN3_SPECIAL, special_count=QWEN_SPECIAL_COUNT,
                       grid=999),
    "glm-4.1v": Family("glm-4.1v", 28, 12544, 9633792, 2, "glm4v", "zai-org/GLM-4.1V-9B-Base", "glm4v", "glm4v",
                       chat="glm", special_tokens=GLM4V_SPECIAL, special_count=GLM_SPECIAL_COUNT),
}


def load_tokenizer(path: str | os.PathLike):
    """A ``tokenizers.Tokenizer`` from ``path`` (a model directory holding tokenizer.json, or the file).

    What is wrong with the file is said first, whether or not the ``tokenizers`` package is installed; a missing
    package is its own line.
    """
    from .errors import FatalError

    p = Path(path)
    file = p / "tokenizer.json" if p.is_dir() else p
    if not file.is_file():
        raise FatalError(f"--tokenizer {path}: no such file (give a tokenizer.json or the folder holding one)")
    try:
        text = file.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json: {str(exc)[:120]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json: it has no tokenizer model")
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise FatalError("--tokenizer needs the 'tokenizers' package: pip install tokenizers") from None
    try:
        return Tokenizer.from_str(text)
    except Exception as exc:  # the Rust library raises a bare Exception for a file it cannot read
        raise FatalError(f"--tokenizer {file} is not a tokenizer.json Hugging Face tokenizers can read: "
                         f"{str(exc)[:120]}") from None
