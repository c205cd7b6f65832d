"""One self-contained HTML page about a run: inline CSS, plots and images as ``data:`` URIs, no script, no URL.

>>> import tempfile, pathlib
>>> out = write_report("/nonexistent/run", pathlib.Path(tempfile.mkdtemp()) / "report.html")
>>> page = out.read_text(encoding="utf-8")
>>> all(f'<section id="{s}">' in page for s in SECTIONS), "http" in page
(True, False)
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .. import __version__
from ..plural import plural
from ..rundir import RunDir
from . import plots
from .data import RunSummary, Table, count_tables, llm_rows, summarize
from .episodes import EpisodeView, jpeg_data_uri, sampled_views
from .alignment import alignment_tables, certification_tables, worst_html
from .review import review_tables
from . import evaluation

SECTIONS = ("counts", "rejects", "actions", "steps", "tokens", "packing", "llm", "alignment", "review", "evaluation",
            "episodes")
TITLES = {"counts": "Counts", "rejects": "Rejects", "actions": "Action types", "steps": "Steps per episode",
          "tokens": "Token lengths", "packing": "Packing", "llm": "Reasoning reconstruction (LLM)",
          "alignment": "Alignment of the reasoning (checks and judge)", "review": "Human review",
          "evaluation": "Evaluation of model answers (sftdata eval)",
          "episodes": "Sampled episodes"}
CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Noto Sans SC",
"Microsoft YaHei","PingFang SC",sans-serif;color:#1f2933;background:#f4f6f8}
header{background:#1f2933;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}
header .path{opacity:.75;font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.chips{margin-top:10px;display:flex;gap:8px;flex-wrap:wrap}
.chip{background:#3e4c59;border-radius:12px;padding:2px 10px;font-size:13px}
nav{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid #d9e2ec;padding:8px 28px}
nav a{margin-right:14px;color:#3b6ea8;text-decoration:none}
main{max-width:1320px;margin:0 auto;padding:8px 28px 40px}
section{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:14px 20px;margin:18px 0}
h2{margin:0 0 10px;font-size:18px}h3{font-size:15px;margin:14px 0 6px}
table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}
th,td{border-bottom:1px solid #e4e7eb;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f0f4f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
.tables{display:flex;flex-wrap:wrap;gap:0 32px}
.worst{display:flex;gap:16px;align-items:flex-start;margin:12px 0;padding:8px;background:#fff;border-radius:6px}
.worst img{flex:none;border:1px solid #d9dee3}.muted{color:#6b7785}
.note{color:#616e7c;font-style:italic}
img.plot{max-width:100%;height:auto;display:block}
.episode{border-top:1px solid #d9e2ec;padding-top:6px}.goal{font-size:15px;margin:2px 0 10px}
.steps{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:14px}
.step{display:grid;grid-template-columns:270px 1fr;gap:12px;border:1px solid #e4e7eb;border-radius:6px;
padding:8px;background:#fbfcfd}
.step figure{margin:0}.step img{display:block;width:270px;height:auto;border:1px solid #cbd2d9}
figcaption{font-size:12px;color:#52606d;margin-top:4px;font-family:ui-monospace,monospace}
.label{font-weight:600}.reasoning{margin:6px 0}.missing{color:#9aa5b1}
code,pre{font-family:ui-monospace,"Noto Sans Mono CJK SC",monospace;font-size:12px}
pre{white-space:pre-wrap;word-break:break-word;background:#f0f4f8;padding:6px 8px;border-radius:4px;
max-height:260px;overflow:auto;margin:4px 0}
.call{background:#fff4e5;border-radius:4px;padding:2px 6px;display:inline-block}
details summary{cursor:pointer;color:#3b6ea8;font-size:13px}
"""


def esc(value: Any) -> str:
    """HTML-escaped text of ``value`` (``None`` -> ``-``).

    >>> esc('<b>"点击"</b>')
    '&lt;b&gt;&quot;点击&quot;&lt;/b&gt;'
    """
    return "-" if value is None else html.escape(str(value))


def note(text: str) -> str:
    return f'<p class="note">{esc(text)}</p>'


def table(tab: Table, empty: str = "none yet") -> str:
    """A titled table; numbers right-aligned, every cell escaped."""
    title, header, rows = tab
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        f'<td class="num">{v:,}</td>' if isinstance(v, int) and not isinstance(v, bool) else f"<td>{esc(v)}</td>"
        for v in row) + "</tr>" for row in rows)
    if not rows:
        body = f'<tr><td colspan="{len(header)}" class="note">{esc(empty)}</td></tr>'
    return f"<div><h3>{esc(title)}</h3><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def figure(fig, alt: str) -> str:
    return f'<img class="plot" alt="{esc(alt)}" src="{plots.png_data_uri(fig)}">'


def counts_html(summary: RunSummary) -> str:
    """The ``counts`` tables as HTML (also handy in a notebook: ``display(HTML(counts_html(s)))``)."""
    return '<div class="tables">' + "".join(table(t) for t in count_tables(summary)) + "</div>"


