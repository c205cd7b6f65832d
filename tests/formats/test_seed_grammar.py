"""Every exported answer of every format parses with a parser written from its seed alone (``seed_parsers``),
and says what the step's ground truth did.

The generated sample and the real fixtures (AndroidControl record, annotated folders) are ingested and annotated
by the template backend, then exported in each format with and without ``--memory``. For each format and memory
setting at least 50 answers are checked: each exported answer is one the exporter's own sample builder gives for
a known step, its seed parser accepts it, and the parsed action matches the ground truth (type, and target,
text, direction or coordinates as the format writes them).
"""
from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from sftdata.export.samples import build_sample
from sftdata.export.stage import ExportOptions, export_run
from sftdata.formats import CannotExpress, StepContext, get_format
from sftdata.formats import coords
from sftdata.formats import elements as el
from sftdata.ingest import IngestOptions, ingest_androidcontrol, ingest_annotated
from sftdata.io import iter_jsonl
from sftdata.model import OPPOSITE
from sftdata.annotate.annotator import AnnotateOptions
from sftdata.checks.hindsight import find_hindsight
from sftdata.annotate.stage import annotate_run
from sftdata.rundir import RunDir
from built_once import sample_file

from seed_parsers import PARSERS, SeedGrammarError, parse_browser_use, sentences
from web_episodes import web_run

pytestmark = pytest.mark.slow  # many seconds of CPU: scheduled first (tests/conftest.py)

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
FORMATS = sorted(PARSERS)
MINIMUM = 50


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> list[RunDir]:
    """The sample run, plus the real fixtures when present, annotated by the template backend."""
    root = tmp_path_factory.mktemp("seed_grammar")
    sample_file(root / "sample.tfrecord.gz", n_episodes=12, seed=0, size=(540, 1200))
    out = [RunDir(root / "sample")]
    ingest_androidcontrol([root / "sample.tfrecord.gz"], out[0], IngestOptions(), progress=False)
    record = FIXTURES / "androidcontrol" / "android_control-00000-of-00001"
    if record.exists():
        out.append(RunDir(root / "androidcontrol"))
        ingest_androidcontrol([record], out[-1], IngestOptions(), progress=False)
    if (FIXTURES / "annotated").exists():
        out.append(RunDir(root / "annotated"))
        ingest_annotated(FIXTURES / "annotated", out[-1], IngestOptions(), progress=False)
    for run in out:
        annotate_run(run, AnnotateOptions(progress=False))
    return out


def _items(run: RunDir) -> dict[str, list[dict]]:
    return {str(r["id"]): r["items"] for r in iter_jsonl(run.path / "annotations.jsonl")}


def _close(got, want: tuple[float, float], tolerance: float = 1.0) -> bool:
    return math.dist(got, want) <= tolerance


def _scaled(point, size, to) -> tuple[float, float]:
    return point[0] * to[0] / size[0], point[1] * to[1] / size[1]


def _grid(point, size) -> tuple[float, float]:
    return point[0] / (size[0] - 1) * 999, point[1] / (size[1] - 1) * 999


