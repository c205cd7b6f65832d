"""Plain-text summaries of a run directory for the terminal."""
from __future__ import annotations

from .rundir import RunDir


def _table(rows: list[tuple[str, int]], total: int) -> list[str]:
    if not rows:
        return ["  (none)"]
    width = max(len(name) for name, _ in rows)
    lines = []
    for name, count in rows:
        share = f"{100 * count / total:5.1f}%" if total else ""
        lines.append(f"  {name:<{width}}  {count:>7}  {share}")
    return lines


def format_summary(run: RunDir) -> str:
    """Episodes, steps, action histogram and rejects by reason, as a few aligned lines.

    >>> import tempfile
    >>> print(format_summary(RunDir(tempfile.mkdtemp())))  # doctest: +NORMALIZE_WHITESPACE
    run ...
    episodes 0   steps 0   rejected 0
    actions:
      (none)
    rejects by reason:
      (none)
    """
    t = run.totals()
    lines = [f"run {run.path}",
             f"episodes {t['episodes']}   steps {t['steps']}   rejected {t['rejected']}"]
    if t["episodes_by_source"]:
        lines.append("sources: " + ", ".join(f"{k} {v}" for k, v in sorted(t["episodes_by_source"].items())))
    lines.append("actions:")
    lines += _table(list(t["actions"].items()), t["steps"])
    lines.append("rejects by reason:")
    lines += _table(list(t["rejected_by_reason"].items()), t["rejected"])
    return "\n".join(lines)
