"""Verifiable rewards for GUI-agent answers in every export format (RL rows of ``sftdata export --rl``).

* :mod:`.solution` - the ground truth of a step (the ``solution`` column) and the context answers parse in.
* :mod:`.rules` - the rules, each a named pure function: format, action type, target (box, guard, Gaussian),
  text (exact, F1), direction, app; and the combined score.
* :mod:`.score` - an answer parsed with its format's ``parse`` and scored; :func:`compute_score` for verl.
* :mod:`.ms_swift` - the rules as ms-swift ORMs (``sftdata_format``, ``sftdata_action``, ...).
* :mod:`.perturb` - the documented table of perturbed answers and their rewards (docs/rl.md).
"""
from __future__ import annotations

from .rules import RULES, Prediction, score
from .score import compute_score, parse_answer, score_answer
from .solution import Solution, read_solution, solution_of

__all__ = ["RULES", "Prediction", "Solution", "compute_score", "parse_answer", "read_solution", "score",
           "score_answer", "solution_of"]
