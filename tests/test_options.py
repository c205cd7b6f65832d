"""Each stage option is declared once (sftdata.options): the CLI flags, the run config's keys and checks and the
example config are made from the same fields, so none of them can miss an option or disagree on its range."""
from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from sftdata.annotate.options import AnnotateOptions
from sftdata.cli import main
from sftdata.config import ReportOptions, RunConfig, TopLevel, ValidateTable, example_config, parse_config
from sftdata.errors import FatalError
from sftdata.export.options import ExportOptions
from sftdata.families import FAMILIES
from sftdata.formats import names as format_names
from sftdata.judge.options import JudgeOptions
from sftdata.options import config_fields, spec_of
from sftdata.sources import AndroidControlSource, AnnotatedSource, Mind2WebSource

COMMANDS = [("annotate", AnnotateOptions), ("judge", JudgeOptions), ("export", ExportOptions),
            ("validate", ValidateTable), ("report", ReportOptions), ("ingest androidcontrol", AndroidControlSource),
            ("ingest annotated", AnnotatedSource), ("ingest mind2web", Mind2WebSource),
            # the top-level options: on `run` (overriding the config) and on every ingest command
            ("run", TopLevel), ("ingest androidcontrol", TopLevel), ("ingest annotated", TopLevel),
            ("ingest mind2web", TopLevel)]
HEAD = 'run_dir = "r"\n[[sources]]\ntype = "androidcontrol"\npaths = ["a.gz"]\n'


@pytest.mark.parametrize("command, cls", COMMANDS)
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


def _help(*command: str) -> str:
    return " ".join(CliRunner().invoke(main, [*command, "--help"], terminal_width=400).output.split())


def test_workers_is_declared_once_with_one_default():
    """`--workers` of run, export and ingest and the config's top-level key are one declaration: one default,
    one help; the example config's line is made from it."""
    defaults = {TopLevel().workers, ExportOptions().workers,
                RunConfig(run_dir=Path("r"), sources=[], annotate=AnnotateOptions(), exports=[]).workers}
    assert len(defaults) == 1
    helps = {_help(*c).split("--workers INTEGER RANGE")[1].split(" [")[0] for c in
             (["run"], ["export"], ["ingest", "androidcontrol"], ["ingest", "mind2web"])}
    assert len(helps) == 1
    spec = spec_of(next(f for f in fields(TopLevel) if f.name == "workers"))
    assert "workers = 2 " in example_config() and spec.config_help.rstrip(".") in example_config()


def test_run_overrides_are_the_annotate_declarations():
    """run's --backend, --model and --base-url are [annotate]'s fields: the same help, the config's choices (no
    batch: that is two commands, not a run), and no default of their own (the config's holds)."""
    text = _help("run")
    for name in ("backend", "model", "base_url"):
        spec = spec_of(next(f for f in fields(AnnotateOptions) if f.name == name))
        flag = "--" + name.replace("_", "-")
        assert flag in text and " ".join(spec.help.split()) in text
    assert "[template|openai]" in text and "template|openai|batch" not in text
    result = CliRunner().invoke(main, ["run", "x.toml", "--backend", "batch"])
    assert result.exit_code == 2


def test_batch_flags_are_declared_once():
    for command in ("annotate", "judge"):
        text = _help(command)
        assert "--write-requests FILE" in text and "--import-results FILE" in text


EXECUTOR_COMMANDS = (["run"], ["ingest", "androidcontrol"], ["ingest", "annotated"], ["ingest", "mind2web"],
                     ["export"], ["validate"], ["report"])


def test_executor_and_address_are_declared_once():
    """--executor and --address of run, every ingest command, export, validate and report are the top level's two
    fields: one help, one choice list, one default (the run config's, too)."""
    helps = {_help(*c).split("--executor [local|ray]")[1].split(" --address ADDR")[0].split(" [default")[0]
             for c in EXECUTOR_COMMANDS}
    assert len(helps) == 1 and "--concurrency bounds the whole run" in helps.pop()
    assert len({_help(*c).split("--address ADDR")[1].split(" 10 s.")[0] for c in EXECUTOR_COMMANDS}) == 1
    top, cfg = TopLevel(), RunConfig(run_dir=Path("r"), sources=[], annotate=AnnotateOptions(), exports=[])
    assert (top.executor, top.address) == (cfg.executor, cfg.address) == ("local", None)
    assert '# executor = "local"' in example_config() and '# address = "head-node:6379"' in example_config()


def test_executor_in_the_config_top_level():
    cfg = parse_config('executor = "Ray"\naddress = "head:6379"\n' + HEAD, Path("/x"))
    assert (cfg.executor, cfg.address) == ("ray", "head:6379")
    with pytest.raises(FatalError, match="executor = 'spark' should be one of local, ray"):
        parse_config('executor = "spark"\n' + HEAD, Path("/x"))


def test_address_without_ray_is_one_line(tmp_path):
    """--address is for the ray executor: with the local one it is refused in one line, exit 1, nothing written."""
    (tmp_path / "in").mkdir()
    result = CliRunner().invoke(main, ["ingest", "annotated", str(tmp_path / "in"), "--out", str(tmp_path / "run"),
                                       "--address", "127.0.0.1:1"])
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == ["Error: --address 127.0.0.1:1 is for the ray executor (--executor ray); "
                                          "the local executor runs on this machine"]
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("given,expected", [("3", "3"), ("0", "cores"), ("two", "cores"), ("", "cores")])
def test_sftdata_workers_sets_the_default_workers(given, expected):
    """``SFTDATA_WORKERS`` (a whole number >= 1) is the default of ``--workers`` and of the config's key; unset or
    empty, the default is this machine's cores, at most 8, and so it is for the library given a bad value (the
    commands refuse one: the next test)."""
    import os
    import subprocess
    import sys

    code = ("import os; from sftdata.config import TopLevel; from sftdata.export.options import ExportOptions; "
            "print(TopLevel().workers, ExportOptions().workers, min(8, len(os.sched_getaffinity(0))))")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "SFTDATA_WORKERS": given},
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1] == (out[2] if expected == "cores" else expected)


@pytest.mark.parametrize("given", ["0", "two", "-1", "1.5"])
def test_a_bad_sftdata_workers_is_one_line_before_any_command_runs(given, tmp_path, monkeypatch):
    """Every command refuses a ``SFTDATA_WORKERS`` that is not a whole number >= 1 in one line (exit 2, as a bad
    ``--workers``), before it reads or writes anything."""
    monkeypatch.setenv("SFTDATA_WORKERS", given)
    (tmp_path / "in").mkdir()
    result = CliRunner().invoke(main, ["ingest", "annotated", str(tmp_path / "in"), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (f"Error: SFTDATA_WORKERS={given!r} should be a whole number >= 1 "
                                              "(the default of --workers)")
    assert "Traceback" not in result.output
    assert not (tmp_path / "run").exists()
