"""The judge stage: every annotated episode -> one line of ``RUN/judgements.jsonl`` (see
:mod:`sftdata.judge.verdict`), failing ones also to the rejects ledger (stage ``judge``, reason
``judge_<field>``), and the stage's counts and LLM usage in the manifest.

Resume: an episode already judged by the same backend, model, prompt version and ``min_score`` for the very items
of its current annotation is not judged again; LLM replies are cached by request (``RUN/cache/judge``), so a
killed run repeats no answered request. An episode whose judge failed to give a verdict on every attempt is
ledgered (``judge_<reason>``, e.g. ``judge_refused``); one whose endpoint failed is left for a rerun.
"""
from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from ..errors import FatalError
from ..exitcodes import EndpointUnavailable
from ..io import Ledger, iter_jsonl
from ..model import Episode
from ..llm.backends import OpenAIBackend
from ..annotate.stage import ANNOTATIONS, check_options
from ..stage import LLM_STATS, StageRun, llm_cost, public_options
from ..rundir import RunDir
from .certified import has_unsure, merged, outcome_counts
from .figures import alignment_figures
from .llm import JudgeFailed, LLMJudge
from .prompt import load_judge_prompt
from .rules import RULES_VERSION, rules_verdict
from .verdict import Judgement, annotation_digest

STAGE = "judge"
from ..rundir import JUDGEMENTS  # noqa: F401 (re-exported)
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


class _Writer:
    """Appends judgements and rejects, and counts this invocation's outcomes."""

    def __init__(self, run: RunDir, judgements: Ledger, rejects: Ledger, result: JudgeResult) -> None:
        self.run, self.judgements, self.rejects, self.result = run, judgements, rejects, result

    def verdict(self, ep: Episode, judgement: Judgement) -> None:
        self.judgements.append(judgement.to_dict())
        self.result.new_judged += 1
        if not judgement.passed:
            self.result.new_failed += 1
            first = next((v for v in judgement.items if not _passes(v, judgement.min_score)), judgement.items[0])
            self.rejects.append({"episode_id": ep.id, "source": ep.source, "stage": STAGE,
                                 "reason": judgement.reasons[0], "detail": f"item {first.index + 1}: {first.why}",
                                 "verdict": True, "reasons": judgement.reasons, **_who(judgement)})

    def no_verdict(self, ep: Episode, exc: JudgeFailed, who: dict[str, Any]) -> None:
        self.result.no_verdict += 1
        self.rejects.append({"episode_id": ep.id, "source": ep.source, "stage": STAGE, "reason": _reason(exc.reason),
                             "detail": exc.detail[:500], "verdict": False, "attempts": exc.attempts, **who})


def _passes(v, min_score: int) -> bool:
    from .verdict import item_fails
    return not item_fails(v, min_score)


def _who(j: Judgement) -> dict[str, Any]:
    return {"backend": j.backend, "model": j.model, "prompt_version": j.prompt_version, "min_score": j.min_score,
            "annotation": j.annotation}


def _todo(run: RunDir, opts: JudgeOptions, annotations: dict[str, dict], done: set[str],
          result: JudgeResult | None = None):
    """The episodes to judge; a judge model reads only those with an item the checks leave unsure (unless
    ``judge_all``), the others are counted in ``result.by_checks``."""
    wanted = set(opts.episode_ids) if opts.episode_ids else None
    model = opts.backend != "rules" and not opts.judge_all
    count = 0
    for ep in run.episodes():
        if ep.id not in annotations or ep.id in done or (wanted is not None and ep.id not in wanted):
            continue
        if model and not has_unsure(ep, annotations[ep.id].get("items", [])):
            if result is not None:
                result.by_checks += 1
            continue
        if opts.limit is not None and count >= opts.limit:
            return
        count += 1
        yield ep, annotations[ep.id]


def _annotation_ref(record: dict, digest: str) -> dict[str, Any]:
    return {"digest": digest, "model": record.get("model"), "prompt_version": record.get("prompt_version")}


