"""The evaluation as text for people: what was matched, the figures per group, the confusion of action types,
and the answers that did not parse.

>>> print(percent(0.5), percent(None))
 50.0%      -
"""
from __future__ import annotations

from typing import Any

from .matchers import MATCHERS

COLUMNS = ("rows", "parsed", "type", *MATCHERS, "text", "text F1", "direction")


def percent(value: float | None) -> str:
    return f"{100 * value:6.1f}%" if value is not None else "      -"


def _row(name: str, f: dict[str, Any]) -> str:
    cells = [f"{f['rows']:>6}", percent(f["parse_rate"]), percent(f["type_accuracy"]),
             *(percent(f["step_success"][m]) for m in MATCHERS), percent(f["text_exact"]), percent(f["text_f1"]),
             percent(f["direction_accuracy"])]
    return f"{name:<28}" + " ".join(f"{c:>9}" for c in cells)


def _problems(r: dict[str, Any]) -> list[str]:
    lines = [f"  predictions whose row is not in the export: {r['unknown']['count']}",
             f"  second predictions for a row (ignored): {r['duplicates']['count']}",
             f"  lines that are no prediction: {r['unreadable']['count']}",
             f"  export rows without a prediction: {r['missing']['count']}"
             + (f" (e.g. {', '.join(r['missing']['examples'])})" if r["missing"]["count"] else "")]
    for u in r["unknown"]["examples"]:
        lines.append(f"    line {u['line']}: " + (f"id {u['id']!r}" if u.get("id") else f"prompt {u.get('prompt')!r}"))
    for u in r["unreadable"]["examples"]:
        lines.append(f"    line {u['line']}: {u['why']}")
    return lines


def format_eval(r: dict[str, Any]) -> str:
    """The report of :func:`sftdata.evaluate.metrics.evaluate` as a table."""
    out = [f"sftdata eval: {r['predictions']} against {r['export']} (format {r['format']})",
           f"  {r['lines']} prediction lines, {r['matched']} matched to the export's {r['export_rows']} rows",
           *_problems(r), "", f"{'':<28}" + " ".join(f"{c:>9}" for c in COLUMNS), _row("overall", r["overall"])]
    for title, key in (("source", "by_source"), ("platform", "by_platform"), ("action", "by_action")):
        out += [_row(f"{title} {name}", f) for name, f in r[key].items()]
    out += ["", "step success needs the action type and: " + "; ".join((
        "aitw: the point in the target's box enlarged 1.4x or within 14% of the screen",
        "box: in the target's box", "box-1.2: in the box enlarged 1.2x", "point-4%: within 4% of the screen")),
        "  (text and direction where the step has them; docs/rl.md)"]
    labels = r["confusion"]["labels"]
    if r["confusion"]["rows"]:
        width = max(10, *(len(label) + 1 for label in labels))
        out += ["", "action types: rows the ground truth, columns the prediction",
                " " * width + "".join(f"{label:>{width}}" for label in labels)]
        for truth, counts in r["confusion"]["rows"].items():
            out.append(f"{truth:<{width}}" + "".join(f"{counts.get(label, 0) or '.':>{width}}" for label in labels))
    n = r["unparsed"]["count"]
    if n:
        out += ["", f"answers that do not parse in {r['format']}: {n} of {r['matched']}, e.g."]
        for e in r["unparsed"]["examples"]:
            out.append(f"  {e['id']}: {e['error']}")
            out.append(f"    answer: {str(e['response'])[:160]!r}")
    return "\n".join(out)
