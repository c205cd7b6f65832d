"""The ``sftdata`` command group and what every command module shares (no command module imports another).

The group loads its commands lazily: the command line's command is looked up in :data:`COMMAND_MODULES` and
only that module is imported (``sftdata --version`` imports none; ``sftdata export`` imports
:mod:`sftdata.cli_stages`, not the ingest commands and their sources). Listing the commands (``--help``)
imports :mod:`sftdata.cli`, which registers them all.
"""
from __future__ import annotations

from functools import wraps
from importlib import import_module
from pathlib import Path

import click

from . import __version__
from .errors import FatalError
from .exitcodes import ExitCode, exit_code_of
from .options import id_list
from .plural import counted


def fatal_to_exit(fn):
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


def executor_flags(fn):
    """``--executor`` and ``--address``, the run config's top-level declarations, on a stage command."""
    from .config import TopLevel
    from .options import click_options

    return click_options(TopLevel, only=("executor", "address"))(fn)


def open_executor(options: dict, workers: int = 1):
    """The executor ``--executor``/``--address`` chose (taken out of ``options``), to open with ``with``: a Ray
    started for the command is stopped when it ends."""
    from .executors import executor

    return executor(options.pop("executor"), workers, options.pop("address"))


def batch_flags(fn):
    """``--write-requests`` and ``--import-results``: the batch backend of an LLM stage (annotate, judge)."""
    fn = click.option("--import-results", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                      help="batch: read Batch API result lines and check them.")(fn)
    return click.option("--write-requests", type=click.Path(dir_okay=False, path_type=Path),
                        help="batch: write OpenAI Batch API request lines here.")(fn)


def run_llm_stage(run_dir: Path, stage_class: type, opts, write_requests: Path | None, import_results: Path | None):
    """Run an LLM stage (:class:`sftdata.llm_stage.LLMStage`: annotate, judge) on ``run_dir`` under its writer lock:
    its outcome, or with the batch backend the request lines written (None) or the result lines imported."""
    from .rundir import RunDir

    batch = opts.backend == "batch"
    if batch and bool(write_requests) == bool(import_results):
        raise click.UsageError("the batch backend needs exactly one of --write-requests or --import-results")
    run = RunDir(run_dir)
    with run.writing():
        stage = stage_class(run, opts, results=import_results if batch else None)
        if batch and write_requests:
            n = stage.write_requests(write_requests)
            click.echo(f"wrote {counted(n, 'request line')} to {write_requests}; submit them to the Batch API, then "
                       "run --import-results with the output file")
            return None
        return stage.execute()


def llm_stats_line(stats) -> str:
    """Requests, retries, cache hits and tokens of an LLM stage, on one line."""
    failed = stats.get("failed_requests", 0)
    return (f"requests {stats['requests']}   retries {stats['retries']}   cache hits {stats['cache_hits']}   "
            f"tokens in {stats['prompt_tokens']} out {stats['completion_tokens']}"
            + (f"   failed requests {failed} (no answer: endpoint down, timeouts, 5xx)" if failed else ""))


# the module that defines each command (tests/test_cli_imports.py checks it against the registered commands)
COMMAND_MODULES = {
    "ingest": "cli", "run": "cli", "report": "cli", "inspect": "cli", "summary": "cli", "sample": "cli",
    "annotate": "cli_stages", "validate": "cli_stages", "export": "cli_stages",
    "judge": "cli_judge", "review": "cli_review", "preflight": "cli_preflight", "eval": "cli_eval",
}


class LazyGroup(click.Group):
    """A group that imports a command's module when the command line names it (see the module docstring)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            import_module(f"{__package__}.{COMMAND_MODULES.get(cmd_name, 'cli')}")
        if cmd_name not in self.commands:  # a command missing from the map: every module registers its own
            import_module(f"{__package__}.cli")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        import_module(f"{__package__}.cli")
        return super().list_commands(ctx)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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
