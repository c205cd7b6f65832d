"""A run at a glance: counts, rejects, actions, token lengths, packing, LLM usage and sampled episodes.

:func:`write_report` writes one self-contained HTML page (no external URL or script; every image inline);
:mod:`.data` summarizes a run in one streaming pass, :mod:`.plots` draws the figures, :mod:`.episodes` renders
sampled episodes step by step. The notebook ``notebooks/explore.ipynb`` calls the same functions.

Example::

    from sftdata.report import write_report
    write_report("processed/demo", "report.html", max_length=8192, samples=3, seed=0)
"""
from .data import RunSummary, summarize
from .episodes import episode_views
from .html import SECTIONS, render_report, write_report

__all__ = ["write_report", "render_report", "summarize", "episode_views", "RunSummary", "SECTIONS"]