def judge_run(run: RunDir, opts: JudgeOptions, backend: Any | None = None) -> JudgeResult:
    """Judge every annotated episode of ``run`` not yet judged with these settings."""
    if opts.backend not in BACKENDS:
        raise FatalError(f"unknown judge backend {opts.backend!r}; choose one of {', '.join(BACKENDS)}")
    if not (run.path / ANNOTATIONS).exists():
        raise FatalError(f"{run.path} has no annotations.jsonl: run `sftdata annotate` first")
    check_options(opts)  # type: ignore[arg-type]  # the same numeric fields as annotate's
    run.require_episodes(opts.episode_ids)
    run.ensure_writable()
    stage = StageRun(run, STAGE, "verdicts")
    annotations = run.latest_annotations()
    digests = {eid: annotation_digest(r.get("items", [])) for eid, r in annotations.items()}
    result = JudgeResult()
    judge = None
    if opts.backend == "rules":
        model, version = RULES_VERSION, RULES_VERSION
    else:
        prompt = load_judge_prompt(opts.prompt_file)
        if backend is None:
            backend = OpenAIBackend(model=opts.model or "", base_url=opts.base_url, api_key_env=opts.api_key_env,
                                    timeout=opts.timeout, max_retries=opts.max_retries, max_tokens=opts.max_tokens,
                                    temperature=opts.temperature)
        judge = LLMJudge(run.path, backend, prompt, window=opts.window, max_attempts=opts.max_attempts,
                         concurrency=opts.concurrency, image_max_side=opts.image_max_side,
                         image_format=opts.image_format, structured=opts.structured)
        model, version = judge.model, prompt.version
    todo = _todo(run, opts, annotations, _done(run, opts, model, version, digests), result)
    bar = tqdm(unit="ep", desc=f"judge {opts.backend}", dynamic_ncols=True,
               disable=(not opts.progress) if opts.progress is not None else None)

    def make(ep: Episode, record: dict, verdicts, episode_verdict, usage) -> Judgement:
        return Judgement(ep.id, opts.backend, model, version, verdicts, episode_verdict, opts.min_score,
                         _annotation_ref(record, digests[ep.id]), usage)

    try:
        with Ledger(run.path / JUDGEMENTS) as judgements, run.open_rejects() as rejects:
            writer = _Writer(run, judgements, rejects, result)
            if judge is None:
                for ep, record in todo:
                    verdicts, episode_verdict = rules_verdict(ep, record.get("items", []))
                    writer.verdict(ep, make(ep, record, verdicts, episode_verdict, {}))
                    bar.update(1)
            else:
                who = {"backend": opts.backend, "model": model, "prompt_version": version,
                       "min_score": opts.min_score}
                asyncio.run(_judge_async(judge, opts, todo, writer, make, who, digests, annotations, bar))
    finally:
        bar.close()
        if judge is not None:
            judge.pool.shutdown(wait=False)
        _record(stage, opts, model, version, judge, result, digests)
    return result


async def _judge_async(judge: LLMJudge, opts: JudgeOptions, todo, writer: _Writer, make, who, digests,
                       annotations, bar) -> None:
    async def one(ep: Episode, record: dict):
        try:
            verdicts, episode_verdict, usage = await judge.episode(ep, record.get("items", []))
        except JudgeFailed as exc:
            return ep, record, None, exc
        return ep, record, (model_verdicts(verdicts, ep, record, opts), episode_verdict, usage), None

    pending: set[asyncio.Future] = set()
    streak = 0
    try:
        while True:
            while len(pending) < 2 * opts.concurrency:
                nxt = next(todo, None)
                if nxt is None:
                    break
                pending.add(asyncio.ensure_future(one(*nxt)))
            if not pending:
                break
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                ep, record, got, exc = task.result()
                bar.update(1)
                if got is not None:
                    streak = 0
                    writer.verdict(ep, make(ep, record, *got))
                elif exc.transport_only:
                    writer.result.deferred += 1
                    streak += 1
                    if streak >= max(8, 2 * opts.concurrency):
                        raise EndpointUnavailable(f"the endpoint failed for {streak} episodes in a row "
                                                  f"({exc.reason}: {exc.detail}); run again to resume")
                else:
                    streak = 0
                    writer.no_verdict(ep, exc, {**who, "annotation": _annotation_ref(record, digests[ep.id])})
    finally:
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        close = getattr(judge.backend, "close", None)
        if close is not None:
            await close()


def model_verdicts(verdicts: list, episode: Episode, record: dict, opts: JudgeOptions) -> list:
    """A judge model's verdicts as recorded: all of them with ``judge_all``, else for the unsure items only (the
    checks' verdicts for the others)."""
    if opts.judge_all:
        return verdicts
    return merged(verdicts, rules_verdict(episode, record.get("items", []))[0])


def _record(stage: StageRun, opts: JudgeOptions, model: str, version: str, judge: LLMJudge | None,
            result: JudgeResult, digests: dict[str, str]) -> None:
    run = stage.run
    latest: dict[str, dict] = {}
    for r in iter_jsonl(run.path / JUDGEMENTS):
        if (r.get("annotation") or {}).get("digest") == digests.get(str(r.get("id"))):
            latest[str(r["id"])] = r  # the last judgement of the current annotation counts
    result.judged = len(latest)
    result.passed = sum(1 for r in latest.values() if r.get("passed"))
    result.failed = result.judged - result.passed
    result.by_reason = dict(Counter(r["reasons"][0] for r in latest.values() if r.get("reasons")).most_common())
    annotations = run.latest_annotations()
    result.outcomes = outcome_counts((ep, annotations[ep.id].get("items")) for ep in run.episodes()
                                     if ep.id in annotations)
    stats = stage.llm_stats(judge.stats if judge is not None else {})
    result.stats = stats
    entry = stage.finish({
        "backend": opts.backend, "model": model, "prompt_version": version, "min_score": opts.min_score,
        "options": public_options(opts),
        "counts": {"judged": result.judged, "passed": result.passed, "failed": result.failed,
                   "by_reason": result.by_reason, "no_verdict_this_run": result.no_verdict,
                   "decided_by_the_checks_this_run": result.by_checks},
        "certification": result.outcomes,
        "deferred": result.deferred, "llm": {k: stats[k] for k in LLM_STATS},
        "cost": llm_cost(stats, opts.price_in, opts.price_out),
        "alignment": alignment_figures(run.episodes(), latest, annotations)})
    result.elapsed_s = entry["elapsed_s"]
