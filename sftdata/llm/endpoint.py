"""What an LLM stage (``annotate``, ``judge``) needs to reach its model: one options record both extend.

Each stage keeps its own defaults (annotate asks for longer replies over longer windows than the judge) and adds
its own fields; the rest is the same record, so the CLI, the run config and the stages read it one way.

>>> from sftdata.annotate.stage import AnnotateOptions
>>> from sftdata.judge.stage import JudgeOptions
>>> (AnnotateOptions().max_tokens, JudgeOptions().max_tokens), isinstance(JudgeOptions(), EndpointOptions)
((8192, 4096), True)
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class EndpointOptions:
    backend: str = ""
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"  # the name of the variable; the key itself is never stored
    prompt_file: str | None = None
    structured: bool = False
    image_max_side: int | None = None
    image_format: str = "jpeg"
    max_tokens: int = 8192
    temperature: float | None = None
    timeout: float = 120.0
    max_retries: int = 4
    concurrency: int = 8
    max_attempts: int = 3
    window: int = 20
    price_in: float | None = None  # per million prompt tokens
    price_out: float | None = None  # per million completion tokens
    episode_ids: list[str] | None = None
    limit: int | None = None
    progress: bool | None = None
