"""app-use (seed 000 as app-use 0.0.3's controller runs it): its actions, round trips, and the steps it drops
because app-use 0.0.3 would execute them otherwise (Home, sideways swipes), counted in the export's ledger."""
from __future__ import annotations

import json

import pytest

from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.model import Action, Episode, Step
from support import sample_run

NAME = "app-use"
FMT = get_format(NAME)
ALLOWED = {"not_annotated": {"*"}, "no_accessibility_tree": {"*"}, "element_not_indexed": {"click", "long_press"},
           "no_input_field": {"input"}, "action_not_in_format": {"open_app", "wait", "swipe"},
           "not_executed_as_recorded": {"home", "swipe"}}


def _with_action(tiny, action: Action) -> StepContext:
    episode, items = tiny
    steps = list(episode.steps)
    steps[2] = Step(2, steps[2].screenshot, action, elements=steps[2].elements)
    return StepContext(Episode(episode.id, episode.source, episode.goal, steps), 2, items)


def _action(ctx: StepContext) -> dict:
    return json.loads(FMT.render(ctx))["action"][0]


def test_each_action_of_the_tiny_episode(tiny):
    episode, items = tiny
    said = {}
    for i, step in enumerate(episode.steps):
        try:
            said[step.action.type] = _action(StepContext(episode, i, items))
        except CannotExpress as e:
            said[step.action.type] = e.reason
    assert said == {"click": {"click_element": {"index": 2}}, "input": {"enter_text": {"index": 2, "text": "晚上七点到家"}},
                    "swipe": {"swipe_coordinates": {"start_x": 540, "start_y": 1600, "end_x": 540, "end_y": 800}},
                    "open_app": "action_not_in_format", "back": {"send_keys": {"keys": "Back"}},
                    "home": "not_executed_as_recorded", "wait": "action_not_in_format",
                    "done": {"done": {"text": "Task completed.", "success": True}}}


@pytest.mark.parametrize("action,expected", [
    (Action("swipe", point=(540, 1210), end=(180, 1210)), "not_executed_as_recorded"),
    (Action("swipe", point=(180, 1210), end=(900, 1300)), "not_executed_as_recorded"),
    (Action("swipe", direction="left"), "action_not_in_format"),
    (Action("swipe", point=(540, 1600), end=(600, 800)),
     {"swipe_coordinates": {"start_x": 540, "start_y": 1600, "end_x": 600, "end_y": 800}}),
    (Action("swipe", direction="down"), {"scroll_up": {}}),
    (Action("home"), "not_executed_as_recorded"),
])
def test_what_app_use_0_0_3_cannot_execute_as_recorded_is_dropped_with_its_reason(tiny, action, expected):
    ctx = _with_action(tiny, action)
    if isinstance(expected, dict):
        assert _action(ctx) == expected
        assert FMT.parse(FMT.render(ctx), ctx) == FMT.quantize(ctx)
        return
    for call in (FMT.render, FMT.quantize):
        with pytest.raises(CannotExpress) as e:
            call(ctx)
        assert e.value.reason == expected
    if expected == "not_executed_as_recorded":
        assert "app-use 0.0.3 would not execute" in str(e.value)


def test_the_prompt_offers_no_home_and_only_vertical_swipes(tiny):
    prompt = FMT.system_prompt(StepContext(tiny[0], 0, tiny[1]))
    assert '"Home"' not in prompt and "up or down" in prompt


def test_a_dropped_step_is_said_in_words_in_the_history(tiny):
    episode, items = tiny
    message = FMT.user_message(StepContext(episode, 7, items))
    home_line = next(line for line in message.splitlines() if line.startswith("Step 6:"))
    assert "send_keys" not in home_line and "桌面" in home_line


def test_round_trip(sample_episodes, round_trip):
    seen = round_trip(NAME, sample_episodes, ALLOWED)
    assert seen["drop:not_executed_as_recorded"] > 0 and seen["swipe"] > 0


def test_the_export_ledger_counts_the_steps_app_use_would_execute_otherwise(tmp_path):
    run = sample_run(tmp_path, 12, (1080, 2400), annotate=True)
    steps = [s for e in run.episodes() for s in e.steps]
    otherwise = [s for s in steps if s.action.type == "home"
                 or s.action.type == "swipe" and s.action.point is not None and s.action.direction in ("left", "right")]
    assert otherwise, "the generated sample should hold Home steps and sideways swipes"
    result = export_run(run, tmp_path / "app-use", ExportOptions(format=NAME, split_ratio=0.0, progress=False))
    manifest = json.loads((tmp_path / "app-use" / "manifest.json").read_text())
    assert manifest["dropped"]["not_executed_as_recorded"] == len(otherwise) == result.dropped["not_executed_as_recorded"]
    assert sum(manifest["samples"].values()) + sum(manifest["dropped"].values()) == len(steps)
    answers = [json.loads(json.loads(line)["messages"][-1]["content"])["action"][0]
               for shard in manifest["shards"]["train"] for line in (tmp_path / "app-use" / shard).open()]
    assert {"send_keys": {"keys": "Home"}} not in answers
    swipes = [a["swipe_coordinates"] for a in answers if "swipe_coordinates" in a]
    assert swipes and all(abs(s["end_y"] - s["start_y"]) >= abs(s["end_x"] - s["start_x"]) for s in swipes)
