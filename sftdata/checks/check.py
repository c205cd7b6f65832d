"""Does a reconstruction match the ground truth? Pure functions; every failure names the item and a reason.

Reason codes: ``bad_item`` (not a {reasoning, function{name, parameters}} object), ``item_count_mismatch``,
``missing_done``, ``multiple_done``, ``done_not_last``, ``unexpected_done`` (a ``done`` item for a recording
without a final screen, :attr:`Episode.ends_with_done` False), ``function_mismatch``, ``input_text_mismatch``
(``input`` or a web ``type``), ``select_value_mismatch``, ``app_mismatch``, ``swipe_direction_mismatch``,
``scroll_direction_mismatch``, ``url_mismatch``, ``missing_target``, ``target_not_chinese``,
``target_not_grounded``, ``reasoning_contradicts_action`` (the decision the reasoning or ``thought`` states is
not the call: another verb, direction, typed text, app or on-screen target, or "the task is complete" before
``done``; see :mod:`sftdata.checks.agreement`), ``empty_reasoning``, ``reasoning_not_chinese``, ``mentions_marks``, ``future_screen_text`` (a word of the
reasoning or a field that only a later screen shows, see :mod:`sftdata.checks.future_text`), ``hindsight`` (the
reasoning or an optional field states what the agent cannot know before acting: the episode's total or remaining
steps, what the screen shows after the action; see :mod:`sftdata.checks.hindsight`), and for the optional fields
(:data:`ITEM_FIELDS`, checked when present and not null; a non-string is ``bad_item``): ``field_not_chinese``,
``thought_not_one_sentence`` (``thought`` is one sentence on one line), ``action_summary_too_long`` (more than
:data:`ACTION_SUMMARY_MAX` characters, or more than one line).

>>> from sftdata.model import Action, Episode, Screenshot, Step
>>> shot = Screenshot("0" * 64, "x.png", 1080, 2400)
>>> ep = Episode("e", "annotated", "返回", [Step(0, shot, Action("back")), Step(1, shot, Action("done"))])
>>> items = [{"reasoning": "当前页面不是目标页面，需要先返回上一页。", "function": {"name": "press_back", "parameters": {}}},
...          {"reasoning": "已经回到目标页面，任务完成。", "function": {"name": "done", "parameters": {}}}]
>>> check_items(items, ep)
[]
>>> [f.reason for f in check_items(items[::-1], ep)]
['done_not_last', 'function_mismatch', 'function_mismatch']
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Sequence

from .calls import ITEM_FIELDS
from ..model import Episode, Step
from .agreement import contradictions
from .calls import TARGET_FUNCTIONS, expected_parameters, function_name, grounding_label, mentions, normalize
from .future_text import FutureText, future_detail, future_screen_text
from .hindsight import find_hindsight
from .spoken_calls import spoken_calls
from .outcome import plan_clause

CJK_THRESHOLD = 0.5
ACTION_SUMMARY_MAX = 40  # characters of a short imperative such as 点击“设置”
MARK_WORDS = ("红圈", "红色圆圈", "红色圆", "红框", "红色箭头", "红箭头", "红色标注", "红色标记", "标注", "红色文字",
              "红字", "圆圈标记", "箭头标记", "red circle", "red arrow", "red mark", "red text", "annotation",
              "annotated", "the circle", "the arrow")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|‘[^’]*’|《[^》]*》")


@dataclass(frozen=True)
class Failure:
    index: int | None  # item index, None for whole-list problems
    reason: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@lru_cache(maxsize=65536)
def _is_cjk(ch: str) -> bool:
    return "CJK" in unicodedata.name(ch, "") or "\u3040" <= ch <= "\u30ff"


@lru_cache(maxsize=65536)
def _letter_kind(ch: str) -> int:
    """0: not a letter, 1: a letter, 2: a CJK letter (cached: every reply is classified character by character)."""
    if not unicodedata.category(ch).startswith("L"):
        return 0
    return 2 if _is_cjk(ch) else 1


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters of ``text`` outside quotation marks (quoted UI text and
    instructions may be in any language).

    >>> cjk_share('点击“Settings”按钮')
    1.0
    >>> round(cjk_share("Click the 设置 button"), 2)
    0.12
    """
    kinds = [k for k in map(_letter_kind, _QUOTED.sub("", text)) if k]
    if not kinds:
        return 0.0
    return kinds.count(2) / len(kinds)


