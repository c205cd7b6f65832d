"""The template backend's output passes its own checks (check_items and the rules judge) for any typed text the
project keeps: control characters, whitespace or punctuation alone, every kind of quotation mark, the memory's
own separators. Typed text is kept exactly (tests/test_abuse.py); the template quotes it so that the checks read
it back (sftdata.checks.decision.quote), and the checks compare it the way it was written."""
from __future__ import annotations

import random

import pytest

from sftdata.checks.agreement import contradictions
from sftdata.checks.check import check_items
from sftdata.checks.decision import quotable, quote, quotes_in
from sftdata.checks.memory_check import memory_problems
from sftdata.annotate.template import template_items
from sftdata.judge.rules import rules_verdict
from sftdata.judge.verdict import item_fails
from sftdata.model import Action, Element, Episode, Screenshot, Step

SHOT = Screenshot("0" * 64, "x.png", 1080, 2400)
FIELD = Element(0, (0, 300, 1080, 400), text="搜索", flags=("visible", "clickable", "editable"))
OK = Element(1, (0, 500, 1080, 600), text="确定", flags=("visible", "clickable"))
MARKS = "“”\"'‘’「」『』《》"
HOSTILE = ["\x07", "\t", "a\nb", "a\x0bb\x1c", ".", "!", "。。。", "！", " \x0b ", "\x85", ".\x0b", "\x0b!\x1c",
           "明天见\x07\x1b", "a;b", "a；b、c,d", "“引号”", "「a」『b』", "”」』", "abc《\".》’』」”\x14a", MARKS,
           "输入“x”；已做：点击", "\u2028\u2029", "\x00\x7f"]


def _episode(texts: list[str], goal: str = "在搜索框输入内容", eid: str = "e") -> Episode:
    steps: list[Step] = []
    for text in texts:
        steps.append(Step(len(steps), SHOT, Action("click", point=(540, 350), element=FIELD), elements=[FIELD, OK]))
        steps.append(Step(len(steps), SHOT, Action("input", text=text), elements=[FIELD, OK]))
    steps.append(Step(len(steps), SHOT, Action("click", point=(540, 550), element=OK), elements=[FIELD, OK]))
    steps.append(Step(len(steps), SHOT, Action("done"), elements=[FIELD, OK]))
    return Episode(id=eid, source="annotated", goal=goal, steps=steps)


def _problems(episode: Episode) -> list:
    items = template_items(episode)
    verdicts, _ = rules_verdict(episode, items)
    return check_items(items, episode) + [(v.index, item_fails(v, 3), v.why) for v in verdicts if item_fails(v, 3)]


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(t) for t in HOSTILE])
def test_the_template_passes_its_own_checks_for_hostile_typed_text(text):
    for eid in ("a", "b", "c"):  # the template's phrasing varies with the id
        assert _problems(_episode([text, "第二段", text], eid=eid)) == []
        assert _problems(_episode([text], goal=f"搜索{text}", eid=eid)) == []


def test_the_template_passes_its_own_checks_for_random_typed_text():
    rng = random.Random(30)
    alphabet = [chr(c) for c in range(0x20)] + list(MARKS) + list("aB1 键盘。.，,:：;；、!！\u2028\u0085\u3000\u200b")
    for n in range(150):
        texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10))) for _ in range(rng.randint(1, 3))]
        assert _problems(_episode(texts, eid=str(n))) == [], texts


def test_quote_reads_back_whole():
    for text in HOSTILE:
        flat = " ".join(text.split())
        if quotable(text):
            assert quotes_in(quote(text)) == [flat], text
    assert not quotable(MARKS) and quote("”」』") == "《”」』》"


def test_a_reasoning_typing_punctuation_or_blank_text_agrees_with_the_call():
    step = Step(0, SHOT, Action("input", text="！"), elements=[FIELD])
    assert contradictions("在其中输入“！”。", {"name": "input", "parameters": {"text": "！"}}, step) == []
    assert contradictions("在其中输入“”。", {"name": "input", "parameters": {"text": "\t\x0b"}}, step) == []
    assert contradictions("在其中输入“”。", {"name": "input", "parameters": {"text": "。"}}, step) != []


def test_the_memory_check_reads_quotes_whole_and_typed_text_as_written():
    episode = _episode(["a；b、c", "x\ny\x1cz"])
    history = "已做：点击“搜索”输入框、输入“a；b、c”、点击“搜索”输入框、输入“x y z”；目标：“在搜索框输入内容”"
    assert memory_problems(history, episode, 4) == []
    wrong = history.replace("x y z", "x y w")
    assert memory_problems(wrong, episode, 4) == ["action 4 types “x y w”, the history typed “x\ny\x1cz”"]
    assert memory_problems(history.replace("、点击“搜索”输入框、输入“x y z”", ""), episode, 4) == [
        "lists 2 action(s), the history has 4"]
