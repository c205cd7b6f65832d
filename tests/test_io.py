import os

import pytest

from sftdata.errors import FatalError
from sftdata.io import ImageStore, Ledger, atomic_path, iter_jsonl, repair_torn_tail, write_json_atomic


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
