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
