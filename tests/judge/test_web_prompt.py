"""The judge's user turn for a web episode says it is a web page, and for a recording with no screen after its
last action that no done item exists and task_completed may be null; a phone episode's turn is unchanged."""
from sftdata.judge.prompt import NO_FINAL_SCREEN_NOTE, WEB_NOTE, user_content
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.annotate.template import template_items
from sftdata.schemas import load as load_schema

SHOT = Screenshot("0" * 64, "images/x.png", 1280, 720)
FIELD = Element(0, (100, 100, 500, 140), text="", hint="Search products", tag="input", flags=("editable", "visible"))


def _texts(episode: Episode) -> str:
    items = template_items(episode)
    content = user_content(episode, items, 0, len(episode.steps), ["data:a"] * len(episode.steps),
                           [None] * len(episode.steps))
    return "\n".join(part["text"] for part in content if part["type"] == "text")


def test_web_episode_without_final_screen_is_said_so():
    steps = [Step(0, SHOT, Action("type", point=(300, 120), text="earbuds", element=FIELD), elements=[FIELD])]
    episode = Episode("w", "mind2web", "Search for earbuds", steps, meta={"no_final_screen": True}, platform="web")
    text = _texts(episode)
    assert WEB_NOTE in text and NO_FINAL_SCREEN_NOTE in text


def test_phone_episode_has_no_web_note():
    phone = Screenshot("0" * 64, "images/p.png", 1080, 2400)
    episode = Episode("p", "annotated", "返回", [Step(0, phone, Action("back")), Step(1, phone, Action("done"))])
    assert WEB_NOTE not in _texts(episode)


def test_schema_lets_a_judge_say_completion_is_unknown():
    episode_props = load_schema("judge")["$defs"]["episode"]["properties"]
    assert "null" in episode_props["task_completed"]["type"]
