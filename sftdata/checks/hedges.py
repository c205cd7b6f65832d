"""Words that make a statement an expectation, a plan or a condition rather than a report of what happened.

``Tapping Save should close the form`` expects, ``再点保存`` plans, ``如果弹窗出现`` supposes, ``this usually brings up a
menu`` states a habit of apps: none of them tells what the next screen shows, so none is hindsight, and a change
said after the decision under one of them is excused. The hindsight reader, the outcome reader, the reader of what
follows the decision and the acted-state reader each build their pattern from the groups below, and these words
live here and nowhere else:

- :data:`HABITUAL`: how such a screen usually behaves (``usually``, ``通常``, ``往往``);
- :data:`HEDGE`: an expectation that carries to the end of its sentence (``should``, ``will``, ``应该``, ``可能``);
- :data:`WILL_ZH`: ``将`` as a future (not ``将其``, ``将它``: the object marker);
- :data:`PURPOSE_ZH`, :data:`CONDITION_ZH`, :data:`TRYING_ZH`, :data:`LATER_ZH`: a purpose, a condition, a try, a
  later step.

>>> bool(HEDGE.search("Tapping Save should close the form"))
True
>>> bool(HEDGE.search("会员中心"))
False
>>> bool(re.search(HABITUAL, "this usually brings up a menu"))
True
"""
from __future__ import annotations

import re

HABITUAL = r"通常|往往|一般(?:来说|而言|会|都)|\b(?:usually|typically|normally|generally|often|tends? to)\b"
EXPECT_ZH = r"应该|应当|会(?![话议员计场儿])|预计|预期|期望|希望|可能|也许|或许|大概|估计"
EXPECT_EN = r"should|will|would|may|might|could|expect|expected|likely|probably"
HEDGE = re.compile(EXPECT_ZH + r"|\b(?:" + EXPECT_EN + r")\b|'ll\b", re.I)
WILL_ZH = r"将(?![其它他她之])"
PURPOSE_ZH = r"以便|以免|为了|便于"
CONDITION_ZH = r"如果|假如|要是|一旦"
TRYING_ZH = r"看看|看是否|试试"
LATER_ZH = r"然后|再|之后|接下来|稍后|下一步"
ENOUGH_ZH = r"就行|即可|就好"
"""Chinese "that is enough" (``输入 jazz 就行``): a judgement of the step, never part of what it types or reports."""

__all__ = ["CONDITION_ZH", "ENOUGH_ZH", "EXPECT_EN", "EXPECT_ZH", "HABITUAL", "HEDGE", "LATER_ZH", "PURPOSE_ZH", "TRYING_ZH",
           "WILL_ZH"]
