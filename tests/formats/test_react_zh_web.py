"""react-zh on web pages: a browser's system prompt and functions, the item's target for type and select, and
render/parse inverses for every web action."""
import json

from sftdata.formats import StepContext, get_format
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.checks.calls import WEB_FUNCTIONS
from sftdata.annotate.template import template_items

SHOT = Screenshot("0" * 64, "images/web.png", 1280, 720)
FIELD = Element(0, (300, 100, 700, 140), hint="Leaving from", tag="input", attrs=(("placeholder", "Leaving from"),),
                flags=("clickable", "editable", "visible"))
CABIN = Element(1, (300, 160, 700, 200), text="Economy Business", tag="select", attrs=(("aria_label", "Cabin"),),
                flags=("clickable", "visible"))
GO = Element(2, (760, 100, 960, 140), text="Search flights", tag="button", flags=("clickable", "visible"))
ACTIONS = [Action("type", text="Seattle", point=(500, 120), element=FIELD),
           Action("select", text="Business", point=(500, 180), element=CABIN),
           Action("click", point=(860, 120), element=GO), Action("scroll", direction="down"),
           Action("go_to_url", url="https://fly.example/deals"), Action("back"),
           Action("new_tab", url="https://maps.example"), Action("new_tab"), Action("done")]


def episode() -> Episode:
    steps = [Step(i, SHOT, a, elements=[FIELD, CABIN, GO], url="https://fly.example/") for i, a in enumerate(ACTIONS)]
    return Episode("w", "annotated", "Find business flights from Seattle", steps, platform="web")


def test_render_and_parse_are_inverses_for_every_web_action():
    ep = episode()
    items, fmt = template_items(ep), get_format("react-zh")
    calls = []
    for i in range(len(ep.steps)):
        ctx = StepContext(ep, i, items)
        answer = fmt.render(ctx)
        assert fmt.parse(answer, ctx) == fmt.quantize(ctx)
        calls.append(json.loads(answer)["function"])
    assert [c["name"] for c in calls] == ["type", "select", "click", "scroll", "go_to_url", "go_back", "new_tab",
                                          "new_tab", "done"]
    assert calls[0]["parameters"] == {"target_element": items[0]["function"]["parameters"]["target_element"],
                                      "text": "Seattle"}
    assert calls[1]["parameters"]["value"] == "Business" and "“Cabin”" in calls[1]["parameters"]["target_element"]
    assert calls[3]["parameters"] == {"direction": "DOWN"} and calls[7]["parameters"] == {}


def test_a_web_episode_gets_the_browsers_prompt_and_tools():
    ep, fmt = episode(), get_format("react-zh")
    ctx = StepContext(ep, 0, template_items(ep))
    system = fmt.system_prompt(ctx)
    assert "网页浏览器" in system and "安卓" not in system and "press_back" not in system
    assert all(f"- {name}(" in system for name in WEB_FUNCTIONS)
    assert [t["function"]["name"] for t in fmt.tools(ctx)] == list(WEB_FUNCTIONS)
    phone = Episode("p", "sample", "打开设置", [Step(0, Screenshot("0" * 64, "x.png", 1080, 2400), Action("back")),
                                             Step(1, Screenshot("0" * 64, "x.png", 1080, 2400), Action("done"))])
    assert "安卓手机" in fmt.system_prompt(StepContext(phone, 0, template_items(phone)))
