"""Every exported answer of the demo, in every format, through the real client of its format (harness.py).

A client-compatible format must be accepted and read as meant on every answer. A seed format that a client's
code disagrees with by design must fail there exactly where the README says, and nowhere else: seed 003 is
browser-use 0.1.x's prompt (0.1.36 refuses only its ``open_new_tab``; 0.13 refuses its nested ``current_state``
everywhere), seed 000 is app-use's prompt but names actions app-use does not register, and Android-Lab's
evaluation runs the whole ``<think>`` answer through ``exec``.

Skips when the clients' virtualenvs are absent (``make clients``), except with SFTDATA_REQUIRE_CLIENTS=1.
"""
from __future__ import annotations

import json
import os
import re

import pytest

import harness

if not all(harness.installed(c) for c in harness.CLIENTS):
    why = f"the formats' clients are not installed in {harness.VENVS} (run `make clients`)"
    if os.environ.get("SFTDATA_REQUIRE_CLIENTS") == "1":
        raise RuntimeError(why + "; SFTDATA_REQUIRE_CLIENTS=1 requires them")
    pytest.skip(why, allow_module_level=True)

CLIENT_COMPATIBLE = {("ui-tars", "ui-tars"), ("qwen2.5-vl", "qwen-agent"), ("qwen3-vl", "qwen-agent"),
                     ("browser-use-0.1", "browser-use 0.1"), ("browser-use-0.13", "browser-use 0.13"),
                     ("app-use", "app-use"), ("androidlab-fenced", "Android-Lab"), ("androidlab-fenced", "MobileRL"),
                     ("androidlab", "MobileRL")}
APP_USE_ACTIONS = {"click_element", "enter_text", "scroll_down", "scroll_up", "send_keys", "done",
                   "swipe_coordinates", "long_press_coordinates"}


@pytest.fixture(scope="module")
def trials(tmp_path_factory):
    root = tmp_path_factory.mktemp("clients")
    answers, dropped = harness.exported_answers(harness.build_demo(root), root / "export", harness.FORMATS)
    assert all(answers[name] for name in harness.FORMATS)
    return {(t.format, t.client): t for t in harness.try_clients(answers)}, answers, dropped


def _ids(trial) -> set[str]:
    return {line.split(": ", 1)[0] for line in trial.failures}


@pytest.mark.parametrize("fmt,client", sorted(CLIENT_COMPATIBLE))
def test_client_compatible_formats_are_accepted_and_read_as_meant(trials, fmt, client):
    trial = trials[0][(fmt, client)]
    assert trial.tried > 0
    assert trial.accepted == trial.agreed == trial.tried, "\n".join(trial.failures[:5])


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
    assert dropped["app-use"]["action_not_in_format"] == len(answers["mobile-agent"]) - len(answers["app-use"]) > 0
    assert dropped["qwen2.5-vl"]["field_not_focused"] == dropped["ui-tars"]["field_not_focused"] > 0
    assert all(a.answer.count("<tool_call>") == 1 for name in ("qwen2.5-vl", "qwen3-vl") for a in answers[name])
    assert any('"action": "open"' in a.answer for a in answers["qwen3-vl"])
