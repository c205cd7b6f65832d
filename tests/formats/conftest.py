"""Shared data and checks for the agent-format tests.

* ``tiny``: a hand-built 1080x2400 episode with every action type (click on an element, Chinese input, swipe
  up, open_app, back, home, wait, done) and hand-written items; the golden strings are rendered from it.
* ``episodes``: generated sample episodes and, when present, the real fixtures (AndroidControl record and the
  human-annotated folders), each annotated with the offline template annotator.
* ``round_trip``: for every step, either parse(render) == quantize and the quantized action is faithful to the
  ground truth, or render and quantize both raise CannotExpress with one of the format's allowed reasons.
"""
from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from built_once import sample_file
from sftdata.model import Action, Element, Episode, Screenshot, Step
from sftdata.annotate.template import template_items
from sftdata.rundir import RunDir
from support import missing_shared

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
AC_RECORD = FIXTURES / "androidcontrol" / "android_control-00000-of-00001"
ANNOTATED = FIXTURES / "annotated"

W, H = 1080, 2400
_F = ("focusable", "enabled", "visible")
ELEMENTS = [
    Element(0, (0, 0, 1080, 2400), class_name="android.widget.FrameLayout", flags=("enabled", "visible")),
    Element(1, (0, 200, 1080, 2100), class_name="androidx.recyclerview.widget.RecyclerView",
            flags=("scrollable",) + _F),
    Element(2, (0, 300, 1080, 500), class_name="android.widget.LinearLayout", flags=("clickable",) + _F),
    Element(3, (40, 340, 600, 460), text="妈妈", class_name="android.widget.TextView", flags=("enabled", "visible")),
    Element(4, (40, 2150, 900, 2250), hint="输入消息", class_name="android.widget.EditText",
            flags=("clickable", "editable") + _F),
    Element(5, (920, 2150, 1040, 2250), desc="发送", class_name="android.widget.ImageButton",
            flags=("clickable",) + _F),
]
TINY_GOAL = "给妈妈发消息“晚上七点到家”"
TINY_STEPS = [  # (action, reasoning, target)
    (Action("click", point=(300, 2200), element=ELEMENTS[4]), "先点击底部的输入框。", "底部的“输入消息”输入框"),
    (Action("input", text="晚上七点到家"), "输入框已激活，输入消息内容。", None),
    (Action("swipe", point=(540, 1600), end=(540, 800)), "向上滑动查看更早的消息。", None),
    (Action("open_app", app="设置"), "打开设置应用。", None),
    (Action("back"), "返回上一页。", None),
    (Action("home"), "回到桌面。", None),
    (Action("wait"), "页面还在加载，等待一下。", None),
    (Action("done"), "消息已发送，任务完成。", None),
]
FUNCTIONS = {"click": "click", "input": "input", "swipe": "swipe", "open_app": "open_app", "back": "press_back",
             "home": "press_home", "wait": "wait", "done": "done"}


def tiny_episode() -> tuple[Episode, list[dict]]:
    shot = Screenshot("0" * 64, "images/x.png", W, H)
    focused = [e if e.index != 4 else Element(4, e.bounds, hint=e.hint, class_name=e.class_name,
                                              flags=e.flags + ("focused",)) for e in ELEMENTS]
    steps, items = [], []
    for i, (action, reasoning, target) in enumerate(TINY_STEPS):
        steps.append(Step(i, shot, action, elements=focused if action.type == "input" else list(ELEMENTS)))
        params = {"target_element": target} if target else {}
        if action.type == "input":
            params = {"text": action.text}
        items.append({"reasoning": reasoning, "function": {"name": FUNCTIONS[action.type], "parameters": params}})
    return Episode("tiny", "sample", TINY_GOAL, steps), items


@pytest.fixture
def tiny() -> tuple[Episode, list[dict]]:
    return tiny_episode()


def _annotate(run: RunDir) -> list[tuple[Episode, list[dict]]]:
    return [(ep, template_items(ep)) for ep in run.episodes()]


@pytest.fixture(scope="session")
def sample_episodes(tmp_path_factory) -> list[tuple[Episode, list[dict]]]:
    root = tmp_path_factory.mktemp("formats_sample")
    sample_file(root / "sample.tfrecord.gz", n_episodes=12, seed=0, size=(540, 1200))
    run = RunDir(root / "run")
    ingest_androidcontrol([root / "sample.tfrecord.gz"], run, IngestOptions(), progress=False)
    return _annotate(run)


