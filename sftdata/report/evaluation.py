"""The report's ``evaluation`` section: every ``sftdata eval`` saved beside an export of the run
(``RUN/export/<name>/eval/<predictions>.json``), as tables and figures.

Per evaluation: what was matched and what was not (predictions of no row, rows without a prediction, answers
that do not parse, with examples), the figures overall and per action type, and one figure: step success per
action type under each matcher beside the confusion of action types. matplotlib is imported only when a
figure is drawn.

>>> evaluations([])
[]
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..io import read_json


def evaluations(export_dirs: list[Path]) -> list[tuple[str, str, dict[str, Any]]]:
    """(export name, predictions name, report) of every saved evaluation, by export and name."""
    out = []
    for export in export_dirs:
        for path in sorted((export / "eval").glob("*.json")) if (export / "eval").is_dir() else ():
            report = read_json(path, default=None)
            if isinstance(report, dict) and {"overall", "by_action", "matchers"} <= set(report):
                out.append((export.name, path.stem, report))
    return out


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _figures_row(name: str, f: dict[str, Any], matchers: list[str]) -> list[Any]:
    return [name, f["rows"], _pct(f["parse_rate"]), _pct(f["type_accuracy"]),
            *(_pct(f["step_success"].get(m)) for m in matchers), _pct(f["text_exact"]),
            _pct(f["direction_accuracy"])]


def tables(report: dict[str, Any]) -> list[tuple[str, list[str], list[list[Any]]]]:
    """The figures (overall, per source, platform, action type) and the answers that did not parse."""
    matchers = report["matchers"]
    header = ["group", "rows", "parsed", "type", *matchers, "text", "direction"]
    rows = [_figures_row("overall", report["overall"], matchers)]
    for title, key in (("source", "by_source"), ("platform", "by_platform"), ("action", "by_action")):
        rows += [_figures_row(f"{title} {name}", f, matchers) for name, f in report[key].items()]
    out = [("Step success (matchers: docs/rl.md)", header, rows)]
    examples = report["unparsed"]["examples"]
    if examples:
        out.append((f"Answers that do not parse ({report['unparsed']['count']} of {report['matched']})",
                    ["row", "parser error", "answer"], [[e["id"], e["error"], e["response"]] for e in examples]))
    return out


def accounting(report: dict[str, Any]) -> str:
    """One line on what was matched and what was not."""
    return (f"{report['matched']} of {report['lines']} prediction lines matched to the export's "
            f"{report['export_rows']} rows; {report['unknown']['count']} name no row of the export, "
            f"{report['duplicates']['count']} repeat a row, {report['unreadable']['count']} are no prediction; "
            f"{report['missing']['count']} rows have no prediction; {report['unparsed']['count']} answers do "
            f"not parse in {report['format']}.")


def figure(report: dict[str, Any]):
    """Step success per action type and matcher (bars) beside the confusion of action types (a heat map)."""
    from .plots import BLUE, GREY, ORANGE, RED, new_figure  # matplotlib, only when drawing

    actions = list(report["by_action"])
    labels = report["confusion"]["labels"]
    truths = list(report["confusion"]["rows"])
    fig, axes = new_figure(11, 1.2 + 0.42 * max(len(actions), len(truths), 3), 1, 2)
    ax = axes[0, 0]
    matchers = report["matchers"]
    height = 0.8 / len(matchers)
    for i, (m, color) in enumerate(zip(matchers, (BLUE, ORANGE, GREY, RED))):
        values = [100 * (report["by_action"][a]["step_success"][m] or 0) for a in actions]
        ax.barh([y + (i - (len(matchers) - 1) / 2) * height for y in range(len(actions))], values, height=height,
                color=color, label=m)
    ax.set_yticks(range(len(actions)), [f"{a} ({report['by_action'][a]['rows']})" for a in actions], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 105)
    ax.set_title("step success per action type (%)", fontsize=10, pad=22)
    ax.legend(fontsize=8, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(matchers))
    ax = axes[0, 1]
    matrix = [[report["confusion"]["rows"][t].get(p, 0) for p in labels] for t in truths]
    ax.imshow(matrix, cmap="Blues", aspect="auto")
    top = max(max(row) for row in matrix) if matrix else 0
    for y, row in enumerate(matrix):
        for x, n in enumerate(row):
            if n:
                ax.text(x, y, str(n), ha="center", va="center", fontsize=8, color="white" if n > top / 2 else "black")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(truths)), truths, fontsize=8)
    ax.set_xlabel("predicted")
    ax.set_ylabel("ground truth")
    ax.set_title("action types", fontsize=10)
    return fig
