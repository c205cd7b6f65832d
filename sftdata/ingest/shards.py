"""What ingest remembers of AndroidControl shards, so that a resume never mistakes one file for another.

A record is keyed by its shard's *name* and *content identity* plus its index in the file
(``part-0|3f2a...:12``). Two different shards that share a name (``train/part-0`` and ``test/part-0``, two
downloads) have two identities, so neither is passed over as done for the other; a renamed or copied shard
(the same content under another name) is another input: its records are read and, their episodes being in
already, each is ledgered as ``duplicate_episode`` — nothing is lost and nothing is silently passed over.

The identity (:func:`content_id`) is a digest of the file's size, its first and its last MiB, read with two
seeks: resume must not read a 2.5 GB shard (47 GB in all) only to know which file it is, and a whole-file hash
would. It is enough for these files: the head holds the gzip header and the compressed start of the first
episode (its screenshots and id), so two shards of different episodes differ there; the tail of a gzip file ends
with the CRC-32 and length of the *whole* uncompressed stream (and a plain TFRecord file ends with the CRC of its
last record), so a shard changed anywhere is caught there too; the size catches a truncated copy.

Runs written before identities were kept ledgered ``{"file": NAME, "index": i}`` (the key ``NAME:i``). Those
keys keep working, with a check that closes their collision: where a legacy entry names an episode, the record
at that place is passed over only when it holds that episode (its id is read; building the episode, the costly
part, is skipped); a different shard under the same name is read in full. A legacy reject without an episode id
(an undecodable record) cannot be checked and is trusted, as before.

>>> resume_key({"file": "/d/train/part-0", "index": 4, "content": "ab12"}), resume_key({"file": "part-0", "index": 4})
('part-0|ab12:4', 'part-0:4')
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

CHUNK = 1 << 20  # bytes of head and of tail in a shard's identity


def content_id(path: Path) -> str:
    """A short digest of ``path``'s size, first MiB and last MiB (the whole file when it is under 2 MiB)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        digest.update(str(size).encode())
        f.seek(0)
        digest.update(f.read(CHUNK))
        if size > CHUNK:
            f.seek(max(CHUNK, size - CHUNK))
            digest.update(f.read(CHUNK))
    return digest.hexdigest()[:16]


def resume_key(ref: dict[str, Any]) -> str:
    """The resume key of a record reference: name, content identity and index (legacy: name and index)."""
    if ref.get("content"):
        return f"{PurePosixPath(str(ref['file'])).name}|{ref['content']}:{ref['index']}"
    return f"{ref['file']}:{ref['index']}"


@dataclass
class DoneRecords:
    """The records an earlier invocation ledgered: keys with an identity, and legacy keys with the episode ids
    ledgered under them (an empty set: a legacy reject that names no episode, trusted as it is)."""

    keys: set[str] = field(default_factory=set)
    legacy: dict[str, set[str]] = field(default_factory=dict)

    def add(self, ref: dict[str, Any], episode_id: Any) -> None:
        key = resume_key(ref)
        if ref.get("content"):
            self.keys.add(key)
        else:
            self.legacy.setdefault(key, set()).update({str(episode_id)} if episode_id is not None else set())

    def __len__(self) -> int:
        return len(self.keys) + len(self.legacy)

    def passed_over(self, ref: dict[str, Any]) -> bool:
        """Done, without reading the record: its key is ledgered, or a legacy entry that cannot be checked."""
        if resume_key(ref) in self.keys:
            return True
        legacy = self.legacy.get(resume_key({"file": ref["file"], "index": ref["index"]}))
        return legacy is not None and not legacy

    def legacy_holds(self, ref: dict[str, Any], episode_id: str) -> bool:
        """A legacy entry at this record's place ledgered this very episode (so the record is done)."""
        return episode_id in self.legacy.get(resume_key({"file": ref["file"], "index": ref["index"]}), ())
