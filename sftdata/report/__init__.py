"""A run at a glance: counts, rejects, actions, token lengths, packing, LLM usage and sampled episodes.

:func:`write_report` writes one self-contained HTML page (no external URL or script; every image inline);
:mod:`.data` summarizes a run in one streaming pass, :mod:`.plots` draws the figures, :mod:`.episodes` renders
sampled episodes step by step. The notebook ``notebooks/explore.ipynb`` calls the same functions.

Example::

    from sftdata.report import write_report
    write_report("processed/demo", "report.html", max_length=8192, samples=3, seed=0)
"""
from importlib import import_module
from typing import Any

# each name and the module that defines it, imported on first use: the report stage (sftdata.report.stage) and its
# command's help load neither the drawing modules nor matplotlib
_EXPORTS = {"write_report": "html", "render_report": "html", "SECTIONS": "html", "summarize": "data",
            "RunSummary": "data", "episode_views": "episodes"}

__all__ = ["write_report", "render_report", "summarize", "episode_views", "RunSummary", "SECTIONS"]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
