"""Web episodes in the other formats: Qwen's computer_use tool (qwen2.5-vl, qwen3-vl), UI-TARS's computer
actions, seed 001's mouse/keyboard JSON (gui-agent-zh) with golden answers; the phone-only formats refuse web
episodes with a reason; a run mixing phone and web episodes exports in every format."""
import json
import re

import pytest

from sftdata.export.samples import build_sample
from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import CannotExpress, StepContext, get_format, load_all
from sftdata.rundir import RunDir
from sftdata.ingest import IngestOptions, ingest_androidcontrol
from sftdata.annotate.annotator import AnnotateOptions
from sftdata.annotate.stage import annotate_run
from built_once import sample_file

from seed_parsers import parse_gui_agent_zh
from web_episodes import add_web, mind2web_like, web_episode

DROP = "!action_not_in_format"


def _call(args: dict) -> str:
    return '<tool_call>\n{"name": "computer_use", "arguments": %s}\n</tool_call>' % json.dumps(args)


def _qwen(click, field) -> list[str]:
    return [
        "!field_not_focused",  # one <tool_call> per answer: the field was not clicked before, type cannot focus it
        DROP,  # select: the tool has no dropdown choice
        _call({"action": "left_click", "coordinate": click}),
        _call({"action": "scroll", "pixels": -500}),  # the view moves down: the wheel scrolls down
        _call({"action": "scroll", "pixels": 500}),
        DROP,  # go_to_url
        _call({"action": "key", "keys": ["alt", "left"]}),
        DROP,  # new_tab at an address
        _call({"action": "terminate", "status": "success"}),
    ]


GOLDEN = {
    "qwen2.5-vl": _qwen([931, 121], [553, 121]),  # pixels of the 1288x728 smart resize of 1280x720
    "qwen3-vl": _qwen([722, 167], [430, 167]),  # the 999 grid
    "ui-tars": [
        "!field_not_focused",  # the field was not clicked before: one action cannot click and type
        DROP,
        "Action: click(point='<point>931 121</point>')",
        "Action: scroll(point='<point>644 364</point>', direction='down')",
        "Action: scroll(point='<point>644 364</point>', direction='up')",
        DROP,
        "Action: hotkey(key='alt left')",
        DROP,
        "Action: finished(content='The cheapest flight is $120.')",
    ],
    "gui-agent-zh": [
        '"target": "“From”输入框", "action": {"type": "input", "coordinates": [430, 167], "text": "Seattle"}}',
        DROP,
        '"target": "“Search”控件", "action": {"type": "click", "coordinates": [723, 167], "text": ""}}',
        '"target": "屏幕中部的页面内容", "action": {"type": "scroll_down", "coordinates": [500, 500], "text": ""}}',
        '"target": "屏幕中部的页面内容", "action": {"type": "scroll_up", "coordinates": [500, 500], "text": ""}}',
        DROP,
        '"target": "浏览器页面", "action": {"type": "hotkey", "coordinates": [500, 500], "text": "alt left"}}',
        DROP,
        '"target": "", "action": {"type": "wait", "coordinates": [0, 0], "text": ""}}',
    ],
}


def _said(name: str, ctx: StepContext) -> str:
    try:
        answer = get_format(name).render(ctx)
    except CannotExpress as exc:
        return "!" + exc.reason
    if name.startswith("qwen"):
        return answer.split("\n", 2)[2]  # after the Thought and Action lines
    if name == "ui-tars":
        return answer.splitlines()[-1]
    return answer.split('"description": ', 1)[1].split(", ", 1)[1]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_web_answers_and_inverses(name):
    episode, items = web_episode()
    fmt = get_format(name)
    for i, want in enumerate(GOLDEN[name]):
        ctx = StepContext(episode, i, items)
        assert _said(name, ctx) == want, (name, i)
        if not want.startswith("!"):
            assert fmt.parse(fmt.render(ctx), ctx) == fmt.quantize(ctx), (name, i)
            assert fmt.quantize(ctx).type == episode.steps[i].action.type


@pytest.mark.parametrize("name", ["qwen2.5-vl", "qwen3-vl", "ui-tars", "gui-agent-zh"])
def test_typing_after_a_click_on_the_field(name):
    episode, items = mind2web_like()  # click the field, then type into it
    fmt = get_format(name)
    ctx = StepContext(episode, 1, items)
    answer, q = fmt.render(ctx), fmt.quantize(ctx)
    assert fmt.parse(answer, ctx) == q and q.type == "type" and q.text == "Seattle"
    assert episode.steps[1].action.element.contains(q.point)


@pytest.mark.parametrize("name", ["qwen2.5-vl", "qwen3-vl"])
def test_qwen_web_calls_follow_the_declared_computer_use_tool(name):
    enum = {"qwen2.5-vl": 11, "qwen3-vl": 14}[name]
    fmt = get_format(name)
    checked = 0
    for episode, items in (web_episode(), mind2web_like()):
        for i in range(len(episode.steps)):
            ctx = StepContext(episode, i, items)
            try:
                answer = fmt.render(ctx)
            except CannotExpress as exc:
                assert exc.reason in ("action_not_in_format", "field_not_focused"), exc.reason
                continue
            checked += 1
            tool = json.loads(re.search(r"<tools>\n(.+)\n</tools>", fmt.system_prompt(ctx)).group(1))["function"]
            declared = tool["parameters"]["properties"]
            assert tool["name"] == "computer_use" and len(declared["action"]["enum"]) == enum
            w, h = (int(v) for v in re.search(r"resolution is (\d+)x(\d+)", tool["description"]).groups())
            head, *blocks = answer.split("<tool_call>\n")
            assert re.fullmatch(r"Thought: [^\n]+\nAction: [^\n]+\n", head)
            for block in blocks:
                call = json.loads(block.split("\n</tool_call>")[0])
                args = call["arguments"]
                assert call["name"] == "computer_use" and args["action"] in declared["action"]["enum"]
                assert set(args) <= set(declared)
                if "coordinate" in args:
                    assert 0 <= args["coordinate"][0] < w and 0 <= args["coordinate"][1] < h
    assert checked == 8  # of 13 steps: a key press, a new tab, hovers and an unfocused field have no call here