def has_cjk(text: str) -> bool:
    return any(_is_cjk(ch) for ch in text)


def mark_words(text: str) -> list[str]:
    low = normalize(text)
    return [w for w in MARK_WORDS if w in low]


def _shape(item: Any) -> str | None:
    if not isinstance(item, dict):
        return f"item is {type(item).__name__}, not an object"
    if not isinstance(item.get("reasoning"), str):
        return "missing 'reasoning' string"
    fn = item.get("function")
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
        return "missing 'function' object with a 'name'"
    if not isinstance(fn.get("parameters", {}), dict):
        return "'parameters' is not an object"
    for name in ITEM_FIELDS:
        if item.get(name) is not None and not isinstance(item[name], str):
            return f"'{name}' is {type(item[name]).__name__}, not a string"
    return None


def _sentence_count(text: str) -> int:
    """Sentences of ``text`` outside quotation marks (a closing full stop is not a second sentence).

    >>> _sentence_count("点击“设置”。"), _sentence_count("先返回。再点击“确定！”"), _sentence_count("Tap Settings.")
    (1, 2, 1)
    """
    bare = _QUOTED.sub("", text).strip()
    inner = re.sub(r"[。！？!?.…\s]+$", "", bare)
    return 1 + len(re.findall(r"[。！？!?]+|\.(?=\s)", inner))


def _field_failures(item: dict[str, Any], index: int, cjk_threshold: float) -> list[Failure]:
    """Failures of the optional text fields that are present (see :data:`ITEM_FIELDS`)."""
    out: list[Failure] = []
    for name in ITEM_FIELDS:
        value = item.get(name)
        if not isinstance(value, str) or not value.strip():
            continue
        text = value.strip()
        if any(map(_letter_kind, _QUOTED.sub("", text))) and cjk_share(text) < cjk_threshold:
            out.append(Failure(index, "field_not_chinese",
                               f"{name}: {cjk_share(text):.0%} of its letters are Chinese (need {cjk_threshold:.0%})"))
        lines = text.count("\n") + 1
        if name == "thought" and (lines > 1 or _sentence_count(text) > 1):
            out.append(Failure(index, "thought_not_one_sentence",
                               f"thought has {_sentence_count(text)} sentence(s) on {lines} line(s)"))
        if name == "action_summary" and (len(text) > ACTION_SUMMARY_MAX or lines > 1):
            out.append(Failure(index, "action_summary_too_long",
                               f"action_summary has {len(text)} characters on {lines} line(s) "
                               f"(at most {ACTION_SUMMARY_MAX} on one)"))
    return out


def hindsight_detail(item: dict[str, Any]) -> str | None:
    """The hindsight phrases of an item's reasoning and optional fields (``field: phrase; ...``), None if clean.

    >>> hindsight_detail({"reasoning": "这是第 2 步，共 8 步。点击“设置”。", "memory": "已完成 1 步，剩余 7 步"})
    'reasoning: 共 8 步; memory: 剩余 7 步'
    """
    parts = []
    fn = item.get("function")
    acting = not (isinstance(fn, dict) and fn.get("name") == "done")  # a done has no outcome of its own to tell
    for name in ("reasoning",) + ITEM_FIELDS:
        value = item.get(name)
        phrases = find_hindsight(spoken_calls(value), acting) if isinstance(value, str) else []  # {"reason": …}
        if phrases:
            parts.append(f"{name}: {' / '.join(p if len(p) <= 60 else p[:59] + '…' for p in phrases)}")
    return "; ".join(parts) or None


