"""Matplotlib figures of a :class:`~sftdata.report.data.RunSummary` (Agg canvas, no pyplot state).

Each function returns a :class:`~matplotlib.figure.Figure`, or ``None`` when there is nothing to plot. Labels
use the CJK font from :func:`sftdata.overlay.fonts.find_cjk_font`, so Chinese reasons or action names are never
tofu. In a notebook ``display(fig)`` shows a figure; :func:`png_data_uri` embeds one in a page.

>>> from pathlib import Path
>>> from sftdata.report.data import RunSummary
>>> s = RunSummary(Path("."), steps_per_episode={3: 2, 5: 1})
>>> png_data_uri(steps_figure(s)).startswith("data:image/png;base64,")
True
>>> actions_figure(s) is None
True
"""
from __future__ import annotations

import base64
import functools
import io
from collections import Counter

import matplotlib
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..overlay.fonts import FontMissingError, find_cjk_font
from .data import RunSummary

BLUE, ORANGE, GREY, RED = "#3b6ea8", "#e08a2c", "#9aa5b1", "#c0392b"
DPI = 110


@functools.lru_cache(maxsize=1)
def use_cjk_font() -> str | None:
    """Make matplotlib's sans-serif font the installed CJK font; returns its family (None if there is none)."""
    try:
        spec = find_cjk_font()
        font_manager.fontManager.addfont(spec.path)
        name = spec.family or font_manager.FontProperties(fname=spec.path).get_name()
    except (FontMissingError, OSError, RuntimeError):
        return None
    rc = matplotlib.rcParams
    rc["font.sans-serif"] = [name] + [f for f in rc["font.sans-serif"] if f != name]
    rc["font.family"] = "sans-serif"
    rc["axes.unicode_minus"] = False
    return name


def new_figure(width: float, height: float, rows: int = 1, cols: int = 1):
    use_cjk_font()
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax in axes.flat:
        ax.spines[["top", "right"]].set_visible(False)
    return fig, axes


