"""The repair loop of `sftdata annotate` re-asks rejected items, never unsure ones: an unsure reasoning (no
positive evidence) is not a failure of the model, and a repair would only cost money."""
from __future__ import annotations

import json

from fake_openai import EpisodeIndex, FakeOpenAI
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.checks.certify import certify_items
from sftdata.io import iter_jsonl
from support import UNSURE, sample_run

KEY_ENV = "SFTDATA_TEST_UNSURE_REPAIR_KEY"


def test_an_unsure_item_is_kept_without_a_repair_and_a_rejected_one_is_asked_again(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, "sk-unsure-0000")
    run = sample_run(tmp_path, 2)
    index = EpisodeIndex(run.path)
    episodes = list(run.episodes())
    unsure_id, rejected_id = episodes[0].id, episodes[1].id
    seen: list[str] = []

    def responder(body, n):
        w = index.lookup(body)
        items = index.correct_items(w)
        seen.append(w.episode.id)
        if w.episode.id == unsure_id:
            items[1]["reasoning"] = UNSURE
            items[1].pop("thought", None)
        elif seen.count(rejected_id) == 1:  # the first answer decides a swipe on a tap: a contradiction
            step = next(i for i, s in enumerate(w.episode.steps) if s.action.type == "click")
            items[step]["reasoning"] = "向下滚动页面，查看下方更多的选项。"
        return json.dumps(items, ensure_ascii=False)

    with FakeOpenAI(responder) as srv:
        annotate_run(run, AnnotateOptions(backend="openai", model="fake-vl", base_url=srv.base_url, api_key_env=KEY_ENV,
                                          timeout=5, max_retries=0, progress=False))
    assert seen.count(unsure_id) == 1 and seen.count(rejected_id) == 2  # one repair, for the rejected one
    records = {r["id"]: r for r in iter_jsonl(run.path / "annotations.jsonl")}
    kept = records[unsure_id]["items"]
    assert kept[1]["reasoning"] == UNSURE
    assert certify_items(kept, episodes[0])[1].outcome == "unsure"