def _rejects(s: RunSummary) -> str:
    if not s.rejects:
        return note("No rejects: every input episode made it through so far." if s.episodes else "No rejects yet.")
    rows = [[r.get("reason"), r.get("stage"), r.get("episode_id"), r.get("source"), _clip(r.get("detail"), 300)]
            for examples in s.reject_examples.values() for r in examples[:2]][:16]
    return (figure(plots.rejects_figure(s), "rejects per reason")
            + table(("Examples", ["reason", "stage", "episode", "source", "detail"], rows)))


def _clip(text: Any, n: int) -> str | None:
    if text is None:
        return None
    text = str(text)
    return text if len(text) <= n else text[:n - 1] + "…"


def _tokens(s: RunSummary, max_length: int | None) -> str:
    fig = plots.tokens_figure(s, max_length)
    if fig is None:
        return note("No exports yet: run `sftdata export RUN --format FORMAT --out RUN/export/FORMAT`.")
    rows = [[e.name, *(e.tokens.get("total", {}).get(k, "-") for k in ("count", "mean", "p50", "p95", "max")),
             max_length or e.max_length] for e in s.exports]
    return figure(fig, "token lengths per export") + table(
        ("Tokens per sample", ["export", "samples", "mean", "p50", "p95", "max", "max_length"], rows))


def _packing(s: RunSummary) -> str:
    fig = plots.packing_figure(s)
    if fig is None:
        return note("No exports yet: packing is computed by `sftdata export`.")
    rows = [[e.name, split, p.get("packs"), p.get("lower_bound_packs"), f"{100 * p.get('efficiency', 0):.1f}%",
             f"{100 * p.get('lower_bound_efficiency', 0):.1f}%", p.get("max_length")]
            for e in s.exports for split, p in sorted(e.packing.items()) if p]
    return figure(fig, "packs and efficiency per export") + table(
        ("Packs", ["export", "split", "packs", "lower bound", "efficiency", "best possible", "max_length"], rows))


def _plot_or(fig, alt: str, empty: str) -> str:
    return figure(fig, alt) if fig is not None else note(empty)


def episodes_html(views: list[EpisodeView]) -> str:
    """Sampled episodes: per step the annotator image beside its reasoning, call and exported answer."""
    out = []
    for v in views:
        out.append(f'<article class="episode" id="episode-{esc(v.id)}"><h3>Episode {esc(v.id)} · {esc(v.source)}'
                   f' · {_count(len(v.steps), "step")}</h3><p class="goal">{esc(v.goal)}</p>')
        if not v.annotated:
            out.append(note("No annotation for this episode yet: run `sftdata annotate`."))
        if v.absent:
            out.append(note(v.absent))
        out.append('<div class="steps">')
        for st in v.steps:
            if st.image is not None:
                img = (f'<img class="annot" data-episode="{esc(v.id)}" data-step="{st.index}" width="{st.image.width}"'
                       f' height="{st.image.height}" alt="step {st.index + 1}: {esc(st.label)}"'
                       f' src="{jpeg_data_uri(st.image)}">')
            else:
                img = note("screenshot missing")
            text = [f'<div class="label">Step {st.index + 1}: <code>{esc(st.label)}</code></div>']
            if st.instruction:
                text.append(f"<div><b>Instruction</b> {esc(st.instruction)}</div>")
            if st.reasoning is not None:
                text.append(f'<p class="reasoning">{esc(st.reasoning)}</p>'
                            f'<div class="call"><code>{esc(st.function)}</code></div>')
            else:
                text.append('<p class="missing">no reasoning yet</p>')
            if st.answer is not None:
                text.append(f"<details open><summary>exported answer ({esc(v.export)})</summary>"
                            f"<pre>{esc(st.answer)}</pre></details>")
            elif v.export is not None:  # this step was dropped from the export that holds its episode
                text.append(f'<p class="missing">not in export {esc(v.export)}</p>')
            elif not v.absent:  # else the episode's note says why no export holds it
                text.append('<p class="missing">no export yet</p>')
            out.append(f'<div class="step"><figure>{img}<figcaption>{esc(st.label)}</figcaption></figure>'
                       f'<div>{"".join(text)}</div></div>')
        out.append("</div></article>")
    return "".join(out)


def _alignment(run_path: Path) -> str:
    """The judge's alignment figures and its worst items beside their screenshots, or how to get them."""

    verdicts = RunDir(run_path).manifest().get("stages", {}).get("judge", {}).get("verdicts", {})
    figures = verdicts.get("alignment", {})
    tables = certification_tables(verdicts.get("certification") or {}) + alignment_tables(figures)
    if not tables:
        return note("No judgements yet: `sftdata judge RUN` (offline: `--backend rules`).")
    worst = worst_html(figures, Path(run_path))
    return ('<div class="tables">' + "".join(table(t) for t in tables) + "</div>"
            + (("<h3>Lowest-scored items</h3>" + worst) if worst else note("Every judged item scored 5.")))


