"""``train.sh``: the ``swift sft`` command that trains on an export as it was made.

It checks the installed ms-swift first (``SWIFT_REQUIREMENT``: ``--tuner_type`` is the 4.x flag and
``--packing_strategy`` exists from 4.4.0) and says in one line what to install when it does not fit. Then:
packing on, the shard order kept (``--packing_strategy sequential --packing_num_proc 1 --dataset_shuffle
false``: Swift's sequential packing closes each pack where our manifest predicts, :mod:`.packing`), images at
their original resolution (the pixel ceiling above the largest exported screenshot, the floor below the
smallest), the seed 004 schedule (2 epochs, cosine 1e-5 -> 1e-6). Packing needs flash-attention, so a GPU; on
a CPU, arguments given to the script override its own (``./train.sh --attn_impl sdpa --packing false``).

>>> from types import SimpleNamespace as NS
>>> opts = NS(format="qwen2.5-vl", family="qwen2.5-vl", max_length=16384, max_pixels=None, min_pixels=None)
>>> script = train_script({"train": ["train-00000-of-00001.jsonl"]}, opts, 1080 * 2400, 28)
>>> "--tuner_type full" in script and "--train_type" not in script
True
"""
from __future__ import annotations

import math
from typing import Any

from ..families import FAMILIES

# The releases the script's flags work with (``--tuner_type`` + ``--packing_strategy``); pyproject's ``swift``
# extra says the same (a test keeps them equal).
SWIFT_REQUIREMENT = "ms-swift>=4.4,<5"
SWIFT_RANGE = ((4, 4), (5, 0))

_VERSION_CHECK = '''\
"$PYTHON" - <<'PY' || exit 3
import re, sys
from importlib.metadata import PackageNotFoundError, version
try:
    found = version("ms-swift")
except PackageNotFoundError:
    sys.exit(f"{script}: ms-swift is not installed for {{sys.executable}}; install: pip install '{req}' (in an sftdata checkout: make swift)")
got = tuple(int(n) for n in re.findall(r"\\d+", found)[:2])
if not ({lo} <= got < {hi}):
    sys.exit(f"{script}: ms-swift {{found}} does not take this script's flags; install: pip install '{req}' (in an sftdata checkout: make swift)")
PY'''


def _ceiling(pixels: int, factor: int) -> int:
    """A MAX_PIXELS at or above ``pixels`` rounded up to whole ``factor`` x ``factor`` patches."""
    return max(factor * factor, math.ceil(pixels / (factor * factor)) * factor * factor)


def script_head(opts: Any, max_image_pixels: int, factor: int, script: str, about: list[str]) -> list[str]:
    """The lines every generated training script starts with (``about``: its comment lines): find the Python
    of the ``swift`` command, check its ms-swift, then MODEL and the image settings of the export."""
    model = FAMILIES[opts.family].default_model
    # smart resize rounds each side to the factor, which can add a few percent: leave 10% headroom
    max_pixels = opts.max_pixels or _ceiling(int(max_image_pixels * 1.1) or factor * factor, factor)
    min_pixels = opts.min_pixels or factor * factor
    check = _VERSION_CHECK.format(req=SWIFT_REQUIREMENT, lo=SWIFT_RANGE[0], hi=SWIFT_RANGE[1], script=script)
    return [
        "#!/usr/bin/env bash",
        *about,
        "set -euo pipefail",
        'cd "$(dirname "$0")"',
        "# the Python that runs the swift command (its shebang), unless PYTHON names one",
        'if [ -z "${PYTHON:-}" ]; then',
        '  SWIFT_BIN="$(command -v swift || true)"',
        '  if [ -z "$SWIFT_BIN" ]; then',
        f"    echo \"{script}: ms-swift is not installed (no swift command on PATH); install: pip install '{SWIFT_REQUIREMENT}' (in an sftdata checkout: make swift)\" >&2",
        "    exit 3",
        "  fi",
        '  PYTHON="$(sed -n \'1s/^#!//p\' "$SWIFT_BIN")"',
        '  [ -x "${PYTHON%% *}" ] || PYTHON=python3',
        "fi",
        check,
        f'MODEL="${{MODEL:-{model}}}"',
        "# image paths in the shards are relative to this directory",
        'export ROOT_IMAGE_DIR="$PWD"',
        "# keep every screenshot at its original resolution: the ceiling is above the largest exported image",
        f"export MAX_PIXELS={max_pixels}",
        f"export MIN_PIXELS={min_pixels}",
        f"export IMAGE_MAX_TOKEN_NUM={max_pixels // (factor * factor)}",
    ]


def train_script(shards: dict[str, list[str]], opts: Any, max_image_pixels: int, factor: int) -> str:
    """The script's text for ``shards`` (file names relative to the export directory)."""
    train = " ".join(shards.get("train", []))
    val = " ".join(shards.get("val", []))
    lines = script_head(opts, max_image_pixels, factor, "train.sh", [
        f"# swift sft on this export: format {opts.format}, model family {opts.family}, max_length {opts.max_length}.",
        f"# Needs {SWIFT_REQUIREMENT} and flash-attention (packing is on, as the seed's authors trained), so a GPU.",
        "# Override MODEL, NPROC_PER_NODE, OUTPUT_DIR, PYTHON or any flag: ./train.sh --lora_rank 16",
        "# (later flags win; on a CPU: ./train.sh --torch_dtype float32 --attn_impl sdpa --packing false)",
    ])
    lines += [
        'NPROC_PER_NODE="${NPROC_PER_NODE:-1}" swift sft \\',
        '    --model "$MODEL" \\',
        f"    --model_type {FAMILIES[opts.family].swift_model_type} \\",
        f"    --template {FAMILIES[opts.family].swift_template} \\",
        f"    --dataset {train} \\",
        "    --split_dataset_ratio 0 \\",
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
        "    --tuner_type full \\",
        "    --check_model false \\",
        "    --freeze_vit true \\",
        "    --num_train_epochs 2 \\",
        "    --learning_rate 1e-5 \\",
        "    --lr_scheduler_type cosine_with_min_lr \\",
        '''    --lr_scheduler_kwargs '{"min_lr": 1e-6}' \\''',
        "    --warmup_ratio 0.05 \\",
        "    --per_device_train_batch_size 1 \\",
        "    --gradient_accumulation_steps 8 \\",
        '    --output_dir "${OUTPUT_DIR:-output}" \\',
        '    "$@"',
        "",
    ]
    return "\n".join(lines)
