"""AndroidControl shards are told apart by their content, not their name (sftdata.ingest.shards): two downloads
holding different ``part-0`` files in ``train/`` and ``test/``, ingested together or one after the other, killed
and resumed, lose nothing; a copy under another name is ledgered as duplicates; runs written before identities
were kept still resume."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from accounting import assert_accounted
from sftdata.cli import main
from sftdata.ingest import shards
from sftdata.io import iter_jsonl
from sftdata.loaders.tfrecord import write_tfrecords
from sftdata.synthetic.sample import generate_records

N = 3  # episodes per shard


@pytest.fixture(scope="module")
def downloads(tmp_path_factory) -> tuple[Path, Path]:
    """``train/part-0.gz`` and ``test/part-0.gz``: the same name, different episodes."""
    root = tmp_path_factory.mktemp("downloads")
    paths = []
    for folder, seed, first_id in (("train", 0, 1000), ("test", 5, 2000)):
        (root / folder).mkdir()
        write_tfrecords(root / folder / "part-0.gz", generate_records(N, seed, (270, 600), first_id))
        paths.append(root / folder / "part-0.gz")
    return paths[0], paths[1]


def ingest(*args) -> str:
    result = CliRunner().invoke(main, ["ingest", "androidcontrol", *map(str, args), "--no-progress"])
    assert result.exit_code == 0, result.output
    return result.output


def ids(run: Path) -> list[str]:
    return [str(e["id"]) for e in iter_jsonl(run / "episodes.jsonl")]


def test_two_shards_with_one_name_ingested_one_after_the_other_are_two_inputs(downloads, tmp_path):
    train, test = downloads
    run = tmp_path / "run"
    ingest(train, "--out", run)
    ingest(test, "--out", run)
    assert ids(run) == ["1000", "1001", "1002", "2000", "2001", "2002"]
    assert_accounted(run, 2 * N)


def test_killed_with_both_shards_and_resumed_one_by_one_loses_nothing(downloads, tmp_path, monkeypatch):
    """The first invocation names the shards by their whole paths (their names clash); resuming with each shard
    alone names it by its file name: the identity, not the label, is what a resume matches."""
    train, test = downloads
    run = tmp_path / "run"
    ingest(train, test, "--out", run, "--limit", "4")  # stopped inside the second shard
    with open(run / "episodes.jsonl", "ab") as f:  # a kill tears the last line
        f.write(b'{"id": "2001", "source": "androidcon')
    assert ids(run) == ["1000", "1001", "1002", "2000"]
    import sftdata.loaders.androidcontrol as ac
    decoded: list[int] = []
    real = ac.decode_features
    monkeypatch.setattr(ac, "decode_features", lambda data: decoded.append(1) or real(data))
    ingest(test, "--out", run)
    ingest(train, "--out", run)
    assert sorted(ids(run)) == ["1000", "1001", "1002", "2000", "2001", "2002"]
    assert len(decoded) == 2  # only the two records not done; the finished ones were passed over unread
    assert list(iter_jsonl(run / "rejects.jsonl")) == []
    assert_accounted(run, 2 * N)


def test_a_copy_under_another_name_is_ledgered_as_duplicates(downloads, tmp_path):
    train, _ = downloads
    copy = tmp_path / "part-0-copy.gz"
    copy.write_bytes(train.read_bytes())
    run = tmp_path / "run"
    ingest(train, "--out", run)
    ingest(copy, "--out", run)
    ingest(copy, "--out", run)  # a second time: nothing new, nothing ledgered twice
    assert ids(run) == ["1000", "1001", "1002"]
    rejects = list(iter_jsonl(run / "rejects.jsonl"))
    assert [(r["episode_id"], r["reason"], r["record"]["file"]) for r in rejects] == [
        (str(i), "duplicate_episode", "part-0-copy.gz") for i in (1000, 1001, 1002)]
    assert_accounted(run, 2 * N)


def test_a_run_written_before_identities_were_kept_still_resumes(downloads, tmp_path, monkeypatch):
    """Legacy ledgers (``{"file": NAME, "index": i}``) keep working, and no longer hide a shard of the same name."""
    train, test = downloads
    run = tmp_path / "run"
    ingest(train, "--out", run, "--limit", "2")
    lines = [json.loads(line) for line in (run / "episodes.jsonl").read_text().splitlines()]
    for line in lines:
        del line["meta"]["record"]["content"]
    (run / "episodes.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    ingest(train, "--out", run)
    assert ids(run) == ["1000", "1001", "1002"]  # the two legacy entries held: no duplicate, the third added
    ingest(test, "--out", run)  # the same name, another shard: read in full
    assert ids(run) == ["1000", "1001", "1002", "2000", "2001", "2002"]
    assert list(iter_jsonl(run / "rejects.jsonl")) == []
    assert_accounted(run, 2 * N)


def test_the_identity_reads_a_head_and_a_tail_never_the_whole_file(tmp_path, monkeypatch):
    big = tmp_path / "big.gz"
    with open(big, "wb") as f:  # 3 GiB, sparse: only the blocks written take room
        f.write(b"head")
        f.seek(3 << 30)
        f.write(b"tail")
    read: list[int] = []
    real_open = open

    class Counting:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def seek(self, *args):
            return self.f.seek(*args)

        def read(self, n):
            data = self.f.read(n)
            read.append(len(data))
            return data

    monkeypatch.setattr(shards, "open", lambda *a, **k: Counting(real_open(*a, **k)), raising=False)
    first = shards.content_id(big)
    assert sum(read) == 2 * shards.CHUNK
    with open(big, "r+b") as f:  # the gzip trailer (CRC and length of the whole stream) changes with any byte
        f.seek(-1, 2)
        f.write(b"T")
    assert shards.content_id(big) != first
