"""What an LLM stage (``annotate``, ``judge``) needs to reach its model: one options record both extend.

Each option is declared once (:mod:`sftdata.options`): the stage's CLI flags, its run-config table and the
example config are made from these fields. Each stage keeps its own defaults (annotate asks for longer replies
over longer windows than the judge) and adds its own fields by redeclaring or extending them.

>>> from sftdata.annotate.options import AnnotateOptions
>>> from sftdata.judge.options import JudgeOptions
>>> (AnnotateOptions().max_tokens, JudgeOptions().max_tokens), isinstance(JudgeOptions(), EndpointOptions)
((8192, 4096), True)
"""
from __future__ import annotations

from dataclasses import dataclass

from ..options import PathType, id_list, option, progress_option


@dataclass
class EndpointOptions:
    backend: str = option("", "Where replies come from.")
    model: str | None = option(None, "Model name for the openai/batch backends [env SFTDATA_MODEL].",
                               envvar="SFTDATA_MODEL", example="Qwen2.5-VL-72B-Instruct")
    base_url: str | None = option(None, "Endpoint, e.g. http://localhost:8000/v1 [env OPENAI_BASE_URL].",
                                  envvar="OPENAI_BASE_URL", example="http://localhost:8000/v1")
    api_key_env: str = option("OPENAI_API_KEY", "Name of the environment variable that holds the API key (the key "
                                                "itself is never stored).")
    prompt_file: str | None = option(None, "Your own prompt template.", click_type=PathType(exists=True, dir_okay=False),
                                  example="my_prompt.txt")
    structured: bool = option(False, "Ask for JSON-Schema structured output.", negatable=True)
    image_max_side: int | None = option(None, "Downscale images to this longest side.", low=64,
                                         example=1280)
    image_format: str = option("jpeg", "How images are sent.", choices=("jpeg", "png"))
    max_tokens: int = option(8192, "Most tokens of one reply.", low=16)
    temperature: float | None = option(None, "Sampling temperature (not sent when omitted).")
    timeout: float = option(120.0, "Seconds per request.", low=1)
    max_retries: int = option(4, "Retries of one request on 429/5xx/timeouts (exponential backoff, jitter, "
                                 "Retry-After).", low=0)
    concurrency: int = option(8, "Requests in flight, for the whole run whatever --executor runs the other stages "
                                 "(the LLM is called from this process).", low=1,
                              config_help="Requests in flight (for the whole run, cluster-wide).")
    max_attempts: int = option(3, "Asks per window, the first included.", low=1)
    window: int = option(20, "Screenshots per request.", low=2)
    price_in: float | None = option(None, "Price per million prompt tokens, for the cost in the manifest.", low=0,
                                    example=0.5)
    price_out: float | None = option(None, "Price per million completion tokens.", low=0, example=1.5)
    episode_ids: list[str] | None = option(None, "Only these episode ids.", cli="--episodes", metavar="IDS|FILE",
                                           click_type=str, to_value=id_list, config=False)
    limit: int | None = option(None, "Stop after N episodes.", low=1, example=100)
    progress: bool | None = progress_option()
