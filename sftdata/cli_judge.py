"""``sftdata judge``: a second opinion on every annotated reasoning (RUN/judgements.jsonl)."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import _fatal_to_exit, _ids, endpoint_options, llm_stats_line, main, run_llm_stage
from .exitcodes import EndpointUnavailable


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--backend", type=click.Choice(["rules", "openai", "batch"]), default="rules", show_default=True,
              help="rules: offline, the alignment and hindsight checks as verdicts; openai: a multimodal judge "
                   "model on any OpenAI-compatible endpoint; batch: Batch API files.")
@click.option("--model", envvar="SFTDATA_JUDGE_MODEL", help="Judge model name [env SFTDATA_JUDGE_MODEL].")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Endpoint, e.g. http://localhost:8000/v1 [env OPENAI_BASE_URL].")
@endpoint_options(prompt_help="Your own judge prompt.", image_help="Downscale images to this longest side.",
                  max_tokens=4096,
                  attempts_help="Asks per window; a malformed or refused verdict is asked again with the problem named.",
                  window_min=1, window_default=10, window_help="Steps per request (two images each).")
@click.option("--min-score", type=click.IntRange(1, 5), default=3, show_default=True,
              help="An item scored below this fails its episode (judge_score).")
@click.option("--write-requests", type=click.Path(dir_okay=False, path_type=Path),
              help="batch: write OpenAI Batch API request lines here.")
@click.option("--import-results", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="batch: read Batch API result lines as verdicts.")
@click.option("--episodes", "episodes", metavar="IDS|FILE", help="Only these episode ids.")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after N episodes.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
@_fatal_to_exit
def judge(run_dir, backend, model, base_url, api_key_env, prompt_file, structured, image_max_side, image_format,
          max_tokens, temperature, timeout, max_retries, concurrency, max_attempts, window, min_score, price_in,
          price_out, write_requests, import_results, episodes, limit, progress):
    """Judge every annotated reasoning: aligned, grounded, hindsight, target, a 1-5 score (RUN/judgements.jsonl).

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
    from .judge.stage import JudgeOptions, judge_run

    opts = JudgeOptions(backend=backend, model=model, base_url=base_url, api_key_env=api_key_env,
                        prompt_file=prompt_file, structured=structured, image_max_side=image_max_side,
                        image_format=image_format, max_tokens=max_tokens, temperature=temperature, timeout=timeout,
                        max_retries=max_retries, concurrency=concurrency, max_attempts=max_attempts, window=window,
                        min_score=min_score, price_in=price_in, price_out=price_out, episode_ids=_ids(episodes),
                        limit=limit, progress=progress)
    from .judge.batch import import_judge_results, write_judge_requests

    result = run_llm_stage(run_dir, backend, write_requests, import_results, live=lambda run: judge_run(run, opts),
                           write=lambda run, path: write_judge_requests(run, opts, path),
                           read=lambda run, path: import_judge_results(run, opts, path))
    if result is None:
        return
    click.echo(f"judged {result.new_judged} new episodes, {result.new_failed} failed "
               f"(run total: {result.judged} judged, {result.passed} passed, {result.failed} failed)")
    if backend == "openai":
        click.echo(llm_stats_line(result.stats))
    for reason, count in result.by_reason.items():
        click.echo(f"  failed: {reason:<28} {count:>6}")
    if result.no_verdict:
        click.echo(f"  no verdict (ledgered): {result.no_verdict}")
    if result.deferred:
        raise EndpointUnavailable(f"{result.deferred} episodes were not judged because the endpoint failed on "
                                  "every attempt; nothing was rejected for it: run again to resume")
