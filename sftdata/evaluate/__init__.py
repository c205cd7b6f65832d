"""``sftdata eval``: a model's answers scored against the ground truth of an RL export, in its format.

* :mod:`.predictions` - ``swift infer`` result rows and plain ``{"id", "response"}`` lines, matched to rows;
* :mod:`.matchers` - step success under ``aitw``, ``box``, ``box-1.2`` and ``point-4%``;
* :mod:`.metrics` - the figures per source, platform and action type, the confusion of action types;
* :mod:`.table` - the same as text for people.
"""
from __future__ import annotations

from .metrics import evaluate
from .table import format_eval

__all__ = ["evaluate", "format_eval"]
