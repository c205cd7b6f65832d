"""The report's alignment section: how many reasonings the judge found aligned and passing, per run, per source
and per action type, and the worst items beside their screenshots, from the run manifest's
``stages.judge.verdicts.alignment`` (written by ``sftdata judge``).

>>> figures = {"episodes": 2, "episodes_passed": 1, "episode_pass_rate": 0.5, "items": 4, "aligned": 3,
...            "aligned_rate": 0.75, "passed": 3, "passed_rate": 0.75,
...            "by_source": {"annotated": {"items": 4, "aligned": 3, "aligned_rate": 0.75, "passed": 3,
...                                        "passed_rate": 0.75}},
...            "by_action": {"click": {"items": 4, "aligned": 3, "aligned_rate": 0.75, "passed": 3,
...                                    "passed_rate": 0.75}}, "worst": []}
>>> [t[0] for t in alignment_tables(figures)]
['Alignment (judge)', 'By source', 'By action type']
>>> alignment_tables(figures)[0][2][0]
['run', 4, '75.0%', '75.0%', '1 of 2 episodes passed']
>>> alignment_tables({})
[]
>>> certification_tables({"certified": 8, "unsure": 1, "rejected": 1, "unsure_by_reason": {"no_decision": 1}})[0][2]
[['certified', 8, '80.0%'], ['unsure', 1, '10.0%'], ['rejected', 1, '10.0%']]
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from .data import Table
from .episodes import jpeg_data_uri

HEADER = ["", "items", "aligned", "passed", ""]
THUMB = 240


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _row(name: str, t: dict[str, Any], extra: str = "") -> list[Any]:
    return [name, t.get("items", 0), _pct(t.get("aligned_rate")), _pct(t.get("passed_rate")), extra]


def alignment_tables(figures: dict[str, Any]) -> list[Table]:
    """The run, per-source and per-action tables (empty before any judge pass)."""
    if not figures or "items" not in figures:
        return []
    run = _row("run", figures, f"{figures.get('episodes_passed', 0)} of {figures.get('episodes', 0)} episodes passed")
    return [("Alignment (judge)", HEADER, [run]),
            ("By source", HEADER, [_row(k, v) for k, v in figures.get("by_source", {}).items()]),
            ("By action type", HEADER, [_row(k, v) for k, v in figures.get("by_action", {}).items()])]


def certification_tables(counts: dict[str, Any]) -> list[Table]:
    """What the checks said of every annotated item (``stages.judge.verdicts.certification``): certified, unsure
    (for a judge model or a reviewer) and rejected, and the unsure ones by reason."""
    total = sum(counts.get(k, 0) for k in ("certified", "unsure", "rejected"))
    if not total:
        return []
    rows = [[k, counts.get(k, 0), _pct(counts.get(k, 0) / total)] for k in ("certified", "unsure", "rejected")]
    out = [("Certification (checks)", ["", "items", "share"], rows)]
    why = counts.get("unsure_by_reason") or {}
    if why:
        out.append(("Unsure, by what was missing", ["reason", "items"], [[k, v] for k, v in why.items()]))
    return out


def _thumb(run_path: Path, relative: str | None) -> str:
    if not relative:
        return ""
    try:
        with Image.open(run_path / relative) as im:
            im.thumbnail((THUMB, THUMB * 3))
            return f'<img src="{jpeg_data_uri(im)}" alt="screenshot" width="{im.width}">'
    except (OSError, UnidentifiedImageError):
        return '<p class="muted">(screenshot unreadable)</p>'


def worst_html(figures: dict[str, Any], run_path: Path) -> str:
    """The lowest-scored items, each as its screenshot beside the reasoning, the function and the judge's why."""
    out = []
    for w in figures.get("worst", []):
        fails = ", ".join(w.get("fails") or []) or "passed"
        function = json.dumps(w.get("function"), ensure_ascii=False) if w.get("function") else ""
        out.append(
            '<div class="worst">' + _thumb(run_path, w.get("screenshot"))
            + f'<div><b>{html.escape(str(w.get("id")))} · step {int(w.get("index", 0)) + 1} · '
            f'{html.escape(str(w.get("action")))} · score {w.get("score")} · {html.escape(fails)}</b>'
            f'<p>{html.escape(str(w.get("reasoning") or ""))}</p><p><code>{html.escape(function)}</code></p>'
            f'<p class="muted">judge ({html.escape(str(w.get("judge")))}): {html.escape(str(w.get("why") or ""))}'
            "</p></div></div>")
    return "".join(out)
