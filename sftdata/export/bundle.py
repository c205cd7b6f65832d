"""The files an export writes beside its shards, from what its stage gathered: ``manifest.json``, ``splits.json``,
``held_back.json``, ``lengths.json``, the training script (and the GRPO reward plugin) and the optional Hugging
Face dataset."""
from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..io import write_bytes_atomic, write_json_atomic
from ..review.apply import review_counts
from .grpo import PLUGIN, SCRIPT as GRPO_SCRIPT, grpo_script, longest_answer, plugin_text
from .shards import check_not_empty, length_stats, training_warnings, export_fingerprint
from .trainsh import train_script


def write_bundle(st: Any, shards: dict[str, list[str]], packing: dict[str, Any],
                 row_lengths: dict[str, list[int]]) -> dict[str, Any]:
    """Write the export's manifest and the files beside it into ``st.staging``; returns the manifest."""
    result, opts, fmt, stage, run = st.result, st.opts, st.fmt, st.staging, st.run
    check_not_empty(result, opts)
    manifest = {
        "format": fmt.name, "family": opts.family,
        "options": {k: v for k, v in asdict(opts).items() if k not in ("progress", "workers")},
        "run": str(run.path.resolve()), "samples": result.samples,
        "episodes": {k: len(v) for k, v in st.split_ids.items()},
        "dropped": dict(result.dropped.most_common()), "dropped_episodes": st.dropped_episodes,
        "fingerprint": export_fingerprint(run, opts), "prompt_versions": dict(st.prompt_versions),
        "backends": dict(st.backends), "images": {"files": len(st.placed), **dict(st.images),
                                                  **({"derived_from": st.derived} if opts.som else {}),
                                                  **({"cropped_from": st.cropped} if st.cropped else {})},
        "judges": dict(st.judges), "judged_by": st.judged_by,  # which judge passed each exported episode
        "tokens": {k: length_stats(v) for k, v in st.token_stats.items()}, "text_tokens": st.lengths_model.describe(),
        "packing": packing, "shards": shards, "elapsed_s": round(time.monotonic() - st.started, 3),
        "warnings": training_warnings(opts), "human_review": review_counts(st.annotations),
        "certification": {o: st.outcomes[o] for o in ("certified", "unsure", "rejected")},
        "held_back": dict(Counter(h["outcome"] for h in st.held)),
    }
    write_json_atomic(stage / "manifest.json", manifest)
    write_json_atomic(stage / "splits.json", st.split_ids)
    write_json_atomic(stage / "held_back.json", st.held)  # the steps the checks kept out, with their reasons
    write_json_atomic(stage / "lengths.json", row_lengths)
    if opts.rl:  # GRPO on the RL rows, with the rewards as ms-swift's external plugin
        answer_tokens = longest_answer(stage, shards["train"] + shards["val"], st.lengths_model.text_tokens)
        name, script = GRPO_SCRIPT, grpo_script(shards, opts, st.max_image_pixels, st.lengths_model.family.factor,
                                                answer_tokens)
        write_bytes_atomic(stage / PLUGIN, plugin_text(fmt.name).encode())
    else:
        name, script = "train.sh", train_script(shards, opts, st.max_image_pixels, st.lengths_model.family.factor)
    write_bytes_atomic(stage / name, script.encode())
    os.chmod(stage / name, 0o755)
    if opts.hf_dataset:
        from .hf import write_hf_dataset
        write_hf_dataset(stage, shards, Path(opts.hf_dataset), opts.progress, rl=opts.rl)
    return manifest
