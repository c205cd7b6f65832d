"""Every exported answer of the demo, in every format, through the real client of its format (harness.py).

A client-compatible format must be accepted and read as meant on every answer, and where the client has an
executor (app-use's controller, browser-use's controller or tools, Android-Lab's and MobileRL's ``exec``) every
answer must do there what the recorded step did; a step a client cannot do as recorded is dropped at export
with its reason. A seed format that a client's code disagrees with by design must fail there exactly where the
README says, and nowhere else: seed 003 is
browser-use 0.1.x's prompt (0.1.36 refuses only its ``open_new_tab``; 0.13 refuses its nested ``current_state``
everywhere), seed 000 is app-use's prompt but names actions app-use does not register, and Android-Lab's
evaluation runs the whole ``<think>`` answer through ``exec``.

Marked ``clients`` (tests/extras.py): skips when the clients' virtualenvs are absent (``make clients``), except
with SFTDATA_REQUIRE_CLIENTS=1 (``make test-extras``, CI), where it fails.
"""
from __future__ import annotations

import json
import re

import pytest

import execution
import harness
from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.rundir import RunDir

pytestmark = pytest.mark.clients  # needs the clients' virtualenvs (tests/extras.py)

CLIENT_COMPATIBLE = {("ui-tars", "ui-tars"), ("qwen2.5-vl", "qwen-agent"), ("qwen3-vl", "qwen-agent"),
                     ("browser-use-0.1", "browser-use 0.1"), ("browser-use-0.13", "browser-use 0.13"),
                     ("app-use", "app-use"), ("androidlab-fenced", "Android-Lab"), ("androidlab-fenced", "MobileRL"),
                     ("androidlab", "MobileRL")}
