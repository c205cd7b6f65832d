"""Files: atomic writes, append-only JSONL ledgers that survive a kill, and the content-addressed image store.

>>> import tempfile, pathlib
>>> run = pathlib.Path(tempfile.mkdtemp())
>>> store = ImageStore(run)
>>> sha, rel = store.put(b"\\x89PNG fake bytes")
>>> rel == f"images/{sha[:2]}/{sha}.png" and (run / rel).read_bytes() == b"\\x89PNG fake bytes"
True
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import json
import math
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterator

from .errors import FatalError

_UMASK = os.umask(0)
os.umask(_UMASK)


_TMP_SEQ = itertools.count()
_TMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _open_temp(path: str) -> tuple[int, str]:
    """A new, exclusively created file beside ``path`` with the mode ``open()`` would give: ``(fd, its path)``.
    One system call in the common case (caches write one small file per item, so this is a hot path)."""
    head, name = os.path.split(path)
    tmp = os.path.join(head, f".{name}.{os.getpid()}-{threading.get_ident()}-{next(_TMP_SEQ)}.tmp")
    try:
        try:
            return os.open(tmp, _TMP_FLAGS, 0o666), tmp  # the umask applies, as with open()
        except FileNotFoundError:
            os.makedirs(head or ".", exist_ok=True)
            return os.open(tmp, _TMP_FLAGS, 0o666), tmp
        except FileExistsError:  # a leftover of a killed process that had our pid: let mkstemp pick a name
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=head or ".")
            os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600
            return fd, tmp
    except OSError as exc:
        raise disk_full_error(exc, path) or FatalError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _renamed_over(tmp: str, path: str) -> Iterator[None]:
    """Rename ``tmp`` over ``path`` when the block succeeds; remove it when the block fails."""
    try:
        yield
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, *, fsync: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it is renamed over ``path`` (after an fsync
    unless ``fsync`` is False), on failure removed. Readers never see a half-written file."""
    fd, tmp = _open_temp(os.fspath(path))
    os.close(fd)
    with _renamed_over(tmp, os.fspath(path)):
        yield Path(tmp)
        if fsync:
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())


# A full disk, an exhausted quota or a read-only file system: no record is at fault, the run cannot go on
DISK_FULL_ERRNOS = frozenset(e for e in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EROFS) if e is not None)


def disk_full_error(exc: BaseException, what: object) -> FatalError | None:
    """The FatalError to raise for ``exc`` when it is a full disk (or quota, or read-only file system) while
    writing ``what``; None for any other error.

    >>> str(disk_full_error(OSError(errno.ENOSPC, "No space left on device"), "run/episodes.jsonl"))
    'disk full while writing run/episodes.jsonl: free space and rerun (finished work is kept)'
    """
    if not isinstance(exc, OSError) or exc.errno not in DISK_FULL_ERRNOS:
        return None
    what = text_for_output(str(what))
    if exc.errno == errno.EROFS:
        return FatalError(f"read-only file system while writing {what}: make it writable and rerun "
                          "(finished work is kept)")
    kind = "disk quota exceeded" if exc.errno == getattr(errno, "EDQUOT", -1) else "disk full"
    return FatalError(f"{kind} while writing {what}: free space and rerun (finished work is kept)")


