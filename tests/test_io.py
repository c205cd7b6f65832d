import os

import pytest

from sftdata.errors import FatalError
from sftdata.io import (ImageStore, Ledger, atomic_path, iter_jsonl, iter_jsonl_lines, record_id, repair_torn_tail,
                        write_bytes_atomic, write_json_atomic)


def test_atomic_path_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.json"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("killed")
    assert not target.exists() and os.listdir(tmp_path) == []
    write_json_atomic(target, {"a": "中文"})
    assert "中文" in target.read_text(encoding="utf-8")


def test_ledger_repairs_a_torn_tail_and_appends(tmp_path):
    path = tmp_path / "l.jsonl"
    with Ledger(path) as ledger:
        ledger.append({"n": 1})
        ledger.append({"n": 2})
    with open(path, "ab") as f:
        f.write(b'{"n": 3, "torn')
    assert [r["n"] for r in iter_jsonl(path)] == [1, 2]  # readers ignore the torn tail
    with Ledger(path) as ledger:
        ledger.append({"n": 4})
    assert [r["n"] for r in iter_jsonl(path)] == [1, 2, 4]
    assert repair_torn_tail(path) == 0


def test_broken_line_in_the_middle_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"ok": 1}\nnot json\n{"ok": 2}\n')
    with pytest.raises(FatalError, match="bad.jsonl:2"):
        list(iter_jsonl(path))


def test_image_store_is_content_addressed_and_idempotent(tmp_path):
    store = ImageStore(tmp_path)
    sha, rel = store.put(b"png bytes")
    mtime = (tmp_path / rel).stat().st_mtime_ns
    assert store.put(b"png bytes") == (sha, rel)
    assert (tmp_path / rel).stat().st_mtime_ns == mtime


def test_write_bytes_atomic_makes_parents_respects_the_umask_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "a" / "b" / "x.bin"
    write_bytes_atomic(target, b"one", fsync=False)
    write_bytes_atomic(target, b"two")  # replaces
    assert target.read_bytes() == b"two" and os.listdir(target.parent) == ["x.bin"]
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_bytes_atomic_takes_the_safe_way_past_a_leftover_temp_file(tmp_path, monkeypatch):
    import sftdata.io as io

    target = tmp_path / "x.bin"
    monkeypatch.setattr(io, "_TMP_SEQ", iter([7, 7]))
    write_bytes_atomic(target, b"first", fsync=False)
    leftover = tmp_path / f".x.bin.{os.getpid()}-{__import__('threading').get_ident()}-7.tmp"
    leftover.write_bytes(b"a killed writer's half")  # same pid, thread and number: the fast path must not clobber it
    write_bytes_atomic(target, b"second", fsync=False)
    assert target.read_bytes() == b"second" and leftover.read_bytes() == b"a killed writer's half"


def test_write_bytes_atomic_failure_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "x.bin"
    write_bytes_atomic(target, b"old", fsync=False)

    def refuse(*a):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(FatalError, match="disk full while writing .*x.bin: free space and rerun"):
        write_bytes_atomic(target, b"new", fsync=False)
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["x.bin"]


def test_raw_lines_and_record_ids(tmp_path):
    path = tmp_path / "e.jsonl"
    with Ledger(path) as ledger:
        ledger.append({"id": "a\"b", "steps": []})
        ledger.append({"steps": [], "id": 5})  # not ours: decoded whole
    with open(path, "ab") as f:
        f.write(b"\n{torn")
    lines = list(iter_jsonl_lines(path))
    assert [n for n, _ in lines] == [1, 2]  # the blank line 3 is skipped, the torn tail ignored
    assert [record_id(raw, path, n) for n, raw in lines] == ['a"b', "5"]
    with pytest.raises(FatalError, match="e.jsonl:9"):
        record_id(b"not json\n", path, 9)
