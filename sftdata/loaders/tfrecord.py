"""Streaming TFRecord reader and writer, GZIP or plain, without TensorFlow.

A TFRecord file is a sequence of frames::

    uint64 length | uint32 masked_crc32c(length) | byte data[length] | uint32 masked_crc32c(data)

Reading is record by record with bounded memory: gzip is inflated in chunks, a length field is trusted only
after its own CRC passes, and a record is read in bounded pieces, so a corrupt or hostile length never
causes a huge allocation. Problems come back as :class:`Frame` objects carrying a :class:`RecordError`
instead of exceptions: a bad data CRC skips one record, a bad length CRC triggers a resynchronisation scan
for the next valid frame, a truncated file or a broken gzip stream ends the file.

>>> import io, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "demo.tfrecord.gz")
>>> write_tfrecords(path, [b"first", b"second"])
2
>>> [f.data for f in read_tfrecords(path)]
[b'first', b'second']
"""
from __future__ import annotations

import gzip
import os
import struct
from collections import deque
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterable, Iterator

import crc32c as _crc32c

try:  # zlib-ng inflates the same streams about 1.35x faster than the zlib in CPython
    from zlib_ng import zlib_ng as zlib
except ImportError:  # pragma: no cover - platforms without a zlib-ng wheel
    import zlib  # type: ignore[no-redef]

from ..errors import RecordError
from ..io import atomic_path

MASK_DELTA = 0xA282EAD8
HEADER = struct.Struct("<QI")
FOOTER = struct.Struct("<I")
CHUNK = 1 << 20
DEFAULT_MAX_RECORD_BYTES = 1 << 30
RESYNC_WINDOW = 256 << 20


def masked_crc32c(data: bytes | memoryview) -> int:
    """TFRecord's masked CRC32C: rotate right by 15 bits, add a constant."""
    crc = _crc32c.crc32c(data)
    return (((crc >> 15) | (crc << 17)) + MASK_DELTA) & 0xFFFFFFFF


@dataclass
class Frame:
    """One record position in a file: ``data`` when it was read intact, else ``error``."""

    index: int
    offset: int
    data: bytes | None = None
    error: RecordError | None = None


class RecordSource:
    """Exact-size reads from a raw or gzip byte stream. Inflated data waits in a queue of chunks and is
    joined once per read, so a record costs one copy; the inflate output per call is bounded."""

    def __init__(self, raw: BinaryIO, compressed: bool) -> None:
        self.raw = raw
        self.inflater = zlib.decompressobj(wbits=31) if compressed else None
        self.chunks: deque[bytes] = deque()
        self.head = 0  # bytes of chunks[0] already handed out
        self.avail = 0  # bytes buffered and not handed out
        self.consumed = 0  # uncompressed bytes handed out so far
        self.fed = False  # the current gzip member has received input

    def _push(self, data: bytes) -> None:
        if data:
            self.chunks.append(data)
            self.avail += len(data)

    def _fill(self, want: int) -> bool:
        """Grow the buffer toward ``want`` bytes; False when nothing more can come."""
        room = min(max(CHUNK, want - self.avail), 64 << 20)
        if self.inflater is None:
            data = self.raw.read(room)
            self._push(data)
            return bool(data)
        inflater = self.inflater
        if inflater.eof:  # a gzip member ended; another may follow in its unused data or the file
            data = inflater.unused_data
            self.inflater = inflater = zlib.decompressobj(wbits=31)
            self.fed = False
        else:
            data = inflater.unconsumed_tail
        if not data:
            data = self.raw.read(CHUNK)
            if not data:
                if self.fed:
                    raise RecordError("gzip_truncated", "the gzip stream ends before its end-of-member marker")
                return False
        self.fed = True
        try:
            self._push(inflater.decompress(data, room))
        except zlib.error as exc:
            raise RecordError("gzip_corrupt", f"gzip stream is corrupt: {exc}") from None
        return True

    def read(self, n: int) -> bytes:
        """Exactly ``n`` bytes, or fewer at the end of the stream."""
        while self.avail < n and self._fill(n):
            pass
        n = min(n, self.avail)
        parts = []
        need = n
        while need:
            chunk = self.chunks[0]
            left = len(chunk) - self.head
            if left <= need:
                parts.append(memoryview(chunk)[self.head:] if self.head else chunk)
                self.chunks.popleft()
                self.head = 0
                need -= left
            else:
                parts.append(memoryview(chunk)[self.head:self.head + need])
                self.head += need
                need = 0
        self.avail -= n
        self.consumed += n
        if len(parts) == 1 and isinstance(parts[0], bytes):
            return parts[0]
        return b"".join(parts)

    def peek(self, n: int) -> bytes:
        while self.avail < n and self._fill(n):
            pass
        parts, got = [], 0
        for i, chunk in enumerate(self.chunks):
            parts.append(memoryview(chunk)[self.head:] if i == 0 else chunk)
            got += len(parts[-1])
            if got >= n:
                break
        return b"".join(parts)[:n]

    def skip(self, n: int) -> int:
        """Discard up to ``n`` bytes in bounded pieces; returns how many were discarded."""
        done = 0
        while done < n:
            piece = self.read(min(n - done, 16 << 20))
            if not piece:
                break
            done += len(piece)
        return done