def _review(run_path: Path) -> str:
    """Decisions and agreement of the human review (``sftdata review import``), or how to start one."""

    entry = RunDir(run_path).manifest().get("stages", {}).get("review", {}).get("human", {})
    tables = review_tables(entry)
    if not tables:
        return note("No human review yet: `sftdata review export`, review in Label Studio, `sftdata review import`.")
    return '<div class="tables">' + "".join(table(t) for t in tables) + "</div>"


def _evaluation(exports) -> str:
    """Every ``sftdata eval`` saved beside an export of the run: accounting, figure, tables."""
    found = evaluation.evaluations([e.path for e in exports])
    if not found:
        return note("No evaluation yet: `sftdata export RUN --format F --rl --out RUN/export/NAME`, `swift infer` "
                    "on its rows, then `sftdata eval PREDICTIONS --export RUN/export/NAME`.")
    out = []
    for export, name, report in found:
        out.append(f"<h3>{esc(export)} · {esc(name)}</h3>" + note(evaluation.accounting(report)))
        if report["by_action"]:
            out.append(figure(evaluation.figure(report), f"step success and action types of {name}"))
        out.append('<div class="tables">' + "".join(table(t) for t in evaluation.tables(report)) + "</div>")
    return "".join(out)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {plural(n, noun)}"


def _chips(s: RunSummary) -> list[str]:
    """The header's counts, each saying what it counts, in the units of the tables below (a dropped step or an
    episode one export leaves out is no rejected episode)."""
    exported = sum(sum(e.samples.values()) for e in s.exports)
    kinds = s.reject_counts
    return ([_count(s.episodes, "episode"), _count(s.steps, "step"), f"{s.annotated:,} annotated",
             f"{_count(exported, 'sample')} in {_count(len(s.exports), 'export')}",
             f"{_count(kinds.episodes, 'episode')} rejected"]
            + ([f"{_count(kinds.steps, 'step')} dropped"] if kinds.steps else [])
            + ([f"{_count(kinds.left_out, 'episode')} left out of an export"] if kinds.left_out else []))


def render_report(run_dir: str | Path, *, max_length: int | None = None, samples: int = 3, seed: int = 0) -> str:
    """The page as a string (see :func:`write_report`)."""
    s = summarize(run_dir, samples=samples, seed=seed)
    views = sampled_views(s.path, s.sampled, s.exports)
    no_eps = "No episodes yet: run `sftdata ingest`."
    llm = llm_rows(s)
    with_samples = any(sum(e.samples.values()) > 0 for e in s.exports)
    sampled_note = f"{len(views)} of {_count(s.episodes, 'episode')}, picked by seed {seed} (annotated first). " + (
        "Exported answers from the first export (by name) that holds each episode, matched by screenshot sha256, "
        "goal and reasoning." if with_samples else "No export with samples yet." if s.exports else "No exports yet.")
    body = {
        "counts": counts_html(s),
        "rejects": _rejects(s),
        "actions": _plot_or(plots.actions_figure(s), "action types", no_eps),
        "steps": _plot_or(plots.steps_figure(s), "steps per episode", no_eps),
        "tokens": _tokens(s, max_length),
        "packing": _packing(s),
        "llm": table(("Reconstruction", ["", "value"], llm)) if llm
        else note("No annotations yet: run `sftdata annotate`."),
        "alignment": _alignment(s.path),
        "review": _review(s.path),
        "evaluation": _evaluation(s.exports),
        "episodes": (note(sampled_note) + episodes_html(views)) if views
        else note("No episodes sampled (samples=0).") if s.episodes else note(no_eps),
    }
    chips = _chips(s)
    nav = "".join(f'<a href="#{k}">{esc(TITLES[k])}</a>' for k in SECTIONS)
    sections = "".join(f'<section id="{k}"><h2>{esc(TITLES[k])}</h2>{body[k]}</section>' for k in SECTIONS)
    return ("<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>sftdata report: {esc(s.path.name)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>sftdata report: {esc(s.path.name)}</h1><div class=\"path\">{esc(s.path.resolve())}"
            f" · sftdata {esc(__version__)}</div><div class=\"chips\">"
            + "".join(f'<span class="chip">{esc(c)}</span>' for c in chips)
            + f"</div></header><nav>{nav}</nav><main>{sections}</main></body></html>\n")


def write_report(run_dir: str | Path, out_html: str | Path, *, max_length: int | None = None, samples: int = 3,
                 seed: int = 0) -> Path:
    """Write the report of ``run_dir`` to ``out_html`` (atomically, drawn even when unchanged) and return its path.

    ``max_length`` overrides the exports' own for the token-length line; ``samples`` episodes are shown step by
    step, picked by ``seed``. Example: ``write_report("processed/demo", "report.html")``.
    """
    from ..config import ReportOptions
    from .stage import ReportStage

    opts = ReportOptions(out=str(out_html), max_length=max_length, samples=samples, seed=seed)
    return ReportStage(RunDir(run_dir), opts).execute(force=True).stage.out