@contextlib.contextmanager
def disk_full_guard(what: object) -> Iterator[None]:
    """Turn a full disk inside the block into :func:`disk_full_error`'s FatalError (a stage boundary uses
    this, so no ``[Errno 28]`` traceback reaches the user); other errors pass unchanged."""
    try:
        yield
    except OSError as exc:
        fatal = disk_full_error(exc, what)
        if fatal is None:
            raise
        raise fatal from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def text_for_output(text: str) -> str:
    """``text`` made encodable as UTF-8: a lone surrogate (an undecodable byte of a file name, kept by Python as
    U+DC80..U+DCFF) becomes the six characters ``\\udcff``. Plain text is returned as it is.

    >>> print(text_for_output("traj_" + chr(0xDCFF)), text_for_output("轨迹"))
    traj_\\udcff 轨迹
    """
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def encode_line(text: str) -> bytes:
    """UTF-8 bytes of ``text`` (a JSON document), whatever str it is: lone surrogates inside its strings are
    written as the escaped text ``\\\\udcff``, which reads back as the plain text ``\\udcff`` (never as a
    surrogate that no UTF-8 writer downstream could write).

    >>> print(json.loads(encode_line(json.dumps({"id": "traj_" + chr(0xDCFF)}, ensure_ascii=False)))["id"])
    traj_\\udcff
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # only inside JSON strings (JSON's own syntax is ASCII): escape the backslash too
        return _SURROGATE.sub(lambda m: f"\\\\u{ord(m.group()):04x}", text).encode("utf-8")


def write_bytes_atomic(path: str | os.PathLike, data: bytes, *, fsync: bool = True) -> None:
    """``data`` to ``path`` as :func:`atomic_path` does, writing through the temporary file's descriptor.
    A full disk is a FatalError (the temporary file is removed, ``path`` keeps its previous content)."""
    fd, tmp = _open_temp(os.fspath(path))
    with disk_full_guard(path), _renamed_over(tmp, os.fspath(path)), open(fd, "wb", closefd=True) as f:
        f.write(data)
        if fsync:
            f.flush()
            os.fsync(f.fileno())


def _non_finite_at(obj: Any, where: str = "") -> tuple[str, float] | None:
    """(path like ``a.b[2]``, value) of the first NaN or infinite float inside ``obj``, or None."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return where or "the value", obj
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else ()
    for key, value in items:
        found = _non_finite_at(value, f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}".lstrip("."))
        if found:
            return found
    return None


def json_text(obj: Any, *, indent: int | None = None, what: object = "JSON") -> str:
    """``obj`` as strict JSON text (compact, or indented by ``indent``). NaN and Infinity are not JSON: they are
    a FatalError naming where they are, never written as the invalid tokens ``NaN``/``Infinity``.

    >>> json_text({"tokens": 3, "text": "点击"})
    '{"tokens":3,"text":"点击"}'
    >>> json_text({"usage": {"in": float("nan")}}, what="manifest.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sftdata.errors.FatalError: refusing to write invalid JSON to manifest.json: usage.in is nan (NaN and ...
    """
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False, indent=indent,
                          separators=None if indent is not None else (",", ":"))
    except ValueError as exc:
        found = _non_finite_at(obj)
        if found is None:
            raise
        raise FatalError(f"refusing to write invalid JSON to {text_for_output(str(what))}: {found[0]} is "
                         f"{found[1]!r} (NaN and Infinity are not JSON)") from exc


def write_json_atomic(path: str | os.PathLike, obj: Any, *, fsync: bool = True) -> None:
    """``obj`` as indented strict JSON to ``path``, atomically (NaN/Infinity are a FatalError, see
    :func:`json_text`; nothing is written then)."""
    write_bytes_atomic(path, encode_line(json_text(obj, indent=2, what=path) + "\n"), fsync=fsync)


def read_json(path: str | os.PathLike, default: Any = None) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def iter_jsonl(path: str | os.PathLike) -> Iterator[dict]:
    """Records of a JSONL file, one by one. A torn last line (no newline: the writer was killed) is
    ignored; a broken line elsewhere is an error naming the line."""
    for number, raw in iter_jsonl_lines(path):
        yield parse_jsonl_line(raw, path, number)


