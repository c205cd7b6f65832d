"""``train_grpo.sh`` and ``sftdata_rewards.py``: GRPO on an RL export (``sftdata export --rl``) with ms-swift.

The script starts as ``train.sh`` does (:func:`~sftdata.export.trainsh.script_head`: the ms-swift check, MODEL,
the images at their original resolution), then runs ``swift rlhf --rlhf_type grpo`` with the export's reward
functions as an external plugin: ``sftdata_rewards.py``, written beside the shards, registers them in
ms-swift (it needs sftdata installed where it runs, nothing else from this machine). The reward trained on is
``sftdata_score`` (0.1 format + 0.9 accuracy, :mod:`sftdata.rewards.rules`); the rules it is made of are
computed with weight 0, so that ms-swift logs each of them (``rewards/sftdata_target/mean``, ...).
Rollouts use transformers' generate (``--use_vllm false``), which runs anywhere; with vLLM installed, pass
``--use_vllm true --vllm_mode colocate`` for faster ones. Start from the SFT checkpoint of the same format
(``MODEL=...``). Answers may be as long as the longest ground-truth answer of the export and a quarter more.

>>> from types import SimpleNamespace as NS
>>> opts = NS(format="qwen2.5-vl", family="qwen2.5-vl", max_length=16384, max_pixels=None, min_pixels=None)
>>> script = grpo_script({"train": ["train-00000-of-00001.jsonl"]}, opts, 1080 * 2400, 28, 300)
>>> "--rlhf_type grpo" in script and "--external_plugins sftdata_rewards.py" in script
True
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

from ..families import FAMILIES
from ..rewards.ms_swift import ORMS
from .trainsh import SWIFT_REQUIREMENT, script_head

SCRIPT = "train_grpo.sh"
PLUGIN = "sftdata_rewards.py"
# what the GRPO reward is made of: the combined score, then its parts at weight 0 (logged, not trained on)
REWARDS = ("sftdata_score", "sftdata_format", "sftdata_action", "sftdata_target", "sftdata_text_f1",
           "sftdata_direction", "sftdata_app")
WEIGHTS = (1, 0, 0, 0, 0, 0, 0)

PLUGIN_TEXT = '''"""sftdata's reward functions for this export (format {format}), for ms-swift and for verl.

Needs sftdata installed where it runs (pip install sftdata, or the checkout it was exported with).
ms-swift: swift rlhf --rlhf_type grpo --external_plugins {plugin} --reward_funcs sftdata_score ...
    ({script} does): registers {names} in ms-swift's reward registry.
verl: custom_reward_function.path={plugin} custom_reward_function.name=compute_score, with each row's
    solution column as its ground_truth.
"""
from sftdata.rewards import compute_score  # noqa: F401  (verl's reward entry)

try:
    from swift.rewards import orms  # noqa: F401
except ImportError:  # not under ms-swift (verl, plain Python): compute_score alone
    pass
else:
    from sftdata.rewards.ms_swift import register_orms

    register_orms()
'''


def plugin_text(fmt: str) -> str:
    return PLUGIN_TEXT.format(format=fmt, plugin=PLUGIN, script=SCRIPT, names=", ".join(ORMS))


def completion_budget(longest_answer: int) -> int:
    """``--max_completion_length``: the longest ground-truth answer's tokens and a quarter more, in 64s.

    >>> completion_budget(300), completion_budget(0)
    (384, 128)
    """
    return max(128, math.ceil(longest_answer * 1.25 / 64) * 64)


def longest_answer(stage: Path, shards: list[str], count: Callable[[str], int]) -> int:
    """Tokens (``count``) of the longest ground-truth answer in the solutions of ``shards``."""
    longest = 0
    for name in shards:
        with open(stage / name, encoding="utf-8") as f:
            for line in f:
                longest = max(longest, count(json.loads(json.loads(line)["solution"])["answer"]))
    return longest


def grpo_script(shards: dict[str, list[str]], opts: Any, max_image_pixels: int, factor: int,
                answer_tokens: int) -> str:
    """The script's text for ``shards`` (file names relative to the export directory)."""
    family = FAMILIES[opts.family]
    train, val = " ".join(shards.get("train", [])), " ".join(shards.get("val", []))
    lines = script_head(opts, max_image_pixels, factor, SCRIPT, [
        f"# swift rlhf --rlhf_type grpo on this export: format {opts.format}, model family {opts.family}; the",
        f"# rewards of {PLUGIN} (sftdata_score trained on, its parts logged). Needs {SWIFT_REQUIREMENT},",
        "# sftdata and a GPU. Start from the SFT checkpoint of the same format: MODEL=output/v0-.../checkpoint-N",
        "# Override MODEL, NPROC_PER_NODE, OUTPUT_DIR, PYTHON or any flag (later flags win): with vLLM installed",
        "# ./train_grpo.sh --use_vllm true --vllm_mode colocate; on a CPU: ./train_grpo.sh --torch_dtype float32",
    ])
    lines += [
        'NPROC_PER_NODE="${NPROC_PER_NODE:-1}" swift rlhf \\',
        "    --rlhf_type grpo \\",
        '    --model "$MODEL" \\',
        f"    --model_type {family.swift_model_type} \\",
        f"    --template {family.swift_template} \\",
        f"    --dataset {train} \\",
        "    --split_dataset_ratio 0 \\",
    ]
    if val:
        lines.append(f"    --val_dataset {val} \\")
    lines += [
        f"    --external_plugins {PLUGIN} \\",
        f"    --reward_funcs {' '.join(REWARDS)} \\",
        f"    --reward_weights {' '.join(str(w) for w in WEIGHTS)} \\",
        "    --use_vllm false \\",
        "    --num_generations 8 \\",
        "    --per_device_train_batch_size 8 \\",
        "    --per_device_eval_batch_size 8 \\",
        "    --gradient_accumulation_steps 2 \\",
        f"    --max_length {opts.max_length} \\",
        f"    --max_completion_length {completion_budget(answer_tokens)} \\",
        "    --temperature 1.0 \\",
        "    --attn_impl sdpa \\",
        "    --torch_dtype bfloat16 \\",
        "    --tuner_type full \\",
        "    --check_model false \\",
        "    --freeze_vit true \\",
        "    --num_train_epochs 1 \\",
        "    --learning_rate 1e-6 \\",
        "    --warmup_ratio 0.05 \\",
        "    --log_completions true \\",
        '    --output_dir "${OUTPUT_DIR:-output-grpo}" \\',
        '    "$@"',
        "",
    ]
    return "\n".join(lines)
