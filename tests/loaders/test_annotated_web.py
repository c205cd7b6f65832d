"""Human-annotated web trajectories: the generated set ingests through the CLI into web episodes with urls and
elements, the marks are found on every desktop size, the web actions are parsed and clicks name their element;
bad web fields of task.json are rejected with their reasons and accounted; the phone fixtures are unchanged."""
from __future__ import annotations

import json
import math
import shutil

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image

from hostile.accounting import assert_accounted
from support import ANNOTATED, episode_schema, missing_shared
from sftdata.cli import main
from sftdata.io import iter_jsonl
from sftdata.model import Episode
from sftdata.overlay import detect_marks
from sftdata.rundir import RunDir
from sftdata.synthetic.web_annotated import SIZES, write_web_annotated

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

SEARCH_SORT = ["go_to_url", "click", "type", "click", "select", "scroll", "click", "back", "done"]
CATEGORY_TAB = ["click", "type", "select", "click", "scroll", "scroll", "click", "new_tab", "done"]


def _ingest(root, run):
    result = CliRunner().invoke(main, ["ingest", "annotated", str(root), "--out", str(run), "--no-progress"])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Three generated trajectories, one per desktop size (both scripts), ingested through the CLI."""
    base = tmp_path_factory.mktemp("web")
    assert write_web_annotated(base / "raw", n_episodes=3) == 3
    _ingest(base / "raw", base / "run")
    episodes = {e.id: e for e in RunDir(base / "run").episodes()}
    tasks = {p.name: json.loads((p / "task.json").read_text(encoding="utf-8"))
             for p in sorted((base / "raw").iterdir()) if p.is_dir()}
    return base, episodes, tasks


def test_web_episodes_carry_urls_elements_and_the_platform(generated):
    base, episodes, tasks = generated
    assert sorted(episodes) == sorted(tasks) and len(episodes) == 3
    assert_accounted(base / "run", inputs=3)
    for name, episode in episodes.items():
        task = tasks[name]
        assert episode.platform == "web" and episode.to_dict()["platform"] == "web"
        assert [s.url for s in episode.steps] == task["urls"]
        for step, raw in zip(episode.steps, task["elements"]):
            assert [e.bounds for e in step.elements] == [tuple(r["bounds"]) for r in raw]
            assert [e.tag for e in step.elements] == [r["tag"] for r in raw]
        search = next(e for e in episode.steps[2].elements if e.attr("id") == "q")
        assert search.tag == "input" and search.hint == "搜索商品 Search" and search.desc == "搜索"
        assert search.has("editable") and search.has("clickable")
        again = Episode.from_json(episode.to_json())  # the record round-trips with its web fields
        assert again.platform == "web" and again.steps[2].elements == episode.steps[2].elements
        jsonschema.Draft202012Validator(episode_schema()).validate(episode.to_dict())


def test_marks_are_found_on_every_desktop_size(generated):
    base, episodes, tasks = generated
    sizes = {(s.screenshot.width, s.screenshot.height) for e in episodes.values() for s in e.steps}
    assert sizes == {size for size, _, _ in SIZES}
    for name, episode in episodes.items():
        for step in episode.steps:
            marks = detect_marks(Image.open(base / "raw" / name / step.meta["frame"]))
            w, h = step.screenshot.width, step.screenshot.height
            assert marks.label_band is not None and marks.label_band[0] < 0.05 * max(w, h), (name, step.index)
            kind = step.action.type
            if kind in ("click", "type", "select"):
                assert marks.circle is not None and math.dist(marks.circle.point, step.action.point) <= 3
            if kind == "scroll":  # at the arrow's middle, where the page was dragged
                assert marks.arrow is not None and marks.circle is None
                a = marks.arrow
                assert math.dist(step.action.point, ((a.start[0] + a.end[0]) / 2, (a.start[1] + a.end[1]) / 2)) <= 2
            if kind in ("go_to_url", "new_tab", "back", "done"):
                assert marks.circle is None and marks.arrow is None


def test_every_web_action_is_parsed(generated):
    _, episodes, tasks = generated
    for name, episode in episodes.items():
        types = [s.action.type for s in episode.steps]
        assert types == (SEARCH_SORT if "search_sort" in name else CATEGORY_TAB)
        actions = [s.action for s in episode.steps]
        typed = next(a for a in actions if a.type == "type")
        assert typed.text in tasks[name]["goal"]
        chosen = next(a for a in actions if a.type == "select")
        assert chosen.text in ("价格从低到高", "数码", "家居", "服饰") and chosen.element.tag == "select"
        scrolls = [a.direction for a in actions if a.type == "scroll"]
        # 向下滚动 / SCROLL DOWN, then a bare SCROLL whose arrow points down (the drag): the view moves up
        assert scrolls == (["down"] if "search_sort" in name else ["down", "up"])
        if "search_sort" in name:
            assert actions[0].url == "https://shop.example.com/" and episode.steps[1].url == actions[0].url
            assert episode.steps[-2].action.type == "back" and episode.steps[-1].url == episode.steps[-4].url
        else:
            assert actions[-2].url == "https://shop.example.com/cart" == episode.steps[-1].url


def test_clicks_type_and_select_name_their_element(generated):
    _, episodes, tasks = generated
    for name, episode in episodes.items():
        for step in episode.steps:
            action = step.action
            if action.type not in ("click", "type", "select"):
                assert action.element is None
                continue
            element = action.element
            assert element is not None and element.contains(action.point) and element.has("clickable")
            assert math.dist(element.center, action.point) <= 3  # the circle sits on the element's centre
            assert action.target == (element.text or element.desc or element.hint)
            smaller = [e for e in step.elements if e.has("clickable") and e.contains(action.point)
                       and e.area < element.area]
            assert not smaller
        opened = next(s.action for s in episode.steps if s.action.type == "click" and s.action.element.tag == "a")
        assert opened.element.attr("href").startswith("/item/") and opened.target in opened.element.text


def _copy(src, dst, edit):
    shutil.copytree(src, dst)
    task = json.loads((dst / "task.json").read_text(encoding="utf-8"))
    edit(task)
    (dst / "task.json").write_text(json.dumps(task, ensure_ascii=False), encoding="utf-8")


def _set(path, value):
    def edit(task):
        *keys, last = path
        target = task
        for key in keys:
            target = target[key]
        target[last] = value
    return edit


def test_bad_web_fields_are_rejected_with_their_reasons_and_accounted(tmp_path):
    write_web_annotated(tmp_path / "gen", n_episodes=2)
    ours = tmp_path / "gen" / "web_000_search_sort_1280x800"  # Chinese labels, marks detected
    marked = tmp_path / "gen" / "web_001_category_tab_1920x1080"  # English labels, "marked": true
    root = tmp_path / "in"
    root.mkdir()
    shutil.copytree(ours, root / "a_good")
    cases = {
        "b_platform": (ours, _set(["platform"], "desktop"), "bad_platform"),
        "c_outside": (ours, _set(["elements", 1, 0, "bounds"], [1200, 700, 1300, 820]), "element_outside_screen"),
        "d_text": (ours, _set(["elements", 1, 0, "text"], 42), "bad_element"),
        "e_unknown_key": (ours, _set(["elements", 1, 0, "bbox"], [0, 0, 5, 5]), "bad_element"),
        "f_attr": (ours, _set(["elements", 1, 1, "attrs", "id"], ["q"]), "bad_element"),
        "g_empty_box": (ours, _set(["elements", 2, 0, "bounds"], [50, 50, 50, 60]), "bad_element"),
        "h_urls_length": (ours, lambda t: t["urls"].pop(), "bad_task_json"),
        "i_url_space": (ours, _set(["urls", 3], "https://shop.example.com/a b"), "bad_url"),
        "j_mobile_urls": (ours, _set(["platform"], "mobile"), "bad_task_json"),
        "k_phone_action": (ours, _set(["actions", 5], "SWIPE UP"), "bad_action"),
        "l_scroll_way": (marked, _set(["actions", 4], "SCROLL UP"), "mark_mismatch"),  # its arrow points up
        "m_go_nowhere": (ours, _set(["actions", 0], "打开网址"), "bad_url"),
    }
    for name, (src, edit, _) in cases.items():
        _copy(src, root / name, edit)
    _ingest(root, tmp_path / "run")
    reasons = {r["episode_id"]: r["reason"] for r in iter_jsonl(tmp_path / "run" / "rejects.jsonl")}
    assert reasons == {name: reason for name, (_, _, reason) in cases.items()}
    assert [e.id for e in RunDir(tmp_path / "run").episodes()] == ["a_good"]
    assert_accounted(tmp_path / "run", inputs=1 + len(cases))


def test_mobile_fixtures_stay_mobile_records(tmp_path):
    if not ANNOTATED.exists():
        pytest.skip(missing_shared())
    _ingest(ANNOTATED, tmp_path / "run")
    episodes = list(RunDir(tmp_path / "run").episodes())
    assert len(episodes) == 3
    for episode in episodes:
        record = episode.to_dict()
        assert episode.platform == "mobile" and "platform" not in record
        assert all("url" not in s and s["elements"] == [] for s in record["steps"])
        assert all(s.action.element is None and s.action.target is None for s in episode.steps)
    assert_accounted(tmp_path / "run", inputs=3)
