"""Offline evaluation of a model's answers against an RL export: the figures ``sftdata eval`` reports.

Per group (overall, each source, platform and ground-truth action type), over the rows that have a prediction:

* ``parse_rate``: answers that parse in the export's format (the format's own ``parse``);
* ``type_accuracy``: the predicted action type is the ground truth's;
* ``step_success``: the whole action right, under each matcher of :mod:`.matchers`;
* ``text_exact`` / ``text_f1`` over the rows whose ground truth writes text (typed text, an option, an
  address), ``direction_accuracy`` over the swipes and scrolls (None where a group has none).

Plus the confusion of action types (ground truth x prediction, ``unparsed`` for answers that do not parse),
the answers that do not parse (counted, examples with their parser error), the predictions whose row is not
in the export, the lines that are no prediction and the export rows without one: counted and shown, never
dropped silently.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rewards.rules import Prediction, text_exact_reward, text_f1_reward, written
from ..rewards.score import parse_answer
from ..rewards.solution import read_solution
from .matchers import MATCHERS, success
from .predictions import EXAMPLES, load_export, match_predictions

UNPARSED = "unparsed"


@dataclass
class Tally:
    rows: int = 0
    parsed: int = 0
    type_ok: int = 0
    success: Counter = field(default_factory=Counter)
    text_rows: int = 0
    text_exact: float = 0.0
    text_f1: float = 0.0
    direction_rows: int = 0
    direction_ok: int = 0

    def add(self, pred: Prediction, sol) -> None:
        a = pred.action
        self.rows += 1
        self.parsed += a is not None
        self.type_ok += a is not None and a.type == sol.action.type
        for m in MATCHERS:
            self.success[m] += success(m, a, sol)
        if written(sol.action) is not None:
            self.text_rows += 1
            self.text_exact += text_exact_reward(pred, sol)
            self.text_f1 += text_f1_reward(pred, sol)
        if sol.action.direction is not None:
            self.direction_rows += 1
            self.direction_ok += a is not None and a.direction == sol.action.direction

    def figures(self) -> dict[str, Any]:
        rate = (lambda n, d: round(n / d, 4) if d else None)  # noqa: E731
        return {"rows": self.rows, "parsed": self.parsed, "parse_rate": rate(self.parsed, self.rows),
                "type_accuracy": rate(self.type_ok, self.rows),
                "step_success": {m: rate(self.success[m], self.rows) for m in MATCHERS},
                "text_rows": self.text_rows, "text_exact": rate(self.text_exact, self.text_rows),
                "text_f1": rate(self.text_f1, self.text_rows), "direction_rows": self.direction_rows,
                "direction_accuracy": rate(self.direction_ok, self.direction_rows)}


def _clip(value: Any, n: int = 300) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= n else text[:n - 1] + "…"


def evaluate(predictions: Path, export_dir: Path) -> dict[str, Any]:
    """The evaluation of ``predictions`` against the RL export in ``export_dir``, as a JSON-ready dict."""
    rows = load_export(export_dir)
    matched = match_predictions(predictions, rows)
    groups: dict[str, Tally] = defaultdict(Tally)
    confusion: dict[str, Counter] = defaultdict(Counter)
    unparsed: list[dict] = []
    for rid, response in matched.responses.items():
        sol = read_solution(rows.solutions[rid])
        pred = parse_answer(response, sol)
        for key in ("overall", f"source:{sol.source}", f"platform:{sol.platform}", f"action:{sol.action.type}"):
            groups[key].add(pred, sol)
        confusion[sol.action.type][pred.action.type if pred.action is not None else UNPARSED] += 1
        if pred.action is None:
            unparsed.append({"id": rid, "error": pred.error, "response": _clip(response)})
    missing = [rid for rid in rows.solutions if rid not in matched.responses]
    by = (lambda kind: {k.split(":", 1)[1]: t.figures() for k, t in sorted(groups.items())  # noqa: E731
                        if k.startswith(kind + ":")})
    labels = sorted({*confusion, *(p for c in confusion.values() for p in c)} - {UNPARSED}) + [UNPARSED]
    return {
        "export": str(export_dir), "format": rows.manifest.get("format"), "predictions": str(predictions),
        "export_rows": len(rows.solutions), "lines": matched.lines, "matched": len(matched.responses),
        "missing": {"count": len(missing), "examples": missing[:EXAMPLES]},
        "unknown": {"count": len(matched.unknown), "examples": matched.unknown[:EXAMPLES]},
        "duplicates": {"count": len(matched.duplicates), "examples": matched.duplicates[:EXAMPLES]},
        "unreadable": {"count": len(matched.unreadable), "examples": matched.unreadable[:EXAMPLES]},
        "unparsed": {"count": len(unparsed), "examples": unparsed[:EXAMPLES]},
        "matchers": list(MATCHERS),
        "overall": (groups["overall"] if "overall" in groups else Tally()).figures(),
        "by_source": by("source"), "by_platform": by("platform"), "by_action": by("action"),
        "confusion": {"labels": labels, "rows": {t: dict(c) for t, c in sorted(confusion.items())}},
    }
