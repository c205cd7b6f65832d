"""``sftdata review export|import|push|pull``: human review of a run's reasoning through Label Studio."""
from __future__ import annotations

from pathlib import Path

import click

from .cli_base import fatal_to_exit, main, stage_command
from .plural import counted, plural

from .review import ONLY
from .review.importer import ReviewImportStage


@main.group()
def review() -> None:
    """Human review through Label Studio: export tasks, import the reviewers' decisions.

    \b
    Example:
      sftdata review export processed/demo --out review --sample 20 --only failed
      sftdata review export processed/demo --out review --only unsure   # the steps the checks could not certify
      (create a Label Studio project with review/config.xml, import review/tasks.json, review, export JSON)
      sftdata review import processed/demo project-1-at-2026-01-01.json
    """


@review.command("export")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for tasks.json (Label Studio tasks) and config.xml (the labeling config).")
@click.option("--sample", type=click.IntRange(min=1), help="Review this many episodes, drawn at random [default: all].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the --sample draw.")
@click.option("--only", type=click.Choice(ONLY), default="all", show_default=True,
              help="Episodes the judge (RUN/judgements.jsonl, else the rules check) failed or passed; unsure: the "
                   "review queue, episodes with a step the checks leave unsure and no judge model passed.")
@click.option("--image-url", help="Write the images to OUT/images/ and reference them as IMAGE_URL + name (e.g. "
                                  "'/data/local-files/?d=review/images/') [default: inline data URLs].")
@fatal_to_exit
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
    click.echo(f"wrote {counted(result.tasks, 'task')} ({counted(result.steps, 'step')}) of "
               f"{counted(result.candidates, 'candidate episode')} to {out / 'tasks.json'}; labeling config "
               f"{out / 'config.xml'}"
               + (f"; {counted(result.judged, 'episode')} {plural(result.judged, 'has', 'have')} a judge verdict"
                  if result.judged else ""))


stage_command(ReviewImportStage, review)  # review import


def _server(url: str | None, token: str | None):
    from .errors import FatalError
    from .review.lsapi import Server

    if not url or not token:
        raise FatalError("Label Studio needs --url and --token (or LABEL_STUDIO_URL and LABEL_STUDIO_API_KEY)")
    return Server(url, token)


_url = click.option("--url", envvar="LABEL_STUDIO_URL", help="Label Studio's address [env LABEL_STUDIO_URL].")
_token = click.option("--token", envvar="LABEL_STUDIO_API_KEY",
                      help="An API token (legacy) or personal access token [env LABEL_STUDIO_API_KEY].")


@review.command("push")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_url
@_token
@click.option("--title", help="Project title [default: sftdata review RUN TIME].")
@click.option("--local-files", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The server's LOCAL_FILES_DOCUMENT_ROOT: images become files under RUN/review/ (inside it), "
                   "served by a Local Files storage the project gets [default: inline data URLs].")
@click.option("--sample", type=click.IntRange(min=1), help="Review this many episodes, drawn at random [default: all].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the --sample draw.")
@click.option("--only", type=click.Choice(ONLY), default="all", show_default=True,
              help="Episodes the judge (else the rules check) failed or passed; unsure: the review queue (a step the "
                   "checks leave unsure that no judge model passed).")
@fatal_to_exit
def review_push(run_dir, url, token, title, local_files, sample, seed, only):
    """Create a Label Studio project with RUN_DIR's review tasks (through its API).

    \b
    Example:
      sftdata review push processed/demo --url http://localhost:8080 --token $TOKEN --only failed
      (review in Label Studio, then:) sftdata review pull processed/demo --token $TOKEN
    """
    from .review.lsapi import push
    from .rundir import RunDir

    state = push(RunDir(run_dir), _server(url, token), title=title, local_files=local_files, sample=sample,
                 seed=seed, only=only)
    images = "images served by a Local Files storage" if state["storage"] else "images inlined"
    click.echo(f"project {state['project']} at {state['url'].rstrip('/')}/projects/{state['project']}: "
               f"{counted(len(state['tasks']), 'task')}, {images}")


@review.command("pull")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_url
@_token
@fatal_to_exit
def review_pull(run_dir, url, token):
    """Download the pushed project's annotations and apply them to RUN_DIR, as `review import` does.

    \b
    Example:
      sftdata review pull processed/demo --token $TOKEN
    """
    from .errors import FatalError
    from .review.importer import format_import
    from .review.lsapi import pull
    from .rundir import RunDir

    if not token:
        raise FatalError("Label Studio needs --token (or LABEL_STUDIO_API_KEY)")
    path, result = pull(RunDir(run_dir), token, url)
    click.echo(f"downloaded {path}")
    click.echo(format_import(result))