def test_gui_agent_zh_web_answers_follow_seed_001():
    parsed = 0
    for episode, items in (web_episode(), mind2web_like()):
        for i in range(len(episode.steps)):
            ctx = StepContext(episode, i, items)
            try:
                answer = get_format("gui-agent-zh").render(ctx)
            except CannotExpress as exc:
                assert exc.reason == "action_not_in_format"
                continue
            assert parse_gui_agent_zh(answer)
            parsed += 1
    assert parsed == 9  # of 13 steps


@pytest.mark.parametrize("name", ["mobile-agent", "androidlab"])
def test_phone_formats_refuse_web_episodes(name):
    episode, items = web_episode()
    fmt = get_format(name)
    for call in (fmt.user_message, fmt.render, fmt.quantize):
        with pytest.raises(CannotExpress) as err:
            call(StepContext(episode, 2, items))
        assert err.value.reason == "platform_not_mobile"


def test_agent_tools_sample_carries_one_call():
    episode, items = web_episode()
    ctx = StepContext(episode, 2, items, agent_tools=True)
    sample = build_sample(get_format("qwen2.5-vl"), ctx, "images/", agent_tools=True)
    roles = [m["role"] for m in sample.record["messages"]]
    assert roles == ["system", "user", "assistant", "tool_call"]
    assert json.loads(sample.record["messages"][3]["content"])["arguments"]["action"] == "left_click"
    assert json.loads(sample.record["tools"])[0]["function"]["name"] == "computer_use"


@pytest.mark.parametrize("name", ["qwen2.5-vl", "qwen3-vl"])
def test_typing_into_the_field_just_clicked_is_one_type_call(name):
    from dataclasses import replace

    from sftdata.model import Action

    fmt = get_format(name)
    episode, items = web_episode()
    field = episode.steps[0].action
    steps = [replace(episode.steps[0], action=Action("click", point=field.point, element=field.element)),
             replace(episode.steps[0], index=1)] + [replace(s, index=s.index + 1) for s in episode.steps[1:]]
    clicked = replace(episode, steps=steps)
    items = [{"reasoning": "Click the field.", "function": {"name": "click", "parameters": {}}}] + items
    ctx = StepContext(clicked, 1, items)
    answer = fmt.render(ctx)
    assert answer.count("<tool_call>") == 1 and '"action": "type", "text": "Seattle"' in answer
    assert fmt.parse(answer, ctx) == fmt.quantize(ctx) == Action("type", text="Seattle", point=field.point)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    root = tmp_path_factory.mktemp("mixed")
    sample_file(root / "sample.tfrecord.gz", n_episodes=3, seed=1, size=(540, 1200))
    run = RunDir(root / "run")
    ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    annotate_run(run, AnnotateOptions(progress=False))
    add_web(run, copies=1)
    return run


@pytest.mark.parametrize("name", sorted(load_all()))
def test_a_mixed_run_exports_in_every_format(mixed, tmp_path, name):
    result = export_run(mixed, tmp_path / name, ExportOptions(format=name, split_ratio=0.0, progress=False))
    manifest = result.manifest
    rows = [json.loads(line) for shard in manifest["shards"]["train"]
            for line in (tmp_path / name / shard).read_text(encoding="utf-8").splitlines()]
    assert len(rows) == manifest["samples"]["train"] > 0
    web_ids = {"web-0", "m2w-0"}
    platforms = get_format(name).platforms
    if platforms == ("web",):
        assert manifest["dropped"]["platform_not_web"] > 0
        assert set(json.loads((tmp_path / name / "splits.json").read_text())["train"]) == web_ids
    elif platforms == ("mobile",):
        assert manifest["dropped"]["platform_not_mobile"] == 13
        assert not web_ids & set(json.loads((tmp_path / name / "splits.json").read_text())["train"])
    elif name != "react-zh":
        assert web_ids <= set(json.loads((tmp_path / name / "splits.json").read_text())["train"])


@pytest.mark.parametrize("name", sorted(load_all()))
def test_every_format_builds_or_refuses_every_web_step(name):
    from dataclasses import replace

    from sftdata.model import Action

    fmt = get_format(name)
    episode, items = web_episode()
    odd = [Action("swipe", point=(600, 500), end=(600, 100)), Action("input", text="hi"), Action("wait"),
           Action("scroll", direction="left"), Action("new_tab"), Action("home")]
    for n, action in enumerate(odd):  # phone actions and rare web ones inside a web history
        episode.steps[n] = replace(episode.steps[n], action=action)
    parsed = 0
    for memory in (False, True):
        for tools in (False, True):
            for i in range(len(episode.steps)):
                ctx = StepContext(episode, i, items, history=8, history_images=1, memory=memory, agent_tools=tools)
                try:
                    sample = build_sample(fmt, ctx, "images/", tools)
                except CannotExpress:
                    with pytest.raises(CannotExpress):
                        fmt.quantize(ctx)
                    continue
                assert fmt.parse(sample.record["messages"][2]["content"] if not (tools and fmt.tool_call)
                                 else fmt.render(ctx), ctx) == fmt.quantize(ctx)
                parsed += 1
    assert parsed > 0 if "web" in fmt.platforms else parsed == 0  # a phone-only format refuses every web step
