"""The reconstruction and export commands of the ``sftdata`` CLI: annotate, validate, export."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import _fatal_to_exit, _ids, endpoint_options, llm_stats_line, main, run_llm_stage
from .errors import FatalError
from .exitcodes import EndpointUnavailable, NothingProduced
from .rundir import RunDir
from .formats import names as format_names, som_formats


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--backend", type=click.Choice(["template", "openai", "batch"]), default="template", show_default=True,
              help="template: offline, deterministic; openai: any OpenAI-compatible endpoint; batch: Batch API files.")
@click.option("--model", envvar="SFTDATA_MODEL", help="Model name for the openai/batch backends [env SFTDATA_MODEL].")
@click.option("--base-url", envvar="OPENAI_BASE_URL", help="Endpoint, e.g. http://localhost:8000/v1 [env OPENAI_BASE_URL].")
@endpoint_options(prompt_help="Your own prompt template with {goal} and {screenshot_count}.",
                  image_help="Downscale annotator images to this longest side.", max_tokens=8192,
                  attempts_help="Asks per window, the first included; later ones list the failures to fix.",
                  window_min=2, window_default=20,
                  window_help="Longer episodes are asked in windows of at most this many screenshots.")
@click.option("--write-requests", type=click.Path(dir_okay=False, path_type=Path),
              help="batch: write OpenAI Batch API request lines here.")
@click.option("--import-results", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="batch: read Batch API result lines and check them.")
@click.option("--episodes", "episodes", metavar="IDS|FILE", help="Only these episode ids.")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after N episodes.")
@click.option("--strict", is_flag=True, help="Stop at the first rejected episode with a non-zero exit.")
@click.option("--repair-judged", is_flag=True,
              help="Re-annotate only the episodes `sftdata judge` failed, with the judge's notes in the prompt.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
@_fatal_to_exit
def annotate(run_dir, backend, model, base_url, api_key_env, prompt_file, structured, image_max_side, image_format,
             max_tokens, temperature, timeout, max_retries, concurrency, max_attempts, window, price_in, price_out,
             write_requests, import_results, episodes, limit, strict, repair_judged, progress):
    """Reconstruct Chinese ReAct reasoning and a function call for every step (RUN/annotations.jsonl).

    \b
    Each reply is checked against the ground truth (one item per screenshot, one done and it is last, every
    function and parameter equal to the action); failures are sent back to be fixed, up to --max-attempts.
    Replies are cached by request: a killed run resumes without paying twice.

    \b
    Examples:
      sftdata annotate processed/demo                       # offline template backend
      OPENAI_API_KEY=... sftdata annotate processed/demo --backend openai \\
          --base-url http://localhost:8000/v1 --model Qwen2.5-VL-72B-Instruct --concurrency 16
      sftdata annotate processed/demo --backend batch --model gpt-4o --write-requests batch.jsonl
      sftdata annotate processed/demo --backend batch --model gpt-4o --import-results results.jsonl
    """
    from .annotate.stage import AnnotateOptions, annotate_run

    opts = AnnotateOptions(backend=backend, model=model, base_url=base_url, api_key_env=api_key_env,
                           prompt_file=prompt_file, structured=structured, image_max_side=image_max_side,
                           image_format=image_format, max_tokens=max_tokens, temperature=temperature,
                           timeout=timeout, max_retries=max_retries, concurrency=concurrency,
                           max_attempts=max_attempts, window=window, price_in=price_in, price_out=price_out,
                           episode_ids=_ids(episodes), limit=limit, strict=strict, progress=progress,
                           repair_judged=repair_judged)
    from .annotate.batch import import_results as read, write_requests as write

    result = run_llm_stage(run_dir, backend, write_requests, import_results, live=lambda run: annotate_run(run, opts),
                           write=lambda run, path: write(run, opts, path), read=lambda run, path: read(run, opts, path))
    if result is None:
        return
    click.echo(f"annotated {result.new_annotated} new episodes, rejected {result.new_rejected} "
               f"(run total: {result.annotated} annotated, {result.rejected} rejected)")
    llm = result.stats
    if backend != "template":
        click.echo(llm_stats_line(llm))
    for reason, count in sorted(result.by_reason.items(), key=lambda kv: -kv[1]):
        click.echo(f"  rejected: {reason:<28} {count:>6}")
    if result.deferred:
        raise EndpointUnavailable(f"{result.deferred} episodes were not annotated because the endpoint failed on "
                                  "every attempt; nothing was rejected for it: run again to resume")
    if not result.annotated and result.rejected:
        raise NothingProduced(f"no episode was annotated: all {result.rejected} were rejected "
                              f"(reasons in {run_dir}/rejects.jsonl)")


@main.command()
@click.argument("run_dir", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--episodes", "episodes_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An episodes.jsonl made elsewhere (with --annotations, instead of RUN).")
@click.option("--annotations", "annotations_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Annotation lines: {id, items} records, or one raw seed 002 list per episode line.")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="Write the full report as JSON.")
@click.option("--cjk-threshold", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Least share of Chinese among the reasoning's letters (quoted text excluded).")
@_fatal_to_exit
def validate(run_dir, episodes_path, annotations_path, report, cjk_threshold):
    """Check reasoning/action alignment of an annotation file and report why items fail (exit 1 on failures).

    \b
    Examples:
      sftdata validate processed/demo
      sftdata validate --episodes episodes.jsonl --annotations reconstructions.jsonl --report report.json
    """
    from .io import write_json_atomic
    from .validate import format_report, validate_files

    if run_dir is not None:
        if episodes_path or annotations_path:
            raise click.UsageError("give either RUN or --episodes with --annotations, not both")
        episodes_path, annotations_path = run_dir / "episodes.jsonl", run_dir / "annotations.jsonl"
        if not annotations_path.exists():
            raise FatalError(f"{run_dir} has no annotations.jsonl: run `sftdata annotate` first")
    elif not (episodes_path and annotations_path):
        raise click.UsageError("give RUN, or both --episodes and --annotations")
    result = validate_files(episodes_path, annotations_path, cjk_threshold)
    if report:
        write_json_atomic(report, result.to_dict())
    click.echo(format_report(result))
    if not result.ok:
        raise SystemExit(1)


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "fmt", required=True, metavar="NAME",
              help=", ".join(format_names()) + ".")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Export directory: new, empty, or (with --force) an earlier export; outside RUN or in RUN/export/.")
@click.option("--force", is_flag=True, help="Replace an earlier sftdata export in --out (never any other folder).")
@click.option("--memory", is_flag=True, help="Add a memory/progress section to every reasoning.")
@click.option("--history", type=click.IntRange(min=0), default=4, show_default=True, help="Earlier steps as text.")
@click.option("--history-images", type=click.IntRange(min=0), default=0, show_default=True,
              help="Earlier screenshots as extra images.")
@click.option("--split-ratio", type=click.FloatRange(0, 1), default=0.01, show_default=True,
              help="Share of episodes in the validation split (an episode never spans splits).")
@click.option("--shard-size", type=click.IntRange(min=1), default=10_000, show_default=True, help="Samples per shard.")
@click.option("--agent-tools", is_flag=True, help="Write ms-swift's tools + tool_call variant (tool-call formats).")
@click.option("--family", type=click.Choice(["qwen2.5-vl", "qwen2-vl", "qwen3-vl", "glm-4.1v"]),
              help="Model family trained on the export: sizes images and text, picks train.sh's model "
                   "[default: the format's own].")
@click.option("--max-length", type=click.IntRange(min=64), default=16384, show_default=True,
              help="Samples longer than this are dropped (and counted) instead of silently by Swift.")
@click.option("--min-pixels", type=click.IntRange(min=1), help="Image pixel floor [default: the family's].")
@click.option("--max-pixels", type=click.IntRange(min=1), help="Image pixel ceiling [default: the family's].")
@click.option("--tokenizer", type=click.Path(exists=True), help="tokenizer.json (or its folder) for exact text tokens.")
@click.option("--absolute-paths", is_flag=True, help="Write absolute image paths instead of ROOT_IMAGE_DIR-relative.")
@click.option("--hf-dataset", type=click.Path(file_okay=False), help="Also save a Hugging Face dataset here.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the train/validation split.")
@click.option("--ineffective", type=click.Choice(["keep", "drop"]), default="keep", show_default=True,
              help="Samples of steps whose action left the screen unchanged: keep them, or drop them (counted "
                   "as ineffective_step).")
@click.option("--som", is_flag=True,
              help="Numbered boxes of the listed elements on a derived copy of each screenshot ("
                   + ", ".join(som_formats()) + ").")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes that build the samples.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
@_fatal_to_exit
def export(run_dir, fmt, out, force, memory, history, history_images, split_ratio, shard_size, agent_tools, family,
           max_length, min_pixels, max_pixels, tokenizer, absolute_paths, hf_dataset, seed, workers, progress,
           ineffective, som):
    """Write single-step SFT samples as ms-swift JSONL shards with the original images and a train.sh.

    \b
    One sample per step: the task, earlier steps and the screenshot in; reasoning and one action out, in the
    chosen agent format. Samples are sized in tokens and ordered into packs for `swift sft --packing true`.

    \b
    Example:
      sftdata export processed/demo --format qwen2.5-vl --memory --out processed/demo/export/sft-qwen25
    """
    from .export.stage import ExportOptions, export_run
    from .formats import load_all

    if fmt not in load_all():
        raise click.BadParameter(f"unknown format; known: {', '.join(sorted(load_all()))}", param_hint="--format")
    if som and not getattr(load_all()[fmt], "som", False):
        raise click.UsageError(f"--som draws numbered element boxes for formats whose prompt promises them "
                               f"({', '.join(som_formats())}); {fmt} does not")
    opts = ExportOptions(format=fmt, memory=memory, history=history, history_images=history_images,
                         split_ratio=split_ratio, shard_size=shard_size, agent_tools=agent_tools, family=family,
                         max_length=max_length, min_pixels=min_pixels, max_pixels=max_pixels, tokenizer=tokenizer,
                         absolute_paths=absolute_paths, hf_dataset=hf_dataset, seed=seed, workers=workers,
                         progress=progress, ineffective=ineffective, som=som)
    run = RunDir(run_dir)
    with run.writing(readonly_ok=True):
        result = export_run(run, out, opts, force=force)
    m = result.manifest
    click.echo(f"exported {m['samples'].get('train', 0)} train + {m['samples'].get('val', 0)} val samples "
               f"({fmt}) to {out}")
    tokens = m["tokens"].get("total", {})
    if tokens:
        click.echo(f"tokens per sample ({m['family']}, text {m['text_tokens']['method']}): mean {tokens['mean']}, "
                   f"p95 {tokens['p95']}, max {tokens['max']} (max_length {max_length})")
    pk = m["packing"].get("train")
    if pk:
        click.echo(f"packing: {pk['packs']} packs, efficiency {pk['efficiency']:.1%} "
                   f"(lower bound {pk['lower_bound_packs']} packs, {pk['lower_bound_efficiency']:.1%})")
    for warning in m.get("warnings", []):
        click.echo(f"warning: {warning}", err=True)
    for reason, count in m["dropped"].items():
        click.echo(f"  dropped: {reason:<30} {count:>6}")
    click.echo(f"train with: bash {out}/train.sh")
