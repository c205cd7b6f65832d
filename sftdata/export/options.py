"""The export's options, each declared once: ``sftdata export``'s flags and the run config's ``[[export]]``
keys are made from these fields (:mod:`sftdata.options`). Light on purpose: the CLI imports it to build its help.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..options import PathType as _PathType, option, progress_option, workers_option


INEFFECTIVE_CHOICES = ("keep", "drop")  # what export does with steps marked meta["ineffective"] at ingest


def _format_names() -> list[str]:
    from ..formats import names
    return names()


def _family_names() -> list[str]:
    from ..families import FAMILIES
    return list(FAMILIES)


def _som_help() -> str:
    from ..formats import som_formats
    return ("Numbered boxes of the listed elements on a derived copy of each screenshot ("
            + ", ".join(som_formats()) + ").")


@dataclass
class ExportTarget:
    """Where ``sftdata export`` writes (the run config names each export's folder itself)."""

    out: Path | None = option(None, "Export directory: new, empty, or (with --force) an earlier export; outside RUN "
                              "or in RUN/export/.", config=False, cli_required=True,
                              click_type=_PathType(file_okay=False, as_path=True))
    force: bool = option(False, "Replace an earlier sftdata export in --out (never any other folder).", config=False)


@dataclass
class ExportOptions:
    """The export's options, each declared once (``sftdata.options``): ``sftdata export``'s flags and the run
    config's ``[[export]]`` keys are made from these fields."""

    format: str = option("react-zh", lambda: "The agent format of the answers: " + ", ".join(_format_names()) + ".",
                         choices=_format_names, metavar="NAME", cli_required=True)
    memory: bool = option(False, "Add a memory/progress section to every reasoning.")
    history: int = option(4, "Earlier steps as text.", low=0)
    history_images: int = option(0, "Earlier screenshots as extra images.", low=0)
    split_ratio: float = option(0.01, "Share of episodes in the validation split (an episode never spans splits).",
                                low=0, high=1)
    shard_size: int = option(10_000, "Samples per shard.", low=1)
    agent_tools: bool = option(False, "Write ms-swift's tools + tool_call variant (tool-call formats).")
    family: str | None = option(None, "Model family trained on the export: sizes images and text, picks train.sh's "
                                      "model [default: the format's own].", choices=_family_names,
                                example="qwen2.5-vl")
    max_length: int = option(16384, "Samples longer than this are dropped (and counted) instead of silently by "
                                    "Swift.", low=64)
    min_pixels: int | None = option(None, "Image pixel floor [default: the family's].", low=1)
    max_pixels: int | None = option(None, "Image pixel ceiling [default: the family's].", low=1)
    tokenizer: str | None = option(None, "tokenizer.json (or its folder) for exact text tokens.", example="tokenizer.json",
                                   click_type=_PathType(exists=True))
    absolute_paths: bool = option(False, "Write absolute image paths instead of ROOT_IMAGE_DIR-relative.")
    hf_dataset: str | None = option(None, "Also save a Hugging Face dataset here.",
                                    click_type=_PathType(file_okay=False))
    seed: int = option(0, "Seed of the train/validation split.")
    ineffective: str = option("keep", "Samples of steps whose action left the screen unchanged: keep them, or drop "
                                      "them (counted as ineffective_step).", choices=INEFFECTIVE_CHOICES)
    som: bool = option(False, _som_help)
    include_unsure: bool = option(False, "Also take the steps the checks leave unsure (a reasoning without positive "
                                         "evidence for its call) that no judge model or reviewer passed [default: "
                                         "held back and listed in held_back.json].")
    rl: bool = option(False, "RL rows for GRPO: each step's prompt without its answer and a solution column with "
                             "the ground truth (docs/rl.md); train_grpo.sh instead of train.sh.")
    workers: int = workers_option(config=False)
    progress: bool | None = progress_option()
