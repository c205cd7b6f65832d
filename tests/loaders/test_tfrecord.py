import gzip
import struct
import tracemalloc

import pytest

from sftdata.loaders.tfrecord import frame_record, masked_crc32c, read_tfrecords, write_tfrecords

RECORDS = [b"alpha", b"", b"x" * 100_000, bytes(range(256)) + b"\x00\x00\x00"]


def _reasons(path, **kw):
    return [(f.index, f.error.reason if f.error else None) for f in read_tfrecords(path, **kw)]


def test_masked_crc_known_values():
    assert masked_crc32c(b"") == 0xA282EAD8  # crc32c("") == 0; masking adds the delta
    crc = 0xE3069283  # crc32c("123456789"), the standard check value
    assert masked_crc32c(b"123456789") == (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


@pytest.mark.parametrize("compress", [True, False])
def test_round_trip_keeps_every_byte(tmp_path, compress):
    path = tmp_path / "r.tfrecord"
    assert write_tfrecords(path, RECORDS, compress=compress) == len(RECORDS)
    frames = list(read_tfrecords(path))
    assert [f.data for f in frames] == RECORDS  # trailing zero bytes survive
    assert [f.index for f in frames] == [0, 1, 2, 3]


def test_multi_member_gzip(tmp_path):
    path = tmp_path / "m.gz"
    path.write_bytes(gzip.compress(frame_record(b"one")) + gzip.compress(frame_record(b"two")))
    assert [f.data for f in read_tfrecords(path)] == [b"one", b"two"]


def _plain(tmp_path, records):
    path = tmp_path / "p.tfrecord"
    path.write_bytes(b"".join(frame_record(r) for r in records))
    return path


def test_data_crc_mismatch_skips_one_record_only(tmp_path):
    raw = bytearray(b"".join(frame_record(r) for r in RECORDS))
    raw[12 + 5 + 4 + 12 + 0 + 4 + 12 + 500] ^= 0x01  # a byte inside record 2's data
    path = tmp_path / "flip.tfrecord"
    path.write_bytes(bytes(raw))
    assert _reasons(path) == [(0, None), (1, None), (2, "data_crc_mismatch"), (3, None)]


def test_length_crc_mismatch_resynchronises(tmp_path):
    raw = bytearray(b"".join(frame_record(r) for r in RECORDS))
    start2 = len(frame_record(RECORDS[0])) + len(frame_record(RECORDS[1]))
    raw[start2 + 1] ^= 0xFF  # corrupt record 2's length field
    path = tmp_path / "len.tfrecord"
    path.write_bytes(bytes(raw))
    frames = list(read_tfrecords(path))
    assert [(f.error.reason if f.error else None) for f in frames] == [None, None, "length_crc_mismatch", None]
    assert frames[-1].data == RECORDS[3]
    assert "resynchronised" in frames[2].error.detail


@pytest.mark.parametrize("cut", [3, 12, 20, 100_000])
def test_truncated_file_ends_with_a_reject(tmp_path, cut):
    raw = b"".join(frame_record(r) for r in RECORDS)
    path = tmp_path / "t.tfrecord"
    path.write_bytes(raw[: len(raw) - cut])
    reasons = _reasons(path)
    assert reasons[:2] == [(0, None), (1, None)]
    assert reasons[-1][1] == "truncated"


def test_truncated_gzip_stream(tmp_path):
    path = tmp_path / "t.gz"
    write_tfrecords(path, [b"a" * 10, bytes(range(256)) * 4000])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    reasons = _reasons(path)
    assert reasons[0] == (0, None)
    assert reasons[-1][1] in ("gzip_truncated", "truncated")


@pytest.mark.parametrize("where", [0.3, 0.5, 0.8])
def test_corrupt_gzip_stream_never_yields_wrong_bytes(tmp_path, where):
    import random
    payloads = [random.Random(i).randbytes(50_000) for i in range(4)]
    path = tmp_path / "c.gz"
    write_tfrecords(path, payloads)
    data = bytearray(path.read_bytes())
    data[int(len(data) * where)] ^= 0xFF
    path.write_bytes(bytes(data))
    frames = list(read_tfrecords(path))
    assert frames[-1].error is not None
    assert frames[-1].error.reason in ("gzip_corrupt", "gzip_truncated", "data_crc_mismatch", "length_crc_mismatch")
    for f in frames:
        assert f.error is not None or f.data == payloads[f.index]


@pytest.mark.parametrize("compress", [True, False])
def test_huge_length_field_allocates_nothing_big(tmp_path, compress):
    length = struct.pack("<Q", 2**60)  # a hostile header with a *valid* CRC
    evil = length + struct.pack("<I", masked_crc32c(length)) + b"tiny payload"
    path = tmp_path / "evil"
    data = frame_record(b"ok") + evil
    path.write_bytes(gzip.compress(data) if compress else data)
    tracemalloc.start()
    reasons = _reasons(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert reasons[0] == (0, None)
    assert reasons[1][1] in ("record_too_large", "truncated")
    assert peak < 64 << 20


def test_oversized_but_real_record_is_skipped_and_reading_goes_on(tmp_path):
    path = _plain(tmp_path, [b"small", b"y" * 5000, b"after"])
    frames = list(read_tfrecords(path, max_record_bytes=1000))
    assert [(f.error.reason if f.error else f.data) for f in frames] == [b"small", "record_too_large", b"after"]


def test_skip_passes_over_payloads(tmp_path):
    path = _plain(tmp_path, [b"a", b"b", b"c"])
    frames = list(read_tfrecords(path, skip=lambda i: i == 1))
    assert [(f.index, f.data) for f in frames] == [(0, b"a"), (1, None), (2, b"c")]


def test_progress_reports_every_compressed_byte(tmp_path):
    path = tmp_path / "p.gz"
    write_tfrecords(path, RECORDS)
    seen = []
    list(read_tfrecords(path, on_progress=seen.append))
    assert sum(seen) == path.stat().st_size


def test_reads_tensorflow_written_fixture(ac_fixture):
    frames = list(read_tfrecords(ac_fixture))
    assert len(frames) == 3 and all(f.error is None for f in frames)


def test_written_files_are_deterministic_and_readable_by_others(tmp_path):
    a, b = tmp_path / "a.gz", tmp_path / "b.gz"
    write_tfrecords(a, RECORDS)
    write_tfrecords(b, RECORDS)
    assert a.read_bytes() == b.read_bytes()
    assert (a.stat().st_mode & 0o777) == (0o666 & ~_umask())


def _umask():
    import os
    mask = os.umask(0)
    os.umask(mask)
    return mask
