"""Image sizes read from a file's header (PNG, JPEG, WebP): what image-token counts start from, without decoding
pixels."""
from __future__ import annotations

import io
import os
import struct

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
