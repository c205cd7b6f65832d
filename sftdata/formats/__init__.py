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


def names() -> list[str]:
    """Every registered format's name, sorted (for help texts and error messages)."""
    return sorted(load_all())


def som_formats() -> list[str]:
    """The formats whose prompt promises numbered element boxes on the screenshot (``--som``)."""
    return sorted(name for name, fmt in load_all().items() if getattr(fmt, "som", False))


__all__ = ["FORMATS", "AgentFormat", "CannotExpress", "StepContext", "get_format", "load_all", "names", "som_formats", "register",
           "resolve_family"]
