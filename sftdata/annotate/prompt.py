"""The reconstruction prompt: versioned templates, filled placeholders, chat messages with annotator images.

A template has two placeholders, ``{goal}`` and ``{screenshot_count}``. Templates written for ``str.format``
(JSON braces doubled, as in seed 002) work as well as plain ones. The built-in templates are :data:`PROMPTS`;
v3 (the default) asks for reasoning that knows only the present, for the optional item fields (``thought``,
``action_summary``, ``observation``, ``memory``), for a decision that says exactly what the call does, an ordinal
for a target whose label is shared, no text of later screens and a memory true to the whole history; v1 and v2
stay loadable by name. Web episodes get
``react_zh_web_v2`` (:data:`WEB_PROMPT`: web pages, the browser's functions, no ``done`` after the last action of
a recording without a final screen) unless the user gave a prompt file, which then serves every episode.

>>> fill_template("Task: {goal} ({screenshot_count} screenshots) {\\"name\\": 1}", goal="打开设置", screenshot_count=3)
'Task: 打开设置 (3 screenshots) {"name": 1}'
>>> fill_template("Task: {goal} {{\\"name\\": 1}}", goal="g", screenshot_count=1)
'Task: g {"name": 1}'
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import FatalError
from ..model import Step
from ..overlay.draw import action_label
from ..schemas import load as load_schema
from ..checks.calls import ITEM_FIELDS, function_name

PROMPTS = ("react_zh_v1", "react_zh_v2", "react_zh_v3", "react_zh_web_v2")
DEFAULT_PROMPT = "react_zh_v3"
WEB_PROMPT = "react_zh_web_v2"


@dataclass(frozen=True)
class PromptTemplate:
    text: str
    version: str  # recorded with every output: "react_zh_v1", or "custom:<sha256 prefix>" for --prompt-file


def load_builtin(name: str = DEFAULT_PROMPT) -> PromptTemplate:
    """A built-in template by name.

    >>> load_builtin("react_zh_v1").version, "{screenshot_count}" in load_builtin().text
    ('react_zh_v1', True)
    """
    if name not in PROMPTS:
        raise FatalError(f"unknown built-in prompt {name!r}; known: {', '.join(PROMPTS)}")
    return PromptTemplate(resources.files(__package__).joinpath("prompts", f"{name}.txt").read_text(encoding="utf-8"),
                          name)


def load_template(prompt_file: str | Path | None = None) -> PromptTemplate:
    """The default built-in template, a built-in one by name (``"react_zh_v1"``, when no file has that name), or
    a user's file (which must use both placeholders)."""
    if prompt_file is None:
        return load_builtin(DEFAULT_PROMPT)
    if str(prompt_file) in PROMPTS and not Path(prompt_file).exists():
        return load_builtin(str(prompt_file))
    try:
        text = Path(prompt_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read prompt file {prompt_file}: {exc}") from None
    missing = [p for p in ("{goal}", "{screenshot_count}") if p not in text]
    if missing:
        raise FatalError(f"prompt file {prompt_file} lacks the placeholder(s) {', '.join(missing)}")
    return PromptTemplate(text, f"custom:{hashlib.sha256(text.encode()).hexdigest()[:12]}")


def load_templates(prompt_file: str | Path | None = None) -> dict[str, PromptTemplate]:
    """The template for each platform: the built-in ones by default; a user's file (or a built-in name) for both.

    >>> {k: v.version for k, v in load_templates().items()}
    {'mobile': 'react_zh_v3', 'web': 'react_zh_web_v2'}
    >>> load_templates("react_zh_v1")["web"].version
    'react_zh_v1'
    """
    if prompt_file is not None:
        chosen = load_template(prompt_file)
        return {"mobile": chosen, "web": chosen}
    return {"mobile": load_builtin(DEFAULT_PROMPT), "web": load_builtin(WEB_PROMPT)}


def fill_template(template: str, *, goal: str, screenshot_count: int) -> str:
    try:
        return template.format(goal=goal, screenshot_count=screenshot_count)
    except (KeyError, IndexError, ValueError):  # single JSON braces: not a format string
        return template.replace("{goal}", goal).replace("{screenshot_count}", str(screenshot_count))


def history_summary(steps: list[Step], web: bool = False) -> str:
    """A short Chinese account of earlier steps, carried into later windows: what the agent did (ground truth and
    plan) and, for an ineffective step, that the screen did not change; never what a screen showed afterwards.

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1000, 1000)
    >>> print(history_summary([Step(0, shot, Action("click", point=(500, 100)), "打开设置", meta={"ineffective": True})]))
    第 1 步：click —— CLICK [500,100]（打开设置）（执行后界面没有变化）
    """
    lines = []
    for step in steps:
        label = action_label(step.action, step.screenshot.width, step.screenshot.height)
        extra = f"（{' '.join(step.instruction.split())}）" if step.instruction else ""
        extra += "（执行后界面没有变化）" if step.meta.get("ineffective") is True else ""
        lines.append(f"第 {step.index + 1} 步：{function_name(step.action, web)} —— {label}{extra}")
    return "\n".join(lines)


def ineffective_note(steps: list[Step], start: int, before: Step | None = None) -> str | None:
    """The user text naming the screenshots of ``steps`` (numbered from ``start + 1``) after whose action the
    screen did not change, and whether the step just ``before`` the window was one; None when there are none.

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1000, 1000)
    >>> steps = [Step(i, shot, Action("click", point=(500, 100)), meta={"ineffective": i == 1}) for i in range(3)]
    >>> print(ineffective_note(steps, 0))
    无效操作：截图 2 的动作执行后界面没有任何变化（例如没有点中）。那一项照常推理，它自己并不知道会无效；紧接着的下一项要意识到上一步没有生效，并据此推理（例如再试一次或换一种做法）。
    """
    shots = [start + i + 1 for i, s in enumerate(steps) if s.meta.get("ineffective") is True]
    lines = []
    if shots:
        names = "、".join(f"截图 {n}" for n in shots)
        lines.append(f"无效操作：{names} 的动作执行后界面没有任何变化（例如没有点中）。那一项照常推理，它自己并不知道会"
                     "无效；紧接着的下一项要意识到上一步没有生效，并据此推理（例如再试一次或换一种做法）。")
    if before is not None and before.meta.get("ineffective") is True:
        lines.append(f"本段之前的最后一步（第 {start} 步）执行后界面没有变化：截图 {start + 1} 这一项要意识到上一步没有生效。")
    return "\n".join(lines) or None


def window_note(start: int, count: int, total: int, is_last: bool, earlier: list[Step], web: bool = False) -> str:
    """Extra user text for one window of a long episode."""
    note = [f"这条轨迹共有 {total} 张截图，太长无法一次给出。本次给出其中第 {start + 1} 到第 {start + count} 张，"
            f"请只为这 {count} 张截图输出 {count} 项（输出里不要提截图或步骤的总数）。"]
    if earlier:
        note.append("之前已经完成的步骤：\n" + history_summary(earlier, web))
    if not is_last:
        note.append("这不是轨迹的最后一段：本段中不要出现 done。")
    return "\n\n".join(note)


NO_FINAL_SCREEN_NOTE = ("这条记录在最后一个动作之后没有截图，无法确认任务的最终结果：不要输出 done，"
                        "最后一项就是最后一个记录的动作，像其他步骤一样推理。")


def user_content(image_urls: list[str], start: int, note: str | None) -> list[dict]:
    """The user turn: an optional window note, then each screenshot preceded by its number."""
    content: list[dict] = []
    if note:
        content.append({"type": "text", "text": note})
    for i, url in enumerate(image_urls):
        content.append({"type": "text", "text": f"截图 {start + i + 1}"})
        content.append({"type": "image_url", "image_url": {"url": url}})
    return content


def repair_message(failures_text: str, count: int) -> str:
    return (f"你的输出没有通过检查，问题如下：\n{failures_text}\n\n"
            f"请修正这些问题，重新输出完整的 JSON 列表（恰好 {count} 项，每张截图一项，顺序不变），只输出 JSON。")


def structured_format() -> dict[str, Any]:
    """``response_format`` asking for ``{"items": [...]}`` (structured outputs need an object at the root); an
    item may carry the optional string fields (``thought``, ``action_summary``, ``observation``, ``memory``).

    >>> item = structured_format()["json_schema"]["schema"]["$defs"]["item"]
    >>> item["required"], item["properties"]["memory"]
    (['reasoning', 'function'], {'type': 'string'})
    """
    schema = load_schema("reconstruction")
    item = schema["$defs"]["item"]
    item["properties"] = {**{name: {"type": "string"} for name in ITEM_FIELDS}, **item.get("properties", {})}
    return {"type": "json_schema", "json_schema": {"name": "reconstruction", "strict": False, "schema": {
        "type": "object", "required": ["items"], "properties": {"items": {k: v for k, v in schema.items()
                                                                          if k not in ("$schema", "$id", "$defs")}},
        "$defs": schema["$defs"]}}}
