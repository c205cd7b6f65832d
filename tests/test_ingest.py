"""The ingest stage through the real CLI: ledgers, manifest, corrupt inputs, --strict, resume, filters."""
import gzip
import json
import struct

import jsonschema
import pytest
from click.testing import CliRunner

from support import AC_DIR, episode_schema, gunzip
from sftdata.cli import main
from sftdata.io import iter_jsonl
from sftdata.loaders.tfrecord import write_tfrecords


def ingest(*args):
    result = CliRunner().invoke(main, ["ingest", "androidcontrol", *map(str, args), "--no-progress"])
    return result


def ledger(run, name):
    return list(iter_jsonl(run / name))


def _record_offsets(raw: bytes):
    pos, out = 0, []
    while pos < len(raw):
        (length,) = struct.unpack_from("<Q", raw, pos)
        out.append((pos, length))
        pos += 12 + length + 4
    return out


@pytest.fixture
def flipped(ac_fixture, tmp_path):
    raw = bytearray(gunzip(ac_fixture))
    start, length = _record_offsets(bytes(raw))[1]
    raw[start + 12 + length // 2] ^= 0x40  # one bit inside record 1's data (episode 20)
    path = tmp_path / "flipped.tfrecord.gz"
    path.write_bytes(gzip.compress(bytes(raw)))
    return path


@pytest.fixture
def truncated(ac_fixture, tmp_path):
    data = ac_fixture.read_bytes()
    path = tmp_path / "truncated.tfrecord.gz"
    path.write_bytes(data[: int(len(data) * 0.8)])  # cuts into the last record (episode 40)
    return path


def test_ingest_fixture_writes_run_layout(ac_fixture, tmp_path):
    run = tmp_path / "run"
    result = ingest(ac_fixture, "--out", run, "--splits", AC_DIR / "splits.json")
    assert result.exit_code == 0, result.output
    assert "episodes 3   steps 11   rejected 0" in result.output
    episodes = ledger(run, "episodes.jsonl")
    assert [e["id"] for e in episodes] == ["0", "20", "40"]
    assert all(e["meta"]["split"] == "train" for e in episodes)
    validator = jsonschema.Draft202012Validator(episode_schema())
    for e in episodes:
        validator.validate(e)
        for step in e["steps"]:
            assert (run / step["screenshot"]["path"]).is_file()
    manifest = json.loads((run / "manifest.json").read_text())
    entry = manifest["stages"]["ingest"]["androidcontrol"]
    assert entry["counts"] == {"in": 3, "exported": 3, "rejected": 0, "filtered": 0, "by_reason": {}}
    assert entry["inputs"][0]["size"] == ac_fixture.stat().st_size
    assert entry["elapsed_s"] >= 0
    assert manifest["totals"]["steps"] == 11
    assert ledger(run, "rejects.jsonl") == []


def test_flipped_byte_rejects_that_record_and_keeps_the_others(flipped, tmp_path):
    run = tmp_path / "run"
    result = ingest(flipped, "--out", run)
    assert result.exit_code == 0, result.output
    assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["0", "40"]
    [reject] = ledger(run, "rejects.jsonl")
    assert reject["reason"] == "data_crc_mismatch" and reject["stage"] == "ingest"
    assert reject["record"]["index"] == 1 and reject["record"]["file"] == flipped.name
    counts = json.loads((run / "manifest.json").read_text())["stages"]["ingest"]["androidcontrol"]["counts"]
    assert counts["in"] == counts["exported"] + counts["rejected"] == 3
    assert counts["by_reason"] == {"data_crc_mismatch": 1}


def test_truncated_copy_rejects_the_cut_record(truncated, tmp_path):
    run = tmp_path / "run"
    result = ingest(truncated, "--out", run)
    assert result.exit_code == 0, result.output
    assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["0", "20"]
    [reject] = ledger(run, "rejects.jsonl")
    assert reject["reason"] in ("gzip_truncated", "truncated") and reject["record"]["index"] == 2


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("bad", ["flipped", "truncated"])
def test_strict_stops_with_nonzero_exit(bad, workers, request, tmp_path):
    """The reader's rejects take their place in record order, so --strict stops after every earlier record,
    with any number of workers (with two, the bad record's reject once overtook the episode before it)."""
    path = request.getfixturevalue(bad)
    run = tmp_path / "run"
    result = ingest(path, "--out", run, "--strict", "--workers", workers)
    assert result.exit_code != 0
    assert "--strict" in result.output
    assert len(ledger(run, "rejects.jsonl")) == 1  # the bad record is still on the ledger
    if bad == "flipped":
        assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["0"]  # nothing after it was read


def test_rerun_into_finished_run_does_nothing(ac_fixture, tmp_path):
    run = tmp_path / "run"
    assert ingest(ac_fixture, "--out", run).exit_code == 0
    before = {p: p.stat().st_mtime_ns for p in run.rglob("*") if p.is_file()}
    result = ingest(ac_fixture, "--out", run)
    assert result.exit_code == 0 and "nothing to do" in result.output
    after = {p: p.stat().st_mtime_ns for p in run.rglob("*") if p.is_file()}
    assert before == after


def test_resume_after_partial_run_finishes_without_repeating(ac_fixture, tmp_path, monkeypatch):
    run = tmp_path / "run"
    assert ingest(ac_fixture, "--out", run, "--limit", "1").exit_code == 0
    assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["0"]
    # a killed writer leaves a torn last line; the resume must cut it and carry on
    with open(run / "episodes.jsonl", "ab") as f:
        f.write(b'{"id": "20", "source": "androidcon')
    decoded = []
    import sftdata.loaders.androidcontrol as ac
    real = ac.decode_features
    monkeypatch.setattr(ac, "decode_features", lambda data: decoded.append(1) or real(data))
    assert ingest(ac_fixture, "--out", run).exit_code == 0
    assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["0", "20", "40"]
    assert len(decoded) == 2  # episode 0 was passed over, not decoded again


def test_split_and_episode_filters(ac_fixture, tmp_path):
    run = tmp_path / "test-split"
    result = ingest(ac_fixture, "--out", run, "--splits", AC_DIR / "splits.json", "--split", "test")
    assert result.exit_code == 3 and ledger(run, "episodes.jsonl") == []  # nothing produced (sftdata.exitcodes)
    assert "filtered out 3" in result.output and "no input was selected" in result.output
    run = tmp_path / "ids"
    assert ingest(ac_fixture, "--out", run, "--episodes", "20,40").exit_code == 0
    assert [e["id"] for e in ledger(run, "episodes.jsonl")] == ["20", "40"]
    bad = ingest(ac_fixture, "--out", tmp_path / "x", "--splits", AC_DIR / "splits.json", "--split", "nope")
    assert bad.exit_code == 2 and "unknown split 'nope' (one of train, validation, test)" in bad.output


def test_duplicate_episode_ids_are_rejected(ac_fixture, tmp_path):
    copy = tmp_path / "copy.gz"
    copy.write_bytes(ac_fixture.read_bytes())
    run = tmp_path / "run"
    assert ingest(ac_fixture, copy, "--out", run).exit_code == 0
    assert len(ledger(run, "episodes.jsonl")) == 3
    assert {r["reason"] for r in ledger(run, "rejects.jsonl")} == {"duplicate_episode"}


def test_garbage_records_become_rejects(tmp_path):
    path = tmp_path / "junk.gz"
    write_tfrecords(path, [b"\xff\xfe not a protobuf", b""])
    run = tmp_path / "run"
    result = ingest(path, "--out", run)
    assert result.exit_code == 3 and "all 2 inputs were rejected" in result.output  # nothing produced
    assert [r["reason"] for r in ledger(run, "rejects.jsonl")] == ["bad_example", "missing_feature"]


def test_unwritable_run_directory_is_a_clear_error(ac_fixture, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = ingest(ac_fixture, "--out", blocker / "run")
    assert result.exit_code != 0 and "not writable" in result.output


@pytest.mark.parametrize("source", ["androidcontrol", "annotated"])
def test_a_process_pool_gives_the_same_run(source, ac_fixture, flipped, tmp_path):
    from support import ANNOTATED
    from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
    from sftdata.rundir import RunDir

    outputs = []
    for workers in (1, 2):
        run = RunDir(tmp_path / f"w{workers}")
        if source == "androidcontrol":
            ingest_androidcontrol([ac_fixture, flipped], run, IngestOptions(workers=workers), progress=False)
        else:
            ingest_annotated(ANNOTATED, run, IngestOptions(workers=workers), progress=False)
        outputs.append((run.episodes_path.read_bytes(), [
            {k: v for k, v in r.items()} for r in ledger(run.path, "rejects.jsonl")]))
    assert outputs[0] == outputs[1] and outputs[0][0]


def test_a_killed_writers_partial_images_are_swept_and_nothing_else(ac_fixture, tmp_path):
    """A worker killed while storing a screenshot leaves its temporary file; the next ingest removes it (the store's
    own temporary names only), so a resumed run holds what a clean one does."""
    run = tmp_path / "run"
    assert ingest(ac_fixture, "--out", run).exit_code == 0
    folder = next(p for p in (run / "images").iterdir() if p.is_dir())
    partial = folder / f".{folder.name}{'0' * 62}.png.4242-1-7.tmp"
    partial.write_bytes(b"half an image")
    theirs = [folder / "notes.tmp", run / "images" / f".{'ab' * 32}.png.1-1-1.tmp"]  # not the store's: kept
    for path in theirs:
        path.write_bytes(b"not ours")
    before = sorted(p.name for p in folder.iterdir() if p.suffix == ".png")
    result = ingest(ac_fixture, "--out", run, "--splits", AC_DIR / "splits.json")  # a changed option: redone
    assert result.exit_code == 0, result.output
    assert not partial.exists()
    assert all(path.read_bytes() == b"not ours" for path in theirs)
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".png") == before
