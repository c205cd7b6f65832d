"""The ingest stage: sources -> ``RUN/episodes.jsonl`` + ``RUN/images/``, with every dropped input in
``RUN/rejects.jsonl``. Each source is an :class:`~sftdata.ingest.stage.IngestStage` (a
:class:`~sftdata.stage.Stage`) registered in :data:`STAGES` under its type: its options record (the config's
``[[sources]]`` keys and the ``sftdata ingest TYPE`` flags, :mod:`sftdata.sources`), its inputs, its units and the
``process(unit)`` an executor runs. Resumable: inputs already exported or rejected are recognised by their record key
and passed over without being decoded again; a finished stage with the same inputs and options is skipped.

>>> sorted(STAGES)
['androidcontrol', 'annotated', 'mind2web']
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .androidcontrol import AndroidControlIngest
from .annotated import AnnotatedIngest
from .mind2web import Mind2WebIngest
from .stage import STAGE, IngestOptions, IngestResult, IngestStage, ingest_options  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from ..loaders.annotated import AnnotatedOptions
    from ..rundir import RunDir

# a source's type (sftdata.sources) -> its stage
STAGES: dict[str, type[IngestStage]] = {cls.source: cls for cls in (AndroidControlIngest, AnnotatedIngest,
                                                                    Mind2WebIngest)}


def ingest_stage(run: "RunDir", src: Any, *, strict: bool = False, workers: int = 1, progress: bool | None = None,
                 executor: Any = None) -> IngestStage:
    """The ingest stage of the source record ``src`` (a ``[[sources]]`` table, a command line) into ``run``."""
    return STAGES[src.type](run, src, ingest_options(src, strict=strict, workers=workers), progress=progress,
                            executor=executor)


def ingest_androidcontrol(paths: list[str | os.PathLike], run: "RunDir", opts: IngestOptions,
                          progress: bool | None = None, executor: Any = None) -> IngestResult:
    """Read AndroidControl TFRecord files into ``run``: :class:`AndroidControlIngest` with ``opts``."""
    from pathlib import Path

    from ..sources import AndroidControlSource

    src = AndroidControlSource(paths=[Path(p) for p in paths])
    return AndroidControlIngest(run, src, opts, progress=progress, executor=executor).ingest()


def ingest_annotated(root: str | os.PathLike, run: "RunDir", opts: IngestOptions,
                     annotated_opts: "AnnotatedOptions | None" = None, progress: bool | None = None,
                     executor: Any = None) -> IngestResult:
    """Read every trajectory folder under ``root`` into ``run``: :class:`AnnotatedIngest` with ``opts``."""
    from ..sources import AnnotatedSource

    a = annotated_opts
    src = AnnotatedSource(root=root, tolerance=a.tolerance_px if a else None,
                          require_clean=a.require_clean if a else False, ocr=a.ocr if a else False)
    return AnnotatedIngest(run, src, opts, progress=progress, executor=executor).ingest()
