"""``sftdata judge``: a second opinion on every annotated reasoning (RUN/judgements.jsonl), made from its stage
class (:mod:`sftdata.command`)."""
from __future__ import annotations

from .cli_base import main, stage_command
from .judge.stage import JudgeStage

stage_command(JudgeStage, main)
