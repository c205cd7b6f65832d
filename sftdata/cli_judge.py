"""``sftdata judge``: a second opinion on every annotated reasoning (RUN/judgements.jsonl)."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import fatal_to_exit, batch_flags, llm_stats_line, main, run_llm_stage
from .judge.options import JudgeOptions
from .options import click_options, from_cli
from .exitcodes import EndpointUnavailable
from .plural import counted


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click_options(JudgeOptions)
@batch_flags
@fatal_to_exit
def judge(run_dir, write_requests, import_results, **options):
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
    from .judge.stage import JudgeStage, result_of

    opts = from_cli(JudgeOptions, options)
    backend = opts.backend
    outcome = run_llm_stage(run_dir, JudgeStage, opts, write_requests, import_results)
    if outcome is None:
        return
    result = result_of(outcome)
    click.echo(f"judged {counted(result.new_judged, 'new episode')}, {result.new_failed} failed "
               f"(run total: {result.judged} judged, {result.passed} passed, {result.failed} failed)")
    if result.outcomes:
        o = result.outcomes
        click.echo(f"items: {o['certified']} certified, {o['unsure']} unsure, {o['rejected']} rejected by the checks"
                   + (f"; {result.by_checks} episodes had nothing unsure for the judge model" if result.by_checks else ""))
    if backend == "openai":
        click.echo(llm_stats_line(result.stats))
    for reason, count in result.by_reason.items():
        click.echo(f"  failed: {reason:<28} {count:>6}")
    if result.no_verdict:
        click.echo(f"  no verdict (ledgered): {result.no_verdict}")
    if result.deferred:
        raise EndpointUnavailable(outcome.stage.deferred_message(result.deferred))
