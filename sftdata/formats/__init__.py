"""Agent formats: one file each, registered by name in ``FORMATS`` (see :mod:`sftdata.formats.base`)."""
from __future__ import annotations

import importlib

from .base import FORMATS, AgentFormat, CannotExpress, StepContext, get_format, register, resolve_family

_MODULES = ("react_zh", "mobile_agent", "gui_agent_zh", "androidlab", "qwen25_vl", "qwen3_vl", "ui_tars", "browser_use",
            "browser_use_versions", "app_use")


def load_all() -> dict[str, AgentFormat]:
    """Import every format module (each registers itself) and return the registry."""
    for name in _MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return FORMATS


__all__ = ["FORMATS", "AgentFormat", "CannotExpress", "StepContext", "get_format", "load_all", "register",
           "resolve_family"]
