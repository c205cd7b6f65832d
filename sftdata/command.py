"""What a stage declares to be a command of its own: every stage command (each ``sftdata ingest TYPE``, annotate,
judge, validate, export, report, ``review import``) is made from its stage class by one builder,
:func:`sftdata.cli_base.stage_command`, so adding a stage means writing its class only.

A :class:`Command` (a base of :class:`sftdata.stage.Stage`) declares

- the command's name (:attr:`Command.command`; by default the stage's ``name``) and its help (the class docstring);
- its arguments (:attr:`Command.arguments`: ``(parameter, kind)``, or ``(parameter, kind, METAVAR)``, each kind one
  of :data:`sftdata.cli_base.ARGUMENTS`); an argument that is a field of the options record is taken into it;
- its options: the options record's (``options``), between the flags of other records (:attr:`flags_before`,
  :attr:`flags_after`: :class:`sftdata.options.Flags`, e.g. the top level's ``--executor`` and ``--address``);
- its work, :meth:`Command.invoke`: the options record and every other parameter in, what it says through ``echo``
  out; a :class:`~sftdata.errors.FatalError` is one line and its exit status, a :class:`~sftdata.errors.UsageError`
  the usage and exit status 2.

No click here: the declarations are data, and the stage modules stay importable without the command line.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar

Echo = Callable[..., None]  # click.echo: (text, err=False)


class Command:
    """A stage's command (see the module docstring)."""

    command: ClassVar[str | None] = None  # the command's name (None: the stage's name)
    arguments: ClassVar[tuple[tuple[str, ...], ...]] = (("run_dir", "run"),)
    flags_before: ClassVar[tuple[Any, ...]] = ()  # options.Flags before the options record's
    flags_after: ClassVar[tuple[Any, ...]] = ()  # options.Flags after them

    @classmethod
    def command_name(cls) -> str:
        return cls.command or cls.name  # type: ignore[attr-defined]

    @classmethod
    def invoke(cls, echo: Echo, opts: Any, **params: Any) -> None:
        """The command's work with its options record ``opts`` and its other parameters (arguments, flags)."""
        raise NotImplementedError(f"{cls.__name__} is not a command")
