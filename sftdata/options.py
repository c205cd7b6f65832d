"""One declaration per stage option: a dataclass field made with :func:`option` carries its help, range and
choices, and the CLI options (:func:`click_options`), the run config's checks (:func:`take_table`) and the
example config (:func:`example_table`) are all made from it, so they cannot disagree.

>>> from dataclasses import dataclass
>>> @dataclass
... class Demo:
...     history: int = option(4, "Earlier steps as text.", low=0)
...     family: str | None = option(None, "Model family.", choices=("qwen2.5-vl", "glm-4.1v"),
...                                 example="glm-4.1v")
>>> take_table(Demo, {"history": 2}, "export 1")
{'history': 2}
>>> take_table(Demo, {"family": "llama"}, "export 1")
Traceback (most recent call last):
sftdata.errors.FatalError: config [export 1]: family = 'llama' should be one of qwen2.5-vl, glm-4.1v
>>> print(example_table(Demo, {"history": 2}))
history = 2                        # Earlier steps as text.
# family = "glm-4.1v"              # Model family: qwen2.5-vl, glm-4.1v.
"""
from __future__ import annotations

import types
import typing
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Sequence

from .errors import FatalError

META = "sftdata.option"
Choices = Sequence[str] | Callable[[], Sequence[str]] | None


@dataclass(frozen=True)
class PathType:
    """A path option's checks, turned into ``click.Path`` on the command line."""

    exists: bool = False
    file_okay: bool = True
    dir_okay: bool = True
    as_path: bool = False  # the command gets a Path, not the text (an option no config or manifest keeps)


@dataclass(frozen=True)
class SizeType:
    """A ``WIDTHxHEIGHT`` option (each side at least ``least``), checked on the command line and in a config."""

    least: int = 1


@dataclass(frozen=True)
class Spec:
    """What an option says about itself. ``cli``: the flag (True: ``--name-with-dashes``; False: not on the
    command line); ``config``: allowed in a run config table; ``cli_only_choices``: choices the command line has
    and a config does not (the batch backend is two commands, not a run); ``to_value``: turns the CLI string
    into the field's value."""

    help: str | Callable[[], str] = ""
    low: float | None = None
    high: float | None = None
    choices: Choices = None
    cli_only_choices: tuple[str, ...] = ()
    cli: bool | str = True
    config: bool = True
    envvar: str | None = None
    metavar: str | None = None
    click_type: Any = None
    negatable: bool = False
    cli_required: bool = False
    example: Any = None  # a value to show (commented out) in the example config when the default is None
    config_help: str | None = None  # the example config's comment, when the CLI help does not fit a config
    to_value: Callable[[Any], Any] | None = None
    fingerprint: bool = True  # False: how the stage runs, not what it makes (kept out of its fingerprint)


def option(default: Any = MISSING, help: str = "", **spec: Any) -> Any:
    """A dataclass field with its :class:`Spec` (``default_factory=`` for mutable defaults)."""
    factory = spec.pop("default_factory", MISSING)
    return field(default=default, default_factory=factory, metadata={META: Spec(help=help, **spec)})


def default_workers() -> int:
    """The cores this process may use, at most 8: ingest's screenshot decoding scales with them. The environment
    variable ``SFTDATA_WORKERS`` sets it instead: a container whose CPU quota is smaller than the cores it sees, a
    machine shared with other jobs, a test runner that already keeps every core busy."""
    import os

    given = os.environ.get("SFTDATA_WORKERS", "").strip()
    if given and workers_environment_problem() is None:
        return int(given)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(8, cores))


def workers_environment_problem() -> str | None:
    """What is wrong with ``SFTDATA_WORKERS``, or None (unset, empty, or a whole number >= 1). The commands refuse
    a bad value in one line before they run (an import-time default cannot raise); the library falls back to the
    cores."""
    import os

    given = os.environ.get("SFTDATA_WORKERS", "").strip()
    if not given or (given.isdigit() and int(given) >= 1):
        return None
    return f"SFTDATA_WORKERS={given!r} should be a whole number >= 1 (the default of --workers)"


def workers_option(**spec: Any) -> Any:
    """The one declaration of ``workers`` (the run's top level, ``sftdata run`` and every stage command)."""
    return option(default_workers(), "Processes for the CPU-bound parts (decoding and comparing screenshots, the "
                  "image store, mark removal, building samples); by default this machine's cores, at most 8.", low=1,
                  config_help="Processes for the CPU-bound parts (default: the machine's cores, at most 8).",
                  fingerprint=False, **spec)