def check_truth(name: str, parsed: tuple[str, dict], ctx: StepContext, system: str) -> None:
    """The parsed answer says what the step did, in the format's own terms."""
    kind, args = parsed
    a, size = ctx.action, ctx.size
    if name == "react-zh":
        want = {"click": "click", "long_press": "long_press", "input": "input", "swipe": "swipe",
                "open_app": "open_app", "back": "press_back", "home": "press_home", "wait": "wait", "done": "done"}
        assert kind == want[a.type]
        assert args == {"click": {"target_element": ctx.target}, "long_press": {"target_element": ctx.target},
                        "input": {"text": a.text}, "swipe": {"direction": (a.direction or "").upper()},
                        "open_app": {"app_name": a.app}}.get(a.type, {})
    elif name in ("qwen2.5-vl", "qwen3-vl"):
        w, h = (int(v) for v in system.split("The screen's resolution is ")[1].split(".")[0].split("x"))
        to = (lambda p: _grid(p, size)) if name == "qwen3-vl" else (lambda p: _scaled(p, size, (w, h)))
        want = {"click": "click", "long_press": "long_press", "swipe": "swipe", "input": "type", "open_app": "open",
                "back": "system_button", "home": "system_button", "wait": "wait", "done": "terminate"}
        assert kind == want[a.type]
        if a.type in ("click", "long_press", "swipe"):
            assert _close(args["coordinate"], to(a.point)), (args, a)
        if a.type == "swipe":
            assert _close(args["coordinate2"], to(a.end)), (args, a)
        assert args.get("text") == {"input": a.text, "open_app": a.app}.get(a.type)
        assert args.get("button") == {"back": "Back", "home": "Home"}.get(a.type)
        assert args.get("status") == ("success" if a.type == "done" else None)
    elif name == "ui-tars":
        seen = coords.resized_size(size, "qwen2.5-vl", **coords.limits(ctx))
        want = {"click": "click", "long_press": "long_press", "swipe": "scroll", "input": "type",
                "open_app": "open_app", "back": "press_back", "home": "press_home", "done": "finished"}
        assert kind == want[a.type]
        if a.type in ("click", "long_press", "swipe"):
            assert _close(args["point"], _scaled(a.point, size, seen)), (args, a)
        if a.type == "swipe":
            assert args["direction"] == OPPOSITE[a.direction]  # the scroll's, the finger's opposite
        assert args.get("content") == {"input": a.text}.get(a.type, args.get("content"))
        assert args.get("app_name") == (a.app if a.type == "open_app" else None)
    elif name == "mobile-agent":
        want = {"click": "tap", "long_press": "long_press", "input": "enter_text", "swipe": "swipe",
                "open_app": "open_app", "back": "back", "home": "home", "wait": "wait", "done": "done"}
        assert kind == want[a.type]
        if a.type in ("click", "long_press"):
            assert el.interactive(ctx.step)[args["index"]].contains(a.point), (args, a.point)
        assert args.get("text") == {"input": a.text}.get(a.type, args.get("text"))
        assert args.get("direction") == (a.direction if a.type == "swipe" else None)
        assert args.get("app_name") == (a.app if a.type == "open_app" else None)
    elif name == "gui-agent-zh":
        want = {"click": "click", "long_press": "long_press", "swipe": "drag", "input": "input", "wait": "wait",
                "done": "wait"}
        assert kind == want[a.type]
        assert args["status"] == ("completed" if a.type == "done" else "in_progress")
        rel = (lambda p: _scaled(p, size, (1000, 1000)))
        if a.type in ("click", "long_press"):
            assert _close(args["coordinates"], rel(a.point)) and args["target"] == ctx.target
        if a.type == "swipe":
            assert _close(args["coordinates"][0], rel(a.point)) and _close(args["coordinates"][1], rel(a.end))
        if a.type == "input":
            assert args["text"] == a.text
        if sentences(ctx.reasoning) > 1:  # a concise description, never the whole reasoning
            assert ctx.reasoning.strip() not in args["description"]
    elif name == "androidlab":
        want = {"click": "Tap", "long_press": "Long Press", "input": "Type", "swipe": "Swipe", "open_app": "Launch",
                "back": "Back", "done": "Finish"}
        assert kind == want.get(a.type, a.type)
        if a.type in ("click", "long_press"):
            x1, y1, x2, y2 = args["element"]
            assert x1 <= a.point[0] < x2 and y1 <= a.point[1] < y2, (args, a.point)
        assert args.get("text") == (a.text if a.type == "input" else None)
        assert args.get("direction") == (a.direction if a.type == "swipe" else None)
        assert args.get("app") == (a.app if a.type == "open_app" else None)


def _parse(name: str, answer: str, system: str, user: str, size):
    if name == "androidlab":
        return PARSERS[name](answer, system, user, size)
    return PARSERS[name](answer, system, user)


@pytest.mark.parametrize("memory", [False, True], ids=["plain", "memory"])
@pytest.mark.parametrize("name", FORMATS)
def test_exported_answers_follow_the_seed(runs, name, memory, tmp_path):
    fmt, opts = get_format(name), ExportOptions(format=name, memory=memory, split_ratio=0.0, progress=False)
    checked, failures, built = 0, [], Counter()
    for n, run in enumerate(runs):
        items, before = _items(run), checked
        for episode in run.episodes():
            if episode.id not in items:
                continue
            for i in range(len(episode.steps)):
                ctx = StepContext(episode, i, items[episode.id], opts.history, opts.history_images, memory)
                try:
                    sample = build_sample(fmt, ctx, "images/")
                except CannotExpress:
                    continue
                system, user, answer = (m["content"] for m in sample.record["messages"])
                built[answer] += 1
                if find_hindsight(answer):  # no step totals, no post-action descriptions (the history is the
                    failures.append(f"{episode.id}#{i} answer has hindsight: {find_hindsight(answer)}")  # known past)
                try:
                    check_truth(name, _parse(name, answer, system, user, ctx.size), ctx, system)
                except (ValueError, AssertionError, KeyError, IndexError) as exc:
                    failures.append(f"{episode.id}#{i} ({ctx.action.type}): {exc}")
                checked += 1
        if checked == before:  # nothing this format can say (no accessibility tree): export refuses, rightly
            continue
        export_run(run, tmp_path / f"out{n}", opts)
        rows = [json.loads(line) for path in sorted((tmp_path / f"out{n}").glob("*.jsonl"))
                for line in path.read_text(encoding="utf-8").splitlines()]
        exported = Counter(row["messages"][-1]["content"] for row in rows)
        assert not exported - built, f"{name}: exported answers the sample builder does not give"
    assert checked >= MINIMUM, f"{name}: only {checked} answers"
    assert not failures, f"{name}: {len(failures)} of {checked} answers break the seed:\n" + "\n".join(failures[:8])


