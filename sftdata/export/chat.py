"""The text ms-swift's template makes of one of our samples, so that its tokens can be counted before training.

For the Qwen families this is Swift's ChatML template (``qwen2_5_vl``, ``qwen2_vl``, ``qwen3_vl``) as it
encodes a training row: the system turn (Swift's default system when the row has none; Qwen3-VL has none),
each user turn, each assistant turn closed by ``<|im_end|>``. A row with ``tools`` goes through Swift's
``hermes`` agent template: the tool block is appended to the system text and each ``tool_call`` message
becomes ``<tool_call>\\n{json}\\n</tool_call>`` right after the assistant text (our samples end that text
with a newline, so that the answer reads as the plain variant's). Each ``<image>`` tag becomes
``<|vision_start|><|vision_end|>`` here; its ``<|image_pad|>`` tokens are counted from the image header
(:mod:`.tokens`), as Swift expands one pad into as many as the image has patches.

For GLM-4.1V (Swift's ``glm4v`` template) ``glm_text`` gives the text the same way, for an upper bound on its
tokens (its UTF-8 bytes): no GLM vocabulary is at hand. With ``tools``, Swift's ``glm4`` agent template
replaces the system text by its own tool listing (indented JSON per tool) and writes each call as
``name\\n{arguments}<|observation|>``.

>>> row = {"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "<image>\\ngo"},
...                     {"role": "assistant", "content": "ok"}], "images": ["a.png"]}
>>> print(chatml_text(row, "qwen2.5-vl"))
<|im_start|>system
S<|im_end|>
<|im_start|>user
<|vision_start|><|vision_end|>
go<|im_end|>
<|im_start|>assistant
ok<|im_end|>
<BLANKLINE>
"""
from __future__ import annotations

import json
from typing import Any

from ..families import FAMILIES

IMAGE = "<|vision_start|><|vision_end|>"
# ChatML's closing suffix: "<|im_end|>" in ms-swift up to 4.5, "<|im_end|>\n" later; the longer one is counted
# so that the estimate is never under Swift's length.
SUFFIX = "<|im_end|>\n"


def hermes_tools(tools: list[Any], system: str | None) -> str:
    """The system text Swift's ``hermes`` agent template makes of ``system`` and the row's ``tools``."""
    descs = []
    for tool in tools:
        if isinstance(tool, str):
            tool = json.loads(tool)
        if isinstance(tool, dict) and "type" not in tool and "function" not in tool:
            tool = {"type": "function", "function": tool}
        descs.append(json.dumps(tool, ensure_ascii=False))
    return ((system or "") + "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
            + "\n".join(descs) + "\n</tools>\n\nFor each function call, return a json object with function name "
            "and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
            '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>')


def _tool_call(content: str) -> str:
    call = json.loads(content)
    arguments = call.get("arguments", call.get("parameters"))
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return "<tool_call>\n" + json.dumps({"name": call["name"], "arguments": arguments}, ensure_ascii=False) \
        + "\n</tool_call>"


def chatml_text(row: dict[str, Any], family: str) -> str:
    """The ChatML text of a training ``row`` (our JSONL record) for ``family``, images as
    ``<|vision_start|><|vision_end|>``."""
    messages = list(row["messages"])
    system = messages.pop(0)["content"] if messages and messages[0]["role"] == "system" else FAMILIES[family].default_system
    if row.get("tools"):
        tools = row["tools"]
        system = hermes_tools(json.loads(tools) if isinstance(tools, str) else tools, system)
    parts = [] if system is None else [f"<|im_start|>system\n{system}<|im_end|>\n"]
    turns: list[tuple[str, str]] = []  # (role, content) with tool calls merged into the assistant turn before
    previous = None
    for m in messages:
        role, content = m["role"], m["content"] or ""
        if role == "tool_call":
            call = _tool_call(content)
            if turns and turns[-1][0] == "assistant":  # Swift joins them with nothing between, and the
                between = "\n" if previous == "tool_call" else ""  # consecutive calls with a newline
                turns[-1] = ("assistant", turns[-1][1] + between + call)
            else:
                turns.append(("assistant", call))
        else:
            turns.append((role, content))
        previous = role
    for i, (role, content) in enumerate(turns):
        content = content.replace("<image>", IMAGE)
        if role == "user":
            parts.append(f"<|im_start|>user\n{content}<|im_end|>\n<|im_start|>assistant\n")
        else:
            parts.append(content + (SUFFIX if i == len(turns) - 1 else "<|im_end|>\n"))
    return "".join(parts)


def glm4_tools(tools: list[Any]) -> str:
    """The system text Swift's ``glm4`` agent template makes of a row's ``tools`` (our system text is dropped)."""
    descs = []
    for tool in tools:
        if isinstance(tool, str):
            tool = json.loads(tool)
        if isinstance(tool, dict) and "type" in tool and "function" in tool:
            tool = tool["function"]
        descs.append(f"## {tool.get('name')}\n\n{json.dumps(tool, ensure_ascii=False, indent=4)}\n"
                     "在调用上述函数时，请使用 Json 格式表示调用的参数。")
    return "# 可用工具\n\n" + "\n".join(descs)


def glm_text(row: dict[str, Any]) -> str:
    """The GLM-4.1V text of a training ``row``, images as ``<|begin_of_image|><|end_of_image|>``.

    >>> row = {"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "<image>go"},
    ...                     {"role": "assistant", "content": "ok"}]}
    >>> glm_text(row)
    '[gMASK]<sop><|system|>\\nS<|user|>\\n<|begin_of_image|><|end_of_image|>go<|assistant|>\\nok<|user|>'
    """
    messages = list(row["messages"])
    system = messages.pop(0)["content"] if messages and messages[0]["role"] == "system" else None
    if row.get("tools"):
        tools = row["tools"]
        system = glm4_tools(json.loads(tools) if isinstance(tools, str) else tools)
    parts = ["[gMASK]<sop>" + (f"<|system|>\n{system}" if system is not None else "")]
    for m in messages:
        content = (m["content"] or "").replace("<image>", "<|begin_of_image|><|end_of_image|>")
        if m["role"] == "user":
            parts.append(f"<|user|>\n{content}<|assistant|>\n")
        elif m["role"] == "tool_call":
            call = json.loads(content)
            parts.append(f"{call['name']}\n{call.get('arguments', call.get('parameters'))}<|observation|>")
        else:
            parts.append(content)
    if messages and messages[-1]["role"] != "tool_call":
        parts.append("<|user|>")
    return "".join(parts)
