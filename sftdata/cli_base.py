"""The ``sftdata`` command group and what every command module shares (no command module imports another)."""
from __future__ import annotations

from functools import wraps
from pathlib import Path

import click

from . import __version__
from .errors import FatalError
from .exitcodes import exit_code_of


def _fatal_to_exit(fn):
    """Turn a FatalError into a one-line message on stderr and its exit status (see exitcodes; no traceback)."""
    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except FatalError as exc:
            error = click.ClickException(str(exc))
            error.exit_code = exit_code_of(exc)
            raise error from None
    return wrapper


def _ids(value: str | None) -> list[str] | None:
    if not value:
        return None
    path = Path(value)
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        return [t for t in text.replace(",", " ").split() if t]
    return [t.strip() for t in value.split(",") if t.strip()]


def endpoint_options(*, prompt_help: str, image_help: str, max_tokens: int, attempts_help: str, window_min: int,
                     window_default: int, window_help: str):
    """The options every LLM stage shares (annotate, judge: :class:`~sftdata.llm.endpoint.EndpointOptions`),
    with the defaults and help of the stage."""
    options = [
        click.option("--api-key-env", default="OPENAI_API_KEY", show_default=True,
                     help="Name of the environment variable that holds the API key (the key itself is never stored)."),
        click.option("--prompt-file", type=click.Path(exists=True, dir_okay=False), help=prompt_help),
        click.option("--structured/--no-structured", default=False, help="Ask for JSON-Schema structured output."),
        click.option("--image-max-side", type=click.IntRange(min=64), help=image_help),
        click.option("--image-format", type=click.Choice(["jpeg", "png"]), default="jpeg", show_default=True),
        click.option("--max-tokens", type=click.IntRange(min=16), default=max_tokens, show_default=True),
        click.option("--temperature", type=float, help="Sampling temperature (not sent when omitted)."),
        click.option("--timeout", type=click.FloatRange(min=1), default=120.0, show_default=True,
                     help="Seconds per request."),
        click.option("--max-retries", type=click.IntRange(min=0), default=4, show_default=True,
                     help="Retries of one request on 429/5xx/timeouts (exponential backoff, jitter, Retry-After)."),
        click.option("--concurrency", type=click.IntRange(min=1), default=8, show_default=True,
                     help="Requests in flight."),
        click.option("--max-attempts", type=click.IntRange(min=1), default=3, show_default=True, help=attempts_help),
        click.option("--window", type=click.IntRange(min=window_min), default=window_default, show_default=True,
                     help=window_help),
        click.option("--price-in", type=float, help="Price per million prompt tokens, for the cost in the manifest."),
        click.option("--price-out", type=float, help="Price per million completion tokens."),
    ]

    def decorate(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn
    return decorate


def run_llm_stage(run_dir: Path, backend: str, write_requests: Path | None, import_results: Path | None, *,
                  live, write, read):
    """Run an LLM stage (annotate, judge) on ``run_dir`` under its writer lock: ``live(run)``, or with the batch
    backend ``write(run, path)`` (request lines; returns None) or ``read(run, path)`` (result lines)."""
    from .rundir import RunDir

    if backend == "batch" and bool(write_requests) == bool(import_results):
        raise click.UsageError("the batch backend needs exactly one of --write-requests or --import-results")
    run = RunDir(run_dir)
    with run.writing():
        if backend != "batch":
            return live(run)
        if write_requests:
            n = write(run, write_requests)
            click.echo(f"wrote {n} request lines to {write_requests}; submit them to the Batch API, then run "
                       "--import-results with the output file")
            return None
        return read(run, import_results)


def llm_stats_line(stats) -> str:
    """Requests, retries, cache hits and tokens of an LLM stage, on one line."""
    return (f"requests {stats['requests']}   retries {stats['retries']}   cache hits {stats['cache_hits']}   "
            f"tokens in {stats['prompt_tokens']} out {stats['completion_tokens']}")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="sftdata")
def main() -> None:
    """Turn GUI-agent trajectories into supervised fine-tuning data.

    \b
    Stages: ingest -> (annotate) -> (validate) -> (export). Every stage reads and writes one run directory
    and can be killed and re-run: finished work is not redone.

    \b
    Example:
      sftdata sample raw/sample/sample.tfrecord.gz
      sftdata ingest androidcontrol raw/sample/sample.tfrecord.gz --out processed/demo
      sftdata summary processed/demo
    """
