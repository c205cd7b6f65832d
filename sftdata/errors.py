"""The three ways a record can fail (after dolma's error kinds).

- :class:`RecordError` drops one record: it goes to the rejects ledger with a machine-readable ``reason``
  and a human ``detail``, and the run continues (unless ``--strict``).
- :class:`FatalError` stops the run with a clear message and a non-zero exit (bad arguments, a run
  directory that cannot be written, a missing dependency).
- :class:`RetryableError` is a transient failure (I/O, an LLM endpoint's 429/5xx) worth trying again.
"""
from __future__ import annotations


class SftdataError(Exception):
    """Base of every error this package raises on purpose."""


class RecordError(SftdataError):
    """One record cannot be used. ``reason`` is a stable snake_case code; ``detail`` explains it."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class FatalError(SftdataError):
    """The run cannot go on."""


class UsageError(SftdataError):
    """A command line that does not make sense (options that exclude each other): said with the command's usage,
    exit status 2, as a bad flag is."""


class RetryableError(SftdataError):
    """A transient failure; the caller may retry."""
