"""The reconstruction commands of the ``sftdata`` CLI: annotate and validate, each made from its stage class
(:mod:`sftdata.command`)."""
from __future__ import annotations

from .annotate.stage import AnnotateStage
from .cli_base import main, stage_command
from .validate import ValidateStage

for _stage_class in (AnnotateStage, ValidateStage):
    stage_command(_stage_class, main)