def progress_option() -> Any:
    """The one declaration of ``--progress/--no-progress`` (every stage command and ``sftdata run``)."""
    return option(None, "Progress bar (default: when stderr is a terminal).", config=False, fingerprint=False)


@dataclass
class ProgressFlag:
    """The progress flag of a command whose options record has none (``sftdata run``, the ingest commands)."""

    progress: bool | None = progress_option()


def spec_of(f) -> Spec | None:
    return f.metadata.get(META)


def help_of(spec: Spec) -> str:
    return spec.help() if callable(spec.help) else spec.help


def choices_of(spec: Spec, *, cli: bool) -> list[str] | None:
    if spec.choices is None:
        return None
    values = list(spec.choices() if callable(spec.choices) else spec.choices)
    return values + list(spec.cli_only_choices) if cli else values


def id_list(value: str | None) -> list[str] | None:
    """Episode ids from ``a,b,c`` or from a file of ids (comma or white-space separated); None when empty."""
    if not value:
        return None
    path = Path(value)
    if path.is_file():
        return [t for t in path.read_text(encoding="utf-8").replace(",", " ").split() if t]
    return [t.strip() for t in value.split(",") if t.strip()]


def _base_type(hint: Any) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1 else hint


def click_options(cls, skip: Sequence[str] = (), only: Sequence[str] | None = None, overrides: str | None = None):
    """A decorator adding one click option per CLI field of ``cls`` (declaration order), each passed to the
    command under the field's name; :func:`from_cli` makes the record back. ``overrides``: the flags override the
    config table of that name (``sftdata run``): no default, and only the config's choices."""
    import click

    hints = typing.get_type_hints(cls)
    made = []
    for f in fields(cls):
        spec = spec_of(f)
        if spec is None or (spec.cli is False and not overrides) or f.name in skip or (only and f.name not in only):
            continue
        flag = spec.cli if isinstance(spec.cli, str) else "--" + f.name.replace("_", "-")
        kind = _base_type(hints[f.name])
        default = None if f.default is MISSING or overrides else f.default
        text = help_of(spec) + (f" [default: {overrides}'s]" if overrides else "")
        kwargs: dict[str, Any] = {"help": text, "default": default}
        if kind is bool:
            decl = f"{flag}/--no-{flag[2:]}" if spec.negatable or default is None else flag
            if decl == flag:
                kwargs["is_flag"] = True
        else:
            decl = flag
            values = choices_of(spec, cli=not overrides)
            if isinstance(spec.click_type, PathType):
                t = spec.click_type
                kwargs["type"] = click.Path(exists=t.exists, file_okay=t.file_okay, dir_okay=t.dir_okay,
                                            path_type=Path if t.as_path else None)
            elif isinstance(spec.click_type, SizeType):
                kwargs["type"] = size_param(spec.click_type.least)
                kwargs.setdefault("metavar", "WxH")
            elif spec.click_type is not None:
                kwargs["type"] = spec.click_type
            elif values is not None:
                kwargs["type"] = choice_param(values, f.name)
            elif kind is int:
                kwargs["type"] = click.IntRange(spec.low, spec.high) if (spec.low, spec.high) != (None, None) else int
            elif kind is float:
                kwargs["type"] = (click.FloatRange(spec.low, spec.high) if (spec.low, spec.high) != (None, None)
                                  else float)
            kwargs["show_default"] = default is not None
        if spec.cli_required:  # no default at all: click 8.3+ takes an explicit default=None as a given value
            kwargs.update(required=True, show_default=False)
            del kwargs["default"]
        if spec.envvar:
            kwargs["envvar"] = spec.envvar
        if spec.metavar:
            kwargs["metavar"] = spec.metavar
        made.append(click.option(decl, f.name, **kwargs))

    def decorate(fn):
        for opt in reversed(made):
            fn = opt(fn)
        return fn
    return decorate


@dataclass(frozen=True)
class Flags:
    """Options of another record on a command (``--executor`` and ``--address`` of the top level): the arguments of
    :func:`click_options`."""

    record: type
    skip: tuple[str, ...] = ()
    only: tuple[str, ...] | None = None

    def decorator(self):
        return click_options(self.record, skip=self.skip, only=self.only)


def choice_param(values: Sequence[str], what: str):
    """A click choice written in any case, a typo told the close names (:func:`sftdata.values.known_name`)."""
    import click

    from .values import known_name

    class AnyCaseChoice(click.Choice):
        def convert(self, value, param, ctx):
            try:
                return known_name(value, list(self.choices), what)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
    return AnyCaseChoice(values)


