"""The Qwen-VL families (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): their tokens, Swift's ChatML templates for them with the
``hermes`` agent template, and their records.

Default limits = what ms-swift (>= 4) applies: swift/template/templates/qwen.py resizes with
qwen_vl_utils.fetch_image, then calls the HF image processor with do_resize=False; qwen-vl-utils
(vision_process.py) defaults to 4..16384 tokens * factor², i.e. 3136..12845056 px for Qwen2/2.5-VL (equal to their
preprocessor_config min/max_pixels) and 4096..16777216 px for Qwen3-VL (patch_size 16; its preprocessor_config
shortest_edge 65536 only applies when transformers itself resizes).

>>> FAMILIES["qwen2.5-vl"].image_tokens(1080, 2400), FAMILIES["qwen3-vl"].image_tokens(1080, 2400)
(3354, 2550)
"""
from __future__ import annotations

import json
from typing import Any

from .record import FAMILIES, Family, register_family
from .templates import AgentTemplate, ChatTemplate, register_template

# Added tokens, in the order of the models' tokenizer_config.json. Qwen2/Qwen2.5(-VL): ids 151643..151664, the first
# QWEN_SPECIAL_COUNT "special"; Qwen3(-VL) adds four (151665..151668).
QWEN25_SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
                  "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
                  "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>",
                  "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>")
QWEN3_SPECIAL = QWEN25_SPECIAL + ("<tool_response>", "</tool_response>", "<think>", "</think>")
QWEN_SPECIAL_COUNT = 14
QWEN_FIRST_SPECIAL_ID = 151643  # the Qwen2 vocabulary's 151,643 BPE ranks come first
# Swift's default system of the Qwen2/2.5-VL templates, and the line the Qwen cookbooks' agent prompts open with
# (qwen-agent's default system; seed 004 F.2 and F.3)
QWEN_SYSTEM = "You are a helpful assistant."


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


def hermes_call(content: str) -> str:
    """One ``tool_call`` message as the ``hermes`` agent template writes it."""
    call = json.loads(content)
    arguments = call.get("arguments", call.get("parameters"))
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return "<tool_call>\n" + json.dumps({"name": call["name"], "arguments": arguments}, ensure_ascii=False) \
        + "\n</tool_call>"


HERMES = AgentTemplate("hermes", hermes_tools, hermes_call, call_separator="\n", call_ends_turn=False)

# Simplified chat template (string contents only) of the tiny stand-in models, for transformers'
# apply_chat_template; Swift trains with its own
_CHATML_JINJA = ("{%- for m in messages %}{%- if loop.first and m.role != 'system' and default_system %}"
                 "<|im_start|>system\n{{ default_system }}<|im_end|>\n{%- endif %}<|im_start|>{{ m.role }}\n"
                 "{{ m.content }}<|im_end|>\n{%- endfor %}{%- if add_generation_prompt %}<|im_start|>assistant\n"
                 "{%- endif %}")


def _chatml(name: str, default_system: str | None) -> ChatTemplate:
    """Swift's ``QwenTemplateMeta`` (ChatML) named ``name``. Its suffix is ``<|im_end|>`` in ms-swift up to 4.5 and
    ``<|im_end|>\\n`` later: the longer one is counted, so that the estimate is never under Swift's length."""
    return register_template(ChatTemplate(
        name, prefix="", system_prefix="<|im_start|>system\n{{SYSTEM}}<|im_end|>\n",
        prompt="<|im_start|>user\n{{QUERY}}<|im_end|>\n<|im_start|>assistant\n", chat_sep="<|im_end|>\n",
        suffix="<|im_end|>\n", image="<|vision_start|><|vision_end|>", agent=HERMES, default_system=default_system,
        stop_words=("<|endoftext|>",), jinja=_CHATML_JINJA,
        markers=("<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|image_pad|>")))


_chatml("qwen2_vl", QWEN_SYSTEM)
_chatml("qwen2_5_vl", QWEN_SYSTEM)
_chatml("qwen3_vl", None)

_QWEN_TOKENIZER = dict(vocabulary="qwen", first_special_id=QWEN_FIRST_SPECIAL_ID, special_count=QWEN_SPECIAL_COUNT,
                       vocab_size=151936, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                       tokenizer_class="Qwen2Tokenizer", agent_system=QWEN_SYSTEM)
register_family(Family("qwen2-vl", 14, 2, 3136, 12845056, "qwen", "Qwen/Qwen2-VL-7B-Instruct", "qwen2_vl", "qwen2_vl",
                       special_tokens=QWEN25_SPECIAL, **_QWEN_TOKENIZER))
register_family(Family("qwen2.5-vl", 14, 2, 3136, 12845056, "qwen", "Qwen/Qwen2.5-VL-7B-Instruct", "qwen2_5_vl",
                       "qwen2_5_vl", special_tokens=QWEN25_SPECIAL, **_QWEN_TOKENIZER))
register_family(Family("qwen3-vl", 16, 2, 4 * 32 * 32, 16384 * 32 * 32, "qwen", "Qwen/Qwen3-VL-8B-Instruct",
                       "qwen3_vl", "qwen3_vl", special_tokens=QWEN3_SPECIAL, **_QWEN_TOKENIZER,
                       processor_pixels=(65536, 16777216), grid=999))
