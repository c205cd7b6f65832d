"""GLM-4.1V: its tokens, Swift's ``glm4v`` template with the ``glm4`` agent template, and its record.

The HF Glm4vImageProcessor resizes, with preprocessor_config size {shortest_edge 12544, longest_edge 9633792}.
No GLM vocabulary ships offline, so the text Swift makes of a row (``exact=False``) only bounds its tokens.

>>> FAMILIES["glm-4.1v"].image_tokens(1080, 2400), FAMILIES["glm-4.1v"].token_id("<|image|>")
(3354, 151343)
"""
from __future__ import annotations

import json
from typing import Any

from .record import FAMILIES, Family, register_family
from .templates import AgentTemplate, ChatTemplate, register_template

# GLM-4 / GLM-4.1V from id 151329 (<|image|>/<|video|> at 151343/151344, its config's image/video_token_id); the
# first GLM_SPECIAL_COUNT are "special"
GLM4V_SPECIAL = ("<|endoftext|>", "[MASK]", "[gMASK]", "[sMASK]", "<sop>", "<eop>", "<|system|>", "<|user|>",
                 "<|assistant|>", "<|observation|>", "<|begin_of_image|>", "<|end_of_image|>", "<|begin_of_video|>",
                 "<|end_of_video|>", "<|image|>", "<|video|>", "<|begin_of_transcription|>", "<|end_of_transcription|>",
                 "<|code_prefix|>", "<|code_middle|>", "<|code_suffix|>",
                 "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>",
                 "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "/nothink", "<|begin_of_box|>",
                 "<|end_of_box|>")
GLM_SPECIAL_COUNT = 21


def glm4_tools(tools: list[Any], system: str | None = None) -> str:
    """The system text Swift's ``glm4`` agent template makes of a row's ``tools``: the row's ``system`` is dropped."""
    descs = []
    for tool in tools:
        if isinstance(tool, str):
            tool = json.loads(tool)
        if isinstance(tool, dict) and "type" in tool and "function" in tool:
            tool = tool["function"]
        descs.append(f"## {tool.get('name')}\n\n{json.dumps(tool, ensure_ascii=False, indent=4)}\n"
                     "在调用上述函数时，请使用 Json 格式表示调用的参数。")
    return "# 可用工具\n\n" + "\n".join(descs)


def glm4_call(content: str) -> str:
    """One ``tool_call`` message as the ``glm4`` agent template writes it: the arguments as Python writes a dict."""
    call = json.loads(content)
    return f"{call['name']}\n{call.get('arguments', call.get('parameters'))}<|observation|>"


GLM4 = AgentTemplate("glm4", glm4_tools, glm4_call, call_separator="", call_ends_turn=True, caveat=(
    "ms-swift's glm4 agent template replaces each sample's system prompt with its own tool listing and writes the "
    "call's arguments as a Python dict; drop --agent-tools to train the format's own prompt and JSON"))

register_template(ChatTemplate(
    "glm4v", prefix="[gMASK]<sop>", system_prefix="[gMASK]<sop><|system|>\n{{SYSTEM}}",
    prompt="<|user|>\n{{QUERY}}<|assistant|>\n", chat_sep="", suffix="<|user|>",
    image="<|begin_of_image|><|end_of_image|>", agent=GLM4, stop_words=("<|endoftext|>", "<|user|>", "<|observation|>"),
    exact=False, spare_tokens=4,
    jinja=("[gMASK]<sop>{%- for m in messages %}<|{{ m.role }}|>\n{{ m.content }}{%- endfor %}"
           "{%- if add_generation_prompt %}<|assistant|>\n{%- endif %}"),
    markers=("[gMASK]", "<|system|>", "<|user|>", "<|observation|>", "<|begin_of_image|>", "<|image|>")))

register_family(Family("glm-4.1v", 14, 2, 12544, 9633792, "glm4v", "zai-org/GLM-4.1V-9B-Base", "glm4v", "glm4v",
                       vocabulary="glm", first_special_id=151329, special_tokens=GLM4V_SPECIAL,
                       special_count=GLM_SPECIAL_COUNT, vocab_size=151552, eos_token="<|endoftext|>",
                       pad_token="<|endoftext|>", tokenizer_class="PreTrainedTokenizerFast"))
