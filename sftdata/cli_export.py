"""``sftdata export``, made from its stage class (:mod:`sftdata.command`); a module of its own, so the command
loads the export stage alone, not the annotate stage's LLM client and image code."""
from __future__ import annotations

from .cli_base import main, stage_command
from .export.stage import ExportStage

stage_command(ExportStage, main)
