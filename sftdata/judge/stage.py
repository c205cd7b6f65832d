"""The judge stage: every annotated episode -> one line of ``RUN/judgements.jsonl`` (see
:mod:`sftdata.judge.verdict`), failing ones also to the rejects ledger (stage ``judge``, reason
``judge_<field>``), and the stage's counts and LLM usage in the manifest.

Resume: an episode already judged by the same backend, model, prompt version and ``min_score`` for the very items
of its current annotation is not judged again; LLM replies are cached by request (``RUN/cache/judge``), so a
killed run repeats no answered request. An episode whose judge failed to give a verdict on every attempt is
ledgered (``judge_<reason>``, e.g. ``judge_refused``); one whose endpoint failed is left for a rerun. The loop
around one episode (concurrency, episode order, the endpoint-failure stop, the Batch API, the manifest entry) is
:class:`sftdata.llm_stage.LLMStage`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import FatalError
from ..io import iter_jsonl
from ..llm_stage import LLMStage
from ..model import Episode
from ..annotate.stage import ANNOTATIONS, check_options
from ..stage import LLM_STATS, Deferred, Reject, StageOutcome, public_options
from ..rundir import RunDir
from .certified import has_unsure, merged, outcome_counts
from .figures import alignment_figures
from .llm import JudgeFailed
from .rules import RULES_VERSION, rules_verdict
from .verdict import Judgement, annotation_digest

STAGE = "judge"
from ..rundir import JUDGEMENTS  # noqa: E402,F401 (re-exported)
from .options import BACKENDS, JudgeOptions  # noqa: E402,F401 (re-exported)


@dataclass
class JudgeResult:
    judged: int = 0
    passed: int = 0
    failed: int = 0
    new_judged: int = 0
    new_failed: int = 0
    no_verdict: int = 0
    deferred: int = 0
    by_checks: int = 0  # episodes the judge model did not read: the checks left no item unsure
    outcomes: dict[str, int] = field(default_factory=dict)  # items certified / unsure / rejected by the checks
    by_reason: dict[str, int] = field(default_factory=dict)
    stats: Counter = field(default_factory=Counter)
    elapsed_s: float = 0.0
    skipped: bool = False  # an unchanged rerun: the counts are those its manifest entry recorded


def _reason(reason: str) -> str:
    return reason if reason.startswith("judge_") else f"judge_{reason}"


def _done(run: RunDir, opts: JudgeOptions, model: str, version: str, digests: dict[str, str]) -> set[str]:
    def same(r: dict) -> bool:
        eid = str(r.get("id", r.get("episode_id")))
        return (r.get("backend") == opts.backend and r.get("model") == model and r.get("prompt_version") == version
                and r.get("min_score") == opts.min_score
                and (r.get("annotation") or {}).get("digest") == digests.get(eid))

    done = {str(r["id"]) for r in iter_jsonl(run.path / JUDGEMENTS) if same(r)}
    done |= {str(r["episode_id"]) for r in run.rejects() if r.get("stage") == STAGE and not r.get("verdict")
             and same(r)}
    return done


def _passes(v, min_score: int) -> bool:
    from .verdict import item_fails
    return not item_fails(v, min_score)


def _annotation_ref(record: dict, digest: str) -> dict[str, Any]:
    return {"digest": digest, "model": record.get("model"), "prompt_version": record.get("prompt_version")}


def model_verdicts(verdicts: list, episode: Episode, record: dict, opts: JudgeOptions) -> list:
    """A judge model's verdicts as recorded: all of them with ``judge_all``, else for the unsure items only (the
    checks' verdicts for the others)."""
    if opts.judge_all:
        return verdicts
    return merged(verdicts, rules_verdict(episode, record.get("items", []))[0])


