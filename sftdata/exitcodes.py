"""Exit statuses of every ``sftdata`` command, in one place.

====  ====================  ==================================================================================
code  name                  meaning
====  ====================  ==================================================================================
0     OK                    something was produced and nothing was lost (rejects are ledgered, not lost)
1     FATAL                 the command could not go on (bad input, unwritable or busy directory, ...);
                            also ``validate``/``preflight`` finding failing rows
2     USAGE                 wrong arguments or options (click's own usage errors)
3     NOTHING_PRODUCED      every input was rejected or dropped: no episode, annotation or sample came out
4     RETRY                 the LLM endpoint was unavailable; nothing was rejected for it, run again to resume
130   INTERRUPTED           Ctrl-C: what was finished is kept, the same command resumes
====  ====================  ==================================================================================
"""
from __future__ import annotations

from enum import IntEnum

from .errors import FatalError


class ExitCode(IntEnum):
    OK = 0
    FATAL = 1
    USAGE = 2
    NOTHING_PRODUCED = 3
    RETRY = 4
    INTERRUPTED = 130


class NothingProduced(FatalError):
    """Every input was rejected or dropped: the command produced nothing usable."""

    exit_code = ExitCode.NOTHING_PRODUCED


class EndpointUnavailable(FatalError):
    """The LLM endpoint failed on every attempt; a rerun resumes."""

    exit_code = ExitCode.RETRY


def exit_code_of(exc: FatalError) -> int:
    """The exit status for a fatal error: its class's own (NothingProduced, EndpointUnavailable), else FATAL."""
    return int(getattr(exc, "exit_code", ExitCode.FATAL))
