"""Each stage option is declared once (sftdata.options): the CLI flags, the run config's keys and checks and the
example config are made from the same fields, so none of them can miss an option or disagree on its range."""
from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.annotate.options import AnnotateOptions
from sftdata.cli import main
from sftdata.config import ValidateTable, example_config, parse_config
from sftdata.errors import FatalError
from sftdata.export.options import ExportOptions
from sftdata.families import FAMILIES
from sftdata.formats import names as format_names
from sftdata.judge.options import JudgeOptions
from sftdata.options import config_fields, spec_of
from sftdata.sources import AndroidControlSource, AnnotatedSource, Mind2WebSource

COMMANDS = {"annotate": AnnotateOptions, "judge": JudgeOptions, "export": ExportOptions, "validate": ValidateTable,
            "ingest androidcontrol": AndroidControlSource, "ingest annotated": AnnotatedSource,
            "ingest mind2web": Mind2WebSource}
HEAD = 'run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a.gz"]\n'


@pytest.mark.parametrize("command, cls", COMMANDS.items())
def test_every_declared_option_is_a_flag_with_its_help(command, cls):
    help_text = " ".join(CliRunner().invoke(main, [*command.split(), "--help"], terminal_width=400).output.split())
    for f in fields(cls):
        spec = spec_of(f)
        if spec is None or spec.cli is False:
            continue
        flag = spec.cli if isinstance(spec.cli, str) else "--" + f.name.replace("_", "-")
        assert flag in help_text, (command, flag)


def test_a_required_flag_is_required(tmp_path):
    """An option the command line must give (export --format) is refused when missing, not taken as None."""
    (tmp_path / "run").mkdir()
    result = CliRunner().invoke(main, ["export", str(tmp_path / "run"), "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "Missing option '--format'" in result.output
    assert not (tmp_path / "x").exists()


def test_every_config_key_is_in_the_example_and_the_example_parses():
    example = example_config()
    for cls in (AnnotateOptions, JudgeOptions, ExportOptions, ValidateTable):
        for f in config_fields(cls):
            if f.default is not None or spec_of(f).example is not None:
                assert f"{f.name} = " in example, f.name
    cfg = parse_config(example, Path("/x"))
    assert cfg.exports[0].format == "qwen2.5-vl" and cfg.annotate.backend == "template"


def test_registries_feed_the_choices():
    help_text = " ".join(CliRunner().invoke(main, ["export", "--help"], terminal_width=400).output.split())
    assert all(name in help_text for name in format_names()) and all(family in help_text for family in FAMILIES)
    with pytest.raises(FatalError, match="format = 'nope' should be one of"):
        parse_config(HEAD + '[[export]]\nformat = "nope"\n', Path("/x"))
    # the batch backend is two commands (write requests, import results), never a run
    assert "batch" in CliRunner().invoke(main, ["annotate", "--help"]).output
    with pytest.raises(FatalError, match="backend = 'batch' should be one of template, openai"):
        parse_config(HEAD + '[annotate]\nbackend = "batch"\n', Path("/x"))


@pytest.mark.parametrize("table, key, bad", [("annotate", "window", 1), ("judge", "min_score", 6),
                                             ("export", "split_ratio", 1.5), ("validate", "cjk_threshold", 2)])
def test_one_range_for_the_flag_and_the_key(tmp_path, table, key, bad):
    config = HEAD + ('[[export]]\nformat = "react-zh"\n' if table == "export" else "")
    config += (f"{key} = {bad}\n" if table == "export" else f"[{table}]\n{key} = {bad}\n")
    with pytest.raises(FatalError, match="out of range"):
        parse_config(config, Path("/x"))
    run = tmp_path / "run"
    run.mkdir()
    args = [table, str(run), "--" + key.replace("_", "-"), str(bad)] + (["--format", "react-zh", "--out", str(tmp_path / "o")]
                                                                        if table == "export" else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "range" in result.output, result.output
