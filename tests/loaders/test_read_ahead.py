"""The read-ahead thread of a pooled AndroidControl ingest: order, errors where they happened, a stop that frees the
thread and its file, and the same ledgers as the serial reader."""
from __future__ import annotations

import threading
import time

import pytest

from sftdata.loaders.read_ahead import read_ahead


def _threads() -> int:
    return sum(t.name == "sftdata-read-ahead" for t in threading.enumerate())


def test_items_come_in_order_and_all_of_them():
    assert list(read_ahead(iter(range(1000)), depth=3)) == list(range(1000))


def test_an_error_is_raised_after_the_items_before_it():
    def source():
        yield from (1, 2)
        raise OSError("disk gone")

    got = []
    with pytest.raises(OSError, match="disk gone"):
        for item in read_ahead(source()):
            got.append(item)
    assert got == [1, 2]


def test_closing_early_stops_the_thread_and_closes_the_source():
    closed = threading.Event()

    def endless():
        try:
            i = 0
            while True:
                yield i
                i += 1
        finally:
            closed.set()

    ahead = read_ahead(endless(), depth=2)
    assert [next(ahead) for _ in range(3)] == [0, 1, 2]
    ahead.close()
    assert closed.wait(5) and _threads() == 0


def test_the_thread_runs_ahead_while_the_consumer_works():
    produced = []

    def slow_source():
        for i in range(4):
            produced.append(i)
            yield i

    ahead = read_ahead(slow_source(), depth=4)
    assert next(ahead) == 0
    deadline = time.monotonic() + 5
    while len(produced) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert produced == [0, 1, 2, 3]  # read before the consumer asked for them
    assert list(ahead) == [1, 2, 3]


def test_a_pooled_ingest_ledgers_the_same_bytes_as_the_serial_one(tmp_path):
    """Two workers (the reading thread on) and one (in this process, no thread) over records with a broken one among
    them and a --limit that stops the reader mid-file: the same episodes, rejects and stored screenshots."""
    from sftdata.executors import executor
    from sftdata.ingest.androidcontrol import AndroidControlIngest
    from sftdata.ingest.stage import ingest_options
    from sftdata.loaders.tfrecord import write_tfrecords
    from sftdata.rundir import RunDir
    from sftdata.sources import AndroidControlSource
    from sftdata.synthetic.sample import generate_records

    records = list(generate_records(7, seed=5, size=(270, 600)))
    records[3] = records[3][:-40] + bytes(40)  # decodes to garbage: a reject of its own, in record order
    data = tmp_path / "in.tfrecord.gz"
    write_tfrecords(data, records)
    threads_before = _threads()
    for workers in (1, 2):
        run = RunDir(tmp_path / f"w{workers}")
        src = AndroidControlSource(paths=[data], limit=6)
        with run.creating(), run.writing(), executor("local", workers) as running:
            AndroidControlIngest(run, src, ingest_options(src, workers=workers), progress=False,
                                 executor=running).ingest()
    one, two = tmp_path / "w1", tmp_path / "w2"
    assert (one / "episodes.jsonl").read_bytes() == (two / "episodes.jsonl").read_bytes()
    assert (one / "episodes.jsonl").read_text().count("\n") >= 4
    assert (one / "rejects.jsonl").read_bytes() == (two / "rejects.jsonl").read_bytes()
    assert '"reason":"bad_example"' in (one / "rejects.jsonl").read_text()
    stored = [sorted(p.name for p in (run / "images").rglob("*.png")) for run in (one, two)]
    assert stored[0] == stored[1] and stored[0]
    assert _threads() == threads_before
