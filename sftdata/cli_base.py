"""The ``sftdata`` command group and what every command module shares (no command module imports another)."""
from __future__ import annotations

from functools import wraps
from pathlib import Path

import click

from . import __version__
from .errors import FatalError
from .exitcodes import ExitCode, exit_code_of
from .options import id_list
from .plural import counted


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
        except KeyboardInterrupt:
            error = click.ClickException("interrupted: what was finished is kept; run the same command again to "
                                         "resume")
            error.exit_code = ExitCode.INTERRUPTED
            raise error from None
    return wrapper


_ids = id_list  # episode ids from "a,b" or a file of ids


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
            click.echo(f"wrote {counted(n, 'request line')} to {write_requests}; submit them to the Batch API, then "
                       "run --import-results with the output file")
            return None
        return read(run, import_results)


def llm_stats_line(stats) -> str:
    """Requests, retries, cache hits and tokens of an LLM stage, on one line."""
    failed = stats.get("failed_requests", 0)
    return (f"requests {stats['requests']}   retries {stats['retries']}   cache hits {stats['cache_hits']}   "
            f"tokens in {stats['prompt_tokens']} out {stats['completion_tokens']}"
            + (f"   failed requests {failed} (no answer: endpoint down, timeouts, 5xx)" if failed else ""))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="sftdata")
def main() -> None:
    """Turn GUI-agent trajectories into supervised fine-tuning data.

    \b
    Stages: ingest -> annotate -> (judge) -> validate -> export -> report, each its own command, or all of
    them from one config with `sftdata run`. Every stage reads and writes one run directory and can be
    killed and re-run: finished work is not redone.

    \b
    Example:
      sftdata sample raw/sample/sample.tfrecord.gz
      sftdata ingest androidcontrol raw/sample/sample.tfrecord.gz --out processed/demo
      sftdata summary processed/demo
    """
