"""The reconstruction prompt: versioned templates, filled placeholders, chat messages with annotator images.

A template has two placeholders, ``{goal}`` and ``{screenshot_count}``. Templates written for ``str.format``
(JSON braces doubled, as in seed 002) work as well as plain ones.

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

from ..errors import FatalError
from ..model import Step
from ..overlay.draw import action_label
from .calls import function_name

DEFAULT_PROMPT = "react_zh_v1"


@dataclass(frozen=True)
class PromptTemplate:
    text: str
    version: str  # recorded with every output: "react_zh_v1", or "custom:<sha256 prefix>" for --prompt-file


def load_template(prompt_file: str | Path | None = None) -> PromptTemplate:
    """The built-in template, or a user's file (which must use both placeholders)."""
    if prompt_file is None:
        text = resources.files(__package__).joinpath("prompts", f"{DEFAULT_PROMPT}.txt").read_text(encoding="utf-8")
        return PromptTemplate(text, DEFAULT_PROMPT)
    try:
        text = Path(prompt_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read prompt file {prompt_file}: {exc}") from None
    missing = [p for p in ("{goal}", "{screenshot_count}") if p not in text]
    if missing:
        raise FatalError(f"prompt file {prompt_file} lacks the placeholder(s) {', '.join(missing)}")
    return PromptTemplate(text, f"custom:{hashlib.sha256(text.encode()).hexdigest()[:12]}")


def fill_template(template: str, *, goal: str, screenshot_count: int) -> str:
    try:
        return template.format(goal=goal, screenshot_count=screenshot_count)
    except (KeyError, IndexError, ValueError):  # single JSON braces: not a format string
        return template.replace("{goal}", goal).replace("{screenshot_count}", str(screenshot_count))


def history_summary(steps: list[Step]) -> str:
    """A short Chinese account of earlier steps (their ground-truth actions), carried into later windows."""
    lines = []
    for step in steps:
        label = action_label(step.action, step.screenshot.width, step.screenshot.height)
        extra = f"（{step.instruction.strip()}）" if step.instruction else ""
        lines.append(f"第 {step.index + 1} 步：{function_name(step.action)} —— {label}{extra}")
    return "\n".join(lines)


def window_note(start: int, count: int, total: int, is_last: bool, earlier: list[Step]) -> str:
    """Extra user text for one window of a long episode."""
    note = [f"这条轨迹共有 {total} 张截图，太长无法一次给出。本次给出其中第 {start + 1} 到第 {start + count} 张，"
            f"请只为这 {count} 张截图输出 {count} 项。"]
    if earlier:
        note.append("之前已经完成的步骤：\n" + history_summary(earlier))
    if not is_last:
        note.append("这不是轨迹的最后一段：本段中不要出现 done。")
    return "\n\n".join(note)


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
