"""The optional parts some tests need, one pytest marker each (registered in pyproject.toml).

A test that needs an extra carries its marker (``pytestmark = pytest.mark.swift`` in a module, or on the test).
Plain ``make test`` runs everything: a marked test whose extra is missing skips with one line that says how to get
it. ``make test-extras`` installs the extras and runs only the marked tests with ``SFTDATA_REQUIRE_<MARKER>=1``,
where a missing extra fails instead of skipping: a green CI has run them all.

>>> EXTRAS["label_studio"].require_env
'SFTDATA_REQUIRE_LABEL_STUDIO'
>>> EXTRAS["swift"].skip_reason
'ms-swift not installed (make test-extras, or make swift)'
"""
from __future__ import annotations

import importlib.util
import shutil
from dataclasses import dataclass
from functools import cache
from typing import Callable

from support import ROOT


@dataclass(frozen=True)
class Extra:
    marker: str
    what: str                      # what is missing, as the skip line names it
    how: str                       # the command that installs it
    present: Callable[[], bool]

    @property
    def require_env(self) -> str:
        return f"SFTDATA_REQUIRE_{self.marker.upper()}"

    @property
    def skip_reason(self) -> str:
        return f"{self.what} not installed ({self.how})"


def _modules(*names: str) -> Callable[[], bool]:
    return lambda: all(importlib.util.find_spec(n) is not None for n in names)


EXTRAS = {e.marker: e for e in (
    # Swift's Qwen-VL templates import qwen-vl-utils; transformers comes with ms-swift
    Extra("swift", "ms-swift", "make test-extras, or make swift", _modules("swift", "qwen_vl_utils", "transformers")),
    Extra("label_studio", "Label Studio", "make test-extras, or make labelstudio",
          lambda: (ROOT / ".venv-ls" / ".installed").exists()),
    Extra("clients", "the formats' real clients", "make test-extras, or make clients",
          lambda: (ROOT / ".venv-clients" / ".installed").exists()),
    Extra("ocr", "the ocr extra (rapidocr-onnxruntime)", "make test-extras, or make ocr",
          _modules("rapidocr_onnxruntime")),
    Extra("ray", "the ray extra (Ray)", "make test-extras, or make ray", _modules("ray")),
    Extra("chromium", "Chromium", "apt-get install chromium, then make test-extras",
          lambda: shutil.which("chromium") is not None),
)}


@cache
def present(marker: str) -> bool:
    return EXTRAS[marker].present()