class JudgeStage(LLMStage):
    """Judge every annotated reasoning: aligned, grounded, hindsight, target, a 1-5 score (RUN/judgements.jsonl).

    \b
    The checks certify an item when its reasoning names what the call does, reject it on a contradiction or
    hindsight, and leave it unsure otherwise. The rules backend records that (an unsure item is not failed, and
    export holds it back); a judge model (openai, batch) reads the episodes that hold an unsure item, and its
    verdict decides those items (--judge-all: every episode, every verdict).

    \b
    Failing episodes go to the rejects ledger as judge_<field> (judge_aligned, judge_hindsight, judge_grounded,
    judge_target_unambiguous, judge_score) and export skips them. Replies are cached by request: a killed run
    resumes without paying twice.

    \b
    Examples:
      sftdata judge processed/demo                           # offline rules backend
      OPENAI_API_KEY=... sftdata judge processed/demo --backend openai \\
          --base-url http://localhost:8000/v1 --model Qwen2.5-VL-72B-Instruct --min-score 4
      sftdata judge processed/demo --backend batch --model gpt-4o --write-requests judge.jsonl
      sftdata judge processed/demo --backend batch --model gpt-4o --import-results judge-results.jsonl
    """

    # its units are the annotated episodes not yet judged with these settings (a judge model reads only those with
    # an item the checks leave unsure, unless judge_all), each one a Judgement (the docstring is the command's help)

    name, options, key, ledger, verb, batch_prefix = STAGE, JudgeOptions, "verdicts", JUDGEMENTS, "judged", "judge::"

    def check(self) -> None:
        super().check()  # a results file to import is read first: what is wrong with it is said first
        if self.opts.backend not in BACKENDS + ("batch",):
            raise FatalError(f"unknown judge backend {self.opts.backend!r}; choose one of {', '.join(BACKENDS)}")
        if not self.run.annotations_path.exists():
            raise FatalError(f"{self.run.path} has no annotations.jsonl: run `sftdata annotate` first")
        check_options(self.opts)  # type: ignore[arg-type]  # the same numeric fields as annotate's
        self.run.require_episodes(self.opts.episode_ids)
        self.run.ensure_writable()

    def inputs(self):
        return [self.run.episodes_path, self.run.annotations_path, self.run.judgements_path]

    def describe(self) -> str:
        return f"judge {self.opts.backend}"

    def prepare(self) -> None:
        from .batch import make_judge

        self.annotations = self.run.latest_annotations()
        self.digests = {eid: annotation_digest(r.get("items", [])) for eid, r in self.annotations.items()}
        self.judge = None if self.opts.backend == "rules" else make_judge(self.run, self.opts, self.backend)
        if self.judge is None:
            self.model = self.version = RULES_VERSION
        else:
            self.backend, self.stats = self.judge.backend, self.judge.stats
            self.model, self.version = self.judge.model, self.judge.prompt.version
        self.done_ids = _done(self.run, self.opts, self.model, self.version, self.digests)
        self.counts: Counter = Counter()  # this invocation's failed verdicts, no-verdicts, episodes left to the checks

    def units(self):
        """The episodes to judge; a judge model reads only those with an item the checks leave unsure (unless
        ``judge_all``), the others are counted as decided by the checks."""
        wanted = set(self.opts.episode_ids) if self.opts.episode_ids else None
        model = self.opts.backend != "rules" and not self.opts.judge_all
        count = 0
        for ep in self.run.episodes():
            if ep.id not in self.annotations or ep.id in self.done_ids or (wanted is not None and ep.id not in wanted):
                continue
            if model and not has_unsure(ep, self.annotations[ep.id].get("items", [])):
                self.counts["by_checks"] += 1
                continue
            if self.opts.limit is not None and count >= self.opts.limit:
                return
            count += 1
            yield ep, (ep, self.annotations[ep.id])  # keyed by the episode: a failing verdict's reject names its source

    def who(self, ep: Episode, record: dict) -> dict[str, Any]:
        """Who judged: what a judgement and a reject of this invocation record."""
        return {"backend": self.opts.backend, "model": self.model, "prompt_version": self.version,
                "min_score": self.opts.min_score, "annotation": _annotation_ref(record, self.digests[ep.id])}

    def judgement(self, ep: Episode, record: dict, verdicts, episode_verdict, usage) -> Judgement:
        return Judgement(ep.id, self.opts.backend, self.model, self.version, verdicts, episode_verdict,
                         self.opts.min_score, self.who(ep, record)["annotation"], usage)

    def no_verdict(self, ep: Episode, record: dict, exc: JudgeFailed) -> Reject:
        return Reject(_reason(exc.reason), exc.detail[:500], ep.id, ep.source,
                      extra={"verdict": False, "attempts": exc.attempts, **self.who(ep, record)})

    async def process(self, unit: tuple[Episode, dict]) -> Any:
        ep, record = unit
        if self.judge is None:
            return self.judgement(ep, record, *rules_verdict(ep, record.get("items", [])), {})
        try:
            verdicts, episode_verdict, usage = await self.judge.episode(ep, record.get("items", []))
        except JudgeFailed as exc:
            return Deferred(exc.reason, exc.detail) if exc.transport_only else self.no_verdict(ep, record, exc)
        return self.judgement(ep, record, model_verdicts(verdicts, ep, record, self.opts), episode_verdict, usage)

    def take(self, key: Any, outcome: Any) -> None:
        self.counts["no_verdict"] += isinstance(outcome, Reject)  # a unit's reject: no verdict on any attempt
        super().take(key, outcome)

    def write(self, ep: Episode, judgement: Judgement) -> None:
        """The judgement, and a failing one's reject (its first failing item, every reason)."""
        self.records.append(judgement.to_dict())
        if judgement.passed:
            return
        self.counts["failed"] += 1
        first = next((v for v in judgement.items if not _passes(v, judgement.min_score)), judgement.items[0])
        self.reject(Reject(judgement.reasons[0], f"item {first.index + 1}: {first.why}", ep.id, ep.source,
                           extra={"verdict": True, "reasons": judgement.reasons, "backend": judgement.backend,
                                  "model": judgement.model, "prompt_version": judgement.prompt_version,
                                  "min_score": judgement.min_score, "annotation": judgement.annotation}))

    # the Batch API (:mod:`sftdata.judge.batch`)
    def batch_requests(self, unit):
        from .batch import requests_of
        return requests_of(self, *unit)

    def batch_ids(self, unit) -> list[str]:
        from .batch import ids_of
        return ids_of(self, unit[0])

    def from_results(self, unit, lines):
        from .batch import judgement_of
        return judgement_of(self, *unit, lines)

    def release(self) -> None:
        if self.judge is not None:
            self.judge.pool.shutdown(wait=False)

    def tell(self, outcome: StageOutcome, echo: Any, run_dir: Any) -> None:
        from ..exitcodes import EndpointUnavailable
        from ..llm_stage import llm_stats_line
        from ..plural import counted

        result = result_of(outcome)
        echo(f"judged {counted(result.new_judged, 'new episode')}, {result.new_failed} failed "
             f"(run total: {result.judged} judged, {result.passed} passed, {result.failed} failed)")
        if result.outcomes:
            o = result.outcomes
            echo(f"items: {o['certified']} certified, {o['unsure']} unsure, {o['rejected']} rejected by the checks"
                 + (f"; {result.by_checks} episodes had nothing unsure for the judge model" if result.by_checks
                    else ""))
        if self.opts.backend == "openai":
            echo(llm_stats_line(result.stats))
        for reason, count in result.by_reason.items():
            echo(f"  failed: {reason:<28} {count:>6}")
        if result.no_verdict:
            echo(f"  no verdict (ledgered): {result.no_verdict}")
        if result.deferred:
            raise EndpointUnavailable(self.deferred_message(result.deferred))

    def entry(self) -> dict[str, Any]:
        latest: dict[str, dict] = {}
        for r in iter_jsonl(self.run.judgements_path):
            if (r.get("annotation") or {}).get("digest") == self.digests.get(str(r.get("id"))):
                latest[str(r["id"])] = r  # the last judgement of the current annotation counts
        passed = sum(1 for r in latest.values() if r.get("passed"))
        by_reason = dict(Counter(r["reasons"][0] for r in latest.values() if r.get("reasons")).most_common())
        annotations = self.run.latest_annotations()
        return {"backend": self.opts.backend, "model": self.model, "prompt_version": self.version,
                "min_score": self.opts.min_score, "options": public_options(self.opts),
                "counts": {"judged": len(latest), "passed": passed, "failed": len(latest) - passed,
                           "by_reason": by_reason, "no_verdict_this_run": self.counts["no_verdict"],
                           "decided_by_the_checks_this_run": self.counts["by_checks"]},
                "certification": outcome_counts((ep, annotations[ep.id].get("items")) for ep in self.run.episodes()
                                                if ep.id in annotations),
                "deferred": sum(self.deferred.values()), **self.llm_entry(),
                "alignment": alignment_figures(self.run.episodes(), latest, annotations)}


