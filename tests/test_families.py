"""Model families (sftdata.families): header sizes, the processors' resize rules, image-token counts, text bounds."""
from __future__ import annotations

import io
import json
import math
import random
import struct
import sys

import pytest
from PIL import Image

from sftdata.errors import FatalError
from sftdata.families import FAMILIES, glm4v_smart_resize, load_tokenizer, png_size, smart_resize
from support import AC_DIR, missing_shared

SCREENSHOTS = AC_DIR / "screenshots"


# --- References, copied from the upstream code (only the error messages shortened) -------------------------
# transformers 5.x src/transformers/models/qwen2_vl/image_processing_qwen2_vl.py (as in 5.19: no error for sides
# below the factor, which 4.x raised; a downscale keeps at least one factor per side)
def ref_hf_smart_resize(height, width, factor=28, min_pixels=56 * 56, max_pixels=14 * 14 * 4 * 1280):
    if max(height, width) / min(height, width) > 200:
        raise ValueError(f"absolute aspect ratio must be smaller than 200, got {max(height, width) / min(height, width)}")
    h_bar = round(height / factor) * factor
    w_bar = round(width / factor) * factor
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


# QwenLM/Qwen3-VL qwen-vl-utils/src/qwen_vl_utils/vision_process.py (commit 004d5e0a0d4514ce8945356ae8c969f4dc0080dc),
# the resize ms-swift's Qwen2VLTemplate.replace_tag applies through fetch_image.
def round_by_factor(number, factor):
    return round(number / factor) * factor


def ceil_by_factor(number, factor):
    return math.ceil(number / factor) * factor


def floor_by_factor(number, factor):
    return math.floor(number / factor) * factor


