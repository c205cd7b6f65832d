"""The judge prompt: the versioned instructions (``prompts/judge_zh_v2.txt``, the default: the decision must be
the call, memory checked against the history, ordinals for shared labels, no text of later screens, phones and
web pages; ``judge_zh_v1`` stays loadable) and the chat messages for one window of an episode: the goal, the
earlier steps, and per step the item, the annotator image and the next screenshot.

>>> load_judge_prompt().version
'judge_zh_v2'
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PIL import Image

from ..errors import FatalError
from ..model import Episode, Step
from ..overlay.draw import action_label
from ..annotate.images import encode
from ..annotate.prompt import history_summary

JUDGE_PROMPTS = ("judge_zh_v1", "judge_zh_v2")
DEFAULT_JUDGE_PROMPT = "judge_zh_v2"


@dataclass(frozen=True)
class JudgePrompt:
    text: str
    version: str


def load_judge_prompt(prompt_file: str | Path | None = None) -> JudgePrompt:
    """The built-in judge prompt (by name) or a user's file (version ``custom:<sha256 prefix>``)."""
    name = str(prompt_file) if prompt_file else DEFAULT_JUDGE_PROMPT
    if name in JUDGE_PROMPTS and not Path(name).exists():
        text = resources.files(__package__).joinpath("prompts", f"{name}.txt").read_text(encoding="utf-8")
        return JudgePrompt(text, name)
    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FatalError(f"cannot read judge prompt file {name}: {exc}") from None
    return JudgePrompt(text, f"custom:{hashlib.sha256(text.encode()).hexdigest()[:12]}")


def screen_bytes(run_dir: Path, step: Step, max_side: int | None = None, fmt: str = "jpeg") -> bytes:
    """The clean screenshot of ``step``, optionally downscaled, encoded."""
    with Image.open(run_dir / step.screenshot.path) as shot:
        image = shot.convert("RGB")
    if max_side and max(image.size) > max_side:
        scale = max_side / max(image.size)
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.Resampling.LANCZOS)
    return encode(image, fmt)


def earlier_text(episode: Episode, items: list[dict], start: int) -> str | None:
    """The steps before a window: what was done, and the reasoning already judged (short).

    >>> from sftdata.model import Action, Screenshot
    >>> shot = Screenshot("0" * 64, "x.png", 1000, 1000)
    >>> ep = Episode("e", "s", "返回", [Step(0, shot, Action("back")), Step(1, shot, Action("done"))])
    >>> print(earlier_text(ep, [{"reasoning": "先返回。"}], 1))
    之前的步骤：
    第 1 步：press_back —— BACK
      推理：先返回。
    """
    if not start:
        return None
    lines = ["之前的步骤："]
    for step, summary in zip(episode.steps[:start], history_summary(episode.steps[:start], episode.web).splitlines()):
        lines.append(summary)
        item = items[step.index] if step.index < len(items) else None
        reasoning = item.get("reasoning") if isinstance(item, dict) else None
        if isinstance(reasoning, str) and reasoning.strip():
            lines.append("  推理：" + " ".join(reasoning.split())[:300])
    return "\n".join(lines)


WEB_NOTE = ("这条轨迹记录的是网页浏览器中的操作：截图是网页（可能是长网页中的一屏），动作作用于网页元素"
            "（click 点击、type 在元素中输入、select 在下拉框中选择、scroll 滚动页面、go_to_url 打开网址、go_back 返回），"
            "元素以网页上的可见文字称呼；红色标注同样只为评审而画。")
NO_FINAL_SCREEN_NOTE = "这条记录在最后一个动作之后没有截图，所以没有 done 条目；无法判断任务是否完成时 task_completed 填 null。"


def user_content(episode: Episode, items: list[dict], start: int, end: int, before_urls: list[str],
                 after_urls: list[str | None]) -> list[dict]:
    """The user turn for steps ``[start, end)``: goal, earlier steps, then per step the item and two images."""
    content: list[dict] = [{"type": "text", "text": f"任务目标：{episode.goal}\n这条轨迹共 {len(episode.steps)} 步，"
                                                    f"本次评审第 {start + 1} 到第 {end} 步。"}]
    if episode.web:  # the instructions speak of phones; say what differs on a web page
        content.append({"type": "text", "text": WEB_NOTE + (NO_FINAL_SCREEN_NOTE if not episode.ends_with_done else "")})
    earlier = earlier_text(episode, items, start)
    if earlier:
        content.append({"type": "text", "text": earlier})
    for k, (before, after) in enumerate(zip(before_urls, after_urls)):
        i = start + k
        step = episode.steps[i]
        item = json.dumps(items[i], ensure_ascii=False)
        label = action_label(step.action, step.screenshot.width, step.screenshot.height)
        content.append({"type": "text", "text": f"步骤 {i + 1}（记录的动作：{label}）\n待评审的条目：{item}\n执行前（已标出动作）："})
        content.append({"type": "image_url", "image_url": {"url": before}})
        if after is None:
            content.append({"type": "text", "text": "执行后：没有下一张截图（这是最后一步）。"})
        else:
            content.append({"type": "text", "text": "执行后（下一张截图）："})
            content.append({"type": "image_url", "image_url": {"url": after}})
    content.append({"type": "text", "text": f"请只输出 JSON：步骤 {start + 1} 到 {end} 各一条评审（index 用步骤编号），以及整条轨迹的 episode 评审。"})
    return content


def repair_text(reason: str, detail: str, start: int, end: int) -> str:
    return (f"你的回答无法使用（{reason}：{detail}）。请重新回答：只输出一个 JSON 对象，含 items（步骤 {start + 1} 到 "
            f"{end} 各一条，字段 index、aligned、grounded、hindsight、target_unambiguous、score、why）和 episode"
            "（task_completed、goal_matches、suggested_goal）。")
