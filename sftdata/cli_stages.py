"""The reconstruction and export commands of the ``sftdata`` CLI: annotate, validate, export, each made from its
stage class (:mod:`sftdata.command`)."""
from __future__ import annotations

from .annotate.stage import AnnotateStage
from .cli_base import main, stage_command
from .export.stage import ExportStage
from .validate import ValidateStage

for _stage_class in (AnnotateStage, ValidateStage, ExportStage):
    stage_command(_stage_class, main)
