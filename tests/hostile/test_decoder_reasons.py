"""Every way a record can fail has its own machine-readable reason: ``unexpected_error`` (an exception's class
name) is left only as the last net for a real bug. Cases: a malformed action JSON inside an AndroidControl record,
numbers where the release stores bytes (every bytes feature), an action_type that is not a string, an episode
too big to build in memory, a worker process killed mid-run."""
from __future__ import annotations

import json
from concurrent.futures.process import BrokenProcessPool

import pytest
from click.testing import CliRunner

from accounting import assert_accounted
from sftdata.cli import main
from sftdata.errors import FatalError
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.io import iter_jsonl
from sftdata.loaders.androidcontrol import BYTES_FEATURES
from sftdata.loaders.protos import make_example, parse_example
from sftdata.loaders.tfrecord import write_tfrecords
from sftdata.rundir import RunDir
from sftdata.synthetic.sample import generate_records


@pytest.fixture(scope="module")
def features() -> dict:
    return parse_example(next(generate_records(1, 0, (270, 600), 7)))


def _with(features: dict, **changes) -> bytes:
    return make_example({**features, **changes})


def _reasons(path, tmp_path, *args) -> list[tuple[str, str]]:
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["ingest", "androidcontrol", str(path), "--out", str(run), "--no-progress",
                                       *args])
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    return [(r["reason"], r["detail"]) for r in iter_jsonl(run / "rejects.jsonl")]


def test_a_malformed_action_json_and_numbers_for_bytes_have_their_own_reasons(features, tmp_path):
    actions = list(features["actions"])
    records = [
        _with(features, actions=[b'{"action_type": "click", "x": 10,'] + actions[1:]),  # cut short
        _with(features, actions=[b"[" * 100_000] + actions[1:]),  # nested past any parser's stack
        _with(features, actions=[json.dumps({"action_type": ["click"]}).encode()] + actions[1:]),
        _with(features, actions=[json.dumps({"action_type": "open_app", "app_name": {"a": 1}}).encode()] + actions[1:]),
        *(_with(features, **{name: [7] * max(1, len(features.get(name, [b""])))}) for name in BYTES_FEATURES),
        _with(features, goal=[0.5]),
    ]
    path = tmp_path / "hostile.tfrecord.gz"
    write_tfrecords(path, [_with(parse_example(r), episode_id=[100 + i]) for i, r in enumerate(records)])
    reasons = _reasons(path, tmp_path)
    assert [r for r, _ in reasons] == ["bad_action_json", "bad_action_json", "bad_action", "bad_action",
                                       *["bad_feature_type"] * len(BYTES_FEATURES), "bad_feature_type"]
    assert "action 1 is not valid JSON" in reasons[0][1] and "nested too deeply" in reasons[1][1]
    assert "feature 'goal' holds int values" in reasons[4][1] and "holds float values" in reasons[-1][1]
    assert_accounted(tmp_path / "run", len(records))


def test_an_episode_too_big_for_memory_is_out_of_memory_and_the_run_goes_on(features, tmp_path, monkeypatch):
    import sftdata.loaders.androidcontrol as ac

    path = tmp_path / "two.tfrecord.gz"
    write_tfrecords(path, generate_records(2, 0, (270, 600), 1))
    real = ac.episode_from_features

    def first_too_big(feats, *args, **kwargs):
        if feats["episode_id"][0] == 1:
            raise MemoryError()
        return real(feats, *args, **kwargs)

    monkeypatch.setattr(ac, "episode_from_features", first_too_big)
    assert [r for r, _ in _reasons(path, tmp_path)] == ["out_of_memory"]
    assert [e["id"] for e in iter_jsonl(tmp_path / "run" / "episodes.jsonl")] == ["2"]
    assert_accounted(tmp_path / "run", 2)


def test_a_real_bug_is_still_ledgered_as_unexpected_error(features, tmp_path, monkeypatch):
    import sftdata.loaders.androidcontrol as ac

    path = tmp_path / "one.tfrecord.gz"
    write_tfrecords(path, generate_records(1, 0, (270, 600), 1))
    monkeypatch.setattr(ac, "episode_from_features", lambda *a, **k: {}["a bug"])
    assert _reasons(path, tmp_path) == [("unexpected_error", "KeyError: 'a bug'")]


def test_a_killed_worker_stops_the_run_and_ledgers_nothing_it_did_not_finish(tmp_path, monkeypatch):
    from sftdata.ingest import AndroidControlIngest

    path = tmp_path / "two.tfrecord.gz"
    write_tfrecords(path, generate_records(2, 0, (270, 600), 1))
    real = AndroidControlIngest.process
    calls = []

    def dies_second(task):
        calls.append(1)
        if len(calls) == 2:
            raise BrokenProcessPool("A process in the process pool was terminated abruptly")
        return real(task)

    monkeypatch.setattr(AndroidControlIngest, "process", staticmethod(dies_second))
    run = RunDir(tmp_path / "run")
    with pytest.raises(FatalError, match=r"a worker process died while building 2 \(two.tfrecord.gz #1\).*resume"):
        ingest_androidcontrol([path], run, IngestOptions(), progress=False)
    assert [e.id for e in run.episodes()] == ["1"] and list(run.rejects()) == []
    monkeypatch.setattr(AndroidControlIngest, "process", staticmethod(real))
    ingest_androidcontrol([path], run, IngestOptions(), progress=False)  # the resume finishes it
    assert [e.id for e in run.episodes()] == ["1", "2"]
    assert_accounted(run.path, 2)