def iter_jsonl_lines(path: str | os.PathLike) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line) of the non-blank, complete lines of a JSONL file, for callers that decode
    later (or elsewhere); a torn last line is ignored, as in :func:`iter_jsonl`."""
    path = Path(path)
    if not path.exists():
        return
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.endswith(b"\n"):
                return  # torn tail of a killed writer
            if raw.strip():
                yield number, raw


def parse_jsonl_line(raw: bytes, path: str | os.PathLike, number: int) -> Any:
    """One JSONL record: a JSON object, else FatalError naming the file and line."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise FatalError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    except (RecursionError, UnicodeDecodeError) as exc:
        raise FatalError(f"{path}:{number}: not valid JSON ({type(exc).__name__})") from None
    if not isinstance(value, dict):
        raise FatalError(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
    return value


_LEADING_ID = re.compile(rb'\{"id": ?("(?:[^"\\]|\\.)*")')


def record_id(raw: bytes, path: str | os.PathLike = "", number: int = 0) -> str:
    """The ``id`` of a raw JSONL record without decoding the rest of it (ledgers write ``id`` first; any
    other layout is decoded whole).

    >>> record_id(b'{"id": "ep\\\\"1", "steps": []}'), record_id(b'{"steps": [], "id": 7}')
    ('ep"1', '7')
    """
    m = _LEADING_ID.match(raw)
    if m:
        return json.loads(m.group(1))
    value = parse_jsonl_line(raw, path, number).get("id")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise FatalError(f"{path}:{number}: a record needs an 'id' (string or integer), got {str(value)[:40]!r}")
    return str(value)


def repair_torn_tail(path: str | os.PathLike) -> int:
    """Cut a partial last line (from a killed writer) off ``path``; returns the bytes removed."""
    path = Path(path)
    if not path.exists():
        return 0
    with open(path, "rb+") as f:
        size = f.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        pos = size
        while pos > 0:
            step = min(pos, 1 << 16)
            f.seek(pos - step)
            chunk = f.read(step)
            nl = chunk.rfind(b"\n")
            if nl != -1:
                keep = pos - step + nl + 1
                break
            pos -= step
        else:
            keep = 0
        if keep != size:
            f.truncate(keep)
        return size - keep


class Ledger:
    """An append-only JSONL file, flushed per record so that a ``kill -9`` loses at most the line being
    written (which :func:`repair_torn_tail` removes on the next open)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            repair_torn_tail(self.path)
            self._f = open(self.path, "ab", buffering=0)  # one write per record: nothing left to flush on close
        except OSError as exc:
            raise disk_full_error(exc, self.path) or FatalError(f"cannot write {self.path}: {exc.strerror or exc}") \
                from None

    def append(self, record: dict | str | bytes) -> None:
        """Write one record. Any str is written (lone surrogates escaped, see :func:`encode_line`), bytes as they
        are (a line a worker encoded); a full disk is a FatalError, and the part of the line that made it to disk
        is cut off on the next open."""
        if isinstance(record, bytes):
            data = memoryview(record + b"\n")
        else:
            data = memoryview(encode_line(record if isinstance(record, str) else json_text(record, what=self.path))
                              + b"\n")
        with disk_full_guard(self.path):
            while data:
                data = data[self._f.write(data):]

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ImageStore:
    """Screenshots by content: ``images/<sha[:2]>/<sha>.<ext>`` under a run directory, written once,
    atomically, byte for byte."""

    def __init__(self, run_dir: str | os.PathLike) -> None:
        self.run_dir = Path(run_dir)

    @staticmethod
    def relpath(sha: str, ext: str = "png") -> str:
        return f"images/{sha[:2]}/{sha}.{ext}"

    def put(self, data: bytes, ext: str = "png") -> tuple[str, str]:
        """Store ``data``; returns ``(sha256, path relative to the run)``. Existing content is not rewritten."""
        sha = sha256_hex(data)
        rel = self.relpath(sha, ext)
        target = self.run_dir / rel
        if not target.exists():  # a kill cannot leave a partial file: the rename is atomic
            write_bytes_atomic(target, data, fsync=False)
        return sha, rel

    def sweep_partial(self) -> int:
        """Remove the temporary files a killed writer left in the store (only our own: ``.<sha256>.<ext>.*.tmp``
        in a two-hex-digit folder; nothing else is touched). Call it under the run's writer lock, before work.

        >>> import tempfile; store = ImageStore(tempfile.mkdtemp()); _ = store.put(b"x")
        >>> d = store.run_dir / "images" / "2d"; _ = (d / f".{'2d' * 32}.png.7-1-1.tmp").write_bytes(b"half")
        >>> _ = (d / "notes.tmp").write_bytes(b"mine"); store.sweep_partial(), sorted(p.name for p in d.iterdir())[0]
        (1, '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881.png')
        """
        removed = 0
        for tmp in (self.run_dir / "images").glob("[0-9a-f][0-9a-f]/.*.tmp"):
            if _PARTIAL_IMAGE.fullmatch(tmp.name) and tmp.name[1:3] == tmp.parent.name:
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
                    removed += 1
        return removed


# a temporary file of ImageStore.put (see _open_temp): the image's name, then our pid-thread-seq or mkstemp's suffix
_PARTIAL_IMAGE = re.compile(r"\.[0-9a-f]{64}\.[a-z0-9]{1,5}\.[^/]*\.tmp")


def count_lines(path: str | os.PathLike) -> int:
    """Newline-terminated lines of ``path``, counted in 1 MiB blocks (a progress bar's total; no decoding).

    >>> import tempfile; p = Path(tempfile.mkdtemp()) / "x.jsonl"; _ = p.write_bytes(b"{}\\n{}\\n{")
    >>> count_lines(p)
    2
    """
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 20), b""))