def result_of(outcome: StageOutcome) -> JudgeResult:
    """What one invocation did, with the run's totals from its manifest entry (a skipped one: the entry's)."""
    entry, stage = outcome.entry, outcome.stage
    counts, mine = entry.get("counts", {}), Counter() if outcome.skipped else stage.counts
    return JudgeResult(judged=counts.get("judged", 0), passed=counts.get("passed", 0), failed=counts.get("failed", 0),
                       new_judged=outcome.new["records"], new_failed=mine["failed"], no_verdict=mine["no_verdict"],
                       deferred=0 if outcome.skipped else entry.get("deferred", 0), by_checks=mine["by_checks"],
                       outcomes=dict(entry.get("certification", {})), by_reason=dict(counts.get("by_reason", {})),
                       stats=Counter({k: v for k, v in entry.get("llm", {}).items() if k in LLM_STATS}),
                       elapsed_s=entry.get("elapsed_s", 0.0), skipped=outcome.skipped)


def judge_run(run: RunDir, opts: JudgeOptions, backend: Any | None = None, *, results: Any = None) -> JudgeResult:
    """Judge every annotated episode of ``run`` not yet judged with these settings (``results``: import the batch
    backend's result lines instead)."""
    return result_of(JudgeStage(run, opts, backend=backend, results=results).execute())