def check_item(item: dict[str, Any], step: Step, index: int, *, cjk_threshold: float = CJK_THRESHOLD,
               web: bool = False) -> list[Failure]:
    """Failures of one item against its ground-truth step (function, parameters, target, reasoning); ``web``:
    the step is a web page's (its functions are named for the browser)."""
    problem = _shape(item)
    if problem:
        return [Failure(index, "bad_item", problem)]
    out: list[Failure] = []
    fn, params = item["function"]["name"], item["function"].get("parameters") or {}
    want = function_name(step.action, web)
    if fn != want:
        return [Failure(index, "function_mismatch", f"function is {fn!r}, the ground truth is {want!r}")]
    expected = expected_parameters(step.action)
    if "text" in expected and params.get("text") != expected["text"]:
        out.append(Failure(index, "input_text_mismatch", f"{'typed' if fn == 'type' else 'input'} text "
                                                         f"{params.get('text')!r} != {expected['text']!r}"))
    if "value" in expected and params.get("value") != expected["value"]:
        out.append(Failure(index, "select_value_mismatch",
                           f"selected value {params.get('value')!r} != {expected['value']!r}"))
    if "url" in expected and not _same_url(params.get("url"), expected["url"]):
        out.append(Failure(index, "url_mismatch", f"url {params.get('url')!r} != {expected['url']!r}"))
    if "app_name" in expected and not _same_app(params.get("app_name"), expected["app_name"]):
        out.append(Failure(index, "app_mismatch", f"app_name {params.get('app_name')!r} != {expected['app_name']!r}"))
    if "direction" in expected and str(params.get("direction", "")).upper() != expected["direction"]:
        scroll = step.action.type == "scroll"
        out.append(Failure(index, "scroll_direction_mismatch" if scroll else "swipe_direction_mismatch",
                           f"direction {params.get('direction')!r}, the {'view' if scroll else 'finger'} moves "
                           f"{expected['direction']}"))
    if fn in TARGET_FUNCTIONS:
        target = params.get("target_element")
        if not isinstance(target, str) or not target.strip():
            out.append(Failure(index, "missing_target", "target_element is empty"))
        elif not has_cjk(target):
            out.append(Failure(index, "target_not_chinese", f"target_element {target!r} has no Chinese"))
        else:
            label = grounding_label(step)
            if label and not mentions(target, label):
                out.append(Failure(index, "target_not_grounded",
                                   f"target_element {target!r} does not mention the element's text {label!r}"))
    reasoning = item["reasoning"].strip()
    for name in ("reasoning", "thought") if not out else ():  # a wrong parameter is reported already
        text = item.get(name)
        for detail in contradictions(text, item["function"], step) if isinstance(text, str) else []:
            out.append(Failure(index, "reasoning_contradicts_action", f"{name}: {detail}"))
            break
    if not reasoning:
        out.append(Failure(index, "empty_reasoning", "reasoning is empty"))
    else:
        share = cjk_share(reasoning)
        if share < cjk_threshold:
            out.append(Failure(index, "reasoning_not_chinese",
                               f"{share:.0%} of the reasoning's letters are Chinese (need {cjk_threshold:.0%})"))
    out += _field_failures(item, index, cjk_threshold)
    fields = [item[name] for name in ITEM_FIELDS if isinstance(item.get(name), str)]
    words = mark_words(" ".join([reasoning, str(params.get("target_element", ""))] + fields))
    if words:
        out.append(Failure(index, "mentions_marks", f"mentions the annotation marks: {', '.join(words)}"))
    hindsight = hindsight_detail(item)
    if hindsight:
        out.append(Failure(index, "hindsight", f"states what is known only after acting: {hindsight}"))
    return out


def _same_app(got: Any, want: str) -> bool:
    return isinstance(got, str) and normalize(got) == normalize(want)


def _same_url(got: Any, want: str) -> bool:
    """Same address up to surrounding space and one trailing slash."""
    return isinstance(got, str) and got.strip().rstrip("/") == want.strip().rstrip("/")


