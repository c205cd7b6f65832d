"""Issue acceptance for the web: the generated Mind2Web sample (the release's schema) and the generated annotated
web trajectories ingest, annotate (template), validate and export in browser-use, and the parser written from
seed 003 alone reads at least 50 exported answers, each saying the ground-truth action: the listed element it
names is the step's target, typed text and selected values are the recorded ones. Every target box lies inside
its step's image."""
from __future__ import annotations

import json
import re

import pytest

from sftdata.export.samples import build_sample
from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.ingest.mind2web import ingest_mind2web
from sftdata.io import iter_jsonl
from sftdata.model import Episode
from sftdata.checks.check import check_items
from sftdata.annotate.stage import AnnotateOptions, annotate_run
from sftdata.rundir import RunDir
from sftdata.synthetic.mind2web import write_parquet
from sftdata.synthetic.web_annotated import write_web_annotated

from seed_parsers import parse_browser_use
from test_seed_grammar import browser_use_parsed

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

LISTED = re.compile(r"^\[(\d+)\]<([^<>/\s]+)>(.*)</\2>$", re.M)  # seed 003: [index]<element_type>text</element_type>
SEED_NAME = {"click": "click_element", "type": "input_text", "select": "select_dropdown_option",
             "back": "go_back", "go_to_url": "go_to_url", "done": "done"}


@pytest.fixture(scope="module")
def web_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("web")
    write_parquet(root / "mind2web.parquet", seed=0)
    write_web_annotated(root / "web-annotated", n_episodes=2, seed=0)
    run = RunDir(root / "run")
    ingest_mind2web([root / "mind2web.parquet"], run, IngestOptions(), progress=False)
    ingest_annotated(root / "web-annotated", run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    return run


def _episodes(run: RunDir) -> tuple[list[Episode], dict[str, list[dict]]]:
    episodes = [Episode.from_dict(d) for d in iter_jsonl(run.episodes_path)]
    items = {str(r["id"]): r["items"] for r in iter_jsonl(run.path / "annotations.jsonl")}
    return episodes, items


def test_every_web_step_validates_and_its_target_lies_inside_its_image(web_run):
    episodes, items = _episodes(web_run)
    assert {e.platform for e in episodes} == {"web"} and {e.source for e in episodes} >= {"mind2web", "annotated"}
    for episode in episodes:
        assert check_items(items[episode.id], episode) == []
        for step in episode.steps:
            w, h = step.screenshot.width, step.screenshot.height
            element = step.action.element
            if element is not None:
                left, top, right, bottom = element.bounds
                assert 0 <= left < right <= w and 0 <= top < bottom <= h, (episode.id, step.index, element.bounds)
            if step.action.point is not None:
                assert 0 <= step.action.point[0] < w and 0 <= step.action.point[1] < h


def test_seed_003_parser_reads_the_answers_and_they_say_the_ground_truth(web_run):
    episodes, items = _episodes(web_run)
    fmt = get_format("browser-use")
    checked, failures = 0, []
    for episode in episodes:
        for i, step in enumerate(episode.steps):
            ctx = StepContext(episode, i, items[episode.id])
            try:
                sample = build_sample(fmt, ctx, "images/")
            except CannotExpress:
                continue
            system, user, answer = (m["content"] for m in sample.record["messages"])
            actions = parse_browser_use(answer, system, user)
            listed = {int(m.group(1)): m.group(3) for m in LISTED.finditer(user)}
            action = step.action
            name, params = actions[-1] if action.type != "new_tab" else actions[0]
            try:
                assert name == SEED_NAME.get(action.type, name), f"{name} for a {action.type}"
                if action.type in ("type", "select"):
                    assert params["text"] == action.text
                if "index" in params and action.element is not None:
                    names = [n.strip()[:20] for n in (action.element.text, action.element.desc, action.element.hint)
                             if n and n.strip()]  # a dropdown is listed by its name (desc) and chosen value
                    assert any(n in listed[params["index"]] for n in names), \
                        f"index {params['index']} is {listed[params['index']]!r}, the target is {names!r}"
                if action.type == "go_to_url":
                    assert params["url"] == action.url
            except AssertionError as exc:
                failures.append(f"{episode.id} step {i + 1}: {exc}")
            checked += 1
    assert not failures, "\n".join(failures[:10])
    assert checked >= 50


def test_exported_browser_use_shards_parse(web_run, tmp_path):
    out = tmp_path / "bu"
    result = export_run(web_run, out, ExportOptions(format="browser-use", split_ratio=0.0, progress=False))
    rows = [json.loads(line) for shard in result.manifest["shards"]["train"]
            for line in (out / shard).read_text(encoding="utf-8").splitlines()]
    assert browser_use_parsed(rows) >= 50
    assert result.manifest["dropped"].get("target_not_listed", 0) == 0