def size_param(least: int = 1):
    """A click parameter type for ``WIDTHxHEIGHT`` (the text is kept; :func:`sftdata.values.size_of` reads it)."""
    import click

    from .values import size_of

    class Size(click.ParamType):
        name = "size"

        def convert(self, value, param, ctx):
            try:
                size_of(value, least)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
            return str(value).strip()
    return Size()


def from_cli(cls, values: dict[str, Any], **extra: Any):
    """The ``cls`` record of a command's keyword arguments (each CLI field's ``to_value`` applied), plus ``extra``."""
    kwargs = {}
    for f in fields(cls):
        if f.name in values:
            spec = spec_of(f)
            value = values[f.name]
            kwargs[f.name] = spec.to_value(value) if spec and spec.to_value else value
    return cls(**kwargs, **extra)


# --- run config ------------------------------------------------------------------------------------------------
def _matches(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint in (str, Path):
        return isinstance(value, str)
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    return True


def _type_name(hint: Any) -> str:
    return str(hint).replace("typing.", "").replace("pathlib.", "").replace("<class '", "").replace("'>", "")


def check_value(key: str, value: Any, hint: Any, where: str, spec: Spec | None = None) -> None:
    """Refuse a config value of the wrong type, out of its range or not one of its choices."""
    if not _matches(value, hint):
        raise FatalError(f"config [{where}]: {key} = {value!r} should be {_type_name(hint)}")
    if spec is None or value is None:
        return
    low, high = spec.low, spec.high
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
            (low is not None and value < low) or (high is not None and value > high)):
        raise FatalError(f"config [{where}]: {key} = {value!r} is out of range "
                         f"({low if low is not None else '-inf'}..{high if high is not None else 'inf'})")
    if isinstance(spec.click_type, SizeType):
        from .values import size_of
        try:
            size_of(value, spec.click_type.least)
        except ValueError:
            raise FatalError(f"config [{where}]: {key} = {value!r} should be WIDTHxHEIGHT, each side at least "
                             f"{spec.click_type.least}") from None
    allowed = choices_of(spec, cli=False)
    if allowed is not None and value not in allowed:
        raise FatalError(f"config [{where}]: {key} = {value!r} should be one of {', '.join(allowed)}")


def config_fields(cls, skip: Sequence[str] = ()) -> list:
    return [f for f in fields(cls) if f.name not in skip and (spec_of(f) is None or spec_of(f).config)]


def take_table(cls, table: Any, where: str, skip: Sequence[str] = ()) -> dict[str, Any]:
    """The keys of a config table for ``cls``, each checked by its declaration; unknown keys are refused."""
    if not isinstance(table, dict):
        raise FatalError(f"config [{where}]: expected a table of keys, got {type(table).__name__}")
    allowed = {f.name: f for f in config_fields(cls, skip)}
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise FatalError(f"config [{where}]: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    hints = typing.get_type_hints(cls)
    out = dict(table)
    for key, value in table.items():
        spec = spec_of(allowed[key])
        names = choices_of(spec, cli=False) if spec is not None else None
        if names is not None and isinstance(value, str) and value not in names:  # any case; a typo told the close ones
            from .values import close_names, known_name
            try:
                out[key] = value = known_name(value, names, key)
            except ValueError:
                close = close_names(value, names)
                raise FatalError(f"config [{where}]: {key} = {value!r} should be one of {', '.join(names)}"
                                 + (f"; did you mean {' or '.join(close)}?" if close else "")) from None
        check_value(key, value, hints[key], where, spec)
    return out


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


def _short(text: str) -> str:
    """The first clause of a long help text (for a config comment)."""
    text = text.rstrip(".")
    if len(text) <= 64:
        return text
    cuts = [i for i in (text.find(sep, 20) for sep in (" (", "; ", ". ", " [")) if i > 0]
    return text[:min(cuts)] if cuts else text


def example_table(cls, shown: dict[str, Any], skip: Sequence[str] = ()) -> str:
    """The lines of an example config table for ``cls``: ``shown`` keys set, every other config key commented out
    with its default (or its first choice), each with its help."""
    lines = []
    for f in config_fields(cls, skip):
        spec = spec_of(f)
        if spec is None:
            continue
        if f.name in shown:
            value, prefix = shown[f.name], ""
        else:
            default = None if f.default is MISSING else f.default
            values = choices_of(spec, cli=False)
            value, prefix = (default if default is not None else spec.example), "# "
            if value is None:
                continue
        text = (spec.config_help or _short(help_of(spec))).rstrip(".")
        values = choices_of(spec, cli=False)
        if values and len(values) <= 6 and not all(v in text for v in values):
            text += ": " + ", ".join(values)
        lines.append(f"{prefix}{f.name} = {_toml(value)}".ljust(34) + f" # {text}.")
    return "\n".join(lines)
