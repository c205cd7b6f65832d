"""The ``sftdata`` command group and what every command module shares (no command module imports another).

The group loads its commands lazily: the command line's command is looked up in :data:`COMMAND_MODULES` and
only that module is imported (``sftdata --version`` imports none; ``sftdata export`` imports
:mod:`sftdata.cli_export` and the export stage its command is made from, not the other stages). Listing the
commands (``--help``) imports every command module.
"""
from __future__ import annotations

from functools import wraps
from importlib import import_module
from pathlib import Path

import click

from . import __version__
from .errors import FatalError, UsageError
from .exitcodes import ExitCode, exit_code_of


def fatal_to_exit(fn):
    """Turn a FatalError into a one-line message on stderr and its exit status (see exitcodes; no traceback), a
    UsageError into the command's usage and exit status 2."""
    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UsageError as exc:
            raise click.UsageError(str(exc)) from None
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


# how each kind of argument a stage declares (sftdata.command) is taken on the command line
ARGUMENTS = {"run": dict(type=click.Path(exists=True, file_okay=False, path_type=Path)),
             "run?": dict(required=False, type=click.Path(exists=True, file_okay=False, path_type=Path)),
             "file": dict(type=click.Path(exists=True, dir_okay=False, path_type=Path)),
             "files": dict(nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)),
             "folder": dict(type=click.Path(exists=True, file_okay=False, path_type=Path)),
             "paths": dict(nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))}


def stage_command(cls, group: click.Group) -> click.Command:
    """The command of the stage class ``cls`` (:class:`sftdata.command.Command`) on ``group``: its arguments, the
    flags before its options record, the record's options, the flags after, its docstring as the help; the work is
    ``cls.invoke`` with the record made from the command line (an argument that is a field of it included)."""
    from dataclasses import fields

    from .options import click_options, from_cli

    in_record = {f.name for f in fields(cls.options)}

    def command(**params):
        for name, kind, *_ in cls.arguments:
            if ARGUMENTS[kind].get("nargs") == -1:
                params[name] = list(params[name])
        opts = from_cli(cls.options, {k: params.pop(k) for k in list(params) if k in in_record})
        cls.invoke(click.echo, opts, **params)

    decorators = [click.argument(name, **ARGUMENTS[kind], **({"metavar": more[0]} if more else {}))
                  for name, kind, *more in cls.arguments]
    decorators += [flags.decorator() for flags in cls.flags_before] + [click_options(cls.options)]
    decorators += [flags.decorator() for flags in cls.flags_after] + [fatal_to_exit]
    for decorate in reversed(decorators):
        command = decorate(command)
    return group.command(cls.command_name(), help=cls.__doc__)(command)


# the module that defines each command (tests/test_cli_imports.py checks it against the registered commands)
COMMAND_MODULES = {
    "ingest": "cli", "run": "cli", "report": "cli", "inspect": "cli", "summary": "cli", "sample": "cli",
    "annotate": "cli_stages", "validate": "cli_stages", "export": "cli_export",
    "judge": "cli_judge", "review": "cli_review", "preflight": "cli_preflight", "eval": "cli_eval",
}


class LazyGroup(click.Group):
    """A group that imports a command's module when the command line names it (see the module docstring)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            import_module(f"{__package__}.{COMMAND_MODULES.get(cmd_name, 'cli')}")
        if cmd_name not in self.commands:  # a command missing from the map: every module registers its own
            self.load_all()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.load_all()
        return super().list_commands(ctx)

    @staticmethod
    def load_all() -> None:
        """Import every command module (each registers its commands)."""
        for module in sorted(set(COMMAND_MODULES.values())):
            import_module(f"{__package__}.{module}")


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
    from .options import workers_environment_problem

    problem = workers_environment_problem()
    if problem:
        raise click.UsageError(problem)