def png_data_uri(fig: Figure) -> str:
    """``data:image/png;base64,...`` of ``fig``."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _barh(ax, counts: list[tuple[str, int]], color: str) -> None:
    labels = [k for k, _ in counts][::-1]
    values = [v for _, v in counts][::-1]
    bars = ax.barh(labels, values, color=color)
    ax.bar_label(bars, padding=3, fontsize=8)
    ax.set_xlim(0, max(values) * 1.15 if values else 1)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.tick_params(axis="y", labelsize=9)


def rejects_figure(summary: RunSummary) -> Figure | None:
    """Rejects per reason (bars labelled ``stage: reason``)."""
    if not summary.rejects:
        return None
    counts = [(f"{stage}: {reason}", n) for (stage, reason), n in summary.rejects.most_common(20)]
    fig, axes = new_figure(7, 0.8 + 0.32 * len(counts))
    _barh(axes[0, 0], counts, RED)
    axes[0, 0].set_xlabel("entries in rejects.jsonl (episodes, dropped steps, episodes left out of an export)")
    return fig


def actions_figure(summary: RunSummary) -> Figure | None:
    """Steps per canonical action type, and per annotated function name beside it when there are annotations."""
    if not summary.actions:
        return None
    order = [t for t, _ in summary.actions.most_common()]
    cols = 2 if summary.functions else 1
    fig, axes = new_figure(4.2 * cols, 0.9 + 0.3 * max(len(order), len(summary.functions)), 1, cols)
    _barh(axes[0, 0], [(t, summary.actions[t]) for t in order], BLUE)
    axes[0, 0].set_title(f"action types ({summary.steps} steps)", fontsize=10)
    if summary.functions:
        _barh(axes[0, 1], summary.functions.most_common(), ORANGE)
        axes[0, 1].set_title(f"annotated functions ({summary.annotated_steps} steps)", fontsize=10)
    return fig


def steps_figure(summary: RunSummary) -> Figure | None:
    """Episodes per number of steps."""
    if not summary.steps_per_episode:
        return None
    fig, axes = new_figure(7, 2.8)
    ax = axes[0, 0]
    xs = sorted(summary.steps_per_episode)
    bars = ax.bar(xs, [summary.steps_per_episode[x] for x in xs], color=BLUE, width=0.8)
    if len(xs) <= 40:
        ax.bar_label(bars, fontsize=8)
    ax.set_xlabel("steps per episode")
    ax.set_ylabel("episodes")
    mean = summary.steps / summary.episodes if summary.episodes else 0
    ax.set_title(f"{summary.episodes} episodes, mean {mean:.1f} steps", fontsize=10)
    ax.xaxis.get_major_locator().set_params(integer=True)
    return fig


def tokens_figure(summary: RunSummary, max_length: int | None = None) -> Figure | None:
    """Per export, a histogram of sample token lengths (train and val stacked) against the max_length line."""
    exports = [e for e in summary.exports if any(e.lengths.values())]
    if not exports:
        return None
    fig, axes = new_figure(7.5, 0.6 + 2.4 * len(exports), len(exports), 1)
    for ax, e in zip(axes[:, 0], exports):
        limit = max_length or e.max_length
        train, val = e.lengths.get("train", []), e.lengths.get("val", [])
        top = max(train + val + ([limit] if limit else []))
        ax.hist([train, val], bins=40, range=(0, top * 1.02), stacked=True, color=[BLUE, ORANGE],
                label=[f"train ({len(train)})", f"val ({len(val)})"])
        if limit:
            over = sum(1 for n in train + val if n > limit)
            ax.axvline(limit, color=RED, linestyle="--", linewidth=1.5, label=f"max_length {limit} ({over} over)")
        ax.set_title(f"{e.name} ({e.format}, {e.family})", fontsize=10)
        ax.set_ylabel("samples")
        ax.legend(fontsize=8, frameon=False, loc="upper left")
    axes[-1, 0].set_xlabel("tokens per sample (text + image)")
    return fig


def packing_figure(summary: RunSummary) -> Figure | None:
    """Per export and split: packs against the lower bound (total tokens / max_length), and efficiency."""
    rows = [(f"{e.name}\n{split}", p) for e in summary.exports for split, p in sorted(e.packing.items()) if p]
    if not rows:
        return None
    fig, axes = new_figure(8, 1.3 + 0.6 * len(rows), 1, 2)
    labels = [label for label, _ in rows][::-1]
    ys = range(len(rows))
    ax = axes[0, 0]
    packs = [p.get("packs", 0) for _, p in rows][::-1]
    lower = [p.get("lower_bound_packs", 0) for _, p in rows][::-1]
    ax.barh([y + 0.2 for y in ys], packs, height=0.4, color=BLUE, label="packs")
    ax.barh([y - 0.2 for y in ys], lower, height=0.4, color=GREY, label="lower bound")
    for y, n in zip(ys, packs):
        ax.text(n, y + 0.2, f" {n}", va="center", fontsize=8)
    ax.set_yticks(list(ys), labels, fontsize=9)
    ax.set_title("packs", fontsize=10)
    ax.legend(fontsize=8, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=2)
    ax = axes[0, 1]
    eff = [100 * p.get("efficiency", 0) for _, p in rows][::-1]
    best = [100 * p.get("lower_bound_efficiency", 0) for _, p in rows][::-1]
    ax.barh(list(ys), best, height=0.6, color=GREY, label="lower bound")
    ax.barh(list(ys), eff, height=0.35, color=BLUE, label="efficiency")
    for y, v in zip(ys, eff):
        ax.text(v, y, f" {v:.1f}%", va="center", fontsize=8)
    ax.set_yticks(list(ys), [""] * len(rows))
    ax.set_xlim(0, 115)
    ax.set_title("tokens / pack capacity (%)", fontsize=10)
    ax.legend(fontsize=8, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=2)
    return fig


def histogram(counts: Counter) -> list[tuple[str, int]]:
    """``(key, count)`` pairs, most common first (for quick tables in a notebook).

    >>> histogram(Counter({"click": 3, "done": 1}))
    [('click', 3), ('done', 1)]
    """
    return [(str(k), n) for k, n in counts.most_common()]
