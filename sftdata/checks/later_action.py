"""The action a text goes on to state after a report: whether a report of what happened was this step's outcome.

A report told before the decision (``右滑之后回到了 5/30。按返回键…``) was the last step's; one followed by no action of
this step, or by the same kind of action it names (``After clicking the page scrolls to the top. Action: click …``),
is this step's. :func:`acts_later` and :func:`same_action_later` tell them apart for :mod:`.hindsight`.

>>> acts_later("按返回键回到网格。"), acts_later("如果没有就往下滑。")
(True, False)
>>> same_action_later("After clicking the page scrolls up", "Click Add to cart."), \\
...     same_action_later("After scrolling, the list shows six", "I'll tap the Apple one.")
(True, False)
"""
from __future__ import annotations

import re

from .decision import Decision, acting_kind, stated_decision

# what makes a stated action no action of this step: a condition, a plan for later, a report (照片被保存到相册)
_IF = re.compile(r"如果|假如|要是|万一|若|会|将要|打算|准备|接下来|然后|下一步|\b(?:if|unless|in case|will|then|next)\b", re.I)
_REPORTED = re.compile(r"被|已|了")
# a gerund naming an action (``after clicking``, ``after scrolling``), its kind read by acting_kind
_GERUND = re.compile(r"\b(click|tapp|press|hitt|sav|add|swip|scroll|typ|select|choos)ing\b", re.I)


def later_decision(rest: str) -> Decision | None:
    """The action of this step that ``rest`` states (a clause that acts), None when it states none or only a plan,
    a condition or a report."""
    decision = stated_decision(rest)
    return None if decision is None or _IF.search(decision.phrase) or _REPORTED.search(decision.phrase) else decision


def acts_later(rest: str) -> bool:
    """Does ``rest`` state an action of this step (a clause that acts, not a plan for later)?"""
    return later_decision(rest) is not None


def same_action_later(told: str, rest: str) -> bool:
    """Is ``told`` (``After clicking the page scrolls …``, in the present) about the action ``rest`` goes on to state,
    or is no action stated after it? Then it is this step's outcome; after another action it was the last step's
    (``After scrolling, the list shows …  I'll tap the Apple one``)."""
    decision = later_decision(rest)
    if decision is None:
        return True
    gerund = _GERUND.search(told)
    return gerund is not None and acting_kind(gerund.group(1)) == decision.verb


__all__ = ["acts_later", "later_decision", "same_action_later"]
