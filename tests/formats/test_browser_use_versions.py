"""browser-use-0.13 and browser-use-0.1 on the web sample episode: every step either renders and parses back to
its quantized action or is dropped with a reason; the 0.13 history says each earlier step once."""
from dataclasses import replace

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.model import Action

from web_episodes import web_episode


@pytest.mark.parametrize("name", ["browser-use-0.1", "browser-use-0.13"])
def test_every_web_step_round_trips_or_is_dropped_with_a_reason(name):
    fmt = get_format(name)
    episode, items = web_episode()
    rendered = 0
    for i in range(len(episode.steps)):
        ctx = StepContext(episode, i, items)
        try:
            answer = fmt.render(ctx)
        except CannotExpress as exc:
            assert exc.reason in ("action_not_in_format", "target_not_listed")
            continue
        assert fmt.parse(answer, ctx) == fmt.quantize(ctx)
        rendered += 1
    assert rendered >= len(episode.steps) - 2


def test_an_earlier_step_the_format_cannot_write_is_said_once_in_words():
    fmt = get_format("browser-use-0.13")
    episode, items = web_episode()
    steps = list(episode.steps)
    steps[0] = replace(steps[0], action=Action("wait"))
    ctx = StepContext(replace(episode, steps=steps), 1, items)
    history = fmt.user_message(ctx)
    assert "Action Results: waited\n" in history
