"""The checks every reconstruction item goes through, whoever wrote it: the item contract (:mod:`.calls`,
:mod:`.schema`), the ground-truth comparison (:mod:`.check`), the agreement of the reasoning with its call
(:mod:`.decision`, :mod:`.agreement`, :mod:`.agreement_target`), hindsight (:mod:`.hindsight`,
:mod:`.future_text`), the memory against the history (:mod:`.memory_check`) and what a screen shows
(:mod:`.screen_text`). The annotate stage, ``validate``, the judge, review and the formats import them from here.
"""
