"""The rules as ms-swift outcome reward models: :func:`register_orms` adds one ``swift.rewards.orm.ORM``
subclass per name of :data:`ORMS` to ms-swift's ``orms`` registry (what ``--reward_funcs`` chooses from). The
export's ``sftdata_rewards.py``, given to ``swift rlhf --external_plugins``, calls it.

Each reads the row's ``solution`` column (ms-swift passes a dataset's extra columns to reward functions as
keyword arguments, one value per completion) and returns one float per completion. ms-swift is imported only
inside :func:`register_orms`.
"""
from __future__ import annotations

from typing import Any

from .score import score_answer

# the name --reward_funcs takes -> the value of score_answer it returns
ORMS = {"sftdata_format": "format", "sftdata_action": "action_type", "sftdata_target": "target",
        "sftdata_target_gaussian": "target_gaussian", "sftdata_text_exact": "text_exact",
        "sftdata_text_f1": "text_f1", "sftdata_direction": "direction", "sftdata_app": "app",
        "sftdata_score": "score", "sftdata_score_gaussian": "score_gaussian"}


def rewards(completions: list[str], solution: list[Any] | None, part: str) -> list[float]:
    """``part`` of every completion against its row's solution (a ValueError names a missing column)."""
    if solution is None:
        raise ValueError("sftdata's rewards need the dataset's 'solution' column: train on the rows of "
                         "`sftdata export RUN --format F --rl`")
    return [score_answer(text, sol)[part] for text, sol in zip(completions, solution, strict=True)]


def register_orms() -> list[str]:
    """Register every reward of :data:`ORMS` in ms-swift's ``orms``; returns their names."""
    from swift.rewards import ORM, orms

    for name, part in ORMS.items():
        def __call__(self, completions, solution=None, _part=part, **kwargs) -> list[float]:
            return rewards(completions, solution, _part)
        # the class is named as registered: ms-swift logs each reward as rewards/<class name>/mean
        orms[name] = type(name, (ORM,), {"__call__": __call__, "__doc__": f"sftdata's {part} reward"})
    return list(ORMS)
