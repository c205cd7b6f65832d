"""``sftdata review export|import``: human review of a run's reasoning through Label Studio."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import _fatal_to_exit, main


@main.group()
def review() -> None:
    """Human review through Label Studio: export tasks, import the reviewers' decisions.

    \b
    Example:
      sftdata review export processed/demo --out review --sample 20 --only failed
      (create a Label Studio project with review/config.xml, import review/tasks.json, review, export JSON)
      sftdata review import processed/demo project-1-at-2026-01-01.json
    """


@review.command("export")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for tasks.json (Label Studio tasks) and config.xml (the labeling config).")
@click.option("--sample", type=click.IntRange(min=1), help="Review this many episodes, drawn at random [default: all].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the --sample draw.")
@click.option("--only", type=click.Choice(["all", "failed", "passed"]), default="all", show_default=True,
              help="Episodes the judge (RUN/judgements.jsonl, else the rules check) failed or passed.")
@click.option("--image-url", help="Write the images to OUT/images/ and reference them as IMAGE_URL + name (e.g. "
                                  "'/data/local-files/?d=review/images/') [default: inline data URLs].")
@_fatal_to_exit
def review_export(run_dir, out, sample, seed, only, image_url):
    """Write Label Studio tasks (one per episode) and the labeling config for human review of RUN_DIR.

    \b
    OUT/config.xml is the project's labeling config, OUT/tasks.json its tasks: per step the clean screenshot,
    the annotator image, the judge's verdict, the rules check, the reasoning and function to edit, and the
    choice accept / edit / reject. Images are inlined as data URLs (no storage to set up) unless --image-url.

    \b
    Example:
      sftdata review export processed/demo --out review --sample 20 --seed 1 --only failed
    """
    from .review.tasks import export_review
    from .rundir import RunDir

    result = export_review(RunDir(run_dir), out, sample=sample, seed=seed, only=only, image_url=image_url)
    click.echo(f"wrote {result.tasks} tasks ({result.steps} steps) of {result.candidates} candidate episodes to "
               f"{out / 'tasks.json'}; labeling config {out / 'config.xml'}"
               + (f"; {result.judged} episodes have a judge verdict" if result.judged else ""))


@review.command("import")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("export_json", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_fatal_to_exit
def review_import(run_dir, export_json):
    """Apply a Label Studio JSON export of review tasks to RUN_DIR (idempotent).

    \b
    Edits are re-checked (alignment and hindsight) and applied only when they pass; accepted and edited items
    carry their provenance in RUN/reviews.jsonl; rejected steps go to RUN/rejects.jsonl (human_rejected) and
    their samples are left out of the next export. Agreement figures go into the run manifest.

    \b
    Example:
      sftdata review import processed/demo project-1-at-2026-01-01-10-00.json
    """
    from .review.importer import format_import, import_review
    from .rundir import RunDir

    click.echo(format_import(import_review(RunDir(run_dir), export_json)))
