"""The annotate stage's options, each declared once (:mod:`sftdata.options`): ``sftdata annotate``'s flags and
the run config's ``[annotate]`` keys are made from these fields. Light on purpose: the CLI builds its help from it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..llm.endpoint import EndpointOptions
from ..options import PathType, option

BACKENDS = ("template", "openai")


@dataclass
class AnnotateOptions(EndpointOptions):
    backend: str = option("template", "template: offline, deterministic; openai: any OpenAI-compatible endpoint; "
                                      "batch: Batch API files.", choices=BACKENDS, cli_only_choices=("batch",),
                          config_help="template (offline, deterministic) or openai (any OpenAI-compatible endpoint)")
    prompt_file: str | None = option(None, "Your own prompt template with {goal} and {screenshot_count}.",
                                     click_type=PathType(exists=True, dir_okay=False), example="my_prompt.txt")
    image_max_side: int | None = option(None, "Downscale annotator images to this longest side.", low=64,
                                     example=1280)
    max_attempts: int = option(3, "Asks per window, the first included; later ones list the failures to fix.", low=1)
    window: int = option(20, "Longer episodes are asked in windows of at most this many screenshots.", low=2)
    strict: bool = option(False, "Stop at the first rejected episode with a non-zero exit.", config=False)
    repair_judged: bool = option(False, "Re-annotate only the episodes `sftdata judge` failed, with the judge's "
                                        "notes in the prompt.")
