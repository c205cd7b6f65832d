"""The annotate stage streams raw episode lines: ids are read without decoding, episodes decode in the pool."""
import pytest

from sftdata.errors import FatalError
from sftdata.io import iter_jsonl
from sftdata.annotate.stage import AnnotateOptions, annotate_run

from support import sample_run


def test_a_broken_episode_line_stops_the_run_naming_the_line(tmp_path):
    run = sample_run(tmp_path, 3)
    lines = run.episodes_path.read_bytes().splitlines(keepends=True)
    run.episodes_path.write_bytes(lines[0] + b'{"id": "broken", "steps": [\n' + b"".join(lines[1:]))
    with pytest.raises(FatalError, match=r"episodes.jsonl:2: not valid JSON"):
        annotate_run(run, AnnotateOptions(progress=False, concurrency=1))


def test_only_wanted_and_unfinished_episodes_are_decoded(tmp_path, monkeypatch):
    run = sample_run(tmp_path, 4)
    ids = [r["id"] for r in iter_jsonl(run.episodes_path)]
    annotate_run(run, AnnotateOptions(progress=False, episode_ids=ids[:1]))
    import sftdata.model as model

    decoded = []
    original = model.Episode.from_dict.__func__
    monkeypatch.setattr(model.Episode, "from_dict",
                        classmethod(lambda cls, d: decoded.append(d["id"]) or original(cls, d)))
    result = annotate_run(run, AnnotateOptions(progress=False, episode_ids=ids[:3]))
    assert result.new_annotated == 2 and sorted(decoded) == sorted(ids[1:3])  # not the finished one, nor ids[3]