def check_items(items: Sequence[Any], episode: Episode, *, steps: Sequence[Step] | None = None,
                expect_done: bool = True, cjk_threshold: float = CJK_THRESHOLD) -> list[Failure]:
    """All failures of ``items`` against ``steps`` (default: every step of ``episode``). ``expect_done=False``
    checks a window that is not the episode's last (then no ``done`` may appear). A recording without a final
    screen (:attr:`Episode.ends_with_done` False) has no ``done`` at all: one is ``unexpected_done``."""
    steps = list(episode.steps if steps is None else steps)
    final_screen = episode.ends_with_done
    failures: list[Failure] = []
    if len(items) != len(steps):
        failures.append(Failure(None, "item_count_mismatch",
                                f"{len(items)} items for {len(steps)} screenshots (one item per screenshot)"))
    names = [it.get("function", {}).get("name") if isinstance(it, dict) and isinstance(it.get("function"), dict)
             else None for it in items]
    done_at = [i for i, n in enumerate(names) if n == "done"]
    if not final_screen and done_at:
        failures.append(Failure(done_at[0], "unexpected_done", "the recording has no screen after its last action, "
                                "so it has no done item: the last item is the last recorded action"))
    elif expect_done and final_screen:
        if not done_at:
            failures.append(Failure(None, "missing_done", "no done item; it must be the last one"))
        elif len(done_at) > 1:
            failures.append(Failure(done_at[0], "multiple_done", f"done at items {done_at}; exactly one is allowed"))
        elif done_at[0] != len(items) - 1:
            failures.append(Failure(done_at[0], "done_not_last", f"done at item {done_at[0] + 1} of {len(items)}"))
    elif done_at:
        failures.append(Failure(done_at[0], "done_not_last", "done inside a window that is not the last"))
    for i, (item, step) in enumerate(zip(items, steps)):
        failures += check_item(item, step, i, cjk_threshold=cjk_threshold, web=episode.web)
        failures += future_failures(item, episode, _position(episode, step), i)
    return failures


def _position(episode: Episode, step: Step) -> int:
    """The index of ``step`` in ``episode`` (its own ``index`` when that is where it stands)."""
    if 0 <= step.index < len(episode.steps) and episode.steps[step.index] is step:
        return step.index
    return next((k for k, s in enumerate(episode.steps) if s is step), step.index)


def future_failures(item: Any, episode: Episode, position: int, index: int) -> list[Failure]:
    """``future_screen_text`` for the reasoning and optional fields of one item: text only a later screen shows,
    reported as fact (a plan or an expectation that names it is a guess: :func:`later_plans`)."""
    if not isinstance(item, dict):
        return []
    out = []
    for name in ("reasoning",) + ITEM_FIELDS:
        value = item.get(name)
        found = _future(value, episode, position)[0] if isinstance(value, str) else []
        if found:
            out.append(Failure(index, "future_screen_text", f"{name}: {future_detail(found, position)}"))
    return out


def later_plans(text: str, episode: Episode, position: int) -> list[str]:
    """The words of ``text`` that only a later screen shows, said in an expectation (``应该会看到“已配对的设备”``):
    not hindsight, but nothing the check can vouch for either (the target of a later action, ``then I'll look
    for Bluetooth``, is a plan an agent can make)."""
    return [f.word for f in _future(text, episode, position)[1] if plan_clause(text, f.word) is True]


_FUTURE: dict[tuple[int, int, str], tuple[Episode, tuple]] = {}  # (id(episode), position, text) -> its reading


def _future(text: str, episode: Episode, position: int) -> tuple[list[FutureText], list[FutureText]]:
    """(words reported as fact, words in plans) of ``text`` that only a later screen shows (remembered for the
    episode object: the check and certify read each text twice)."""
    key = (id(episode), position, text)
    hit = _FUTURE.get(key)
    if hit is not None and hit[0] is episode:
        return hit[1]
    found = future_screen_text(text, episode, position)
    facts = [f for f in found if not plan_clause(text, f.word)]
    out = (facts, [f for f in found if f not in facts])
    if len(_FUTURE) >= 4096:
        _FUTURE.clear()
    _FUTURE[key] = (episode, out)
    return out


def failure_summary(failures: Sequence[Failure]) -> str:
    """Numbered lines for the repair prompt, e.g. ``第 3 项 (swipe_direction_mismatch): ...``."""
    lines = []
    for f in failures:
        where = "整体" if f.index is None else f"第 {f.index + 1} 项"
        lines.append(f"- {where} ({f.reason}): {f.detail}")
    return "\n".join(lines)
