"""The report's human review section: what reviewers decided and how the judge and the rules agree with them,
from the run manifest's ``stages.review.human`` (written by ``sftdata review import``).

>>> review_tables({})
[]
>>> entry = {"steps_reviewed": 4, "episodes_reviewed": 1, "accepted": 2, "edited": 1, "rejected": 1,
...          "edit_failed": 0, "disagreements": [], "reviewers": ["user:1"],
...          "agreement": {"judge_vs_human": None, "rules_vs_human": {"n": 4, "raw_agreement": 0.75, "kappa": 0.5},
...                        "human_alignment": {"n": 4, "aligned": 2, "rate": 0.5, "ci95": [0.15, 0.85]}}}
>>> [t[0] for t in review_tables(entry)]
['Human review', 'Agreement with the reviewers']
>>> review_tables(entry)[1][2][0]
['human-rated alignment', 4, '50.0% (95% CI 15.0%–85.0%)', '-']
"""
from __future__ import annotations

from typing import Any

from .data import Table


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def review_tables(entry: dict[str, Any]) -> list[Table]:
    """The decisions table and the agreement table (empty before any review import)."""
    if not entry or "steps_reviewed" not in entry:
        return []
    decisions: Table = ("Human review", ["", "steps"], [
        ["reviewed", entry["steps_reviewed"]], ["accepted", entry["accepted"]], ["edited", entry["edited"]],
        ["rejected", entry["rejected"]], ["edits failing the check (not applied)", entry["edit_failed"]],
        ["reviewer disagreements", len(entry.get("disagreements", []))],
        ["episodes reviewed", entry["episodes_reviewed"]], ["reviewers", len(entry.get("reviewers", []))]])
    a = entry.get("agreement", {})
    h = a.get("human_alignment") or {}
    ci = h.get("ci95")
    rows: list[list[Any]] = [["human-rated alignment", h.get("n", 0),
                              f"{_pct(h.get('rate'))}" + (f" (95% CI {_pct(ci[0])}–{_pct(ci[1])})" if ci else ""),
                              "-"]]
    for key, label in (("judge_vs_human", "judge vs human"), ("rules_vs_human", "rules vs human")):
        f = a.get(key)
        rows.append([label, f["n"], _pct(f["raw_agreement"]), "-" if f["kappa"] is None else f"{f['kappa']:.3f}"]
                    if f else [label, 0, "no verdicts", "-"])
    return [decisions, ("Agreement with the reviewers", ["", "items", "rate / raw agreement", "Cohen's kappa"], rows)]
