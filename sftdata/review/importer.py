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
from ..options import option
from ..plural import counted
from ..checks.check import check_items
from ..rundir import RunDir
from ..stage import Reject, Stage
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


@dataclass
class ReviewImportOptions:
    """What ``sftdata review import`` reads: a Label Studio JSON export of the review tasks."""

    export: str = option(help="A Label Studio JSON export of review tasks.", cli=False, config=False, to_value=str)


@dataclass
class StepRejected(Reject):
    """A step a reviewer rejected: its ``rejects.jsonl`` line names the step before the detail."""

    step: int = 0

    def line(self, stage: str) -> dict[str, Any]:
        return {"episode_id": self.episode_id, "source": self.source, "stage": self.stage or stage,
                "reason": self.reason, "step": self.step, "detail": self.detail}


def _checked(payload: tuple[Decision, Any, list, str]) -> dict[str, Any]:
    """The one unit of the review import: a decision as its ``reviews.jsonl`` record, an edit re-checked."""
    return _record(*payload)


class ReviewImportStage(Stage):
    """Apply a Label Studio JSON export of review tasks to RUN_DIR (idempotent).

    \b
    Edits are re-checked (alignment and hindsight) and applied only when they pass; accepted and edited items
    carry their provenance in RUN/reviews.jsonl; rejected steps go to RUN/rejects.jsonl (human_rejected) and
    their samples are left out of the next export. Agreement figures go into the run manifest.

    \b
    Example:
      sftdata review import processed/demo project-1-at-2026-01-01-10-00.json
    """

    # the review import (see the module doc): its units are the decisions not yet in reviews.jsonl that name a
    # reviewable step; each becomes a record (and a rejected step a human_rejected reject). Never skipped as a whole:
    # a decision already imported is found by its key, and the manifest entry is rewritten only when a decision was
    # added (or the run has none yet). The docstring is the help of `sftdata review import`.
    name, options, key, bar_unit, command = STAGE, ReviewImportOptions, "human", None, "import"
    arguments = (("run_dir", "run"), ("export", "file", "EXPORT_JSON"))
    process = staticmethod(_checked)

    def __init__(self, run: RunDir, opts: ReviewImportOptions, *, executor: Any = None) -> None:
        super().__init__(run, opts, progress=False, executor=executor)
        self.decisions = read_export(opts.export)
        self.result = ImportResult(decisions=len(self.decisions))

    def prepare(self) -> None:
        self.annotations = self.run.latest_annotations()
        wanted = {d.episode_id for d in self.decisions}
        self.episodes = {e.id: e for e in self.run.episodes() if e.id in wanted}
        self.existing = load_reviews(self.run.path)
        self.seen = {r.get("key") for r in self.existing}
        self.rejected = {(str(r.get("episode_id")), r.get("step")) for r in self.run.rejects()
                         if r.get("stage") == STAGE and r.get("reason") == "human_rejected"}
        self.added: list[dict] = []
        self.reviews = Ledger(self.run.path / REVIEWS)

    def units(self):
        for d in self.decisions:
            key = record_key(d.task_id, d.annotation_id, d.time, d.step)
            if key in self.seen:
                continue
            episode, record = self.episodes.get(d.episode_id), self.annotations.get(d.episode_id)
            items = record.get("items") if record else None
            if episode is None or not isinstance(items, list) or len(items) != len(episode.steps):
                self.result.skipped["episode_not_in_run"] += 1
                continue
            if d.step >= len(items):
                self.result.skipped["step_out_of_range"] += 1
                continue
            self.seen.add(key)
            yield d, (d, episode, items, key)

    def write(self, d: Decision, rec: dict[str, Any]) -> None:
        if not rec["applied"]:
            self.result.edit_failures.append({"episode_id": d.episode_id, "step": d.step, "reviewer": d.reviewer,
                                              "failures": rec["failures"]})
        if d.decision == "reject" and (d.episode_id, d.step) not in self.rejected:
            # ledgered before its review record: a kill between the two redoes the decision, not the reject
            self.rejected.add((d.episode_id, d.step))
            self.reject(StepRejected("human_rejected", f"step {d.step} rejected by {d.reviewer} at {d.time}",
                                     d.episode_id, self.episodes[d.episode_id].source, step=d.step))
        self.reviews.append(rec)
        self.added.append(rec)

    def discard(self) -> None:
        self.reviews.close()

    def complete(self) -> None:
        self.reviews.close()
        self.result.new = len(self.added)
        resolved = resolve(self.existing + self.added)
        # a step rejected once and accepted or edited by a later decision is no longer rejected
        self.run.withdraw_rejects(lambda r: r.get("stage") == STAGE and r.get("reason") == "human_rejected"
                                  and (str(r.get("episode_id")), r.get("step")) in resolved
                                  and resolved[str(r.get("episode_id")), r.get("step")].outcome != "reject")
        outcomes = Counter(r.outcome for r in resolved.values())
        self.result.summary = {
            "export": self.opts.export, "records": len(self.existing) + len(self.added),
            "steps_reviewed": len(resolved), "episodes_reviewed": len({k[0] for k in resolved}),
            "accepted": outcomes["accept"], "edited": outcomes["edit"], "rejected": outcomes["reject"],
            "edit_failed": outcomes["unresolved"],
            "disagreements": sorted([f"{e}:{s}" for (e, s), r in resolved.items() if r.disagreement]),
            "reviewers": sorted({who for r in resolved.values() for who in r.reviewers}),
            "agreement": agreement(resolved, self.run),
        }

    def noted(self) -> bool:
        return bool(self.added) or STAGE not in self.run.manifest().get("stages", {})

    def entry(self) -> dict[str, Any]:
        return self.result.summary

    @classmethod
    def invoke(cls, echo: Any, opts: ReviewImportOptions, *, run_dir: Path) -> None:
        stage = cls(RunDir(run_dir), opts)
        stage.execute()
        echo(format_import(stage.result))


def import_review(run: RunDir, export_path: str | Path) -> ImportResult:
    """Apply the decisions of a Label Studio JSON export to ``run`` (see the module doc)."""
    stage = ReviewImportStage(run, ReviewImportOptions(str(export_path)))
    stage.execute()
    return stage.result


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
