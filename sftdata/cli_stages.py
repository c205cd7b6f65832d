"""The reconstruction and export commands of the ``sftdata`` CLI: annotate, validate, export."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import fatal_to_exit, batch_flags, executor_flags, llm_stats_line, main, open_executor, run_llm_stage
from .errors import FatalError
from .exitcodes import EndpointUnavailable, NothingProduced
from .plural import counted, plural
from .rundir import RunDir
from .formats import som_formats
from .annotate.options import AnnotateOptions
from .config import ValidateTable
from .export.options import ExportOptions
from .options import click_options, from_cli


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click_options(AnnotateOptions)
@batch_flags
@fatal_to_exit
def annotate(run_dir, write_requests, import_results, **options):
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
    from .annotate.stage import AnnotateStage, result_of

    opts = from_cli(AnnotateOptions, options)
    backend = opts.backend
    outcome = run_llm_stage(run_dir, AnnotateStage, opts, write_requests, import_results)
    if outcome is None:
        return
    result = result_of(outcome)
    click.echo(f"annotated {counted(result.new_annotated, 'new episode')}, rejected {result.new_rejected} "
               f"(run total: {result.annotated} annotated, {result.rejected} rejected)")
    llm = result.stats
    if backend != "template":
        click.echo(llm_stats_line(llm))
    for reason, count in sorted(result.by_reason.items(), key=lambda kv: -kv[1]):
        click.echo(f"  rejected: {reason:<28} {count:>6}")
    if result.deferred:
        raise EndpointUnavailable(outcome.stage.deferred_message(result.deferred))
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
@click_options(ValidateTable)
@executor_flags
@fatal_to_exit
def validate(run_dir, episodes_path, annotations_path, report, cjk_threshold, **options):
    """Check reasoning/action alignment of an annotation file and report why items fail (exit 1 on failures).

    \b
    Examples:
      sftdata validate processed/demo
      sftdata validate --episodes episodes.jsonl --annotations reconstructions.jsonl --report report.json
    """
    from .io import write_json_atomic
    from .validate import format_report

    if run_dir is not None:
        if episodes_path or annotations_path:
            raise click.UsageError("give either RUN or --episodes with --annotations, not both")
        episodes_path, annotations_path = run_dir / "episodes.jsonl", run_dir / "annotations.jsonl"
        if not annotations_path.exists():
            raise FatalError(f"{run_dir} has no annotations.jsonl: run `sftdata annotate` first")
    elif not (episodes_path and annotations_path):
        raise click.UsageError("give RUN, or both --episodes and --annotations")
    with open_executor(options) as executor:  # the check is one unit
        [(_, result)] = executor.map(_validate_files, [("annotations", (episodes_path, annotations_path,
                                                                        cjk_threshold))])
    if isinstance(result, BaseException):
        raise result
    if report:
        write_json_atomic(report, result.to_dict())
    click.echo(format_report(result))
    if not result.ok:
        raise SystemExit(1)


def _validate_files(payload: tuple[Path, Path, float]):
    """The validate command's one unit: the whole report of the annotations checked against the episodes."""
    from .validate import validate_files

    return validate_files(*payload)


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Export directory: new, empty, or (with --force) an earlier export; outside RUN or in RUN/export/.")
@click.option("--force", is_flag=True, help="Replace an earlier sftdata export in --out (never any other folder).")
@click_options(ExportOptions)
@executor_flags
@fatal_to_exit
def export(run_dir, out, force, **options):
    """Write single-step SFT samples as ms-swift JSONL shards with the original images and a train.sh.

    \b
    One sample per step: the task, earlier steps and the screenshot in; reasoning and one action out, in the
    chosen agent format. Samples are sized in tokens and ordered into packs for `swift sft --packing true`.

    \b
    Example:
      sftdata export processed/demo --format qwen2.5-vl --memory --out processed/demo/export/sft-qwen25
      sftdata export processed/demo --format qwen2.5-vl --rl --out processed/demo/export/rl-qwen25
    """
    from .export.stage import ExportStage, drop_hint
    from .formats import load_all

    chosen = {k: options.pop(k) for k in ("executor", "address")}
    opts = from_cli(ExportOptions, options)
    fmt, max_length = opts.format, opts.max_length
    if opts.som and not getattr(load_all()[fmt], "som", False):
        raise click.UsageError(f"--som draws numbered element boxes for formats whose prompt promises them "
                               f"({', '.join(som_formats())}); {fmt} does not")
    run = RunDir(run_dir)
    with run.writing(readonly_ok=True), open_executor(chosen, opts.workers) as executor:
        stage = ExportStage(run, opts, out=out, force=force, executor=executor)
        done = stage.execute(force=force)  # --force: export again; without it an unchanged export is not redone
    if done.skipped:
        click.echo(f"{out} already holds this export of the same inputs and options; nothing to do (--force exports "
                   "it again).")
        return
    m = stage.result.manifest
    click.echo(f"exported {m['samples'].get('train', 0)} train + {counted(m['samples'].get('val', 0), 'val sample')} "
               f"({fmt}) to {out}")
    tokens = m["tokens"].get("total", {})
    if tokens:
        click.echo(f"tokens per sample ({m['family']}, text {m['text_tokens']['method']}): mean {tokens['mean']}, "
                   f"p95 {tokens['p95']}, max {tokens['max']} (max_length {max_length})")
    pk = m["packing"].get("train")
    if pk:
        click.echo(f"packing: {counted(pk['packs'], 'pack')}, efficiency {pk['efficiency']:.1%} "
                   f"(lower bound {counted(pk['lower_bound_packs'], 'pack')}, {pk['lower_bound_efficiency']:.1%})")
    for warning in m.get("warnings", []):
        click.echo(f"warning: {warning}", err=True)
    for reason, count in m["dropped"].items():
        click.echo(f"  dropped: {reason:<30} {count:>6}{drop_hint([reason])}")
    click.echo(f"train with: bash {out}/{'train_grpo.sh' if opts.rl else 'train.sh'}")
