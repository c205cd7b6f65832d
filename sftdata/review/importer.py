"""``sftdata review import``: apply a Label Studio export of review tasks to a run.

Each new decision becomes a record of ``RUN/reviews.jsonl`` (see :mod:`sftdata.review.ledger`): an edit is
re-checked against the ground truth with :func:`sftdata.checks.check.check_items` (alignment and hindsight) and
is applied only when it passes; a reject also goes to ``RUN/rejects.jsonl`` (stage ``review``, reason
``human_rejected``, once per step). Decisions already in the ledger are skipped, so importing the same export
twice changes nothing. The agreement figures over every reviewed step are written into the run manifest
(``stages.review.human``).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..io import Ledger
from ..plural import counted
from ..checks.check import check_items
from ..rundir import RunDir
from .agreement import agreement_figures, alignment_rate
from ..judge.status import judge_status
from .ledger import REVIEWS, StepReview, load_reviews, record_key, resolve
from .lsexport import Decision, read_export

STAGE = "review"


@dataclass
class ImportResult:
    decisions: int = 0
    new: int = 0
    skipped: Counter = field(default_factory=Counter)  # decisions that name no reviewable step, by why
    edit_failures: list[dict] = field(default_factory=list)  # new edits not applied: episode, step, failures
    summary: dict[str, Any] = field(default_factory=dict)  # the manifest entry


def _edited(original: dict, d: Decision) -> tuple[dict, str | None]:
    """The edited item, and why it cannot be one (function text that is not a JSON object)."""
    item = dict(original)
    if d.reasoning is not None:
        item["reasoning"] = d.reasoning.strip()
    if d.function is not None:
        try:
            fn = json.loads(d.function)
        except ValueError as exc:
            return item, f"function is not JSON: {exc}"
        if not isinstance(fn, dict):
            return item, "function is not a JSON object"
        item["function"] = fn
    return item, None


def _record(d: Decision, episode, items: list, key: str) -> dict[str, Any]:
    original = items[d.step]
    passed = not [f for f in check_items(items, episode) if f.index == d.step]
    record: dict[str, Any] = {"key": key, "episode_id": d.episode_id, "step": d.step, "decision": d.decision,
                              "item": original, "applied": True, "failures": [], "original_passed_rules": passed,
                              "task_id": d.task_id, "annotation_id": d.annotation_id,
                              "provenance": {"by": "human", "reviewer": d.reviewer, "time": d.time}}
    if d.decision == "edit":
        item, bad = _edited(original, d)
        if bad:
            failures = [{"index": d.step, "reason": "bad_item", "detail": bad}]
        else:
            trial = list(items)
            trial[d.step] = item
            failures = [f.to_dict() for f in check_items(trial, episode) if f.index in (d.step, None)]
        record.update(item=item, applied=not failures, failures=failures)
    return record


def agreement(reviews: dict[tuple[str, int], StepReview], run: RunDir) -> dict[str, Any]:
    """Judge vs human and rules vs human (kappa, raw agreement) and the human alignment rate, over the
    resolved steps (a step is aligned for the human when it was accepted). The judge's verdicts are those of
    the annotation in use, read with the threshold the judge used (:mod:`sftdata.judge.status`)."""
    judged = {eid: status.verdicts for eid, status in judge_status(run.path, run.latest_annotations()).items()}
    steps = [r for r in reviews.values() if r.outcome in ("accept", "edit", "reject")]
    human = [r.outcome == "accept" for r in steps]
    rules = [(r.original_passed_rules is True, r.outcome == "accept") for r in steps
             if r.original_passed_rules is not None]
    judge = []
    for r in steps:
        verdicts = judged.get(r.episode_id)
        verdict = verdicts[r.step] if verdicts and r.step < len(verdicts) else None
        if verdict is not None:
            judge.append((verdict.passed, r.outcome == "accept"))
    pair = lambda pairs: agreement_figures([m for m, _ in pairs], [h for _, h in pairs]) if pairs else None  # noqa: E731
    return {"judge_vs_human": pair(judge), "rules_vs_human": pair(rules), "human_alignment": alignment_rate(human)}


def import_review(run: RunDir, export_path: str | Path) -> ImportResult:
    """Apply the decisions of a Label Studio JSON export to ``run`` (see the module doc)."""
    decisions = read_export(export_path)
    result = ImportResult(decisions=len(decisions))
    with run.writing():
        annotations = run.latest_annotations()
        wanted = {d.episode_id for d in decisions}
        episodes = {e.id: e for e in run.episodes() if e.id in wanted}
        existing = load_reviews(run.path)
        seen = {r.get("key") for r in existing}
        rejected = {(str(r.get("episode_id")), r.get("step")) for r in run.rejects()
                    if r.get("stage") == STAGE and r.get("reason") == "human_rejected"}
        new: list[dict] = []
        with Ledger(run.path / REVIEWS) as reviews, run.open_rejects() as rejects:
            for d in decisions:
                key = record_key(d.task_id, d.annotation_id, d.time, d.step)
                if key in seen:
                    continue
                episode, record = episodes.get(d.episode_id), annotations.get(d.episode_id)
                items = record.get("items") if record else None
                if episode is None or not isinstance(items, list) or len(items) != len(episode.steps):
                    result.skipped["episode_not_in_run"] += 1
                    continue
                if d.step >= len(items):
                    result.skipped["step_out_of_range"] += 1
                    continue
                rec = _record(d, episode, items, key)
                reviews.append(rec)
                seen.add(key)
                new.append(rec)
                if not rec["applied"]:
                    result.edit_failures.append({"episode_id": d.episode_id, "step": d.step,
                                                 "reviewer": d.reviewer, "failures": rec["failures"]})
                if d.decision == "reject" and (d.episode_id, d.step) not in rejected:
                    rejected.add((d.episode_id, d.step))
                    rejects.append({"episode_id": d.episode_id, "source": episode.source, "stage": STAGE,
                                    "reason": "human_rejected", "step": d.step,
                                    "detail": f"step {d.step} rejected by {d.reviewer} at {d.time}"})
        result.new = len(new)
        resolved = resolve(existing + new)
        # a step rejected once and accepted or edited by a later decision is no longer rejected
        run.withdraw_rejects(lambda r: r.get("stage") == STAGE and r.get("reason") == "human_rejected"
                             and (str(r.get("episode_id")), r.get("step")) in resolved
                             and resolved[str(r.get("episode_id")), r.get("step")].outcome != "reject")
        outcomes = Counter(r.outcome for r in resolved.values())
        result.summary = {
            "export": str(export_path), "records": len(existing) + len(new),
            "steps_reviewed": len(resolved), "episodes_reviewed": len({k[0] for k in resolved}),
            "accepted": outcomes["accept"], "edited": outcomes["edit"], "rejected": outcomes["reject"],
            "edit_failed": outcomes["unresolved"],
            "disagreements": sorted([f"{e}:{s}" for (e, s), r in resolved.items() if r.disagreement]),
            "reviewers": sorted({who for r in resolved.values() for who in r.reviewers}),
            "agreement": agreement(resolved, run),
        }
        if new or "review" not in run.manifest().get("stages", {}):
            run.update_manifest(STAGE, "human", result.summary)
    return result


def format_import(result: ImportResult) -> str:
    """The lines ``sftdata review import`` prints."""
    s = result.summary
    lines = [f"decisions {result.decisions}   new {result.new}   already imported {result.decisions - result.new - sum(result.skipped.values())}",
             f"steps reviewed {s['steps_reviewed']} in {counted(s['episodes_reviewed'], 'episode')}: "
             f"accepted {s['accepted']}, "
             f"edited {s['edited']}, rejected {s['rejected']}, edits failing the check {s['edit_failed']}"]
    for why, n in result.skipped.items():
        lines.append(f"skipped {n}: {why}")
    for f in result.edit_failures:
        reasons = ", ".join(x["reason"] for x in f["failures"])
        lines.append(f"edit not applied: episode {f['episode_id']} step {f['step']} ({f['reviewer']}): {reasons}")
    if s["disagreements"]:
        lines.append(f"reviewers disagree on {counted(len(s['disagreements']), 'step')}: "
                     f"{', '.join(s['disagreements'][:10])}")
    a = s["agreement"]
    h = a["human_alignment"]
    if h["n"]:
        lines.append(f"human-rated alignment {h['rate']:.1%} of {h['n']} (95% CI {h['ci95'][0]:.1%}–{h['ci95'][1]:.1%})")
    for name in ("judge_vs_human", "rules_vs_human"):
        if a[name]:
            k = a[name]["kappa"]
            lines.append(f"{name.replace('_', ' ')}: kappa {k if k is not None else '-'}, "
                         f"raw agreement {a[name]['raw_agreement']:.1%} over {a[name]['n']}")
    return "\n".join(lines)
