"""``train.sh``: the ``swift sft`` command that trains on an export as it was made.

Packing on, the shard order kept (``--packing_strategy sequential --packing_num_proc 1 --dataset_shuffle false``,
ms-swift >= 4.4.3: next-fit over our best-fit-decreasing order closes each pack where ours closes, when Swift's
token lengths equal ours, i.e. with ``--tokenizer``; with the byte upper bound Swift's packs can only be fuller), images at their original resolution (the pixel ceiling is set above the
largest exported screenshot, the floor below the smallest), the seed 004 schedule (2 epochs, cosine 1e-5 -> 1e-6).
"""
from __future__ import annotations

import math
from typing import Any

_DEFAULT_MODELS = {"qwen2.5-vl": "Qwen/Qwen2.5-VL-7B-Instruct", "qwen2-vl": "Qwen/Qwen2-VL-7B-Instruct",
                   "qwen3-vl": "Qwen/Qwen3-VL-8B-Instruct", "glm-4.1v": "zai-org/GLM-4.1V-9B-Base"}


def _ceiling(pixels: int, factor: int) -> int:
    """A MAX_PIXELS at or above ``pixels`` rounded up to whole ``factor`` x ``factor`` patches."""
    return max(factor * factor, math.ceil(pixels / (factor * factor)) * factor * factor)


def train_script(shards: dict[str, list[str]], opts: Any, max_image_pixels: int, family: Any) -> str:
    factor = getattr(family, "factor", 28)
    model = _DEFAULT_MODELS.get(opts.family, "Qwen/Qwen2.5-VL-7B-Instruct")
    # smart resize rounds each side to the factor, which can add a few percent: leave 10% headroom
    max_pixels = opts.max_pixels or _ceiling(int(max_image_pixels * 1.1) or factor * factor, factor)
    min_pixels = opts.min_pixels or factor * factor
    train = " ".join(shards.get("train", []))
    val = " ".join(shards.get("val", []))
    lines = [
        "#!/usr/bin/env bash",
        f"# swift sft on this export: format {opts.format}, {opts.family} image tokens, max_length {opts.max_length}.",
        "# Override MODEL, NPROC_PER_NODE, OUTPUT_DIR or add arguments: ./train.sh --lora_rank 16",
        "set -euo pipefail",
        'cd "$(dirname "$0")"',
        f'MODEL="${{MODEL:-{model}}}"',
        "# image paths in the shards are relative to this directory",
        'export ROOT_IMAGE_DIR="$PWD"',
        "# keep every screenshot at its original resolution: the ceiling is above the largest exported image",
        f"export MAX_PIXELS={max_pixels}",
        f"export MIN_PIXELS={min_pixels}",
        f"export IMAGE_MAX_TOKEN_NUM={max_pixels // (factor * factor)}",
        'NPROC_PER_NODE="${NPROC_PER_NODE:-1}" swift sft \\',
        '    --model "$MODEL" \\',
        f"    --dataset {train} \\",
    ]
    if val:
        lines.append(f"    --val_dataset {val} \\")
    lines += [
        "    --packing true \\",
        "    --packing_strategy sequential \\",
        "    --packing_num_proc 1 \\",
        "    --dataset_shuffle false \\",
        f"    --max_length {opts.max_length} \\",
        "    --attn_impl flash_attn \\",
        "    --torch_dtype bfloat16 \\",
        "    --train_type full \\",
        "    --freeze_vit true \\",
        "    --num_train_epochs 2 \\",
        "    --learning_rate 1e-5 \\",
        "    --lr_scheduler_type cosine \\",
        "    --warmup_ratio 0.05 \\",
        "    --per_device_train_batch_size 1 \\",
        "    --gradient_accumulation_steps 8 \\",
        '    --output_dir "${OUTPUT_DIR:-output}" \\',
        '    "$@"',
        "",
    ]
    return "\n".join(lines)
