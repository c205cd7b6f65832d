"""Resynchronisation after a TFRecord header whose length CRC fails: find the next frame whose header and data
CRCs both hold, at memory speed whatever the garbage in between (zeros, random bytes, arrays of small integers).

>>> import io
>>> from .tfrecord import RecordSource, frame_record
>>> src = RecordSource(io.BytesIO(b"\\xff" * 12 + bytes(100_000) + frame_record(b"next")), compressed=False)
>>> src.skip(12), resync(src, 1 << 30)
(12, 100000)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .tfrecord import FOOTER, HEADER, MASK_DELTA, CHUNK, RESYNC_WINDOW, masked_crc32c

if TYPE_CHECKING:
    from .tfrecord import RecordSource

_ZERO4 = b"\x00\x00\x00\x00"
# Twelve zero bytes are never a header: a zero length's masked CRC is not zero. So inside a run of zero bytes
# only the few starts whose header reaches past either end of the run can be frames.
assert masked_crc32c(bytes(8)) != 0


_ZEROS = bytes(1 << 16)


def _zero_run_end(window: bytes, pos: int) -> int:
    """The first offset from ``pos`` on whose byte is not zero (``len(window)`` if none): pieces of growing size
    compared with zeros (memcmp speed); cost bounded by the run's length, not the window's.

    >>> _zero_run_end(bytes(100000) + b"x", 3), _zero_run_end(b"\\0\\0\\1", 0), _zero_run_end(bytes(5), 2)
    (100000, 2, 5)
    """
    n, step = len(window), 64
    while pos < n:
        piece = window[pos:pos + step]
        if piece != _ZEROS[:len(piece)]:
            return pos + len(piece) - len(piece.lstrip(b"\x00"))
        pos += len(piece)
        step = min(step * 2, len(_ZEROS))
    return n


def _header_starts(window: bytes, max_record_bytes: int) -> Iterator[int]:
    """Offsets >= 1 in ``window`` where a 12-byte header with a passing length CRC starts (the data CRC is the
    caller's to check), in order.

    A length under 4 GiB has four zero high bytes, so candidates are found with ``bytes.find``. A run of zero
    bytes (padding, a zeroed block, a sparse file) would make every byte a candidate; within it, a start whose
    whole header lies in the run reads length 0 with CRC 0, which never passes, so only the starts at the run's
    two ends are tested and the run itself is passed over by comparing it with zeros, at memory speed. After
    ``_VECTOR_MIN`` runs too short to hold a header (dense candidates: arrays of small integers), the rest of
    the window is tested at once by :func:`_header_starts_vectorised`.
    """
    n = len(window)
    short = 0  # zero runs too short to hold a whole header: the mark of dense candidates (arrays of integers)
    pos = window.find(_ZERO4, 5)
    while pos != -1 and pos + 8 <= n:
        end = _zero_run_end(window, pos)  # window[pos:end] is all zero bytes
        if end - pos < 12:
            short += 1
            if short > _VECTOR_MIN:  # many candidates, few in long zero runs: test the rest all at once
                yield from _header_starts_vectorised(window, max_record_bytes, first=pos - 4)
                return
        # a start s has its length's high bytes in the run for pos - 4 <= s <= end - 8; wholly inside: pos <= s <= end - 12
        if end - 12 >= pos:
            starts = list(range(pos - 4, pos)) + list(range(end - 11, end - 7))
        else:
            starts = range(pos - 4, end - 7)
        for s in starts:
            if s >= 1 and s + HEADER.size <= n:
                length, length_crc = HEADER.unpack_from(window, s)
                if length <= max_record_bytes and masked_crc32c(window[s:s + 8]) == length_crc:
                    yield s
        if end >= n:
            return
        pos = window.find(_ZERO4, end)


_VECTOR_MIN = 256  # short zero runs in a window after which the rest's candidates are tested with numpy at once
_CRC_TABLE = None


def _crc32c_table():
    """The reflected CRC32C (Castagnoli) byte table, for the vectorised header test."""
    global _CRC_TABLE
    if _CRC_TABLE is None:
        import numpy as np

        table = []
        for byte in range(256):
            crc = byte
            for _ in range(8):
                crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
            table.append(crc)
        _CRC_TABLE = np.array(table, np.uint32)
    return _CRC_TABLE


def _header_starts_vectorised(window: bytes, max_record_bytes: int, first: int = 1) -> Iterator[int]:
    """:func:`_header_starts` from offset ``first`` on, for windows dense in candidates (arrays of small
    integers, sparse data, where every few bytes hold four zeros): every candidate's length CRC computed at
    once with numpy."""
    import numpy as np

    table = _crc32c_table()
    arr = np.frombuffer(window, np.uint8)
    n = len(arr)
    if n < HEADER.size + 1:
        return
    zero = arr == 0
    last = n - HEADER.size  # highest start whose header fits
    quad = zero[4:last + 5] & zero[5:last + 6] & zero[6:last + 7] & zero[7:last + 8]  # index = start, 0..last
    quad[:max(1, first)] = False  # start 0 is the header that failed; before ``first`` is already tested
    starts = np.flatnonzero(quad)
    if not starts.size:
        return
    heads = arr[starts[:, None] + np.arange(HEADER.size)]  # (k, 12)
    crc = np.full(len(starts), 0xFFFFFFFF, np.uint32)
    for j in range(8):
        crc = table[(crc ^ heads[:, j]) & 0xFF] ^ (crc >> np.uint32(8))
    crc ^= np.uint32(0xFFFFFFFF)
    masked = ((crc >> np.uint32(15)) | (crc << np.uint32(17))) + np.uint32(MASK_DELTA)  # wraps like the mask
    stored = heads[:, 8:12].astype(np.uint32) @ np.array([1, 1 << 8, 1 << 16, 1 << 24], np.uint32)
    length = heads[:, 0:4].astype(np.uint64) @ np.array([1, 1 << 8, 1 << 16, 1 << 24], np.uint64)
    for start in starts[(masked == stored) & (length <= max_record_bytes)]:
        yield int(start)


def resync(src: "RecordSource", max_record_bytes: int) -> int | None:
    """Scan forward for the next frame whose header and data CRCs both hold; leave the source there.

    Candidate headers come from :func:`_header_starts` (``bytes.find`` for the zero high bytes of a length,
    runs of zero bytes skipped whole), so the scan runs at memory speed over random garbage and zeros alike
    rather than one CRC per byte. Returns the bytes skipped, None if the window ran out.
    """
    skipped = 0
    while skipped < RESYNC_WINDOW:
        window = src.peek(CHUNK + HEADER.size)
        if len(window) < HEADER.size:
            return None
        for start in _header_starts(window, max_record_bytes):
            length = HEADER.unpack_from(window, start)[0]
            src.skip(start)
            if _data_crc_holds(src, length):
                return skipped + start
            src.skip(1)
            skipped += start + 1
            break
        else:
            step = max(1, len(window) - HEADER.size)
            skipped += src.skip(step)
            if len(window) < CHUNK:
                return None
    return None


def _data_crc_holds(src: "RecordSource", length: int) -> bool:
    """The frame at ``src``'s position, whose header says ``length``, is whole and its data CRC holds."""
    frame = src.peek(HEADER.size + length + FOOTER.size)
    return len(frame) == HEADER.size + length + FOOTER.size and masked_crc32c(
        frame[HEADER.size:HEADER.size + length]) == FOOTER.unpack_from(frame, HEADER.size + length)[0]


def resync_per_byte(src: "RecordSource", max_record_bytes: int) -> int | None:
    """The previous scan (one length CRC per candidate byte, 1.2 MB/s over zeros): kept as the benchmark's
    baseline (benchmarks/resync.py) and as a reference for the tests."""
    skipped = 0
    while skipped < RESYNC_WINDOW:
        window = src.peek(CHUNK + HEADER.size)
        if len(window) < HEADER.size:
            return None
        pos = window.find(_ZERO4, 5)
        while pos != -1 and pos + 8 <= len(window):
            start = pos - 4
            length, length_crc = HEADER.unpack_from(window, start)
            if length <= max_record_bytes and masked_crc32c(window[start:start + 8]) == length_crc:
                src.skip(start)
                if _data_crc_holds(src, length):
                    return skipped + start
                src.skip(1)
                skipped += start + 1
                break
            pos = window.find(_ZERO4, pos + 1)
        else:
            step = max(1, len(window) - HEADER.size)
            skipped += src.skip(step)
            if len(window) < CHUNK:
                return None
    return None
