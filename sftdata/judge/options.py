"""The judge stage's options, each declared once (:mod:`sftdata.options`): ``sftdata judge``'s flags and the run
config's ``[judge]`` keys are made from these fields. Light on purpose: the CLI builds its help from it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..llm.endpoint import EndpointOptions
from ..options import PathType, option

BACKENDS = ("rules", "openai")


@dataclass
class JudgeOptions(EndpointOptions):
    backend: str = option("rules", "rules: offline, the alignment and hindsight checks as verdicts; openai: a "
                                   "multimodal judge model on any OpenAI-compatible endpoint; batch: Batch API files.",
                          choices=BACKENDS, cli_only_choices=("batch",),
                          config_help="rules (offline: the alignment and hindsight checks) or openai (a judge model)")
    model: str | None = option(None, "Judge model name [env SFTDATA_JUDGE_MODEL].", envvar="SFTDATA_JUDGE_MODEL",
                               example="Qwen2.5-VL-72B-Instruct")
    prompt_file: str | None = option(None, "Your own judge prompt.", click_type=PathType(exists=True, dir_okay=False),
                                     example="judge_prompt.txt")
    max_tokens: int = option(4096, "Most tokens of one reply.", low=16)
    max_attempts: int = option(3, "Asks per window; a malformed or refused verdict is asked again with the problem "
                                  "named.", low=1)
    window: int = option(10, "Steps per request (two images each).", low=1)
    min_score: int = option(3, "An item scored below this fails its episode (judge_score).", low=1, high=5)
    judge_all: bool = option(False, "openai/batch: send every annotated episode to the judge model and keep all its "
                                    "verdicts [default: only episodes with items the checks leave unsure, and the "
                                    "model's verdicts for those items].")