@pytest.fixture(scope="session")
def ac_episodes(tmp_path_factory) -> list[tuple[Episode, list[dict]]]:
    if not AC_RECORD.exists():
        pytest.skip(missing_shared())
    run = RunDir(tmp_path_factory.mktemp("formats_ac") / "run")
    ingest_androidcontrol([AC_RECORD], run, IngestOptions(), progress=False)
    return _annotate(run)


@pytest.fixture(scope="session")
def annotated_episodes(tmp_path_factory) -> list[tuple[Episode, list[dict]]]:
    if not ANNOTATED.exists():
        pytest.skip(missing_shared())
    run = RunDir(tmp_path_factory.mktemp("formats_an") / "run")
    ingest_annotated(ANNOTATED, run, IngestOptions(), progress=False)
    return _annotate(run)


@pytest.fixture(params=["sample", "androidcontrol", "annotated"])
def episodes(request) -> list[tuple[Episode, list[dict]]]:
    name = {"sample": "sample_episodes", "androidcontrol": "ac_episodes", "annotated": "annotated_episodes"}
    eps = request.getfixturevalue(name[request.param])
    assert eps, f"no {request.param} episodes were ingested"
    return eps


def _faithful(original: Action, q: Action, step: Step, tolerance: float) -> None:
    """The quantized action says what the ground truth did, up to the format's resolution."""
    assert q.type == original.type
    if original.type == "swipe":
        assert q.direction == original.direction
    if original.type in ("input", "open_app"):
        assert (q.text, q.app) == (original.text, original.app)
    if q.point is not None and original.point is not None:
        if q.element is not None:  # element formats: the element addressed contains the point touched
            assert q.element.contains(original.point), (q.element.bounds, original.point)
        elif original.type != "input":
            assert math.dist(q.point, original.point) <= tolerance, (q.point, original.point)


def check_round_trip(name: str, episodes, allowed: dict[str, set[str]], tolerance: float = 3.0) -> Counter:
    """Run every step of ``episodes`` through format ``name``; return counts of expressed types and drops.
    ``allowed`` maps each drop reason to the action types that may raise it ("*" for any)."""
    fmt, seen = get_format(name), Counter()
    for episode, items in episodes:
        for i, step in enumerate(episode.steps):
            ctx = StepContext(episode, i, items)
            try:
                text = fmt.render(ctx)
            except CannotExpress as e:
                types = allowed.get(e.reason)
                assert types is not None and ("*" in types or step.action.type in types), (name, episode.id, i, e)
                with pytest.raises(CannotExpress) as again:
                    fmt.quantize(ctx)
                assert again.value.reason == e.reason
                seen[f"drop:{e.reason}"] += 1
                continue
            q = fmt.quantize(ctx)
            assert fmt.parse(text, ctx) == q, (name, episode.id, i, text)
            _faithful(step.action, q, step, tolerance)
            seen[step.action.type] += 1
    return seen


def check_memory(name: str, episode: Episode, items: list[dict], index: int) -> tuple[str, str]:
    """(answer with memory on, memory text) for one step; the memory must not be there with memory off."""
    from sftdata.formats.memory import memory_text

    fmt = get_format(name)
    on = StepContext(episode, index, items, memory=True)
    text = memory_text(on, fmt.language)
    assert text not in fmt.render(StepContext(episode, index, items))
    return fmt.render(on), text


def check_history(name: str, episode: Episode, items: list[dict], index: int) -> str:
    """The user message at ``index`` with history=2 and one history image: two images, the two previous
    steps' reasoning and not the one before them. Returns the message for format-specific checks."""
    fmt = get_format(name)
    ctx = StepContext(episode, index, items, history=2, history_images=1)
    message = fmt.user_message(ctx)
    assert message.count("<image>") == 2
    assert items[index - 1]["reasoning"] in message and items[index - 2]["reasoning"] in message
    assert items[index - 3]["reasoning"] not in message
    assert fmt.user_message(StepContext(episode, index, items, history=0)).count("<image>") == 1
    return message


@pytest.fixture
def round_trip():
    return check_round_trip


@pytest.fixture
def memory():
    return check_memory


@pytest.fixture
def history():
    return check_history
