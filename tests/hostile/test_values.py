"""Hostile values (issue 11): coordinates, ids and goals in task.json / episodes.jsonl, foreign annotation files
for ``validate``, malformed episodes.jsonl lines, and history rendering in every format.

Every bad input must end as a RecordError with a specific reason (or a one-line FatalError), never a traceback
and never silently altered data."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from sftdata.errors import FatalError, RecordError
from sftdata.formats import CannotExpress, StepContext, load_all
from sftdata.export.samples import build_sample
from sftdata.ingest import IngestOptions, ingest_annotated
from sftdata.io import record_id
from sftdata.loaders.action_text import RawAction, parse_action, parse_task
from sftdata.loaders.annotated import resolve_action
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.rundir import RunDir
from sftdata.validate import validate_files

from accounting import assert_accounted

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

W, H = 100, 200
SHOT = Screenshot("0" * 64, "images/x.png", 1080, 2400)
BASE = {"goal": "g", "marked": False}


# --- task.json through ingest -------------------------------------------------------------------------------------
def _folder(root: Path, name: str, task, frames: int) -> None:
    d = root / name
    d.mkdir(parents=True)
    for i in range(frames):
        Image.new("RGB", (W, H), (200, 200, 200)).save(d / f"{i}.png")
    (d / "task.json").write_text(task if isinstance(task, str) else json.dumps(task), encoding="utf-8")


def _raw_task(body: str) -> str:
    return '{"goal": "g", "marked": false, ' + body + "}"


TASK_CASES = {  # folder: (task.json, frames, reason)
    "exponent": ({**BASE, "actions": ["CLICK [1e9,5]", "DONE"]}, 2, "bad_coordinates"),
    "exponent_both": ({**BASE, "actions": ["CLICK [5e2,5e2]", "DONE"]}, 2, "bad_coordinates"),
    "three_numbers": ({**BASE, "actions": ["CLICK [500,500,700]", "DONE"]}, 2, "bad_coordinates"),
    "four_numbers_swipe": ({**BASE, "actions": ["SWIPE [1,2,3,4]", "DONE"]}, 2, "bad_coordinates"),
    "bool_point": ({**BASE, "actions": [{"type": "click", "point": [True, 5]}, "DONE"]}, 2, "bad_coordinates"),
    "bool_xy": ({**BASE, "actions": [{"type": "click", "x": False, "y": 5}, "DONE"]}, 2, "bad_coordinates"),
    "string_point": ({**BASE, "actions": [{"type": "click", "point": "5,5"}, "DONE"]}, 2, "bad_coordinates"),
    "infinity": (_raw_task('"coordinates": "pixels", "actions": [{"type": "click", "point": [Infinity, 5]}, "DONE"]'),
                 2, "non_finite_number"),
    "nan": (_raw_task('"actions": [{"type": "click", "point": [NaN, 5]}, "DONE"]'), 2, "non_finite_number"),
    "huge_int": (_raw_task('"coordinates": "pixels", "actions": [{"type": "click", "point": [1' + "0" * 400
                           + ', 5]}, "DONE"]'), 2, "bad_coordinates"),
    "huge_text": ({**BASE, "actions": ["CLICK [1" + "0" * 400 + ",5]", "DONE"]}, 2, "bad_coordinates"),
    "huge_float": ({**BASE, "coordinates": "pixels", "actions": [{"type": "click", "point": [1e300, 5]}, "DONE"]},
                   2, "point_outside_screen"),
    "negative": ({**BASE, "actions": ["CLICK [-5,10]", "DONE"]}, 2, "point_outside_screen"),
    "outside_pixels": ({**BASE, "coordinates": "pixels", "actions": ["CLICK [100,10]", "DONE"]}, 2,
                       "point_outside_screen"),
    "integer_goal": ({**BASE, "goal": 5, "actions": ["BACK", "DONE"]}, 2, "bad_goal"),
    "empty_goal": ({**BASE, "goal": "  ", "actions": ["BACK", "DONE"]}, 2, "empty_goal"),
    "no_goal": ({"marked": False, "actions": ["BACK", "DONE"]}, 2, "missing_goal"),
    "no_actions": ({**BASE, "actions": []}, 0, "no_actions"),
    "only_done": ({**BASE, "actions": ["DONE"]}, 1, "no_actions"),
    "bad_instructions": ({**BASE, "actions": ["BACK", "DONE"], "instructions": [5, "x"]}, 2, "bad_task_json"),
    "bad_marked": ({**BASE, "marked": "yes", "actions": ["BACK", "DONE"]}, 2, "bad_task_json"),
    "deep_json": ('{"goal": "g", "actions": ' + "[" * 100_000 + "]" * 100_000 + "}", 0, "bad_task_json"),
    "bad_json": ("{not json", 0, "bad_task_json"),
}


def test_every_hostile_task_json_is_rejected_with_its_reason(tmp_path):
    for name, (task, frames, _) in TASK_CASES.items():
        _folder(tmp_path / "in", name, task, frames)
    _folder(tmp_path / "in", "zz_good", {**BASE, "actions": ["CLICK [500,500]", "DONE"]}, 2)
    run = RunDir(tmp_path / "run")
    ingest_annotated(tmp_path / "in", run, IngestOptions(), progress=False)
    reasons = {r["episode_id"]: r["reason"] for r in run.rejects()}
    assert reasons == {name: reason for name, (_, _, reason) in TASK_CASES.items()}
    assert [(e.id, e.steps[0].action.point) for e in run.episodes()] == [("zz_good", (50, 100))]
    assert_accounted(run.path, inputs=len(TASK_CASES) + 1)


# --- the action-text parser ---------------------------------------------------------------------------------------
def _check_raw(raw: RawAction) -> None:
    for point in (raw.point, raw.end):
        if point is not None:
            assert len(point) == 2 and all(math.isfinite(v) and abs(v) <= 1_000_000 for v in point)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.from_regex(r"(?i)(click|long press|swipe|tap)\s*[\[(]?[-+0-9.e, \]\[)]*", fullmatch=True)))
def test_any_text_is_a_raw_action_or_a_record_error(text):
    try:
        raw = parse_action(text)
    except RecordError as exc:
        assert exc.reason in ("bad_action", "bad_coordinates", "point_outside_screen")
        return
    _check_raw(raw)


@pytest.mark.parametrize("text", ["SWIPE " + "1     1     " * 40 + "x", "CLICK " + "[1 ,  1]  ,  " * 40 + "x",
                                  "SWIPE " + "1" * 100_000 + " x"])
def test_coordinate_parsing_is_linear_on_hostile_spacing(text):
    import time

    started = time.process_time()  # this process's CPU time: the same on a loaded machine
    with pytest.raises(RecordError):
        parse_action(text)
    assert time.process_time() - started < 1.0  # the first form took 35 s at 5 repetitions with a backtracking regex


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                     max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"type": st.sampled_from(["click", "long_press", "swipe", "input", "open_app", "x"])},
                             optional={"point": _json, "start": _json, "end": _json, "x": _json, "y": _json,
                                       "text": _json, "app": _json, "direction": _json}))
def test_any_action_object_is_a_raw_action_or_a_record_error(obj):
    try:
        _check_raw(parse_action(obj))
    except RecordError as exc:
        assert exc.reason in ("bad_action", "bad_coordinates", "point_outside_screen")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["CLICK", "LONG PRESS"]), st.one_of(st.integers(), st.floats()), st.one_of(st.integers(), st.floats()),
       st.sampled_from(["relative", "pixels"]))
def test_any_coordinates_end_as_whole_pixels_inside_the_screenshot_or_a_reason(kind, x, y, unit):
    """parse_action + resolve_action (annotated.py): finite ints inside the screenshot, or a reason."""
    image = Image.new("RGB", (W, H))
    try:
        action = resolve_action(parse_action(f"{kind} [{x},{y}]"), 0, image, None, unit, 4.0)
        action = action[0] if isinstance(action, tuple) else action  # (action, own marks) in newer versions
    except RecordError as exc:
        assert exc.reason in ("bad_coordinates", "point_outside_screen")
        return
    px, py = action.point
    assert type(px) is int and type(py) is int and 0 <= px < W and 0 <= py < H


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), _json.map(json.dumps),
                 st.fixed_dictionaries({"goal": _json, "actions": st.lists(_json, max_size=3)},
                                       optional={"coordinates": _json, "marked": _json, "instructions": _json})
                 .map(json.dumps)))
def test_any_task_json_text_is_a_task_or_a_record_error(text):
    try:
        task = parse_task(text)
    except RecordError as exc:
        assert exc.reason in ("bad_task_json", "non_finite_number", "missing_goal", "bad_goal", "empty_goal",
                              "no_actions")
        return
    assert isinstance(task["goal"], str) and task["goal"].strip() and task["actions"]


# --- episodes.jsonl values (model) --------------------------------------------------------------------------------
def _record(**over) -> dict:
    rec = Episode("ep", "annotated", "g", [Step(0, SHOT, Action("click", point=(5, 5))),
                                          Step(1, SHOT, Action("done"))]).to_dict()
    rec.update(over)
    return rec


def _with_point(point) -> dict:
    rec = _record()
    rec["steps"][0]["action"]["point"] = point
    return rec


@pytest.mark.parametrize("record,reason", [
    (_with_point([True, 5]), "bad_coordinates"),
    (_with_point([5, 5, 7]), "bad_coordinates"),
    (_with_point(["5", 5]), "bad_coordinates"),
    (_with_point([5000, 5]), "point_outside_screen"),
    (_with_point([-1, 5]), "point_outside_screen"),
    (_record(id=True), "bad_episode_id"),
    (_record(id=1.5), "bad_episode_id"),
    (_record(id=["x"]), "bad_episode_id"),
    (_record(goal=5), "bad_goal"),
    (_record(goal=""), "empty_goal"),
    (_record(steps=[]), "no_actions"),
    (_record(steps=_record()["steps"][1:]), "no_actions"),
    ({"source": "x", "goal": "g", "steps": []}, "malformed_episode"),
    (_record(steps=[{"index": 0}]), "malformed_episode"),
    (_record(steps="abc"), "malformed_episode"),
    ([1, 2], "malformed_episode"),
    (_record(source=5), "malformed_episode"),
    (_record(steps=[{**_record()["steps"][0], "action": {"type": "input", "text": 5}}, _record()["steps"][1]]),
     "bad_action"),
    (_record(steps=[{**_record()["steps"][0], "action": {"type": "fly"}}, _record()["steps"][1]]), "malformed_episode"),
    (_record(steps=[{**_record()["steps"][0], "screenshot": {"sha256": "0", "path": "x", "width": True,
                                                            "height": 5}}]), "malformed_episode"),
    # a screenshot outside the run would be copied into an export; bounds of two numbers broke annotate
    (_record(steps=[{**_record()["steps"][0], "screenshot": {**_record()["steps"][0]["screenshot"],
                                                            "path": "../../etc/passwd"}}]), "malformed_episode"),
    (_record(steps=[{**_record()["steps"][0], "screenshot": {**_record()["steps"][0]["screenshot"],
                                                            "path": "/etc/passwd"}}]), "malformed_episode"),
    (_record(steps=[{**_record()["steps"][0], "elements": [{"index": 0, "bounds": [1, 2]}]}]), "malformed_episode"),
])
def test_episode_records_with_bad_values_are_record_errors(record, reason):
    with pytest.raises(RecordError) as err:
        Episode.from_json(json.dumps(record))
    assert err.value.reason == reason


def test_episode_constructor_refuses_bytes_ids_and_bool_points():
    with pytest.raises(RecordError, match="bad_episode_id"):
        Episode(b"ep-bytes", "x", "g", [Step(0, SHOT, Action("back"))])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="bad_coordinates"):
        Action("click", point=(True, 5))  # type: ignore[arg-type]
    assert Action("click", point=(5.0, 6)).point == (5, 6)  # integral floats are whole numbers, kept exactly


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), _json.map(json.dumps),
                 st.builds(lambda over: json.dumps({**_record(), **over}),
                           st.dictionaries(st.sampled_from(["id", "goal", "source", "steps", "meta"]), _json))))
def test_any_episodes_line_is_an_episode_or_a_record_error(line):
    try:
        episode = Episode.from_json(line)
    except RecordError as exc:
        assert exc.reason and " " not in exc.reason
        return
    assert isinstance(episode.id, str) and episode.goal.strip()


# --- episodes.jsonl readers: summary, annotate, export --------------------------------------------------------------
def _run_with(tmp_path: Path, *records) -> RunDir:
    run = RunDir(tmp_path / "run")
    run.path.mkdir()
    run.episodes_path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return run


@pytest.mark.parametrize("bad", [{"id": "e2", "source": "x", "goal": "g"}, {"id": "e2", "source": "x", "steps": [{}]},
                                 {"id": "e2", "source": "x", "steps": 5}])
def test_summary_names_the_line_of_a_record_without_steps(tmp_path, bad):
    from sftdata.summary import format_summary

    run = _run_with(tmp_path, _record(), bad)
    with pytest.raises(FatalError, match=r"episodes.jsonl:2: not an episode record"):
        format_summary(run)


@pytest.mark.parametrize("bad", [{"id": "e2", "source": "x", "goal": "g", "steps": {"a": 1}},
                                 {"id": "e2", "source": "x", "goal": "g", "steps": ["click"]},
                                 {"source": "x", "goal": "g", "steps": []}])
def test_report_names_the_record_that_is_not_an_episode(tmp_path, bad):
    from sftdata.report import write_report

    run = _run_with(tmp_path, _record(), bad)
    with pytest.raises(FatalError, match=r"episodes.jsonl record 2 is not an episode"):
        write_report(run.path, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_record_id_of_a_line_without_id_is_a_fatal_error_naming_the_line(tmp_path):
    with pytest.raises(FatalError, match=r"x.jsonl:3: a record needs an 'id'"):
        record_id(b'{"steps": []}\n', tmp_path / "x.jsonl", 3)
    with pytest.raises(FatalError, match=r"x.jsonl:4: expected a JSON object"):
        record_id(b'[1]\n', tmp_path / "x.jsonl", 4)


def test_export_drops_malformed_and_actionless_episodes_with_their_reason(tmp_path):
    from sftdata.export.episodes import episode_id, episode_samples
    from sftdata.export.stage import ExportOptions

    opts = ExportOptions(format="qwen2.5-vl", family="qwen2.5-vl")
    for record, reason in [({"id": "a", "source": "x", "goal": "g"}, "malformed_episode"),
                           (_record(steps=_record()["steps"][1:]), "no_actions"), (_record(goal=""), "empty_goal")]:
        got = episode_samples((json.dumps(record), None, opts, str(tmp_path), "images/"))
        assert got.samples == [] and dict(got.reasons) == {reason: 1}
    with pytest.raises(FatalError, match="not an episode with an id"):
        episode_id('{"source": "x", "steps": []}')


# --- validate on foreign annotation files --------------------------------------------------------------------------
def _validate(tmp_path: Path, annotation_text: str):
    eps = tmp_path / "episodes.jsonl"
    ep = Episode("e1", "annotated", "返回", [Step(0, SHOT, Action("back")), Step(1, SHOT, Action("done"))])
    eps.write_text(ep.to_json() + "\n", encoding="utf-8")
    ann = tmp_path / "foreign.jsonl"
    ann.write_text(annotation_text, encoding="utf-8")
    return validate_files(eps, ann)


GOOD_ITEMS = [{"reasoning": "当前页面不是目标页面，需要先返回上一页。", "function": {"name": "press_back", "parameters": {}}},
              {"reasoning": "已经回到目标页面，任务完成。", "function": {"name": "done", "parameters": {}}}]


@pytest.mark.parametrize("text,reason", [
    (json.dumps({"id": "e1", "items": GOOD_ITEMS}) + '\n{"id": "e2", "items": [', "malformed_line"),
    (json.dumps({"id": "e1", "items": GOOD_ITEMS}) + '\n{"id": "e2", "items": [\n', "malformed_line"),
    (json.dumps({"id": "e1", "items": GOOD_ITEMS}) + "\n" + json.dumps({"id": "e1", "items": GOOD_ITEMS}) + "\n",
     "duplicate_id"),
    ('{"id": "e1", "items": [{"reasoning": Infinity}]}\n', "non_finite_number"),
    (json.dumps({"id": "e1", "items": GOOD_ITEMS}) + '\n"just a string"\n', "malformed_line"),
    (json.dumps({"id": True, "items": GOOD_ITEMS}) + "\n", "bad_episode_id"),
])
def test_validate_reports_bad_lines_of_a_foreign_file(tmp_path, text, reason):
    report = _validate(tmp_path, text)
    assert not report.ok and report.by_reason[reason] == 1, report.to_dict()


def test_validate_passes_a_good_foreign_file_and_a_reannotation_of_our_own(tmp_path):
    (tmp_path / "b").mkdir()
    assert _validate(tmp_path / "b", json.dumps({"id": "e1", "items": GOOD_ITEMS})).ok
    (tmp_path / "c").mkdir()
    gen = [json.dumps({"id": "e1", "items": GOOD_ITEMS, "model": m, "prompt_version": "1"}) for m in ("a", "b")]
    assert _validate(tmp_path / "c", "\n".join(gen) + "\n").ok


# --- history rendering in every format -----------------------------------------------------------------------------
_FLAGS = ("focusable", "enabled", "visible")
ELEMENTS = [Element(0, (0, 0, 1080, 2400), class_name="android.widget.FrameLayout", flags=("enabled", "visible")),
            Element(1, (0, 200, 1080, 2100), class_name="androidx.recyclerview.widget.RecyclerView",
                    flags=("scrollable",) + _FLAGS),
            Element(2, (40, 2150, 900, 2250), hint="输入消息", class_name="android.widget.EditText",
                    flags=("clickable", "editable", "focused") + _FLAGS)]
ACTIONS = {"click": Action("click", point=(300, 2200)), "long_press": Action("long_press", point=(30, 30)),
           "swipe": Action("swipe", point=(540, 1600), end=(540, 800)), "swipe_dir": Action("swipe", direction="left"),
           "input": Action("input", text="你好"), "open_app": Action("open_app", app="设置"), "back": Action("back"),
           "home": Action("home"), "wait": Action("wait")}
FUNCTIONS = {"click": "click", "long_press": "long_press", "swipe": "swipe", "input": "input", "open_app": "open_app",
             "back": "press_back", "home": "press_home", "wait": "wait", "done": "done"}


def _episode(kinds: list[str], with_tree: bool) -> tuple[Episode, list[dict]]:
    steps, items = [], []
    for i, kind in enumerate(kinds + ["done"]):
        action = ACTIONS.get(kind, Action("done"))
        steps.append(Step(i, SHOT, action, elements=list(ELEMENTS) if with_tree else []))
        params = {"text": action.text} if action.type == "input" else {"app_name": action.app} if action.app else {}
        if action.type in ("click", "long_press"):
            params["target_element"] = "输入框"
        if action.type == "swipe":
            params["direction"] = action.direction.upper()
        items.append({"reasoning": "先看一下当前页面。", "function": {"name": FUNCTIONS[action.type], "parameters": params}})
    return Episode("h", "annotated", "测试历史", steps), items


@pytest.mark.parametrize("name", sorted(load_all()))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.sampled_from(sorted(ACTIONS)), min_size=1, max_size=6), with_tree=st.booleans(),
       annotated=st.booleans(), memory=st.booleans(), agent_tools=st.booleans())
def test_every_format_builds_every_step_whatever_the_history(name, kinds, with_tree, annotated, memory, agent_tools):
    fmt = load_all()[name]
    episode, items = _episode(kinds, with_tree)
    for index in range(len(episode.steps)):
        ctx = StepContext(episode, index, items if annotated else None, history=8, history_images=1,
                          memory=memory, agent_tools=agent_tools)
        try:
            build_sample(fmt, ctx, "images/", agent_tools)
        except CannotExpress:
            with pytest.raises(CannotExpress):  # the current step is what the format cannot say, not the history
                fmt.render(StepContext(episode, index, items if annotated else None, history=0, memory=memory))


def test_androidlab_history_says_every_earlier_action(tmp_path):
    fmt = load_all()["androidlab"]
    episode, items = _episode(["swipe_dir", "open_app", "long_press", "input", "wait"], with_tree=False)
    message = fmt.user_message(StepContext(episode, 5, items, history=8))  # no tree: no step can be code
    assert "(swiped left)" in message and "(opened 设置)" in message and "(typed “你好”)" in message
    assert "(Long Press on the element at the top left of the screen)" in message and "point=" not in message
    assert "(waited for the screen to load)" in message  # F.1 has no Wait: said in words


def test_validate_passes_over_a_torn_tail_only_in_our_own_ledger(tmp_path):
    text = json.dumps({"id": "e1", "items": GOOD_ITEMS}) + '\n{"id": "e2", "ite'
    assert not _validate(tmp_path, text).ok  # a foreign file: the broken last line is a failure
    eps, ann = tmp_path / "episodes.jsonl", tmp_path / "annotations.jsonl"
    ann.write_text(text, encoding="utf-8")
    assert validate_files(eps, ann).ok  # the run's own ledger: a torn tail of a killed writer


def _png(w: int = 40, h: int = 80) -> bytes:
    import io

    out = io.BytesIO()
    Image.new("RGB", (w, h)).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("features,reason", [
    ({"episode_id": [7], "goal": [b"g"], "actions": []}, "no_actions"),
    ({"episode_id": [7], "goal": [b"  "], "actions": [b'{"action_type": "navigate_back"}']}, "empty_goal"),
    ({"episode_id": [7], "goal": [b"g"], "actions": [b'{"action_type": "click", "x": 1e9, "y": 5}']},
     "point_outside_screen"),
])
def test_androidcontrol_records_pass_the_same_checks(features, reason):
    from sftdata.loaders.androidcontrol import episode_from_features

    n = len(features["actions"]) + 1
    features = {**features, "screenshots": [_png()] * n, "screenshot_widths": [40] * n, "screenshot_heights": [80] * n}
    with pytest.raises(RecordError) as err:
        episode_from_features(features)
    assert err.value.reason == reason


# --- fractional pixels: rounded half to even (Python's round), the same in every loader ------------------------
def test_fractional_coordinates_are_rounded_half_to_even_everywhere(tmp_path):
    """A JSON action with fractional pixels, relative text with fractions and an episodes.jsonl point all round
    the same way (540.6 -> 541, 10.5 -> 10, 21.5 -> 22), never truncated and never rejected."""
    actions = {
        "json_xy": ({"coordinates": "pixels", "actions": [{"type": "click", "x": 40.6, "y": 120.4}, "DONE"]},
                    (41, 120)),
        "half_even": ({"coordinates": "pixels", "actions": ["CLICK [10.5,21.5]", "DONE"]}, (10, 22)),
        "relative": ({"actions": ["CLICK [500.5,500.5]", "DONE"]}, (50, 100)),  # 50.05, 100.1 px
        "relative_half": ({"actions": ["LONG PRESS [125,62.5]", "DONE"]}, (12, 12)),  # 12.5 -> 12, 12.5 -> 12
    }
    for name, (task, _) in actions.items():
        _folder(tmp_path / "raw", name, {**BASE, **task}, 2)
    run = RunDir(tmp_path / "run")
    ingest_annotated(tmp_path / "raw", run, IngestOptions(), progress=False)
    points = {e.id: e.steps[0].action.point for e in run.episodes()}
    assert points == {name: want for name, (_, want) in actions.items()}
    assert_accounted(run.path, inputs=len(actions))
    assert all(type(v) is int for p in points.values() for v in p)
    assert Episode.from_json(json.dumps(_with_point([540.6, 5.5]))).steps[0].action.point == (541, 6)
    assert Action("click", point=(4.5, 1199.5)).point == (4, 1200)


# --- strict JSON out: NaN and Infinity are never written -----------------------------------------------------------
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_json_writers_refuse_non_finite_numbers_and_leave_the_file_alone(tmp_path, value):
    from sftdata.io import Ledger, write_json_atomic

    target = tmp_path / "manifest.json"
    write_json_atomic(target, {"ok": 1})
    with pytest.raises(FatalError, match=r"manifest\.json: stages\.annotate\.llm\[1\] is (nan|inf|-inf)"):
        write_json_atomic(target, {"stages": {"annotate": {"llm": [0, value]}}})
    assert json.loads(target.read_text()) == {"ok": 1}
    with Ledger(tmp_path / "rejects.jsonl") as ledger:
        with pytest.raises(FatalError, match="rejects.jsonl: detail is"):
            ledger.append({"reason": "x", "detail": value})
        ledger.append({"reason": "x", "detail": 1.5})
    assert (tmp_path / "rejects.jsonl").read_text() == '{"reason":"x","detail":1.5}\n'
    with pytest.raises(ValueError):  # an episode or a sample line: never the invalid token NaN
        Episode("e", "x", "g", [Step(0, SHOT, Action("back")), Step(1, SHOT, Action("done"))],
                meta={"score": value}).to_json()
    with pytest.raises(FatalError, match="elapsed_s is"):
        RunDir(tmp_path / "run").update_manifest("ingest", "x", {"elapsed_s": value})
    assert not (tmp_path / "run" / "manifest.json").exists()
