"""Plain-text summaries of a run directory for the terminal."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .errors import FatalError
from .io import iter_jsonl_lines, parse_jsonl_line
from .plural import counted
from .rundir import RunDir

_REQUIRED = {"id": (str, int), "source": (str,), "steps": (list,)}


def _table(rows: list[tuple[str, int]], total: int) -> list[str]:
    if not rows:
        return ["  (none)"]
    width = max(len(name) for name, _ in rows)
    lines = []
    for name, count in rows:
        share = f"{100 * count / total:5.1f}%" if total else ""
        lines.append(f"  {name:<{width}}  {count:>7}  {share}")
    return lines


@dataclass(frozen=True)
class RejectCounts:
    """What the rejects ledger counts, kept apart: a dropped step or an episode one export leaves out is not a
    rejected episode.

    >>> reject_counts({"ingest": 1, "ingest:step": 4, "export:browser-use": 12, "annotate": 2})
    RejectCounts(episodes=3, steps=4, left_out=12)
    """

    episodes: int  # whole episodes rejected (at ingest, annotate, judge)
    steps: int     # steps dropped from episodes that were kept (``...:step`` stages, a reviewer's reject)
    left_out: int  # (episode, export) pairs an export could not use (``export:NAME`` stages)


def unit_of(stage: str) -> str:
    """What one ledger entry of ``stage`` stands for: ``episode``, ``step`` or ``left out``."""
    if stage.endswith(":step") or stage == "review":  # review: a reviewer rejected one step
        return "step"
    return "left out" if stage.startswith("export:") else "episode"


def reject_counts(by_stage: Mapping[str, int]) -> RejectCounts:
    kinds = {"episode": 0, "step": 0, "left out": 0}
    for stage, n in by_stage.items():
        kinds[unit_of(stage)] += n
    return RejectCounts(kinds["episode"], kinds["step"], kinds["left out"])


def malformed_line(path) -> str | None:
    """``file:line: problem`` for the first episodes.jsonl line that is not an episode record, or None."""
    for number, raw in iter_jsonl_lines(path):
        record = parse_jsonl_line(raw, path, number)  # FatalError for a line that is not a JSON object
        for key, types in _REQUIRED.items():
            if not isinstance(record.get(key), types):
                return f"{path}:{number}: not an episode record (no {key!r} of type {types[0].__name__})"
        steps = record["steps"]
        if not all(_has_action_type(s) for s in steps):
            return f"{path}:{number}: not an episode record (a step without an action type)"
    return None


def _has_action_type(step: Any) -> bool:
    return isinstance(step, dict) and isinstance(step.get("action"), dict) and isinstance(step["action"].get("type"), str)


def checked_totals(run: RunDir) -> dict[str, Any]:
    """``run.totals()``, or FatalError naming the episodes.jsonl line that is not an episode record."""
    try:
        return run.totals()
    except (KeyError, TypeError, AttributeError) as exc:
        where = malformed_line(run.episodes_path)
        raise FatalError(where or f"{run.path}: cannot count the run ({type(exc).__name__}: {exc})") from None


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
    t = checked_totals(run)
    kinds = reject_counts(t.get("rejected_by_stage", {}))
    head = f"episodes {t['episodes']}   steps {t['steps']}   rejected {kinds.episodes}"
    if kinds.steps or kinds.left_out:  # a dropped step or an episode one export leaves out is not a rejected episode
        head += (f"   (the ledger also has {counted(kinds.steps, 'dropped step')}, "
                 f"{counted(kinds.left_out, 'episode')} left out of an export)")
    lines = [f"run {run.path}", head]
    if t["episodes_by_source"]:
        lines.append("sources: " + ", ".join(f"{k} {v}" for k, v in sorted(t["episodes_by_source"].items())))
    lines.append("actions:")
    lines += _table(list(t["actions"].items()), t["steps"])
    lines.append("rejects by reason:")
    lines += _table(list(t["rejected_by_reason"].items()), t["rejected"])
    return "\n".join(lines)


def rejected_inputs(run: RunDir, source: str, count: int, shown: int = 5) -> str | None:
    """The last ``count`` inputs of ``source`` that ingest rejected (this invocation's), named with their reasons:
    a few, then "and N more", and where each one's detail is; None when none was.

    >>> import tempfile
    >>> run = RunDir(tempfile.mkdtemp())
    >>> _ = run.rejects_path.write_text('{"stage":"ingest","source":"annotated","episode_id":"a","reason":"missing_done"}\\n')
    >>> print(rejected_inputs(run, "annotated", 1))  # doctest: +ELLIPSIS
    rejected: a (missing_done) -- each one's reason and detail are in .../rejects.jsonl
    """
    if count <= 0:
        return None
    mine = [r for r in run.rejects() if r.get("stage") == "ingest" and r.get("source") == source][-count:]
    names = []
    for r in mine[:shown]:
        ref = r.get("record") if isinstance(r.get("record"), dict) else {}
        who = r.get("episode_id") if r.get("episode_id") is not None else f"{ref.get('file')} record {ref.get('index')}"
        names.append(f"{who} ({r.get('reason')})")
    more = f" and {len(mine) - shown} more" if len(mine) > shown else ""
    return f"rejected: {', '.join(names)}{more} -- each one's reason and detail are in {run.rejects_path}"
