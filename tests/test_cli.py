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
