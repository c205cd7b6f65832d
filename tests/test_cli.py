import re

import click
from click.testing import CliRunner

from sftdata.cli import main


def _commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield (*prefix, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    top = runner.invoke(main, ["--help"])
    assert top.exit_code == 0
    for path, cmd in _commands(main):
        if len(path) == 1:
            assert path[0] in top.output
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, path
        if not isinstance(cmd, click.Group):
            assert "Example" in result.output, f"{' '.join(path)} --help has no example"


def test_version():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and "sftdata" in result.output


STAGES = ["ingest", "annotate", "judge", "validate", "export", "report"]  # sftdata run's order


def _in_order(text: str, words: list[str]) -> bool:
    positions = [text.find(w) for w in words]
    return min(positions) >= 0 and positions == sorted(positions)


def test_the_stages_are_listed_in_order_judge_included():
    runner = CliRunner()
    stages = runner.invoke(main, ["--help"]).output.split("Stages:", 1)[1].split("\n\n", 1)[0]
    assert _in_order(stages, STAGES), stages
    first_paragraph = runner.invoke(main, ["run", "--help"]).output.split("\n\n", 2)[1]
    assert _in_order(first_paragraph, STAGES), first_paragraph


def test_sample_help_names_every_kind_it_writes():
    text = CliRunner().invoke(main, ["sample", "--help"]).output.split("Examples:", 1)[0]  # not only an example
    for flag in ("--mind2web", "--annotated-web", "--annotated"):
        assert re.search(rf"(?<![\w-]){flag}(?![\w-])", text), (flag, text)
