"""The ``sftdata`` commands around the stages: ingest (one command per source, made from its stage class), run,
report, inspect, summary, sample; the other command modules are in ``cli_base.COMMAND_MODULES``."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .cli_base import fatal_to_exit, main, stage_command
from .annotate.options import AnnotateOptions
from .errors import FatalError
from .options import ProgressFlag, click_options, size_param
from .plural import counted
from .report.stage import ReportStage
from .rundir import RunDir
from .ingest import STAGES
from .summary import format_summary
from .toplevel import TopLevel
from .values import size_of


@main.group()
def ingest() -> None:
    """Read a source into a run directory (episodes.jsonl, images/, rejects.jsonl, manifest.json)."""


PROGRESS = click_options(ProgressFlag)

for _stage_class in STAGES.values():  # sftdata ingest SOURCE, made from each source's stage class
    stage_command(_stage_class, ingest)


@main.command("run")
@click.argument("config", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--print-example-config", is_flag=True, help="Print a commented example configuration and exit.")
@click_options(TopLevel, skip=("run_dir",), overrides="config")
@click_options(AnnotateOptions, only=("backend", "model", "base_url"), overrides="[annotate]")
@PROGRESS
@fatal_to_exit
def run_command(config, print_example_config, workers, executor, address, backend, model, base_url, strict, progress):
    """Run the whole conversion from a TOML config: ingest, annotate, judge (with a [judge] table), validate,
    export, report.

    \b
    Each stage is skipped when it already finished with the same inputs and options; a killed run resumes
    where it stopped, without paying twice for LLM calls. Ends with a summary table.

    \b
    Examples:
      sftdata run --print-example-config > sftdata.toml
      sftdata run sftdata.toml --workers 2
      sftdata run sftdata.toml --executor ray                       # a Ray on 127.0.0.1, stopped afterwards
      sftdata run sftdata.toml --executor ray --address head:6379   # the stages' units on a Ray cluster
    """
    from dataclasses import replace as dc_replace

    from .config import check_inputs, example_config, load_config
    from .pipeline import run_pipeline, shown, summary_table

    if print_example_config:
        click.echo(example_config(), nl=False)
        return
    if config is None:
        raise click.UsageError("give a CONFIG file (sftdata run --print-example-config prints one)")
    cfg = load_config(config)
    check_inputs(cfg, config)
    if workers:
        cfg.workers = workers
    if strict is not None:
        cfg.strict = strict
    if executor:
        cfg.executor = executor
    if address:
        cfg.address = address
    if backend or model or base_url:
        cfg.annotate = dc_replace(cfg.annotate, backend=backend or cfg.annotate.backend,
                                  model=model or cfg.annotate.model, base_url=base_url or cfg.annotate.base_url)
    result = run_pipeline(cfg, progress=progress)
    click.echo(summary_table(result))
    for name, manifest in result.exports.items():
        script = "train_grpo.sh" if (manifest.get("options") or {}).get("rl") else "train.sh"
        click.echo(f"train {name}: bash {shown(manifest['dir'])}/{script}")
    if result.report:
        click.echo(f"report: {shown(result.report)}")
    unbalanced = [name for name, acc in result.accounting.items() if isinstance(acc, dict) and not acc["balanced"]]
    if unbalanced:
        raise FatalError(f"episodes unaccounted for in {', '.join(unbalanced)}: ingested != exported + rejected "
                         "(see the accounting lines above)")


stage_command(ReportStage, main)


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--episode", "episode_id", required=True, help="Episode id (as in episodes.jsonl).")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Image file to write: .png, or .jpg/.jpeg for JPEG.")
@fatal_to_exit
def inspect(run_dir, episode_id, out):
    """Draw a contact sheet of one episode: annotator images with their marks, step, action, instruction.

    \b
    Example:
      sftdata inspect processed/demo --episode 100003 --out /tmp/episode.png
    """
    from .inspect import write_contact_sheet

    RunDir(run_dir).require_run()
    click.echo(f"wrote {write_contact_sheet(run_dir, episode_id, out)}")


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the totals as JSON.")
@fatal_to_exit
def summary(run_dir, as_json):
    """Print what a run directory holds: episodes, steps, actions, rejects by reason.

    \b
    Example:
      sftdata summary processed/demo
    """
    run = RunDir(run_dir)
    run.require_run()
    if as_json:
        click.echo(json.dumps(run.totals(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_summary(run))


@main.command()
@click.argument("out", type=click.Path(path_type=Path))
@click.option("--episodes", "n_episodes", type=click.IntRange(min=1),
              help="Episodes (tasks with --mind2web)  [default: 12; with --mind2web every scripted task, 13; "
                   "with --annotated or --annotated-web 4]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--size", default="1080x2400", show_default=True, type=size_param(), help="Screen size WIDTHxHEIGHT.")
@click.option("--mind2web", is_flag=True,
              help="Write web tasks as a Multimodal-Mind2Web Parquet shard (the release's schema) instead.")
@click.option("--mind2web-json", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="With --mind2web: also write the same tasks as text-only Mind2Web JSON and screenshot folders.")
@click.option("--annotated-web", is_flag=True,
              help="Write human-annotated web trajectories (desktop browser frames with red marks, task.json with "
                   "platform web, urls and elements) into the directory OUT instead.")
@click.option("--annotated", is_flag=True,
              help="Write human-annotated phone trajectories (frames with the annotator's red label, circle and "
                   "arrow, a task.json with goal and actions) into the directory OUT instead: `sftdata ingest "
                   "annotated OUT` reads them.")
def sample(out, n_episodes, seed, size, mind2web, mind2web_json, annotated_web, annotated):
    """Write synthetic trajectories to try the pipeline on, in one of four input formats.

    \b
    OUT                   phone episodes, an AndroidControl-format GZIP TFRecord (the default)
    OUT --mind2web        web tasks, a Multimodal-Mind2Web Parquet shard
    OUT --annotated       human-annotated phone trajectories, one folder each (frames with red marks, task.json)
    OUT --annotated-web   human-annotated web trajectories, one folder each (frames with red marks, task.json)

    \b
    Drawn screens (status bar, list rows, buttons, a search field, Chinese and English text) with matching
    accessibility trees, covering every action type. Deterministic for a seed.

    \b
    Examples:
      sftdata sample raw/sample/sample.tfrecord.gz --episodes 12 --seed 0
      sftdata sample raw/sample/mind2web.parquet --mind2web --mind2web-json raw/sample/mind2web-json
      sftdata sample raw/sample/web-annotated --annotated-web
      sftdata sample raw/mine --annotated
    """
    if mind2web_json and not mind2web:
        raise click.UsageError("--mind2web-json needs --mind2web")
    if annotated:
        if mind2web or annotated_web:
            raise click.UsageError("--annotated writes phone trajectories; --mind2web and --annotated-web write "
                                   "others: choose one")
        from .synthetic.phone_annotated import write_phone_annotated

        count = fatal_to_exit(write_phone_annotated)(out, n_episodes=n_episodes or 4, seed=seed, size=size_of(size))
        click.echo(f"wrote {count} annotated phone trajectories to {out}; next: sftdata ingest annotated {out} "
                   "--out RUN")
        return
    if annotated_web:
        if mind2web:
            raise click.UsageError("--annotated-web and --mind2web write different things: choose one")
        from .synthetic.web_annotated import write_web_annotated

        count = fatal_to_exit(write_web_annotated)(out, n_episodes=n_episodes or 4, seed=seed)
        click.echo(f"wrote {counted(count, 'annotated web trajectory', 'annotated web trajectories')} to {out}")
        return
    if out.is_dir():
        raise click.BadParameter(f"{out} is a directory (a directory is written only with --annotated or "
                                 "--annotated-web)",
                                 param_hint="OUT")
    if mind2web:
        from .synthetic.mind2web import TASKS, write_parquet, write_text_json

        tasks = n_episodes or len(TASKS)
        rows = write_parquet(out, tasks=tasks, seed=seed)
        click.echo(f"wrote {counted(tasks, 'task')} ({counted(rows, 'step')}) to {out} "
                   f"({out.stat().st_size / 1e6:.1f} MB)")
        if mind2web_json:
            click.echo(f"wrote the text-only JSON to {write_text_json(mind2web_json, tasks=tasks, seed=seed)}")
        return
    from .synthetic.sample import write_sample

    count = write_sample(out, n_episodes=n_episodes or 12, seed=seed, size=size_of(size),
                         progress=sys.stderr.isatty())
    click.echo(f"wrote {counted(count, 'episode')} to {out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":  # pragma: no cover
    # run as `python -m sftdata.cli`, this file is __main__: use the imported module's group, which the commands
    # registered on
    from sftdata.cli import main as _main

    sys.exit(_main())
