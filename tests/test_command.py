"""Every stage command is made from its stage class (sftdata.command, sftdata.cli_base.stage_command): its name,
arguments, options record and flags, and its docstring as the help; a new stage is a class and nothing else."""
from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sftdata.annotate.stage import AnnotateStage
from sftdata.cli import main
from sftdata.cli_base import stage_command
from sftdata.errors import UsageError
from sftdata.exitcodes import NothingProduced
from sftdata.export.stage import ExportStage
from sftdata.ingest import STAGES
from sftdata.judge.stage import JudgeStage
from sftdata.options import Flags, PathType, option, spec_of
from sftdata.report.stage import ReportStage
from sftdata.review.importer import ReviewImportStage
from sftdata.stage import Stage
from sftdata.validate import ValidateStage

COMMANDS = [(["annotate"], AnnotateStage), (["judge"], JudgeStage), (["validate"], ValidateStage),
            (["export"], ExportStage), (["report"], ReportStage), (["review", "import"], ReviewImportStage)]
COMMANDS += [(["ingest", source], cls) for source, cls in STAGES.items()]


def _flags(record, skip=(), only=None) -> list[str]:
    return [spec.cli if isinstance(spec.cli, str) else "--" + f.name.replace("_", "-") for f in fields(record)
            if (spec := spec_of(f)) is not None and spec.cli is not False and f.name not in skip
            and (only is None or f.name in only)]


@pytest.mark.parametrize("command, cls", COMMANDS, ids=[" ".join(c) for c, _ in COMMANDS])
def test_each_stage_command_is_its_class(command, cls):
    """The help is the class docstring; every option of its record and of its flags is a flag, in the declared
    order (the flags before the record's, then the record's, then the flags after); its arguments are the usage's."""
    result = CliRunner().invoke(main, [*command, "--help"], terminal_width=400)
    assert result.exit_code == 0
    first = inspect.cleandoc(cls.__doc__).splitlines()[0]
    assert first in result.output
    flags = [flag for group in cls.flags_before for flag in _flags(group.record, group.skip, group.only)]
    flags += _flags(cls.options)
    flags += [flag for group in cls.flags_after for flag in _flags(group.record, group.skip, group.only)]
    text = result.output.split("Options:", 1)[1]
    positions = [text.index(f"  {flag} ") if f"  {flag} " in text else text.index(f"  {flag}/") for flag in flags]
    assert positions == sorted(positions), command
    usage = result.output.splitlines()[0]
    for name, kind, *metavar in cls.arguments:
        shown = metavar[0] if metavar else name.upper()
        assert shown in usage, (usage, shown)


@dataclass
class CountOptions:
    times: int = option(1, "How many lines to write.", low=1)
    loud: bool = option(False, "Shout.")


@dataclass
class CountTarget:
    out: Path | None = option(None, "File to write the lines into (in FOLDER).", cli_required=True,
                              click_type=PathType(dir_okay=False, as_path=True))


class CountStage(Stage):
    """Write the folder's name a few times into a file in it.

    \b
    Example:
      sftdata count some/folder --out lines.txt --times 3
    """

    name, options, key = "count", CountOptions, "lines"
    arguments = (("folder", "folder"),)
    flags_before = (Flags(CountTarget),)

    @classmethod
    def invoke(cls, echo, opts, *, folder, out):
        if out.name == "usage.txt":
            raise UsageError("--out usage.txt is refused with the usage")
        if out.name == "empty.txt":
            raise NothingProduced("nothing to count")
        text = folder.name.upper() if opts.loud else folder.name
        (folder / out).write_text("\n".join([text] * opts.times) + "\n", encoding="utf-8")
        echo(f"wrote {opts.times} lines to {out}")


def test_a_new_stage_is_a_class_and_nothing_else(tmp_path):
    """A stage class alone makes a command: its help, its argument, its flags and record, its work, and the exit
    statuses of its errors (a usage error: 2 with the usage; a FatalError: its own status, one line)."""
    @click.group()
    def group() -> None:
        """A test group."""

    stage_command(CountStage, group)
    runner, folder = CliRunner(), tmp_path / "hi"
    folder.mkdir()
    help_text = runner.invoke(group, ["count", "--help"], terminal_width=200).output
    assert "Usage: group count [OPTIONS] FOLDER" in help_text and "Write the folder's name a few times" in help_text
    assert help_text.index("--out FILE") < help_text.index("--times INTEGER RANGE") < help_text.index("--loud")
    done = runner.invoke(group, ["count", str(folder), "--out", "x.txt", "--times", "2", "--loud"])
    assert done.exit_code == 0 and done.output == "wrote 2 lines to x.txt\n"
    assert (folder / "x.txt").read_text(encoding="utf-8") == "HI\nHI\n"
    missing = runner.invoke(group, ["count", str(folder)])
    assert missing.exit_code == 2 and "Missing option '--out'" in missing.output
    usage = runner.invoke(group, ["count", str(folder), "--out", "usage.txt"])
    assert usage.exit_code == 2 and "Usage: group count" in usage.output and "--out usage.txt is refused" in usage.output
    empty = runner.invoke(group, ["count", str(folder), "--out", "empty.txt"])
    assert empty.exit_code == NothingProduced.exit_code and empty.output == "Error: nothing to count\n"
    assert sorted(p.name for p in folder.iterdir()) == ["x.txt"]
