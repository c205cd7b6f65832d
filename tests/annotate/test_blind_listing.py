"""The blind-writing kit: unseen episodes of a new seed, their steps in the benchmark files, a listing with what a
writer needs (and nothing of the checks), a seed used before refused; and a written part measured by the
certify benchmark."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import blind_listing  # noqa: E402
from labelled_sets import certify_records  # noqa: E402
from sftdata.model import Episode, Step  # noqa: E402


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    into = tmp_path_factory.mktemp("kit")
    for name in (blind_listing.EPISODES, blind_listing.STEPS):
        (into / name).write_text("", encoding="utf-8")
    return into


def test_a_new_part_gets_unseen_steps_and_a_listing(kit, capsys):
    assert blind_listing.main(["kitpart", "--seed", "4242", "--phone", "1", "--web", "1", "--into", str(kit)]) == 0
    listing = capsys.readouterr().out
    episodes = [json.loads(line) for line in (kit / blind_listing.EPISODES).read_text().splitlines()]
    steps = {json.loads(line)["step_id"]: json.loads(line)["step"]
             for line in (kit / blind_listing.STEPS).read_text().splitlines()}
    assert len(episodes) == 2 and {e["kit"]["seed"] for e in episodes} == {4242}
    assert all(e["id"].startswith("kitpart/") for e in episodes)
    assert {Episode.from_dict(e).platform for e in episodes} == {"mobile", "web"}
    assert len(steps) == sum(len(e["steps"]) for e in episodes) and all(Step.from_dict(s) for s in steps.values())
    for sid in steps:
        assert f"### step_id {sid} " in listing
    for what in ("Goal: ", "- done before: ", "- current screen: ", "- next screen", "- true action: ", "- call: {"):
        assert what in listing
    assert "certif" not in listing.lower() and "unsure" not in listing.lower()  # nothing of the checks
    # the same seed again: refused (not unseen), nothing added; and so is the same content under another record
    assert blind_listing.main(["other", "--seed", "4242", "--phone", "1", "--web", "0", "--into", str(kit)]) == 2
    assert len((kit / blind_listing.STEPS).read_text().splitlines()) == len(steps)
    ids = [e["id"] for e in episodes]
    anonymous = [{k: v for k, v in e.items() if k != "kit"} for e in episodes]  # written before the kit said its seed
    (kit / "old.jsonl").write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in anonymous))
    fresh = blind_listing.generate(4242, 1, 0, kit / "tmp")
    assert blind_listing.seen_before(fresh, kit / "old.jsonl") == [fresh[0].id] and ids


def test_a_written_part_is_read_by_the_certify_benchmark(kit):
    steps = {json.loads(line)["step_id"]: json.loads(line)["step"]
             for line in (kit / blind_listing.STEPS).read_text().splitlines()}
    first = next(sid for sid, s in steps.items() if s["action"]["type"] == "open_app")
    app = steps[first]["action"]["app"]
    part = [{"step_id": first, "lang": "zh", "text": f"直接启动{app}应用。", "label": "aligned"},
            {"step_id": first, "lang": "en", "text": "Open Chrome first to look it up.", "label": "contradicts"}]
    (kit / "certify_kitpart.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in part))
    episodes = {d["id"]: Episode.from_dict(d) for d in
                map(json.loads, (kit / blind_listing.EPISODES).read_text().splitlines())}
    records = certify_records(kit, "kitpart", episodes, {k: Step.from_dict(v) for k, v in steps.items()})
    assert [(r["label"], r["function"]["name"], r["platform"]) for r in records] == \
        [("aligned", "open_app", "phone"), ("contradicts", "open_app", "phone")]
    from sftdata.checks.certify import certify
    got = [certify(r["episode"], r["index"], {"reasoning": r["text"], "function": r["function"]}, cjk_threshold=0)
           for r in records]
    assert got[0].outcome == "certified" and got[1].outcome != "certified"