def ref_qwen_vl_utils_smart_resize(height, width, factor, min_pixels=None, max_pixels=None):
    max_pixels = max_pixels if max_pixels is not None else (16384 * factor ** 2)
    min_pixels = min_pixels if min_pixels is not None else (4 * factor ** 2)
    assert max_pixels >= min_pixels, "The max_pixels of image must be greater than or equal to min_pixels."
    if max(height, width) / min(height, width) > 200:
        raise ValueError(f"absolute aspect ratio must be smaller than 200, got {max(height, width) / min(height, width)}")
    h_bar = max(factor, round_by_factor(height, factor))
    w_bar = max(factor, round_by_factor(width, factor))
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = floor_by_factor(height / beta, factor)
        w_bar = floor_by_factor(width / beta, factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = ceil_by_factor(height * beta, factor)
        w_bar = ceil_by_factor(width * beta, factor)
    return h_bar, w_bar


# transformers src/transformers/models/glm4v/image_processing_glm4v.py (commit 052f526c0bf986965ad2144f49b6d5edfccf653f)
def ref_glm4v_smart_resize(num_frames, height, width, temporal_factor=2, factor=28, min_pixels=112 * 112,
                           max_pixels=14 * 14 * 2 * 2 * 2 * 6144):
    if num_frames < temporal_factor:
        raise ValueError(f"t:{num_frames} must be larger than temporal_factor:{temporal_factor}")
    if height < factor or width < factor:
        scale = max(factor / height, factor / width)
        height = int(height * scale)
        width = int(width * scale)
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


# --- Sizes ----------------------------------------------------------------------------------------------------
FIXED = [(3, 3), (1, 150), (150, 1), (28, 5000), (5000, 28), (28, 5700), (10, 10), (27, 27), (28, 28), (13, 14),
         (42, 70), (70, 42), (1080, 2400), (1440, 3120), (720, 1600), (1080, 1920), (20000, 15000), (15000, 20000),
         (1, 1), (2, 401), (100, 20001), (99999, 500)]


def random_sizes(n=1500, seed=0):
    rng = random.Random(seed)
    out = list(FIXED)
    while len(out) < n:
        kind = rng.randrange(5)
        if kind == 0:  # odd, ordinary
            h, w = rng.randrange(1, 4000, 2), rng.randrange(1, 4000, 2)
        elif kind == 1:  # tiny
            h, w = rng.randint(1, 60), rng.randint(1, 60)
        elif kind == 2:  # huge
            h, w = rng.randint(5000, 30000), rng.randint(5000, 30000)
        elif kind == 3:  # extreme ratios, both sides of 200
            h = rng.randint(1, 100)
            w = int(h * rng.uniform(150, 260)) + rng.randint(0, 3)
            h, w = (h, w) if rng.random() < 0.5 else (w, h)
        else:  # screenshot-like
            h, w = rng.randint(600, 3200), rng.randint(300, 1600)
        out.append((h, w))
    return out


def outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except ValueError:
        return "ValueError"


LIMITS = [(28, 3136, 12845056), (28, 56 * 56, 28 * 28 * 1280), (32, 4096, 16777216), (32, 65536, 16777216)]


@pytest.mark.parametrize("factor,lo,hi", LIMITS)
def test_smart_resize_matches_transformers_reference(factor, lo, hi):
    for h, w in random_sizes():
        assert outcome(smart_resize, h, w, factor=factor, min_pixels=lo, max_pixels=hi) == \
            outcome(ref_hf_smart_resize, h, w, factor=factor, min_pixels=lo, max_pixels=hi), (h, w)


@pytest.mark.parametrize("factor,lo,hi", LIMITS)
def test_clamped_smart_resize_matches_qwen_vl_utils_reference(factor, lo, hi):
    for h, w in random_sizes(seed=1):
        assert outcome(smart_resize, h, w, factor=factor, min_pixels=lo, max_pixels=hi, clamp_small=True) == \
            outcome(ref_qwen_vl_utils_smart_resize, h, w, factor, lo, hi), (h, w)


def test_glm4v_smart_resize_matches_reference():
    for h, w in random_sizes(seed=2):
        for lo, hi in [(12544, 9633792), (112 * 112, 28 * 28 * 15000)]:
            assert outcome(glm4v_smart_resize, h, w, factor=28, min_pixels=lo, max_pixels=hi) == \
                outcome(ref_glm4v_smart_resize, 2, h, w, 2, 28, lo, hi), (h, w)


@pytest.mark.parametrize("name,factor,lo,hi", [("qwen2.5-vl", 28, 3136, 12845056), ("qwen2-vl", 28, 3136, 12845056),
                                               ("qwen3-vl", 32, 4096, 16777216)])
def test_qwen_family_tokens_follow_qwen_vl_utils(name, factor, lo, hi):
    fam = FAMILIES[name]
    assert (fam.factor, fam.min_pixels, fam.max_pixels, fam.image_overhead) == (factor, lo, hi, 2)
    for h, w in random_sizes(seed=3):
        ref = outcome(ref_qwen_vl_utils_smart_resize, h, w, factor, lo, hi)
        if ref == "ValueError" or 0 in ref:
            with pytest.raises(ValueError):
                fam.image_tokens(w, h)
        else:
            assert fam.image_tokens(w, h) == ref[0] * ref[1] // factor ** 2, (h, w)


def test_glm_family_tokens():
    fam = FAMILIES["glm-4.1v"]
    for h, w in random_sizes(seed=4):
        ref = outcome(ref_glm4v_smart_resize, 2, h, w, 2, 28, 12544, 9633792)
        expected = "ValueError" if ref == "ValueError" else ref[0] * ref[1] // 28 ** 2
        assert outcome(fam.image_tokens, w, h) == expected, (h, w)


def test_acceptance_values_and_edges():
    q25 = FAMILIES["qwen2.5-vl"]
    assert q25.image_tokens(1080, 2400) == 3354
    assert q25.image_tokens(1080, 2400) + q25.image_overhead == 3356
    assert FAMILIES["qwen3-vl"].image_tokens(1080, 2400) == 2550
    assert q25.resize(3, 3) == (56, 56)  # tiny: clamped to the factor, then up to min_pixels
    assert q25.resize(150, 1) == (140, 28)
    assert q25.resize(5000, 28) == (5012, 28)
    w, h = q25.resize(20000, 15000)  # huge: down to max_pixels
    assert w * h <= 12845056 and w % 28 == 0 and h % 28 == 0 and w * h > 0.9 * 12845056
    with pytest.raises(ValueError, match="aspect ratio"):
        q25.image_tokens(5700, 28)
    assert smart_resize(3, 3, factor=28, min_pixels=3136, max_pixels=12845056) == (56, 56)  # as transformers 5
    assert q25.image_tokens(1080, 2400, max_pixels=1280 * 28 * 28) == 1272


@pytest.mark.swift  # transformers comes with ms-swift
def test_against_installed_transformers():
    qwen2_vl = pytest.importorskip("transformers.models.qwen2_vl.image_processing_qwen2_vl")
    for h, w in random_sizes(300, seed=5):
        for factor, lo, hi in LIMITS:
            assert outcome(smart_resize, h, w, factor=factor, min_pixels=lo, max_pixels=hi) == \
                outcome(qwen2_vl.smart_resize, h, w, factor=factor, min_pixels=lo, max_pixels=hi), (h, w)
    glm4v = pytest.importorskip("transformers.models.glm4v.image_processing_glm4v")
    for h, w in random_sizes(300, seed=6):
        assert outcome(glm4v_smart_resize, h, w, factor=28, min_pixels=12544, max_pixels=9633792) == \
            outcome(glm4v.smart_resize, num_frames=2, height=h, width=w, temporal_factor=2, factor=28,
                    min_pixels=12544, max_pixels=9633792), (h, w)


# --- Header sizes --------------------------------------------------------------------------------------------
def encoded(size, fmt, **kw) -> bytes:
    # noise in 20-pixel blocks: varied content that encodes in a tenth of a second (full-size noise takes seconds
    # in lossless WebP and PNG, and only the header is read)
    w, h = size
    img = Image.effect_noise((max(1, w // 20), max(1, h // 20)), 64).convert("RGB")
    img = img.resize(size, Image.Resampling.NEAREST)
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


def test_fixture_screenshots_match_pillow():
    pngs = sorted(SCREENSHOTS.glob("*/*.png"))
    if not pngs:
        pytest.skip(missing_shared())
    for p in pngs:
        with Image.open(p) as im:
            assert png_size(p) == im.size, p
        assert png_size(str(p)) == png_size(p.read_bytes()[:24])


@pytest.mark.parametrize("fmt,kw", [("PNG", {}), ("JPEG", {}), ("JPEG", {"progressive": True}),
                                    ("JPEG", {"exif": b"Exif\x00\x00" + bytes(30000)}), ("WEBP", {"quality": 80}),
                                    ("WEBP", {"lossless": True})])
@pytest.mark.parametrize("size", [(1, 1), (37, 91), (1080, 2400), (1603, 721)])
def test_formats_match_pillow(tmp_path, fmt, kw, size):
    data = encoded(size, fmt, **kw)
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == size
    path = tmp_path / f"x.{fmt.lower()}"
    path.write_bytes(data)
    assert png_size(data) == png_size(path) == size


def test_webp_extended_header(tmp_path):
    img = Image.new("RGBA", (333, 777), (0, 0, 0, 0))  # alpha -> VP8X container
    buf = io.BytesIO()
    img.save(buf, "WEBP", exif=b"Exif\x00\x00" + bytes(64))
    data = buf.getvalue()
    assert data[12:16] == b"VP8X" and png_size(data) == (333, 777)


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_truncated_file_still_gives_size_without_decoding(tmp_path, fmt):
    data = encoded((640, 480), fmt)
    cut = {"PNG": 40, "JPEG": data.index(b"\xff\xc0") + 12 if b"\xff\xc0" in data else 700, "WEBP": 40}[fmt]
    path = tmp_path / "cut.bin"
    path.write_bytes(data[:cut])
    assert png_size(path) == (640, 480)
    with pytest.raises(OSError):  # Pillow needs the pixel data, the header reader does not
        with Image.open(path) as im:
            im.load()


@pytest.mark.parametrize("data,match", [
    (b"", "not a PNG"), (b"GIF89a\x01\x00\x01\x00", "not a PNG"), (b"hello world" * 4, "not a PNG"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "IHDR"), (b"\x89PNG\r\n\x1a\n" + struct.pack(">I4s", 4, b"tEXt") + bytes(8), "IHDR"),
    (b"\xff\xd8\xff\xe0\x00\x10" + bytes(14) + b"\xff\xd9", "EOI"), (b"\xff\xd8\xff\xe0\x00\x10JFIF", "truncated"),
    (b"RIFF\x00\x00\x00\x00WEBPVP8", "WebP"),
])
def test_bad_headers_raise(data, match):
    with pytest.raises(ValueError, match=match):
        png_size(data)


# --- Tokenizer ---------------------------------------------------------------------------------------------
# the smallest tokenizer.json Hugging Face tokenizers reads: a word-level model
WORD_LEVEL = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
              "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
              "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "打开": 1, "设置": 2}, "unk_token": "[UNK]"}}


def test_load_tokenizer_names_the_missing_package(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # makes `import tokenizers` fail
    (tmp_path / "tokenizer.json").write_text(json.dumps(WORD_LEVEL))
    with pytest.raises(FatalError, match="needs the 'tokenizers' package"):
        load_tokenizer(tmp_path)


@pytest.mark.parametrize("installed", [True, False], ids=["with-tokenizers", "without-tokenizers"])
def test_a_tokenizer_that_is_missing_or_unreadable_is_one_line(tmp_path, monkeypatch, installed):
    if not installed:
        monkeypatch.setitem(sys.modules, "tokenizers", None)
    with pytest.raises(FatalError, match="no such file"):
        load_tokenizer(tmp_path / "nope.json")
    with pytest.raises(FatalError, match="no such file"):
        load_tokenizer(tmp_path)  # a folder without tokenizer.json
    for text in ('{"x": 1}', "{not json", "[1, 2]"):
        (tmp_path / "tokenizer.json").write_text(text)
        with pytest.raises(FatalError, match="is not a tokenizer.json"):
            load_tokenizer(tmp_path)
    (tmp_path / "tokenizer.json").write_bytes(b"\xff\xfe{")
    with pytest.raises(FatalError, match="is not a tokenizer.json"):
        load_tokenizer(tmp_path)


@pytest.mark.swift  # tokenizers comes with ms-swift's transformers
def test_a_tokenizer_json_is_loaded(tmp_path):
    (tmp_path / "tokenizer.json").write_text(json.dumps(WORD_LEVEL, ensure_ascii=False), encoding="utf-8")
    assert load_tokenizer(tmp_path).encode("打开 设置").ids == [1, 2]
    broken = {**WORD_LEVEL, "model": {"type": "NoSuchModel"}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(broken))
    with pytest.raises(FatalError, match="tokenizers can read"):
        load_tokenizer(tmp_path)
