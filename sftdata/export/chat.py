"""The text ms-swift's template makes of one of our samples, so that its tokens can be counted before training.

The markup is the family's Swift template (``FAMILIES[name].template``, :mod:`sftdata.families.templates`), as it
encodes a training row: the system turn (Swift's default system when the row has none: none for Qwen3-VL and
GLM-4.1V), each user turn, each assistant turn closed by the template's separator, the last by its suffix. A row
with ``tools`` goes through the template's agent template: ``hermes`` (the Qwen templates) appends the tool block
to the system text and writes each ``tool_call`` message as ``<tool_call>\\n{json}\\n</tool_call>`` right after
the assistant text (our samples end that text with a newline, so that the answer reads as the plain variant's);
``glm4`` (GLM-4.1V) replaces the system text by its own tool listing (indented JSON per tool) and writes each call
as ``name\\n{arguments}<|observation|>``. Each ``<image>`` tag becomes the template's image markup
(``<|vision_start|><|vision_end|>``); its pad tokens are counted from the image header (:mod:`.tokens`), as Swift
expands one pad into as many as the image has patches.

For the Qwen families the text is Swift's exactly; for GLM-4.1V it is the same text for an upper bound on its tokens
(its UTF-8 bytes): no GLM vocabulary is at hand.

>>> row = {"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "<image>\\ngo"},
...                     {"role": "assistant", "content": "ok"}], "images": ["a.png"]}
>>> print(template_text(row, "qwen2.5-vl"))
<|im_start|>system
S<|im_end|>
<|im_start|>user
<|vision_start|><|vision_end|>
go<|im_end|>
<|im_start|>assistant
ok<|im_end|>
<BLANKLINE>
>>> template_text(row, "glm-4.1v")
'[gMASK]<sop><|system|>\\nS<|user|>\\n<|begin_of_image|><|end_of_image|>\\ngo<|assistant|>\\nok<|user|>'
"""
from __future__ import annotations

import json
from typing import Any

from ..families import FAMILIES


def template_text(row: dict[str, Any], family: str) -> str:
    """The text Swift's template for ``family`` makes of a training ``row`` (our JSONL record), images as the
    template's image markup without their pads."""
    template = FAMILIES[family].template
    agent = template.agent
    messages = list(row["messages"])
    system = messages.pop(0)["content"] if messages and messages[0]["role"] == "system" else template.default_system
    if row.get("tools"):
        tools = row["tools"]
        system = agent.tool_system(json.loads(tools) if isinstance(tools, str) else tools, system)
    parts = [template.system_turn(system)]
    turns: list[tuple[str, str]] = []  # (role, content) with tool calls merged into the assistant turn before
    previous = None
    for m in messages:
        role, content = m["role"], m["content"] or ""
        if role == "tool_call":
            call = agent.call(content)
            if turns and turns[-1][0] == "assistant":  # Swift joins them with nothing between, and the
                between = agent.call_separator if previous == "tool_call" else ""  # consecutive calls as its agent
                turns[-1] = ("assistant", turns[-1][1] + between + call)
            else:
                turns.append(("assistant", call))
        else:
            turns.append((role, content))
        previous = role
    for i, (role, content) in enumerate(turns):
        content = content.replace("<image>", template.image)
        if role == "user":  # a bound closes even a prompt-only row (an RL row) with the suffix: never under Swift
            closing = template.suffix if not template.exact and i == len(turns) - 1 else ""
            parts.append(template.user_turn(content) + closing)
        elif i < len(turns) - 1:
            parts.append(content + template.chat_sep)
        else:
            parts.append(content + ("" if previous == "tool_call" and agent.call_ends_turn else template.suffix))
    return "".join(parts)