APP_USE_ACTIONS = {"click_element", "enter_text", "scroll_down", "scroll_up", "send_keys", "done",
                   "swipe_coordinates", "long_press_coordinates"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("clients")
    run_dir = harness.build_demo(root)
    answers, dropped = harness.exported_answers(run_dir, root / "export", harness.FORMATS)
    assert all(answers[name] for name in harness.FORMATS)
    return run_dir, answers, dropped


@pytest.fixture(scope="module")
def trials(demo):
    _, answers, dropped = demo
    return {(t.format, t.client): t for t in harness.try_clients(answers)}, answers, dropped


def _ids(trial) -> set[str]:
    return {line.split(": ", 1)[0] for line in trial.failures}


@pytest.mark.parametrize("fmt,client", sorted(CLIENT_COMPATIBLE))
def test_client_compatible_formats_are_accepted_and_read_as_meant(trials, fmt, client):
    trial = trials[0][(fmt, client)]
    assert trial.tried > 0
    assert trial.accepted == trial.agreed == trial.tried, "\n".join(trial.failures[:5])
    assert trial.executed in (None, trial.tried), "\n".join(trial.failures[:5])


def test_every_client_with_an_executor_runs_the_client_named_formats():
    executing = {(f, c.name) for c in harness.CLIENTS if c.executes for f in c.formats}
    assert {pair for pair in CLIENT_COMPATIBLE if pair[1] not in ("ui-tars", "qwen-agent")} <= executing


def test_seed_003_against_browser_use_0_1_fails_only_on_its_open_new_tab(trials):
    by, answers, _ = trials
    refused = _ids(by[("browser-use", "browser-use 0.1")])
    with_new_tab = {a.id for a in answers["browser-use"] if '"open_new_tab"' in a.answer}
    assert refused == with_new_tab and with_new_tab
    assert by[("browser-use", "browser-use 0.1")].agreed == len(answers["browser-use"]) - len(with_new_tab)


def test_seed_003_is_not_current_browser_uses_output(trials):
    trial = trials[0][("browser-use", "browser-use 0.13")]
    assert trial.accepted == 0 and trial.reasons == {"ValidationError": trial.tried}


def test_seed_000_fails_in_app_use_exactly_on_the_actions_app_use_does_not_register(trials):
    by, answers, _ = trials
    refused = _ids(by[("mobile-agent", "app-use")])
    foreign = {a.id for a in answers["mobile-agent"]
               if not set(json.loads(a.answer)["action"][0]) <= APP_USE_ACTIONS}
    assert refused == foreign


def test_android_lab_runs_no_seed_answer_and_every_fenced_one(trials):
    by, answers, _ = trials
    assert by[("androidlab", "Android-Lab")].reasons == {"SyntaxError": len(answers["androidlab"])}


@pytest.mark.parametrize("fmt", ["androidlab", "androidlab-fenced"])
def test_mobilerl_shipped_config_misreads_exactly_the_pixel_boxes_within_999(trials, fmt):
    by, answers, _ = trials
    trial = by[(fmt, "MobileRL relative")]
    small = set()
    for a in answers[fmt]:
        box = re.search(r"element=\[(\d+), (\d+), (\d+), (\d+)\]", a.answer)
        if box and all(int(v) <= 999 for v in box.groups()):
            small.add(a.id)
    assert trial.accepted == trial.tried and _ids(trial) == small


def test_steps_a_client_cannot_say_are_dropped_and_counted(trials):
    _, answers, dropped = trials
    app_use = dropped["app-use"]
    # a step held back as unsure (checks.certify) is counted once, under the first reason an export meets
    seen = {name: len(answers[name]) + dropped[name].get("unsure", 0) for name in ("mobile-agent", "app-use")}
    assert app_use["action_not_in_format"] + app_use["not_executed_as_recorded"] == \
        seen["mobile-agent"] - seen["app-use"] > 0
    assert dropped["qwen2.5-vl"]["field_not_focused"] == dropped["ui-tars"]["field_not_focused"] > 0
    assert all(a.answer.count("<tool_call>") == 1 for name in ("qwen2.5-vl", "qwen3-vl") for a in answers[name])
    assert any('"action": "open"' in a.answer for a in answers["qwen3-vl"])


def test_every_step_is_exported_or_dropped_with_a_reason(demo):
    run_dir, answers, dropped = demo
    steps = sum(len(e.steps) for e in RunDir(run_dir).episodes())
    for name in harness.FORMATS:
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", reason) for reason in dropped[name]), dropped[name]
        assert len(answers[name]) + sum(dropped[name].values()) == steps, name


def _would_have_said(ctx) -> dict:
    """The app-use answer for a step app-use drops, as the format wrote it before: send_keys Home, or the swipe's
    own points."""
    a = ctx.action
    if a.type == "home":
        action = {"send_keys": {"keys": "Home"}}
    else:
        (x1, y1), (x2, y2) = a.point, a.end
        action = {"swipe_coordinates": {"start_x": x1, "start_y": y1, "end_x": x2, "end_y": y2}}
    state = {"evaluation_previous_goal": "Unknown - ", "memory": "", "next_goal": ""}
    return {"current_state": state, "action": [action]}


def test_app_use_drops_exactly_what_its_controller_executes_otherwise(demo):
    run_dir, _, dropped = demo
    fmt = get_format("app-use")
    annotations = RunDir(run_dir).latest_annotations()
    held, recorded = [], 0
    for episode in RunDir(run_dir).episodes():
        items = annotations[episode.id]["items"]
        for index, step in enumerate(episode.steps):
            a = step.action
            if not episode.web and (a.type == "home" or a.type == "swipe" and a.point is not None
                                    and a.direction in ("left", "right")):
                recorded += 1
            try:
                fmt.render(StepContext(episode, index, items))
            except CannotExpress as e:
                if e.reason == "not_executed_as_recorded":
                    held.append(StepContext(episode, index, items))
    assert len(held) == recorded == dropped["app-use"]["not_executed_as_recorded"] > 0
    client = next(c for c in harness.CLIENTS if c.name == "app-use")
    rows = [{"id": str(i), "answer": json.dumps(_would_have_said(ctx)), "elements": 0,
             "screen": execution.screen(ctx)} for i, ctx in enumerate(held)]
    _, results = harness._driver(client.venv, client.driver, rows)
    assert all(r["ok"] for r in results)  # app-use accepts every one of them ...
    otherwise = [execution.differs(ctx, r["read"]["executed"]) for ctx, r in zip(held, results)]
    assert all(otherwise), otherwise  # ... and would do something else on the phone