QWEN_SYSTEM = 'The screen\'s resolution is 1092x2408. "enum": ["click"]'
CALL = '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10, 20]}}\n</tool_call>'


@pytest.mark.parametrize("name,answer", [
    ("qwen2.5-vl", f"Thought: 先打开设置。\n记忆：已完成 1 步。\nAction: 点击“设置”\n{CALL}"),  # two lines
    ("qwen2.5-vl", f"Thought: 桌面上有设置。点击它。\nAction: 点击“设置”\n{CALL}"),  # two sentences
    ("qwen2.5-vl", f"Thought: 打开设置。\nAction: 点击“设置”\n{CALL.replace('click', 'tap')}"),  # unknown action
    ("qwen2.5-vl", f"Thought: 打开设置。\nAction: 点击“设置”\n{CALL.replace('[10, 20]', '[2000, 20]')}"),  # off screen
    ("qwen2.5-vl", f"Action: 点击“设置”\nThought: 打开设置。\n{CALL}"),  # order
    ("ui-tars", "Thought: 点击设置。\nAction: click(point='(10, 20)')"),
    ("ui-tars", "Thought: 等待。\nAction: wait()"),
    ("react-zh", '{"reasoning": "点。", "function": {"name": "click", "parameters": {"target_element": ""}}}'),
    ("react-zh", '{"reasoning": "滑。", "function": {"name": "swipe", "parameters": {"direction": "up"}}}'),
    ("gui-agent-zh", '{"status": "in_progress", "description": "d", "target": "", '
                     '"action": {"type": "drag", "coordinates": [[1, 2], [3, 4]], "text": ""}}'),
    ("gui-agent-zh", '{"status": "in_progress", "description": "d", "target": "搜索框", '
                     '"action": {"type": "input", "coordinates": [0, 0], "text": "你好"}}'),
    ("gui-agent-zh", '{"status": "in_progress", "description": "a\\nb", "target": "搜索框", '
                     '"action": {"type": "click", "coordinates": [5, 5], "text": ""}}'),
    ("androidlab", '<think>\n想。\n</think>\n<answer>\ndo(action="Tap", point=[1, 2])\n</answer>'),
    ("androidlab", '<think>\n想。\n</think>\n<answer>\ndo(action="Home")\n</answer>'),
    ("mobile-agent", '{"current_state": {"evaluation_previous_goal": "Success", "memory": "m", "next_goal": "g"}, '
                     '"action": [{"tap": {"index": 1}}]}'),  # index 1 lists no text
])
def test_seed_parsers_refuse_what_the_seed_does_not_allow(name, answer):
    user = "[0]<Button> 'OK'\n[1]<LinearLayout> ''"
    with pytest.raises(ValueError):
        _parse(name, answer, QWEN_SYSTEM, user, (1080, 2400))


def test_seed_parsers_read_what_the_seed_allows():
    assert _parse("qwen2.5-vl", f"Thought: 记忆：已发送 1 条；再打开“设置。”页。\nAction: 点击“设置”\n{CALL}",
                  QWEN_SYSTEM, "", None) == ("click", {"coordinate": (10, 20)})
    assert _parse("androidlab", '<think>\n想。\n</think>\n<answer>\ndo(action="Tap", element=[1, 2, 30, 40])\n</answer>',
                  "", "[1, 2, 30, 40] Button 'OK'", (1080, 2400)) == ("Tap", {"element": [1, 2, 30, 40]})


def browser_use_parsed(rows: list[dict]) -> int:
    """How many exported browser-use rows (shard lines as dicts) the seed-003 parser reads; fails listing the
    answers it refuses. For any web export, e.g. the Mind2Web sample's."""
    failures = []
    for row in rows:
        system, user, answer = (m["content"] for m in row["messages"])
        try:
            parse_browser_use(answer, system, user)
        except SeedGrammarError as exc:
            failures.append(str(exc))
    assert not failures, (f"{len(failures)} of {len(rows)} browser-use answers break seed 003:\n"
                          + "\n".join(failures[:8]))
    return len(rows)


@pytest.mark.parametrize("memory", [False, True], ids=["plain", "memory"])
def test_exported_browser_use_answers_follow_seed_003(tmp_path, memory):
    run = web_run(tmp_path / "run", copies=4)
    export_run(run, tmp_path / "out", ExportOptions(format="browser-use", memory=memory, split_ratio=0.0,
                                                    progress=False))
    rows = [json.loads(line) for path in sorted((tmp_path / "out").glob("*-of-*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]
    assert browser_use_parsed(rows) >= MINIMUM