def _open_source(f: BinaryIO, compression: str) -> RecordSource:
    if compression == "auto":
        head = f.read(2)
        f.seek(0)
        compressed = head == b"\x1f\x8b"
    elif compression in ("gzip", "none"):
        compressed = compression == "gzip"
    else:
        raise ValueError(f"compression must be 'auto', 'gzip' or 'none', not {compression!r}")
    return RecordSource(f, compressed)


def read_tfrecords(path: str | os.PathLike, *, verify: bool = True, compression: str = "auto",
                   max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES,
                   skip: Callable[[int], bool] | None = None,
                   on_progress: Callable[[int], None] | None = None) -> Iterator[Frame]:
    """Yield one :class:`Frame` per record position of ``path``.

    ``skip(index)`` returning True passes over a record's payload without copying or checking it (used to
    resume). ``on_progress(compressed_bytes_read)`` is called after every frame.
    """
    with open(path, "rb") as f:
        src = _open_source(f, compression)
        index = 0
        last_raw = 0

        def report() -> None:
            nonlocal last_raw
            if on_progress is not None:
                pos = f.tell()
                on_progress(pos - last_raw)
                last_raw = pos

        while True:
            offset = src.consumed
            try:
                header = src.read(HEADER.size)
                if not header:
                    break
                if len(header) < HEADER.size:
                    yield Frame(index, offset, error=RecordError(
                        "truncated", f"file ends inside a record header ({len(header)} of 12 bytes)"))
                    break
                length, length_crc = HEADER.unpack(header)
                if verify and masked_crc32c(header[:8]) != length_crc:
                    frame = Frame(index, offset, error=RecordError(
                        "length_crc_mismatch", f"record header CRC mismatch (claimed length {length})"))
                    from .resync import resync  # only a corrupt file needs it

                    skipped = resync(src, max_record_bytes)
                    if skipped is None:
                        if index == 0 and offset == 0:  # not one valid record anywhere: not a TFRecord at all
                            frame.error = RecordError("not_a_tfrecord", "not a TFRecord file: its first bytes are "
                                                      "no record header and no valid record follows (a Parquet, "
                                                      "JSON or image file?)")
                            yield frame
                            break
                        frame.error.detail += "; no valid record found after it, rest of file unreadable"
                        yield frame
                        break
                    frame.error.detail += f"; resynchronised after skipping {skipped} bytes"
                    yield frame
                    index += 1
                    continue
                if length > max_record_bytes:
                    got = src.skip(length + FOOTER.size)
                    reason = "record_too_large" if got == length + FOOTER.size else "truncated"
                    yield Frame(index, offset, error=RecordError(
                        reason, f"record claims {length} bytes, over the {max_record_bytes}-byte limit"
                        + ("" if reason == "record_too_large" else f"; file ends after {got} of them")))
                    if reason == "truncated":
                        break
                    index += 1
                    continue
                if skip is not None and skip(index):
                    got = src.skip(length + FOOTER.size)
                    if got < length + FOOTER.size:
                        yield Frame(index, offset, error=RecordError(
                            "truncated", f"file ends inside a record ({got} of {length + 4} bytes)"))
                        break
                    yield Frame(index, offset)
                    index += 1
                    report()
                    continue
                data = src.read(length)
                footer = src.read(FOOTER.size)
                if len(data) < length or len(footer) < FOOTER.size:
                    yield Frame(index, offset, error=RecordError(
                        "truncated", f"file ends inside a record ({len(data) + len(footer)} of {length + 4} bytes)"))
                    break
                if verify and masked_crc32c(data) != FOOTER.unpack(footer)[0]:
                    yield Frame(index, offset, error=RecordError(
                        "data_crc_mismatch", f"record data CRC mismatch ({length} bytes)"))
                else:
                    yield Frame(index, offset, data=data)
                index += 1
                report()
            except RecordError as exc:  # the stream itself is broken: nothing after this can be trusted
                yield Frame(index, offset, error=exc)
                break
        report()


def frame_record(data: bytes) -> bytes:
    """The bytes of one TFRecord frame around ``data``."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc32c(length)) + data + struct.pack("<I", masked_crc32c(data))


def write_tfrecords(path: str | os.PathLike, records: Iterable[bytes], *, compress: bool = True,
                    level: int = 6) -> int:
    """Write ``records`` atomically (temp file + rename), GZIP-compressed like TensorFlow's
    ``TFRecordOptions(compression_type="GZIP")`` unless ``compress`` is False. Returns the count."""
    count = 0
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as raw:
            out = gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=level, mtime=0) if compress else raw
            try:
                for data in records:
                    out.write(frame_record(data))
                    count += 1
            finally:
                if compress:
                    out.close()
    return count
